# shellcheck shell=sh
# Issue 30 in the 2-node guest: the `equalize` strategy. A `file` provider first reports even
# nodes, then node 0 hot (200 ns at 20 GB/s against 100 ns at 2 GB/s, baselines 90 ns). A batch
# container (192 MiB, the reclaim pool) and a service (48 MiB) sit on node 0. While the daemon is
# paused it decides on that snapshot; `numabalancerctl plan --explain` shows the prediction and
# the size. Resumed, the round moves a part of the batch container of that size (within 5 %),
# and the service stays. Then the provider reports even latencies: no round moves anything.

slack=$((8 * MIB))
daemon_setup
config=/tmp/equalize.toml
metrics=/tmp/equalize-metrics.json
{
  daemon_config_head
  cat <<TOML

[policy]
strategy = "equalize"
supported_pools = ["share"]
reclaim_pool = "batch"
reclaim_container_min_bytes = "16MiB"
min_interval = "30s"

[[pool]]
name = "share"
cgroups = ["nbtest/equalize/web"]
nodes = [0, 1]

[[pool]]
name = "batch"
cgroups = ["nbtest/equalize/stream"]
nodes = [0, 1]

TOML
  file_metrics_and_actuator_toml "$metrics"
  cat <<TOML

[metrics.baseline]
read_latency_ns = { "0" = 90, "1" = 90 }
TOML
} >"$config"
run_timed /tmp/equalize-check.out 30 numabalancerd --check-config "$config"
check_eq config.valid "$RUN_STATUS" 0 "numabalancerd --check-config $(show_err /tmp/equalize-check.out)"

write_metrics "$metrics" 0:95:5 1:95:5
stream=$(cg_create equalize/stream)
web=$(cg_create equalize/web)
wl_start stream "$stream" 0 --mib 192 || exit 1
wl_start web "$web" 0 --mib 48 || exit 1
daemon_start "$config" || exit 1
even_round() { [ "$(status_field /last_round/status)" = idle ]; }
if ! wait_for 30 even_round; then
  fail even.first "the daemon did not report even nodes: $(status_field /last_round)"
fi
ctl_json /tmp/equalize-pause.json pause
check_eq pause.exit "$?" 0 "numabalancerctl pause $(head -n 1 /tmp/equalize-pause.json.err)"

write_metrics "$metrics" 0:200:20 1:100:2
paused_round() { history_find /tmp/equalize-history.json paused 0 >/dev/null; }
if ! wait_for 30 paused_round; then
  fail paused.decided "no paused round decided with node 0 hot: $(status_field /last_round)"
  nbd_attach_log
  exit 1
fi
pass paused.decided "the paused daemon decided and moved nothing"

ctl_json /tmp/equalize-plan.json plan --explain
attach equalize-plan.json /tmp/equalize-plan.json
ctl_json /tmp/equalize-plan-decision.json plan
predicted=$(json /tmp/equalize-plan-decision.json /decision/total_bytes)
check_eq plan.strategy "$(json /tmp/equalize-plan-decision.json /decision/strategy)" equalize "the decision's strategy"
check_eq plan.container "$(json /tmp/equalize-plan-decision.json /decision/migrate/0/id)" \
  "nbtest/equalize/stream" "the batch container, not the service"
check_eq plan.one_container "$(nb_vm_json --length /decision/migrate </tmp/equalize-plan-decision.json)" 1 "containers planned"
check_ge plan.size "${predicted:-0}" $((16 * MIB)) "predicted bytes"
check_le plan.part "${predicted:-0}" $((160 * MIB)) "predicted bytes: a part of the 192 MiB container"
case "$(json /tmp/equalize-plan.json /text)" in
  *"of nbtest/equalize/stream off node 0: node 0 200 -> "*"predicted"*)
    pass plan.explained "plan --explain: the size and the predicted latencies" ;;
  *) fail plan.explained "plan --explain shows no prediction: $(json /tmp/equalize-plan.json /text | tail -n 3)" ;;
esac
after0=$(json /tmp/equalize-plan-decision.json /decision/prediction/nodes/0/latency_after_ns | cut -d. -f1)
check_le plan.source_relieved "${after0:-200}" 199 "node 0's predicted latency after the move (ns)"

ctl_json /tmp/equalize-resume.json resume
check_eq resume.exit "$?" 0 "numabalancerctl resume $(head -n 1 /tmp/equalize-resume.json.err)"
if ! wait_acted_round /tmp/equalize-history.json 120 0; then
  fail acted.round "no round moved memory within 120 s after resume: $(status_field /last_round)"
  nbd_attach_log
  exit 1
fi
attach equalize-history.json /tmp/equalize-history.json
acted=$(json /tmp/equalize-history.json /rounds/$ROUND/number)
planned=$(json /tmp/equalize-history.json /rounds/$ROUND/planned_bytes)
moved=$(json /tmp/equalize-history.json /rounds/$ROUND/moved_bytes)
check_near acted.planned "$planned" "$predicted" $((predicted / 20)) "the round's planned bytes = plan's prediction"
check_near acted.moved "$moved" "$predicted" $((predicted / 20)) "the round's moved bytes = plan's prediction"
check_near placed.stream_on_1 "$(numa_stat_anon "$stream" 1)" "$moved" "$slack" "the batch container's anon on node 1"
check_ge placed.stream_left "$(numa_stat_anon "$stream" 0)" $((192 * MIB - moved - slack)) "the batch container's anon left on node 0"
check_le placed.web_stays "$(numa_stat_anon "$web" 1)" "$MIB" "the service's anon on node 1"

# Even nodes: nothing moves, round after round.
write_metrics "$metrics" 0:120:11 1:118:11
on_1=$(numa_stat_anon "$stream" 1)
sleep 8
if history_find /tmp/equalize-history2.json "started $NBD_FINISHED" >/dev/null &&
  [ "$(json /tmp/equalize-history2.json "/rounds/$(history_find /tmp/equalize-history2.json "started $NBD_FINISHED")/number")" -gt "$acted" ]; then
  fail even.nothing_moves "a round acted after the nodes were even: $(status_field /last_round)"
else
  pass even.nothing_moves "no round acted after round $acted with even latencies"
fi
check_eq even.status "$(status_field /last_round/status)" idle "status of the rounds with even nodes"
case "$(status_field /last_round/reason)" in
  *"even"*) pass even.reason "the reason says the nodes are even" ;;
  *) fail even.reason "reason: $(status_field /last_round/reason)" ;;
esac
check_near even.numa_stat "$(numa_stat_anon "$stream" 1)" "$on_1" "$slack" "the batch container's anon on node 1"
wl_verify stream equalize.stream_data
daemon_stop daemon.stopped
