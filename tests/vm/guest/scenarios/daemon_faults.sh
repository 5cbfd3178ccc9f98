# shellcheck shell=sh
# Scenario 4, "the daemon survives" — faults while the daemon itself runs a round's migration job
# (node 0 hot, the "share" pool may use nodes 1 and 2, a 12 MiB/s rate limit keeps jobs slow
# enough to interfere with). The daemon is paused while each container is set up and resumed to
# act on it:
#   1. the workload exits in the middle of the job: the round's report counts the vanished pid;
#   2. a child cgroup of the container is removed in the middle of the walk: its sibling still
#      moves, data intact;
#   3. the first destination is nearly full (a hog fills node 1): ENOMEM is reported and node 2
#      takes the memory.
# After each, the daemon still answers `numabalancerctl status`. Needs 3 nodes or more.

slack=$((8 * MIB))
daemon_setup
config=/tmp/dfaults.toml
metrics=/tmp/dfaults-metrics.json
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
supported_pools = ["share"]
reclaim_pool = ""
min_interval = "1s"

[[pool]]
name = "share"
cgroups = ["nbtest/dfaults/*"]
nodes = [0, 1, 2]

TOML
  file_metrics_toml "$metrics"
  cat <<TOML

# No free-memory floor: a nearly full node 1 still counts as room, so only the kernel can refuse
# (ENOMEM), which is the fault under test.
[actuator]
min_free_bytes = 0
rate_limit = 12
TOML
} >"$config"
# Node 0 hot; nodes 1 and 2 equally far, 1 faster: destinations [1, 2].
write_metrics "$metrics" 0:200:20 1:50:5 2:60:5 3:40:4

daemon_start "$config" || exit 1
ctl pause >/dev/null

# act_on NAME: resumes the daemon and waits until a round's job runs; ACT_AFTER is the number of
# the last round before it.
act_on() {
  ctl_json /tmp/dfaults-history.json history --limit 1
  ACT_AFTER=$(json /tmp/dfaults-history.json /rounds/0/number)
  [ "$ACT_AFTER" = null ] && ACT_AFTER=0
  ctl resume >/dev/null
  if ! wait_for 30 job_running; then
    fail "$1.job" "no job started within 30 s: $(status_field /last_round)"
    return 1
  fi
  pass "$1.job" "round job $(status_field /job/id) running"
}

# job_finished NAME: waits for the round that acted after ACT_AFTER; ROUND indexes it in
# /tmp/dfaults-history.json. Pauses the daemon again.
job_finished() {
  if ! wait_acted_round /tmp/dfaults-history.json 120 0 "$ACT_AFTER"; then
    fail "$1.done" "the job did not finish within 120 s: $(status_field /job)"
    return 1
  fi
  ctl pause >/dev/null
  attach "dfaults-$1-history.json" /tmp/dfaults-history.json
  info "$1: round $(json /tmp/dfaults-history.json /rounds/$ROUND/number) $(json /tmp/dfaults-history.json /rounds/$ROUND/outcome), moved $(json /tmp/dfaults-history.json /rounds/$ROUND/moved_bytes) bytes"
}

# 1. The workload exits mid-job.
exiting=$(cg_create dfaults/exiting)
wl_start exiting "$exiting" 0 --mib 128 || exit 1
pid=$WL_PID
if act_on exiting; then
  sleep 1
  kill -9 "$pid"
  if job_finished exiting; then
    check_ge exiting.vanished "$(json /tmp/dfaults-history.json /rounds/$ROUND/report/vanished_pids)" 1 "vanished pids in the round's report"
    check_le exiting.partial "$(json /tmp/dfaults-history.json /rounds/$ROUND/moved_bytes)" $((128 * MIB)) "bytes moved before the exit"
  fi
fi
daemon_alive exiting.daemon_answers

