# shellcheck shell=sh
# Scenario 1 — manual migration with `numabalancerd migrate` on a cgroup holding 256 MiB on node 0:
# a dry run moves nothing; a 100 MiB budget moves 100 MiB (+- one batch) to node 1 and leaves the
# rest; no budget moves everything; the data stays intact; the report, memory.numa_stat,
# numa_maps and the workload's own move_pages query agree.

size_mib=256
size=$((size_mib * MIB))
budget=$((100 * MIB))
batch=$((16 * MIB))     # the largest batch: 4096 pages of 4 KiB
huge_page=$((2 * MIB))  # the budget may be overshot by one huge page
slack=$((8 * MIB))      # stack, libraries and page tables are counted too
cgroup=$(cg_create manual/app)
wl_start manual "$cgroup" 0 --mib "$size_mib" || exit 1
pid=$WL_PID
check_near setup.numa_stat "$(numa_stat_anon "$cgroup" 0)" "$size" "$slack" "anon on node 0 before"

run_timed /tmp/dry.json 120 numabalancerd migrate --config "$NB_CONFIG" --cgroup "$cgroup" --from 0 --to 1 --dry-run --json
check_eq dry_run.exit "$RUN_STATUS" 0 "exit status $(show_err /tmp/dry.json)"
check_le dry_run.nothing_moved "$(numa_stat_anon "$cgroup" 1)" "$slack" "anon on node 1 after --dry-run"
check_eq dry_run.report_moved "$(json /tmp/dry.json /bytes_moved)" 0 "report bytes_moved"

run_timed /tmp/budget.json 180 numabalancerd migrate --config "$NB_CONFIG" --cgroup "$cgroup" --from 0 --to 1 --max-bytes 100MiB --json
check_eq budget.exit "$RUN_STATUS" 0 "exit status (threshold met) $(show_err /tmp/budget.json)"
moved=$(json /tmp/budget.json /bytes_moved)
moved=${moved:-0}
info "100 MiB budget: moved $moved bytes in $RUN_MS ms"
check_near budget.report_moved "$moved" "$budget" "$batch" "report bytes_moved"
check_le budget.no_overshoot "$moved" $((budget + huge_page)) "report bytes_moved"
check_eq budget.report_destination "$(json /tmp/budget.json /bytes_moved_to/1)" "$moved" "report bytes moved to node 1"
check_near budget.numa_stat_dest "$(numa_stat_anon "$cgroup" 1)" "$moved" "$slack" "memory.numa_stat anon on node 1"
check_near budget.numa_stat_left "$(numa_stat_anon "$cgroup" 0)" $((size - moved)) "$slack" "memory.numa_stat anon left on node 0"
check_near budget.numa_maps_dest "$(numa_maps_bytes "$pid" 1)" "$moved" "$slack" "numa_maps bytes on node 1"
check_near budget.workload_view "$(wl_bytes_on manual 1)" "$moved" "$slack" "workload's own view of node 1"
wl_verify manual budget.data

run_timed /tmp/all.json 180 numabalancerd migrate --config "$NB_CONFIG" --cgroup "$cgroup" --from 0 --to 1 --json
check_eq all.exit "$RUN_STATUS" 0 "exit status $(show_err /tmp/all.json)"
moved_rest=$(json /tmp/all.json /bytes_moved)
moved_rest=${moved_rest:-0}
info "no budget: moved $moved_rest bytes in $RUN_MS ms"
check_near all.report_moved "$moved_rest" $((size - moved)) "$slack" "report bytes_moved (the rest)"
check_le all.numa_stat_left "$(numa_stat_anon "$cgroup" 0)" "$slack" "memory.numa_stat anon left on node 0"
check_near all.numa_stat_dest "$(numa_stat_anon "$cgroup" 1)" "$size" "$slack" "memory.numa_stat anon on node 1"
check_le all.numa_maps_left "$(numa_maps_bytes "$pid" 0)" "$slack" "numa_maps bytes left on node 0"
check_eq all.workload_view "$(wl_bytes_on manual 1)" "$size" "workload's own view: all of it on node 1"
wl_verify manual all.data
