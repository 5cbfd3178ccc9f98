# shellcheck shell=sh
# Scenario 7 — the closed loop (issue 16) in the 2-node guest. A `file` provider marks node 0 hot
# (200 ns); four 32 MiB containers of the "share" pool sit on node 0 and round_max_bytes lets
# each round take one. After the first round's job the file says node 0 fell to 100 ns, so that
# round is measured `improved`; then it reads 200 ns again and stays there, so the next two
# rounds are measured `not_improved`. With backoff_after = 1 each of them doubles the wait before
# the next round off node 0 (min_interval 8 s: 16 s after the second, 32 s after the third):
# status cooldown with the back-off in the reason, also after a restart, and the fourth
# container stays on node 0. history (JSON and table), the metrics and the audit log show the
# effects.

slack=$((8 * MIB))
daemon_setup
config=/tmp/effects.toml
metrics=/tmp/effects-metrics.json
audit=$NBD_DIR/audit.jsonl

{
  daemon_config_head
  cat <<TOML

[policy]
# The seed's strategy: this scenario holds its decisions (equalize has its own scenario).
strategy = "katalyst"
threshold_mode = "absolute"
container_min_bytes = "16MiB"
round_max_bytes = "40MiB"
supported_pools = ["share"]
reclaim_pool = ""
# min_interval above effect_delay: each round's effect is measured before the next acts.
min_interval = "8s"
effect_delay = "6s"
min_improvement = 0.1
backoff_after = 1
max_backoff = "1h"

[[pool]]
name = "share"
cgroups = ["nbtest/effects/*"]
nodes = [0, 1]

[export]
audit_log = "$audit"

TOML
  file_metrics_and_actuator_toml "$metrics"
} >"$config"
write_metrics "$metrics" 0:200:20 1:60:5
run_timed /tmp/effects-check.out 30 numabalancerd --check-config "$config"
check_eq config.valid "$RUN_STATUS" 0 "numabalancerd --check-config $(show_err /tmp/effects-check.out)"

cgs=""
for name in a b c d; do
  cg=$(cg_create "effects/$name")
  wl_start "effects_$name" "$cg" 0 --mib 32 || exit 1
  cgs="$cgs $cg"
done
daemon_start "$config" || exit 1

# effect_of OUT INDEX: the measured verdict of round INDEX of OUT's history, "pending" or "none".
effect_of() {
  local improved
  improved=$(json "$1" "/rounds/$2/effect/improved")
  case $improved in
    true | false) echo "$improved" ;;
    *) if [ "$(json "$1" "/rounds/$2/effect_pending")" = true ]; then echo pending; else echo none; fi ;;
  esac
}

# wait_effect OUT NUMBER TIMEOUT_S: waits until the round numbered NUMBER has its effect measured
# (or a reason why not); INDEX is its position in OUT's history afterwards.
wait_effect() {
  local deadline=$(($(now_s) + $3)) count i
  while :; do
    if ctl_json "$1" history --limit 100; then
      count=$(nb_vm_json --length /rounds <"$1")
      i=0
      while [ "$i" -lt "$count" ]; do
        if [ "$(json "$1" "/rounds/$i/number")" = "$2" ] && [ "$(effect_of "$1" "$i")" != pending ]; then
          INDEX=$i
          return 0
        fi
        i=$((i + 1))
      done
    fi
    [ "$(now_s)" -ge "$deadline" ] && return 1
    sleep 0.3
  done
}

# acted_round NAME AFTER_NUMBER: waits for the next finished round off node 0; sets NUMBER.
acted_round() {
  if ! wait_acted_round /tmp/e-history.json 90 0 "$2"; then
    fail "$1.acted" "no round moved memory within 90 s: $(status_field /last_round)"
    nbd_attach_log
    exit 1
  fi
  NUMBER=$(json /tmp/e-history.json "/rounds/$ROUND/number")
  check_near "$1.moved" "$(json /tmp/e-history.json "/rounds/$ROUND/moved_bytes")" $((32 * MIB)) "$slack" "moved_bytes of round $NUMBER"
}

