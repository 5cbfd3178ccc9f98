# shellcheck shell=sh
# Boot-only smoke: the guest has the declared nodes and distances, cgroup v2 offers the memory
# controller, and the kernel moves a workload's memory across nodes with both raw syscalls —
# migrate_pages (numactl's migratepages) and move_pages (the workload moving itself) — with the
# data intact. This alone proves the rig; the numabalancer scenarios build on it.

check_topology
check_eq cgroup.controllers "$(tr ' ' '\n' <$NB_CGROUP_ROOT/cgroup.controllers | grep -c -x -e memory -e cpuset)" 2 \
  "memory and cpuset controllers offered"

# Node 0 (with CPUs) to the last node, which in the 4-node guest is the memory-only one.
last=$((NB_NODES - 1))
size_mib=${NB_SMOKE_MIB:-128}
size=$((size_mib * MIB))
slack=$((8 * MIB))
cgroup=$(cg_create smoke)
wl_start smoke "$cgroup" 0 --mib "$size_mib" || exit 1
pid=$WL_PID

check_near placement.numa_maps "$(numa_maps_bytes "$pid" 0)" "$size" "$slack" "numa_maps bytes on node 0"
check_near placement.numa_stat "$(numa_stat_anon "$cgroup" 0)" "$size" "$slack" "memory.numa_stat anon on node 0"

start=$(cut -d' ' -f1 /proc/uptime)
if migratepages "$pid" 0 "$last"; then
  pass migratepages.call "migratepages $pid 0 $last ($start s .. $(cut -d' ' -f1 /proc/uptime) s uptime)"
else
  fail migratepages.call "migratepages $pid 0 $last exited with $?"
fi
check_near migratepages.numa_maps "$(numa_maps_bytes "$pid" "$last")" "$size" "$slack" "numa_maps bytes on node $last"
check_le migratepages.left "$(numa_maps_bytes "$pid" 0)" "$slack" "numa_maps bytes left on node 0"
check_near migratepages.numa_stat "$(numa_stat_anon "$cgroup" "$last")" "$size" "$slack" "memory.numa_stat anon on node $last"
check_eq migratepages.workload_view "$(wl_bytes_on smoke "$last")" "$size" "workload's own move_pages query, bytes on node $last"
wl_verify smoke migratepages.data

# Back to node 0 page by page, then (4 nodes) on to the node nearest the memory-only one.
for target in 0 $( [ "$NB_NODES" -gt 2 ] && echo $((last - 1)) ); do
  reply=$(wl_ask smoke "move $target" move)
  info "move_pages to node $target: $reply"
  check_eq "move_pages.node$target" "$(wl_bytes_on smoke "$target")" "$size" "bytes on node $target after move_pages"
  check_near "move_pages.numa_maps.node$target" "$(numa_maps_bytes "$pid" "$target")" "$size" "$slack" "numa_maps bytes on node $target"
done
wl_verify smoke move_pages.data

# The data check itself can fail: one flipped byte is one mismatched page.
wl_corrupt smoke 100
reply=$(wl_ask smoke verify verify)
check_eq verify.detects_damage "$(field "$reply" ok) $(field "$reply" mismatched_pages)" "0 1" "after flipping one byte ($reply)"
