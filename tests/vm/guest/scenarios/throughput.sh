# shellcheck shell=sh
# Scenario 5 — throughput side by side in one guest (TCG makes absolute figures meaningless; the
# ratios are what count): numabalancerd's engine against numactl's migratepages (whole-process
# migrate_pages) on the same 256 MiB, each direction; then the actuator's bench programs.

size_mib=256
size=$((size_mib * MIB))
slack=$((8 * MIB))
cgroup=$(cg_create throughput/app)

# mib_per_s BYTES MS
mib_per_s() { awk -v b="$1" -v ms="$2" 'BEGIN { if (ms > 0) printf "%.1f", b / 1048576 / (ms / 1000); else print 0 }'; }

engine_total_ms=0
engine_job_total_ms=0
kernel_total_ms=0
round=0
for direction in "0 1" "1 0"; do
  set -- $direction
  from=$1
  to=$2
  round=$((round + 1))

  wl_start "engine$round" "$cgroup" "$from" --mib "$size_mib" || exit 1
  pid=$WL_PID
  run_timed /tmp/engine$round.json 180 numabalancerd migrate --config "$NB_CONFIG" --pid "$pid" --from "$from" --to "$to" --rate 0 --json
  check_eq "engine$round.exit" "$RUN_STATUS" 0 "numabalancerd migrate $from->$to $(show_err /tmp/engine$round.json)"
  check_le "engine$round.left" "$(numa_maps_bytes "$pid" "$from")" "$slack" "numa_maps bytes left on node $from"
  engine_ms=$RUN_MS
  # The job's own clock, without the process start-up that the wall time includes.
  engine_job_ms=$(json /tmp/engine$round.json /elapsed_ms | cut -d. -f1)
  wl_verify "engine$round" "engine$round.data"
  wl_stop "$pid"

  wl_start "kernel$round" "$cgroup" "$from" --mib "$size_mib" || exit 1
  pid=$WL_PID
  run_timed /tmp/kernel$round.out 180 migratepages "$pid" "$from" "$to"
  check_eq "migratepages$round.exit" "$RUN_STATUS" 0 "migratepages $from->$to"
  check_le "migratepages$round.left" "$(numa_maps_bytes "$pid" "$from")" "$slack" "numa_maps bytes left on node $from"
  kernel_ms=$RUN_MS
  wl_verify "kernel$round" "migratepages$round.data"
  wl_stop "$pid"

  info "$from->$to: numabalancerd ${engine_ms} ms (job ${engine_job_ms} ms), migratepages ${kernel_ms} ms for $size_mib MiB"
  engine_total_ms=$((engine_total_ms + engine_ms))
  engine_job_total_ms=$((engine_job_total_ms + ${engine_job_ms:-0}))
  kernel_total_ms=$((kernel_total_ms + kernel_ms))
done

result "vm_engine_mib_per_s=$(mib_per_s $((2 * size)) "$engine_total_ms")"
result "vm_migratepages_mib_per_s=$(mib_per_s $((2 * size)) "$kernel_total_ms")"
# Above 1: our engine is faster than the kernel's whole-process walk (the target is >= 0.9).
result "vm_engine_vs_migratepages=$(awk -v k="$kernel_total_ms" -v e="$engine_total_ms" 'BEGIN { if (e > 0) printf "%.2f", k / e; else print 0 }')"
result "vm_engine_job_vs_migratepages=$(awk -v k="$kernel_total_ms" -v e="$engine_job_total_ms" 'BEGIN { if (e > 0) printf "%.2f", k / e; else print 0 }')"

# A warm-up first: the first moves of 4 KiB pages after the guest boots include calls hundreds of
# times slower than any later one (64 pages in 250 ms, against 1 ms), in whatever program makes
# them, and a later program never shows them (bench/README.md). The warm-up takes them, and its
# own tail is reported too, so the figures below are of a warm guest without hiding a cold one.
if [ -x /nb/bin/bench_actuator_dense ]; then
  run_timed /tmp/warmup.out 300 /nb/bin/bench_actuator_dense --size-mib 64 --repeat 1
  check_eq "bench_warmup.exit" "$RUN_STATUS" 0 "warm-up bench ran ($((RUN_MS / 1000)) s)"
  grep '^RESULT bench=stall' /tmp/warmup.out | while read -r _ figure; do
    result "bench_actuator_dense_warmup.$figure"
  done
fi
# The actuator's bench programs, as built; they print their own RESULT lines.
ls /nb/bin/bench_actuator_* >/dev/null 2>&1 || info "no bench_actuator_* programs in this build"
# The sparse one runs twice: touched pages spread over the whole mapping (its default, the worst
# case for the walk) and packed at its front, as a heap that grows from its start. The dense one
# runs again with calls allowed four times longer, to show what the bounded stall costs, and with
# transparent huge pages.
for run in bench_actuator_dense "bench_actuator_dense --call-target-ms 80" \
  "bench_actuator_dense --thp 1" bench_actuator_sparse "bench_actuator_sparse --layout front"; do
  set -- $run
  bench=/nb/bin/$1
  [ -x "$bench" ] || continue
  shift
  name=$(basename "$bench")${1:+_${1#--}_$2}
  run_timed "/tmp/$name.out" 300 "$bench" "$@"
  check_eq "$name.exit" "$RUN_STATUS" 0 "$name ran ($((RUN_MS / 1000)) s)"
  grep '^RESULT ' "/tmp/$name.out" | while read -r _ figure; do result "$name.$figure"; done
done
