# shellcheck shell=sh
# Scenario 3, the daemon half — 4 nodes with asymmetric distances and a memory-only node (3). The
# daemon runs on the guest's own host readings (a `file` provider supplies the latencies). While
# it is paused, `numabalancerd snapshot` of the guest and `numabalancerd plan --snapshot` predict
# the round; the daemon's own decision must equal that prediction, and once resumed it must move
# each container to exactly the predicted nodes. Three pools: "share" leaves node 3 out, "wide"
# includes it, "near" has only node 3 besides the source — so node 3 receives memory of "wide"
# and "near" only, never of "share".

slack=$((8 * MIB))
daemon_setup
config=/tmp/dfour.toml
metrics=/tmp/dfour-metrics.json
{
  daemon_config_head
  cat <<TOML

[policy]
# The seed's strategy: this scenario holds its decisions (equalize has its own scenario).
strategy = "katalyst"
# The file provider's numbers are of kind "external", for which auto means relative thresholds;
# this scenario's latencies are written for the nanosecond ones.
threshold_mode = "absolute"
container_min_bytes = "16MiB"
round_max_bytes = "1GiB"
supported_pools = ["share", "wide", "near"]
reclaim_pool = ""
min_interval = "10m"

[[pool]]
name = "share"
cgroups = ["nbtest/dfour/share-*"]
nodes = [0, 1, 2]

[[pool]]
name = "wide"
cgroups = ["nbtest/dfour/wide-*"]
nodes = [0, 1, 2, 3]

[[pool]]
name = "near"
cgroups = ["nbtest/dfour/near-*"]
nodes = [0, 3]

TOML
  file_metrics_and_actuator_toml "$metrics"
} >"$config"

# Idle at first: every node equally fast, so the daemon starts without acting.
write_metrics "$metrics" 0:50:5 1:50:5 2:50:5 3:50:5
share=$(cg_create dfour/share-a)
wide=$(cg_create dfour/wide-b)
near=$(cg_create dfour/near-c)
wl_start share "$share" 0 --mib 64 || exit 1
wl_start wide "$wide" 0 --mib 48 || exit 1
wide_pid=$WL_PID
wl_start near "$near" 0 --mib 32 || exit 1

daemon_start "$config" || exit 1
check_eq idle.decision "$(status_field /last_round/status)" idle "first round with equal latencies"
ctl_json /tmp/dfour-pause.json pause
check_eq pause.exit "$?" 0 "numabalancerctl pause $(head -n 1 /tmp/dfour-pause.json.err)"

# Node 0 hot; 1 and 2 equally far (20), 2 faster; 3 farther (25) and memory-only.
write_metrics "$metrics" 0:200:20 1:60:5 2:50:5 3:40:4
paused_round() { history_find /tmp/dfour-history.json paused 0 >/dev/null; }
if ! wait_for 30 paused_round; then
  fail paused.decided "no paused round decided with node 0 hot: $(status_field /last_round)"
  nbd_attach_log
  exit 1
fi
pass paused.decided "the paused daemon decided and moved nothing"

# The prediction, from the guest's own snapshot (nothing moves while the daemon is paused).
run_timed /tmp/dfour-snapshot.json 60 numabalancerd snapshot --config "$config"
check_eq predict.snapshot_exit "$RUN_STATUS" 0 "numabalancerd snapshot $(show_err /tmp/dfour-snapshot.json)"
run_timed /tmp/dfour-plan.json 60 numabalancerd plan --snapshot /tmp/dfour-snapshot.json --config "$config"
check_eq predict.plan_exit "$RUN_STATUS" 0 "numabalancerd plan $(show_err /tmp/dfour-plan.json)"
check_eq predict.destinations "$(json /tmp/dfour-plan.json /dest_nodes)" "[2,1,3]" "distance, then latency"
planned=$(nb_vm_json --length /migrate </tmp/dfour-plan.json)
check_eq predict.containers "$planned" 3 "containers planned"

