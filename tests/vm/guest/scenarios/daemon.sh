# shellcheck shell=sh
# Scenario 2 — the daemon end to end in the 2-node guest. A `file` metrics provider marks node 0
# hot at force level; three containers of the "share" pool (48, 64 and 96 MiB) sit on node 0.
# round_max_bytes is 128 MiB, so the first acted round takes the two small ones (112 MiB) and a
# later round the big one; numabalancerctl status and history show each acted round and the bytes
# it moved, and memory.numa_stat agrees. Then node 1 turns hot within ping_pong_window: the daemon
# must not move the memory back — live, and again after a restart (the ban comes from the saved
# state). Last, a reload with a 1 s window lifts the ban and the memory does go back, which proves
# it was the ban that held it.

slack=$((8 * MIB))
daemon_setup
config=/tmp/daemon.toml
metrics=/tmp/daemon-metrics.json

# daemon_write_config PING_PONG_WINDOW
daemon_write_config() {
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
round_max_bytes = "128MiB"
supported_pools = ["share"]
reclaim_pool = ""
min_interval = "2s"
ping_pong_window = "$1"

[[pool]]
name = "share"
cgroups = ["nbtest/daemon/*"]
nodes = [0, 1]

TOML
  file_metrics_and_actuator_toml "$metrics"
  } >"$config"
}
daemon_write_config 15m
# Node 0 at 200 ns is above force_read_latency_ns (80); node 1 at 60 ns passes the gap ratio.
write_metrics "$metrics" 0:200:20 1:60:5
run_timed /tmp/daemon-check.out 30 numabalancerd --check-config "$config"
check_eq config.valid "$RUN_STATUS" 0 "numabalancerd --check-config $(show_err /tmp/daemon-check.out)"

small=$(cg_create daemon/small)
mid=$(cg_create daemon/mid)
big=$(cg_create daemon/big)
wl_start small "$small" 0 --mib 48 || exit 1
wl_start mid "$mid" 0 --mib 64 || exit 1
wl_start big "$big" 0 --mib 96 || exit 1

daemon_start "$config" || exit 1

# The first acted round: the two smallest containers fit in round_max_bytes, the big one does not.
if ! wait_acted_round /tmp/d-history.json 60 0; then
  fail round1.acted "no round moved memory within 60 s; last round: $(status_field /last_round)"
  nbd_attach_log
  exit 1
fi
first=$ROUND
round1=$(json /tmp/d-history.json /rounds/$first/number)
attach daemon-history1.json /tmp/d-history.json
check_eq round1.status "$(json /tmp/d-history.json /rounds/$first/status)" ready "decision status"
check_eq round1.outcome "$(json /tmp/d-history.json /rounds/$first/outcome)" "done" "job outcome"
check_eq round1.dest_nodes "$(json /tmp/d-history.json /rounds/$first/dest_nodes)" "[1]" "destinations"
check_eq round1.containers "$(json /tmp/d-history.json /rounds/$first/containers)" \
  '["nbtest/daemon/small","nbtest/daemon/mid"]' "containers taken, smallest first"
planned=$(json /tmp/d-history.json /rounds/$first/planned_bytes)
moved1=$(json /tmp/d-history.json /rounds/$first/moved_bytes)
check_le round1.within_budget "$planned" $((128 * MIB)) "planned bytes within round_max_bytes"
check_near round1.moved "$moved1" $((112 * MIB)) "$slack" "moved_bytes"
check_eq round1.migrated "$(json /tmp/d-history.json /rounds/$first/migrated)" true "migrated"
check_eq round1.report_moved "$(json /tmp/d-history.json /rounds/$first/report/bytes_moved)" "$moved1" "report bytes_moved"
check_eq round1.report_to_node1 "$(json /tmp/d-history.json /rounds/$first/report/bytes_moved_to/1)" "$moved1" "report bytes moved to node 1"
check_eq round1.report_containers "$(json /tmp/d-history.json /rounds/$first/report/containers)" 2 "containers in the report"
check_near round1.numa_stat_small "$(numa_stat_anon "$small" 1)" $((48 * MIB)) "$slack" "small's anon on node 1"
check_near round1.numa_stat_mid "$(numa_stat_anon "$mid" 1)" $((64 * MIB)) "$slack" "mid's anon on node 1"

# status shows the acted round (or a later one) and no scan error.
ctl_json /tmp/d-status.json status
check_eq status.exit $? 0 "numabalancerctl --json status $(head -n 1 /tmp/d-status.json.err)"
attach daemon-status.json /tmp/d-status.json
check_eq status.state "$(json /tmp/d-status.json /state)" running
check_eq status.scan_error "$(json /tmp/d-status.json /scan_error)" null
check_ge status.rounds "$(json /tmp/d-status.json /rounds)" 1 "rounds run"
check_eq status.latency_provider "$(json /tmp/d-status.json /providers/0/provider)" file
if ctl status >/tmp/d-status.txt 2>&1 && ctl history >/tmp/d-history.txt 2>&1; then
  pass ctl.human "numabalancerctl status and history print tables"
