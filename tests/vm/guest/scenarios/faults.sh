# shellcheck shell=sh
# Scenario 4 — faults during `numabalancerd migrate`: the workload exits in the middle of the job;
# a cgroup is removed in the middle of the walk (destination_full.sh holds the third fault). Each
# ends with a report and an exit status of 0 or 1 (never a crash, a hang or "bad input"), and
# numabalancerd keeps working afterwards.

slack=$((8 * MIB))

# 1. The workload is killed while its memory is being moved (rate-limited, so the job is slow).
cgroup=$(cg_create faults/exiting)
wl_start exiting "$cgroup" 0 --mib 256 || exit 1
pid=$WL_PID
timeout 120 numabalancerd migrate --config "$NB_CONFIG" --cgroup "$cgroup" --from 0 --to 1 --rate 32 --json >/tmp/exiting.json 2>/tmp/exiting.err &
job=$!
echo "$job" >>"$NB_PIDS"
sleep 2
kill -9 "$pid"
wait "$job"
status=$?
attach exiting.json /tmp/exiting.json
attach exiting.json.err /tmp/exiting.err
clean_exit exiting.exit "$status"
check_eq exiting.vanished "$(json /tmp/exiting.json /vanished_pids/0)" "$pid" "the exited pid is reported as vanished"
moved=$(json /tmp/exiting.json /bytes_moved)
info "workload killed mid-job: moved ${moved:-?} bytes before it went"
check_le exiting.partial "${moved:-0}" $((256 * MIB)) "bytes moved before the exit"

# 2. A child cgroup disappears while the parent is walked; the sibling is still moved.
parent=$(cg_create faults/walk)
kept=$(cg_create faults/walk/kept)
doomed=$(cg_create faults/walk/doomed)
wl_start kept "$kept" 0 --mib 96 || exit 1
kept_pid=$WL_PID
wl_start doomed "$doomed" 0 --mib 96 || exit 1
doomed_pid=$WL_PID
timeout 120 numabalancerd migrate --config "$NB_CONFIG" --cgroup "$parent" --from 0 --to 1 --rate 48 --json >/tmp/walk.json 2>/tmp/walk.err &
job=$!
echo "$job" >>"$NB_PIDS"
sleep 1
kill -9 "$doomed_pid"
tries=0
while ! rmdir "$doomed" 2>/dev/null && [ "$tries" -lt 50 ]; do
  sleep 0.1
  tries=$((tries + 1))
done
if [ -d "$doomed" ]; then
  fail walk.removed "could not remove $doomed during the job"
else
  pass walk.removed "removed $doomed during the job"
fi
wait "$job"
status=$?
attach walk.json /tmp/walk.json
attach walk.json.err /tmp/walk.err
clean_exit walk.exit "$status"
check_near walk.sibling_moved "$(numa_stat_anon "$kept" 1)" $((96 * MIB)) "$slack" "the sibling's anon on node 1"
check_le walk.sibling_left "$(numa_maps_bytes "$kept_pid" 0)" "$slack" "the sibling's numa_maps bytes left on node 0"
wl_verify kept walk.data

# numabalancerd still works after all of the above.
survivor=$(cg_create faults/after)
wl_start after "$survivor" 0 --mib 32 || exit 1
run_timed /tmp/after.json 120 numabalancerd migrate --config "$NB_CONFIG" --cgroup "$survivor" --from 0 --to 1 --json
check_eq after.exit "$RUN_STATUS" 0 "a plain migration afterwards $(show_err /tmp/after.json)"
check_near after.moved "$(numa_stat_anon "$survivor" 1)" $((32 * MIB)) "$slack" "anon on node 1"