# The daemon's own decision, while paused, is the prediction.
ctl_json /tmp/dfour-daemon-plan.json plan
attach dfour-daemon-plan.json /tmp/dfour-daemon-plan.json
check_eq decision.source "$(json /tmp/dfour-daemon-plan.json /decision/source_node)" "$(json /tmp/dfour-plan.json /source_node)" "source node"
check_eq decision.destinations "$(json /tmp/dfour-daemon-plan.json /decision/dest_nodes)" "$(json /tmp/dfour-plan.json /dest_nodes)" "destinations"
i=0
while [ "$i" -lt "$planned" ]; do
  id=$(json /tmp/dfour-plan.json /migrate/$i/id)
  check_eq "decision.container$i" "$(json /tmp/dfour-daemon-plan.json /decision/migrate/$i/id)" "$id" "container $i"
  check_eq "decision.container$i.destinations" "$(json /tmp/dfour-daemon-plan.json /decision/migrate/$i/dest_nodes)" \
    "$(json /tmp/dfour-plan.json /migrate/$i/dest_nodes)" "$id's destinations"
  i=$((i + 1))
done

ctl_json /tmp/dfour-resume.json resume
check_eq resume.exit "$?" 0 "numabalancerctl resume $(head -n 1 /tmp/dfour-resume.json.err)"
if ! wait_acted_round /tmp/dfour-history.json 120 0; then
  fail acted.round "no round moved memory within 120 s after resume: $(status_field /last_round)"
  nbd_attach_log
  exit 1
fi
attach dfour-history.json /tmp/dfour-history.json
check_eq acted.outcome "$(json /tmp/dfour-history.json /rounds/$ROUND/outcome)" "done" "job outcome"
check_eq acted.destinations "$(json /tmp/dfour-history.json /rounds/$ROUND/dest_nodes)" "$(json /tmp/dfour-plan.json /dest_nodes)" "the round's destinations = the prediction"
predicted_ids=$(i=0; while [ "$i" -lt "$planned" ]; do json /tmp/dfour-plan.json /migrate/$i/id; i=$((i + 1)); done | tr '\n' ' ')
acted_ids=$(json /tmp/dfour-history.json /rounds/$ROUND/containers | tr -d '[]"' | tr ',' ' ')
check_eq acted.containers "$acted_ids " "$predicted_ids" "the round's containers = the prediction"
moved_to_3=$(json /tmp/dfour-history.json /rounds/$ROUND/report/bytes_moved_to/3)
check_ge acted.node3_used "${moved_to_3:-0}" $((16 * MIB)) "report: bytes moved to memory-only node 3 (pools wide and near)"

# Where the memory went, per pool: each container only on its predicted destinations.
check_le placed.share_not_on_3 "$(numa_stat_anon "$share" 3)" 0 "share's anon on memory-only node 3"
check_le placed.share_left "$(numa_stat_anon "$share" 0)" "$slack" "share's anon left on node 0"
check_near placed.share_on_1_2 $(($(numa_stat_anon "$share" 1) + $(numa_stat_anon "$share" 2))) $((64 * MIB)) "$slack" "share's anon on nodes 1 and 2"
check_near placed.near_on_3 "$(numa_stat_anon "$near" 3)" $((32 * MIB)) "$slack" "near's anon on node 3, its only destination"
# A few KiB of new stack or heap pages may land on the workload's CPU nodes after the move.
check_le placed.near_not_on_1_2 $(($(numa_stat_anon "$near" 1) + $(numa_stat_anon "$near" 2))) "$MIB" "near's anon on nodes 1 and 2"
check_le placed.wide_left "$(numa_maps_bytes "$wide_pid" 0)" "$slack" "wide's numa_maps bytes left on node 0"
check_near placed.wide_on_1_2_3 $(($(numa_stat_anon "$wide" 1) + $(numa_stat_anon "$wide" 2) + $(numa_stat_anon "$wide" 3))) $((48 * MIB)) "$slack" "wide's anon on nodes 1-3"
wl_verify share placed.share_data
wl_verify near placed.near_data
daemon_alive final.status
daemon_stop final.stop
