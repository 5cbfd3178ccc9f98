# shellcheck shell=sh
# Scenario 3, offline half — 4 nodes with asymmetric distances and a memory-only node (3):
# `numabalancerd snapshot` of the guest itself (a `file` provider supplies the latencies) fed to
# `numabalancerd plan`. Node 0 is hot; nodes 1 and 2 are equally far from it (20), so latency puts
# 2 (50 ns) before 1 (60 ns); node 3 is farther (25). The "share" pool leaves node 3 out, the
# "wide" pool includes it. Then `numabalancerd migrate` carries out each planned container: the
# memory-only node receives only the wide pool's memory.

slack=$((8 * MIB))
nb_write_four_node_config() {
  cat >/tmp/four.toml <<TOML
[policy]
# The seed's strategy: this scenario holds its decisions (equalize has its own scenario).
strategy = "katalyst"
# The file provider's numbers are of kind "external", for which auto means relative thresholds;
# this scenario's latencies are written for the nanosecond ones.
threshold_mode = "absolute"
container_min_bytes = "16MiB"
reclaim_container_min_bytes = "16MiB"
round_max_bytes = "1GiB"
supported_pools = ["share", "wide"]
min_interval = "1s"

[[pool]]
name = "share"
cgroups = ["nbtest/four/share-*"]
nodes = [0, 1, 2]

[[pool]]
name = "wide"
cgroups = ["nbtest/four/wide-*"]
nodes = [0, 1, 2, 3]

[metrics]
latency = "file"
bandwidth = "file"

[metrics.file]
path = "/tmp/four-metrics.json"
format = "json"
max_age = "10m"

[actuator]
min_free_bytes = "16MiB"
rate_limit = 0
TOML
  cat >/tmp/four-metrics.json <<JSON
{"time": "$(date -u +%Y-%m-%dT%H:%M:%SZ)", "nodes": [
  {"id": 0, "read_latency_ns": 200, "bandwidth_gbps": 20},
  {"id": 1, "read_latency_ns": 60, "bandwidth_gbps": 5},
  {"id": 2, "read_latency_ns": 50, "bandwidth_gbps": 5},
  {"id": 3, "read_latency_ns": 40, "bandwidth_gbps": 4}]}
JSON
}
nb_write_four_node_config

share=$(cg_create four/share-a)
wide=$(cg_create four/wide-b)
wl_start share "$share" 0 --mib 64 || exit 1
share_pid=$WL_PID
wl_start wide "$wide" 0 --mib 48 || exit 1
wide_pid=$WL_PID

run_timed /tmp/four-snapshot.json 60 numabalancerd snapshot --config /tmp/four.toml
check_eq snapshot.exit "$RUN_STATUS" 0 "numabalancerd snapshot $(show_err /tmp/four-snapshot.json)"
check_eq snapshot.nodes "$(nb_vm_json --length /nodes </tmp/four-snapshot.json)" 4 "nodes in the snapshot"
check_eq snapshot.distance "$(json /tmp/four-snapshot.json /nodes/0/distance)" '{"0":10,"1":20,"2":20,"3":25}' "node 0's distance row"
check_eq snapshot.asymmetric "$(json /tmp/four-snapshot.json /nodes/3/distance/0)" 22 "distance 3->0"
cpus=$(json /tmp/four-snapshot.json /nodes/3/cpus)
[ "$cpus" = null ] && cpus=""
check_eq snapshot.memory_only "${cpus:-none}" none "node 3 has no CPUs (cpus empty or absent)"
check_eq snapshot.latency "$(json /tmp/four-snapshot.json /nodes/0/read_latency_ns)" 200.0 "node 0 latency from the file provider"

run_timed /tmp/four-plan.json 60 numabalancerd plan --snapshot /tmp/four-snapshot.json --config /tmp/four.toml
check_eq plan.exit "$RUN_STATUS" 0 "numabalancerd plan $(show_err /tmp/four-plan.json)"
check_eq plan.status "$(json /tmp/four-plan.json /status)" ready
check_eq plan.source "$(json /tmp/four-plan.json /source_node)" 0
check_eq plan.destinations "$(json /tmp/four-plan.json /dest_nodes)" "[2,1,3]" "distance, then latency"
check_eq plan.containers "$(nb_vm_json --length /migrate </tmp/four-plan.json)" 2 "containers to migrate"

# Each planned container in order, to its own destinations, as the daemon would.
i=0
while [ "$i" -lt "$(nb_vm_json --length /migrate </tmp/four-plan.json)" ]; do
  id=$(json /tmp/four-plan.json /migrate/$i/id)
  dests=$(json /tmp/four-plan.json /migrate/$i/dest_nodes | tr -d '[]')
  case $id in
    */share-a) check_eq plan.share_destinations "$dests" "2,1" "share pool: node 3 left out" ;;
    */wide-b) check_eq plan.wide_destinations "$dests" "2,1,3" "wide pool: node 3 included" ;;
    *) fail plan.unexpected_container "$id" ;;
  esac
  run_timed /tmp/four-migrate$i.json 120 numabalancerd migrate --config /tmp/four.toml --cgroup "$NB_CGROUP_ROOT/$id" --from 0 --to "$dests" --json
  check_eq "migrate$i.exit" "$RUN_STATUS" 0 "migrate $id to $dests $(show_err /tmp/four-migrate$i.json)"
  i=$((i + 1))
done

check_le placed.share_not_on_3 "$(numa_stat_anon "$share" 3)" 0 "share pool's anon on memory-only node 3"
check_le placed.share_maps_not_on_3 "$(numa_maps_anon_bytes "$share_pid" 3)" 0 "share pool's anonymous numa_maps bytes on node 3"
check_le placed.share_left "$(numa_stat_anon "$share" 0)" "$slack" "share pool's anon left on node 0"
check_ge placed.share_first_destination "$(numa_stat_anon "$share" 2)" "$MIB" "share pool's anon on node 2 (first destination)"
check_le placed.wide_left "$(numa_stat_anon "$wide" 0)" "$slack" "wide pool's anon left on node 0"
check_le placed.wide_maps_left "$(numa_maps_bytes "$wide_pid" 0)" "$slack" "wide pool's numa_maps bytes left on node 0"
check_near placed.wide_total $(($(numa_stat_anon "$wide" 1) + $(numa_stat_anon "$wide" 2) + $(numa_stat_anon "$wide" 3))) $((48 * MIB)) "$slack" "wide pool's anon on nodes 1-3"
wl_verify share placed.share_data
wl_verify wide placed.wide_data