# Round A: node 0 falls to 100 ns after the move, so it improved (200 → 100 ns, by half).
acted_round first 0
first=$NUMBER
write_metrics "$metrics" 0:100:20 1:60:5
if wait_effect /tmp/e-history.json "$first" 60; then
  check_eq first.effect "$(effect_of /tmp/e-history.json "$INDEX")" true "round $first improved"
  check_eq first.hot_after "$(json /tmp/e-history.json "/rounds/$INDEX/effect/hot_after")" 100.0 "hot latency after round $first"
else
  fail first.effect "round $first's effect was not measured within 60 s: $(status_field /last_round)"
fi
write_metrics "$metrics" 0:200:20 1:60:5

# not_improved NAME NUMBER: round NUMBER's effect is measured within 60 s, and did not improve.
not_improved() {
  if wait_effect /tmp/e-history.json "$2" 60; then
    check_eq "$1.effect" "$(effect_of /tmp/e-history.json "$INDEX")" false "round $2 did not improve"
  else
    fail "$1.effect" "round $2's effect was not measured within 60 s"
  fi
}

# Rounds B and C: node 0 stays at 200 ns, so neither improved.
acted_round second "$first"
second=$NUMBER
not_improved second "$second"
# held PATTERN: the last round was held back by the back-off, its reason matching PATTERN.
held() {
  [ "$(status_field /last_round/status)" = cooldown ] &&
    case "$(json /tmp/nbd-status.json /last_round/reason)" in $1) true ;; *) false ;; esac
}
if wait_for 30 held "backoff: the last round off node 0*"; then
  pass backoff.after_second "$(json /tmp/nbd-status.json /last_round/reason)"
else
  fail backoff.after_second "no round held back after round $second: $(status_field /last_round)"
fi
acted_round third "$second"
third=$NUMBER
not_improved third "$third"
attach effects-history.json /tmp/e-history.json

# Two non-improving rounds off node 0: a wait of 32 s, with the rule in the reason.
if wait_for 30 held "backoff: the last 2 rounds off node 0*"; then
  pass backoff.held "$(json /tmp/nbd-status.json /last_round/reason)"
else
  fail backoff.held "no round held back within 30 s: $(status_field /last_round)"
fi
ctl_json /tmp/e-plan.json plan --explain
case "$(json /tmp/e-plan.json /text)" in
  *"backoff: the last 2 rounds off node 0 did not lower its latency: wait"*)
    pass backoff.explained "plan --explain writes the back-off with its numbers" ;;
  *) fail backoff.explained "plan --explain lacks the back-off: $(json /tmp/e-plan.json /decision/reason)" ;;
esac
ctl history >/tmp/e-history.txt 2>&1
attach effects-history.txt /tmp/e-history.txt
case "$(cat /tmp/e-history.txt)" in
  *EFFECT*"improved 200→100 ns"*"not improved 200→200 ns"*)
    pass history.table "numabalancerctl history shows each round's effect" ;;
  *) fail history.table "history table lacks the effects: $(head -n 4 /tmp/e-history.txt | tr '\n' ' ')" ;;
esac
ctl_json /tmp/e-metrics.json metrics
case "$(json /tmp/e-metrics.json /text)" in
  *'numabalancer_round_effects_total{result="improved"} 1'*'numabalancer_round_effects_total{result="not_improved"} 2'*)
    pass metrics.effects "numabalancer_round_effects_total counts 1 improved, 2 not improved" ;;
  *) fail metrics.effects "effect counters: $(json /tmp/e-metrics.json /text | grep round_effects | tr '\n' ' ')" ;;
esac
check_eq audit.effects "$(grep -c '"kind":"effect"' "$audit")" 3 "effect lines in the audit log"

# A restart keeps the effects: the state file holds them, so the back-off still holds.
daemon_stop restart.stop
daemon_start "$config" || exit 1
if wait_for 15 held "backoff: the last 2 rounds off node 0*"; then
  pass restart.held "after a restart: $(json /tmp/nbd-status.json /last_round/reason)"
else
  fail restart.held "not held after a restart: $(status_field /last_round)"
fi
# Still within the 32 s: one container is left on node 0.
on_node0=0
for cg in $cgs; do on_node0=$((on_node0 + $(numa_stat_anon "$cg" 0))); done
check_near backoff.unmoved "$on_node0" $((32 * MIB)) "$slack" "the containers' anon left on node 0"
daemon_alive final.status
daemon_stop final.stop
for name in a b c d; do wl_verify "effects_$name" "data.$name"; done