# 2. A child cgroup of the container disappears mid-walk ("walk" is the container: the pool's
# glob matches one level, and the container's memory includes its children's).
walk=$(cg_create dfaults/walk)
kept=$(cg_create dfaults/walk/kept)
doomed=$(cg_create dfaults/walk/doomed)
wl_start kept "$kept" 0 --mib 96 || exit 1
kept_pid=$WL_PID
wl_start doomed "$doomed" 0 --mib 96 || exit 1
doomed_pid=$WL_PID
if act_on walk; then
  sleep 1
  kill -9 "$doomed_pid"
  tries=0
  while ! rmdir "$doomed" 2>/dev/null && [ "$tries" -lt 50 ]; do
    sleep 0.1
    tries=$((tries + 1))
  done
  if [ -d "$doomed" ]; then
    fail walk.removed "could not remove $doomed during the job"
  elif job_running; then
    pass walk.removed "removed $doomed while the job ran"
  else
    fail walk.removed "the job had already ended when $doomed was removed"
  fi
  if job_finished walk; then
    check_eq walk.container "$(json /tmp/dfaults-history.json /rounds/$ROUND/containers)" '["nbtest/dfaults/walk"]' "the round's container"
    check_ge walk.moved "$(json /tmp/dfaults-history.json /rounds/$ROUND/moved_bytes)" $((96 * MIB - slack)) "moved_bytes"
  fi
fi
check_le walk.sibling_left "$(numa_maps_bytes "$kept_pid" 0)" "$slack" "the sibling's numa_maps bytes left on node 0"
check_near walk.sibling_moved $(($(numa_stat_anon "$kept" 1) + $(numa_stat_anon "$kept" 2))) $((96 * MIB)) "$slack" "the sibling's anon on nodes 1 and 2"
wl_verify kept walk.data
daemon_alive walk.daemon_answers

# 3. The first destination is nearly full: a hog outside the pool takes node 1's free memory.
# The engine shares the work in proportion to free memory, so with node 2 all free, node 1's
# share (about 8 MiB of its 26 free) could fit above the kernel's watermarks and nothing was
# refused (2026-12-07: no ENOMEM with 27 MiB free, ENOMEM with 25.5). A second hog leaves node 2
# 200 MiB: node 1's share is then about twice what it can take, and node 2 has room for the rest.
hog=$(cg_create dfaults-hog)
wl_start hog "$hog" 1 --fill-leaving-mib 0 --policy preferred || exit 1
wl_start hog2 "$hog" 2 --fill-leaving-mib 200 --policy preferred || exit 1
info "hog holds $(($(wl_bytes_on hog 1) / MIB)) MiB of node 1; $(($(node_free_bytes 1) / MIB)) MiB left free there, $(($(node_free_bytes 2) / MIB)) MiB on node 2"
full=$(cg_create dfaults/full)
wl_start full "$full" 0 --mib 128 || exit 1
full_pid=$WL_PID
if act_on full && job_finished full; then
  # The decision lists every destination; the pool limits this container to nodes 1 and 2.
  check_eq full.destinations "$(json /tmp/dfaults-history.json /rounds/$ROUND/dest_nodes)" "[1,2,3]" "the round's destinations"
  enomem=$(json /tmp/dfaults-history.json /rounds/$ROUND/report/outcomes/no_memory)
  # The summary may leave the dropped destinations to the round's full report.
  dropped=$(json /tmp/dfaults-history.json /rounds/$ROUND/report/dropped_destinations)
  [ "$dropped" = null ] && dropped=$(json /tmp/dfaults-history.json /rounds/$ROUND/full_report/dropped_destinations)
  info "ENOMEM pages ${enomem:-?}; dropped destinations ${dropped:-?}"
  # The kernel refuses either single pages (their status) or the whole call (its errno).
  case "$dropped" in
    *'"node":1,'*ENOMEM*) pass full.enomem "node 1 dropped: $dropped" ;;
    *) if [ "${enomem:-0}" -gt 0 ]; then
      pass full.enomem "$enomem pages refused with ENOMEM; dropped: $dropped"
    else
      fail full.enomem "no ENOMEM in the round's report: no_memory ${enomem:-?}, dropped $dropped"
    fi ;;
  esac
  check_ge full.other_destination "$(json /tmp/dfaults-history.json /rounds/$ROUND/report/bytes_moved_to/2)" $((100 * MIB)) "report: bytes moved to node 2"
fi
check_le full.left "$(numa_maps_bytes "$full_pid" 0)" "$slack" "numa_maps bytes left on node 0"
check_ge full.on_node2 "$(numa_maps_bytes "$full_pid" 2)" $((100 * MIB)) "numa_maps bytes on node 2"
check_le full.not_on_node3 "$(numa_maps_anon_bytes "$full_pid" 3)" 0 "anonymous numa_maps bytes on node 3, outside the pool"
wl_verify full full.data
wl_verify hog full.hog_data
wl_verify hog2 full.hog2_data
daemon_alive full.daemon_answers
daemon_stop final.stop