else
  fail ctl.human "numabalancerctl status/history (human) failed: $(head -n 2 /tmp/d-status.txt /tmp/d-history.txt | tr '\n' ' ')"
fi
attach daemon-status.txt /tmp/d-status.txt
attach daemon-history.txt /tmp/d-history.txt

# A later round (after min_interval) takes the big container.
if wait_acted_round /tmp/d-history.json 60 0 "$round1"; then
  second=$ROUND
  check_eq round2.containers "$(json /tmp/d-history.json /rounds/$second/containers)" '["nbtest/daemon/big"]' "the container left over"
  check_near round2.moved "$(json /tmp/d-history.json /rounds/$second/moved_bytes)" $((96 * MIB)) "$slack" "moved_bytes"
  round2=$(json /tmp/d-history.json /rounds/$second/number)
else
  fail round2.acted "the big container was never moved: $(status_field /last_round)"
  round2=$round1
fi
check_near round2.numa_stat_big "$(numa_stat_anon "$big" 1)" $((96 * MIB)) "$slack" "big's anon on node 1"
wl_verify small moved.small_data
wl_verify big moved.big_data

# on_node NODE: the three containers' anon bytes on a node, summed.
on_node() { echo $(($(numa_stat_anon "$small" "$1") + $(numa_stat_anon "$mid" "$1") + $(numa_stat_anon "$big" "$1"))); }
before_flip=$(on_node 1)

# rounds_pass N: waits until the daemon has run N more rounds.
rounds_pass() {
  local target=$(($(status_field /rounds) + $1))
  wait_for $(($1 * 3 + 10)) rounds_reached "$target"
}
rounds_reached() { [ "$(status_field /rounds)" -ge "$1" ]; }
last_source_is() { [ "$(status_field /last_round/source_node)" = "$1" ]; }

# ping_pong_holds CHECK: node 1 is hot, yet nothing goes back to node 0.
ping_pong_holds() {
  if ! wait_for 30 last_source_is 1; then
    fail "$1.seen" "the daemon never took node 1 as the source: $(status_field /last_round)"
    return
  fi
  rounds_pass 4
  ctl_json /tmp/d-status.json status
  check_eq "$1.decision" "$(json /tmp/d-status.json /last_round/status)" failed "status of the rounds with node 1 hot"
  check_eq "$1.outcome" "$(json /tmp/d-status.json /last_round/outcome)" failed "outcome: failed, nothing started (pressure no destination can relieve)"
  ctl_json /tmp/d-plan.json plan --explain
  attach "daemon-$1-plan.json" /tmp/d-plan.json
  case "$(json /tmp/d-plan.json /text)" in
    *"node 0: dropped (ping-pong)"*) pass "$1.explained" "plan --explain: candidate node 0 dropped (ping-pong)" ;;
    *) fail "$1.explained" "plan --explain does not name the ping-pong ban: $(json /tmp/d-plan.json /decision/reason)" ;;
  esac
  if history_find /tmp/d-history.json "started $NBD_FINISHED" 1 >/dev/null; then
    fail "$1.history" "a round with source node 1 acted: $(json /tmp/d-history.json /rounds)"
  else
    pass "$1.history" "no round with source node 1 in the history"
  fi
  check_near "$1.numa_stat" "$(on_node 1)" "$before_flip" "$slack" "the containers' anon still on node 1"
}

# Node 1 hot now, within the 15 minute ping-pong window of both rounds.
write_metrics "$metrics" 0:60:5 1:200:20
ping_pong_holds pingpong

# The ban is persisted: a restarted daemon still holds it.
daemon_stop stop
ctl_json /tmp/d-dead.json status
check_eq stop.socket_gone "$?" 2 "numabalancerctl status exit code with the daemon stopped"
daemon_start "$config" || exit 1
ctl_json /tmp/d-history.json history --limit 100
check_ge restart.history "$(nb_vm_json --length /rounds </tmp/d-history.json)" 2 "rounds loaded from the state file"
ping_pong_holds restart.pingpong

# Control: with a 1 s window the ban has expired, and the memory goes back to node 0.
daemon_write_config 1s
ctl_json /tmp/d-reload.json reload
check_eq reload.exit "$?" 0 "numabalancerctl reload $(head -n 1 /tmp/d-reload.json.err)"
if wait_acted_round /tmp/d-history.json 60 1 "$round2"; then
  back=$ROUND
  check_eq control.dest_nodes "$(json /tmp/d-history.json /rounds/$back/dest_nodes)" "[0]" "the memory goes back once the ban expired"
  check_ge control.moved "$(json /tmp/d-history.json /rounds/$back/moved_bytes)" $((40 * MIB)) "moved_bytes back to node 0"
else
  fail control.moved "with ping_pong_window 1s the memory still did not go back: $(status_field /last_round)"
fi
wl_verify mid back.mid_data
daemon_alive final.status
daemon_stop final.stop
