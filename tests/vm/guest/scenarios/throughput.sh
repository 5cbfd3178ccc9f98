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

# The actuator's bench programs, all five runs (guest/lib.sh).
run_actuator_benches bench_actuator_dense "bench_actuator_dense --call-target-ms 80" \
  "bench_actuator_dense --thp 1" bench_actuator_sparse "bench_actuator_sparse --layout front"
