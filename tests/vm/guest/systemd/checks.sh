#!/bin/bash
# The systemd guest's checks (issue 35), run by nb-checks.service once the guest's systemd has
# reached multi-user.target: the tree's .deb is installed with dpkg -i and numabalancerd runs as
# the packaged service, driven only through systemctl, journalctl, numabalancerctl and the files a
# host has. One PASS or FAIL line per check on /dev/ttyS1, "done rc=N" last, then power off.
# "checks.sh boot" only writes the BOOT line (nb-boot.service, early in the boot).
# Numbered as the issue's checks: 1 install, 2 start and readiness, 3 reload, 4 watchdog,
# 5 stop during a job, 6 hardening, 7 journal priorities, 8 a migration, 9 upgrade and removal;
# run in the order 1 2 3 6 7 8 4 5 9: 7 reads the errors 3 and 6 cause, and the watchdog's
# restart (4) has 8's round in the state to load (rounds that decide nothing are not kept).
export PATH=/nb/bin:/usr/sbin:/usr/bin:/sbin:/bin
export HOME=/root
. /nb/lib.sh

cmdline_value() { tr ' ' '\n' </proc/cmdline | sed -n "s/^$1=//p" | head -n 1; }
NB_GUEST=$(cmdline_value NB_GUEST)

if [ "${1:-}" = boot ]; then
  stty -F "$NB_RESULTS" raw -echo 2>/dev/null
  say "BOOT $NB_GUEST kernel=$(uname -r) nodes=$(cat /sys/devices/system/node/online) cpus=$(nproc) uptime_s=$(cut -d' ' -f1 /proc/uptime) init=$(readlink /proc/1/exe)"
  exit 0
fi

nb_open_results
SCENARIO=systemd
started_s=$(now_s)
info "multi-user.target reached at uptime_s=$(cut -d' ' -f1 /proc/uptime); systemd $(systemctl --version | head -n 1 | cut -d' ' -f2)"
result "systemd_guest_boot_s=$started_s"

unit=numabalancerd.service
sock=numabalancerd.socket
conf=/etc/numabalancer/config.toml
state_dir=/var/lib/numabalancer
# PrivateTmp= gives the service a /tmp of its own: the provider's file lives under /run instead.
metrics=/run/nb-test/metrics.json
textfile_dir=/var/lib/prometheus/node-exporter
NBD_SOCKET=/run/numabalancer/admin.sock
mkdir -p /run/nb-test
slack=$((8 * MIB))

prop() { systemctl show -p "$1" --value "${2:-$unit}"; }
# jcursor: the journal's current end; jsince CURSOR ARGS: what came after it (messages only).
jcursor() { journalctl -n 0 --show-cursor -q 2>/dev/null | sed -n 's/^-- cursor: //p'; }
# (journalctl 252 with both --after-cursor and -p matched nothing here: priorities are read
# without a cursor, from lines only the checks cause.)
jsince() {
  local cursor=$1
  shift
  journalctl --no-pager -q -o cat ${cursor:+--after-cursor="$cursor"} "$@" 2>/dev/null
}
# jwait TIMEOUT_S CURSOR PATTERN ARGS: waits until a journal line after CURSOR matches PATTERN
# (grep -E); the daemon's lines reach journald through its stream a moment after they happen.
jwait() {
  local timeout=$1 cursor=$2 pattern=$3
  shift 3
  wait_for "$timeout" sh -c 'c=$1; shift; journalctl --no-pager -q -o cat ${c:+--after-cursor="$c"} "$@" | grep -Eq "$0"' \
    "$pattern" "$cursor" "$@"
}
main_pid() { prop MainPID; }
ctl_as() {
  local user=$1
  shift
  setpriv --reuid="$user" --regid="$user" --init-groups numabalancerctl --timeout 20 "$@"
}
# finish: the last line, then the guest powers off (qemu runs with -no-reboot).
finish() {
  journalctl --no-pager -u "$unit" -o short-monotonic >/tmp/nb-unit-journal.txt 2>&1
  attach systemd.numabalancerd.journal /tmp/nb-unit-journal.txt
  say "INFO $NB_GUEST scenario systemd took_s=$(($(now_s) - started_s))"
  say "INFO $NB_GUEST finished uptime_s=$(cut -d' ' -f1 /proc/uptime)"
  say "done rc=$(nb_failure_count)"
  systemctl poweroff --force --force
  exit 0
}

# write_config TEXTFILE RATE_LIMIT [PING_PONG_WINDOW]: the service's config, the installed one's
# [admin] and [daemon] paths kept (their defaults), 1 s rounds, a `file` provider and the "share"
# pool over nbtest/sysd/*.
write_config() {
  cat >"$conf" <<TOML
[daemon]
interval = "1s"
log_level = "info"

[admin]
socket = "/run/numabalancer/admin.sock"
admin_group = "numabalancer"

[policy]
strategy = "katalyst"
threshold_mode = "absolute"
container_min_bytes = "16MiB"
round_max_bytes = "1GiB"
supported_pools = ["share"]
reclaim_pool = ""
min_interval = "1s"
ping_pong_window = "${3:-15m}"

[[pool]]
name = "share"
cgroups = ["nbtest/sysd/*"]
nodes = [0, 1]

$(file_metrics_toml "$metrics")

[actuator]
min_free_bytes = "16MiB"
rate_limit = $2

[export]
textfile = "$1"
audit_log = "/var/log/numabalancer/audit.log"
TOML
}

# --- 1. install ------------------------------------------------------------------------------
run_timed /tmp/dpkg-i.out 300 env DEBIAN_FRONTEND=noninteractive dpkg -i /nb/numabalancer.deb
check_eq 1.dpkg_install "$RUN_STATUS" 0 "dpkg -i ($((RUN_MS / 1000)) s) $(tail -n 2 /tmp/dpkg-i.out.err | tr '\n' ' ')"
if [ "$RUN_STATUS" -ne 0 ]; then
  fail 1.installed "the package is not installed; nothing else can be checked"
  finish
fi
check_eq 1.conffile "$(dpkg-query -W -f='${Conffiles}' numabalancer | awk '{ print $1 }' | tr -d ' \n')" "$conf" "dpkg-query's conffiles"
if [ -f "$conf" ] && numabalancerd --check-config "$conf" >/tmp/check-config.out 2>&1; then
  pass 1.conffile_valid "$conf is in place and passes --check-config"
else
  fail 1.conffile_valid "$conf: $(head -n 2 /tmp/check-config.out | tr '\n' ' ')"
fi
# The package enables neither unit (postinst, README "Install"): the operator does, once the
# pools describe the host. dpkg -i must not have started anything either.
check_eq 1.service_enabled "$(systemctl is-enabled "$unit" 2>&1)" disabled "systemctl is-enabled $unit"
check_eq 1.socket_enabled "$(systemctl is-enabled "$sock" 2>&1)" disabled "systemctl is-enabled $sock"
check_eq 1.not_started "$(systemctl is-active "$unit" "$sock" | tr '\n' ' ')" "inactive inactive " "after dpkg -i"
check_eq 1.unit_loaded "$(prop LoadState)" loaded "LoadState of $unit after postinst's daemon-reload"
if getent group numabalancer >/tmp/group.out; then
  pass 1.group "$(cat /tmp/group.out)"
else
  fail 1.group "postinst did not create the numabalancer group"
fi

# --- 2. start and readiness --------------------------------------------------------------------
# No pressure yet: both nodes even, so rounds run and decide nothing.
write_metrics "$metrics" 0:60:5 1:60:5
mkdir -p "$textfile_dir"
write_config "$textfile_dir/numabalancer.prom" 8
useradd --no-create-home --groups numabalancer nbmember
useradd --no-create-home nbother
cursor=$(jcursor)
# Type=notify: systemctl start returns once the daemon sent READY=1, which it does after its
# first round; the unit is then active (not activating) and carries the round's status text.
run_timed /tmp/start.out 120 systemctl start "$unit"
check_eq 2.start "$RUN_STATUS" 0 "systemctl start $unit ($RUN_MS ms) $(show_err /tmp/start.out)"
check_eq 2.ready "$(prop ActiveState)/$(prop SubState)" active/running "state as soon as systemctl start returned"
# The unit became active only once the daemon had said READY=1, after its start-up and first
# round: its own start-up line ("loaded N rounds", logged before the first round) is in the
# journal before systemd's "Started". Under Type=simple systemd says "Started" at the fork.
jsince "$cursor" -u "$unit" >/tmp/start-journal.txt
attach start-journal.txt /tmp/start-journal.txt
loaded_line=$(grep -n -m 1 '^loaded [0-9]* rounds from' /tmp/start-journal.txt | cut -d: -f1)
started_line=$(grep -n -m 1 "^Started $unit" /tmp/start-journal.txt | cut -d: -f1)
ready_ms=$((($(prop ActiveEnterTimestampMonotonic) - $(prop ExecMainStartTimestampMonotonic)) / 1000))
if [ -n "$loaded_line" ] && [ -n "$started_line" ] && [ "$loaded_line" -lt "$started_line" ]; then
  pass 2.ready_after_startup "'Started' (line $started_line) after the daemon's '$(sed -n "${loaded_line}p" /tmp/start-journal.txt)' (line $loaded_line); active ${ready_ms} ms after the exec"
else
  fail 2.ready_after_startup "systemd's 'Started' (line ${started_line:-none}) is not after the daemon's start-up line (line ${loaded_line:-none}): the unit was active before READY=1"
fi
status_text=$(prop StatusText)
case $status_text in
  "round "*) pass 2.status_text "StatusText after start: $status_text" ;;
  *) fail 2.status_text "StatusText '$status_text', expected the first round's 'round N: …' (READY=1 comes with it)" ;;
esac
systemctl status --no-pager "$unit" >/tmp/systemctl-status.txt 2>&1
attach systemctl-status.txt /tmp/systemctl-status.txt
if grep -q "Status: \"round " /tmp/systemctl-status.txt; then
  pass 2.systemctl_status "$(grep -m 1 'Status:' /tmp/systemctl-status.txt | sed 's/^ *//')"
else
  fail 2.systemctl_status "systemctl status shows no 'Status: \"round …\"' line"
fi
check_eq 2.triggered_by "$(prop TriggeredBy)" "$sock" "TriggeredBy"
check_eq 2.socket_active "$(systemctl is-active "$sock")" active "$sock"
# The daemon's listening socket is the one systemd holds (fd 3, SD_LISTEN_FDS_START), not one it
# bound itself: the same socket inode is among PID 1's descriptors.
pid=$(main_pid)
fd3=$(readlink "/proc/$pid/fd/3" 2>/dev/null)
if [ -n "$fd3" ] && [ "${fd3#socket:}" != "$fd3" ] && ls -l /proc/1/fd 2>/dev/null | grep -qF "$fd3"; then
  pass 2.activated_socket "numabalancerd $pid's fd 3 is $fd3, which systemd (PID 1) holds"
else
  fail 2.activated_socket "numabalancerd $pid's fd 3 is '${fd3:-none}', not among PID 1's sockets"
fi
check_eq 2.socket_mode "$(stat -c '%a %G' "$NBD_SOCKET" 2>&1)" "660 numabalancer" "$NBD_SOCKET mode and group"
if numabalancerctl --timeout 20 status >/tmp/ctl-root.out 2>&1; then
  pass 2.ctl_root "numabalancerctl status as root"
else
  fail 2.ctl_root "numabalancerctl status as root: $(head -n 2 /tmp/ctl-root.out | tr '\n' ' ')"
fi
if ctl_as nbmember status >/tmp/ctl-member.out 2>&1 && ctl_as nbmember pause >>/tmp/ctl-member.out 2>&1 &&
  ctl_as nbmember resume >>/tmp/ctl-member.out 2>&1; then
  pass 2.ctl_member "status, pause and resume as nbmember (group numabalancer)"
else
  fail 2.ctl_member "numabalancerctl as a member of numabalancer: $(head -n 3 /tmp/ctl-member.out | tr '\n' ' ')"
fi
if ctl_as nbother status >/tmp/ctl-other.out 2>&1; then
  fail 2.ctl_other_refused "numabalancerctl status worked for nbother, who is not in the group"
elif grep -qi 'permission denied' /tmp/ctl-other.out; then
  pass 2.ctl_other_refused "$(head -n 1 /tmp/ctl-other.out)"
else
  fail 2.ctl_other_refused "refused, but not for want of permission: $(head -n 2 /tmp/ctl-other.out | tr '\n' ' ')"
fi

# --- 3. reload ---------------------------------------------------------------------------------
window() { ctl_json /tmp/config.json config && json /tmp/config.json /policy/ping_pong_window; }
before=$(window)
write_config "$textfile_dir/numabalancer.prom" 8 7m
cursor=$(jcursor)
systemctl reload "$unit"
check_eq 3.reload_valid "$?" 0 "systemctl reload with ping_pong_window 15m -> 7m"
if wait_for 20 sh -c '[ "$(numabalancerctl --json config | nb_vm_json /policy/ping_pong_window)" != "$0" ]' "$before"; then
  pass 3.valid_applied "ping_pong_window $before -> $(window)"
else
  fail 3.valid_applied "ping_pong_window still $(window) 20 s after the reload"
fi
applied=$(window)
cp "$conf" /tmp/good-config.toml
write_config "$textfile_dir/numabalancer.prom" 8 "seven minutes"
cursor_invalid=$(jcursor)
systemctl reload "$unit"
check_eq 3.reload_invalid_sent "$?" 0 "systemctl reload with ping_pong_window = \"seven minutes\" (ExecReload sends SIGHUP)"
if jwait 20 "$cursor_invalid" "reload $conf: .*ping_pong_window" -u "$unit"; then
  pass 3.invalid_logged "$(jsince "$cursor_invalid" -u "$unit" | grep -m 1 "reload $conf")"
else
  fail 3.invalid_logged "no 'reload $conf: … ping_pong_window …' in the journal within 20 s: $(jsince "$cursor_invalid" -u "$unit" | tail -n 3 | tr '\n' ' ')"
fi
check_eq 3.invalid_kept "$(window)" "$applied" "ping_pong_window after the rejected reload"
check_eq 3.still_running "$(prop ActiveState)" active "the service after the rejected reload"
cp /tmp/good-config.toml "$conf"

# --- 6. hardening ------------------------------------------------------------------------------
# What the service needs it can do: rounds read sysfs, cgroupfs and procfs (the migration in 8
# proves the rest), it writes its state, the textfile and the audit log.
if wait_for 20 test -s "$textfile_dir/numabalancer.prom"; then
  pass 6.textfile_written "$textfile_dir/numabalancer.prom: $(grep -c '^numabalancer' "$textfile_dir/numabalancer.prom") samples"
else
  fail 6.textfile_written "no textfile in $textfile_dir (ReadWritePaths lists it)"
fi
state_file=$(ls "$state_dir"/* 2>/dev/null | head -n 1)
if [ -n "$state_file" ] && [ -s "$state_file" ]; then
  pass 6.state_written "$state_file ($(stat -c %s "$state_file") bytes)"
else
  fail 6.state_written "nothing in $state_dir"
fi
# The kernel's DAMON files are writable under the unit only where the kernel has them (6.12).
damon_admin=/sys/kernel/mm/damon/admin
if [ -d "$damon_admin/kdamonds" ]; then
  info "DAMON on $(uname -r): 8's job must write $damon_admin (page_order auto means hot_first)"
else
  info "no DAMON on $(uname -r): ReadWritePaths' -$damon_admin is skipped, 8's job goes in address order"
fi
# A write outside ReadWritePaths: the same textfile setting pointed at /etc/numabalancer, which
# root can write (shown first) but the service cannot (ProtectSystem=strict).
outside=/etc/numabalancer/numabalancer.prom
if touch "$outside.probe" 2>/tmp/touch.err; then
  rm -f "$outside.probe"
  pass 6.outside_writable_for_root "root outside the unit can write /etc/numabalancer"
else
  fail 6.outside_writable_for_root "root cannot write /etc/numabalancer either: $(cat /tmp/touch.err)"
fi
write_config "$outside" 8
cursor=$(jcursor)
systemctl reload "$unit"
if jwait 20 "$cursor" "textfile export failed: .*/etc/numabalancer.*Read-only file system" -u "$unit"; then
  pass 6.outside_refused "$(jsince "$cursor" -u "$unit" | grep -m 1 'textfile export failed')"
else
  fail 6.outside_refused "no 'textfile export failed: … /etc/numabalancer …: Read-only file system' error within 20 s: $(jsince "$cursor" -u "$unit" | tail -n 3 | tr '\n' ' ')"
fi
if [ -e "$outside" ]; then
  fail 6.outside_absent "$outside exists: the service wrote outside ReadWritePaths"
else
  pass 6.outside_absent "$outside was not created"
fi
check_eq 6.still_running "$(prop ActiveState)" active "the service after the failed export"
write_config "$textfile_dir/numabalancer.prom" 8
systemctl reload "$unit"

# --- 7. journal priorities ------------------------------------------------------------------------
# The two errors of 3 and 6 are at priority err, and only there; the daemon's info lines at info.
# Its "<N>" line prefixes (JOURNAL_STREAM) are what journald reads the priority from.
journalctl --no-pager -q -o cat -u "$unit" -p err >/tmp/journal-err.txt
journalctl --no-pager -q -o cat -u "$unit" -p info..info >/tmp/journal-info.txt
attach journal-err.txt /tmp/journal-err.txt
for what in "reload $conf: .*ping_pong_window" "textfile export failed: .*/etc/numabalancer"; do
  name=7.err_listed.$(echo "$what" | cut -d' ' -f1)
  if grep -Eq "$what" /tmp/journal-err.txt; then
    pass "$name" "journalctl -p err -u $unit: $(grep -Em 1 "$what" /tmp/journal-err.txt)"
  else
    fail "$name" "journalctl -p err -u $unit lacks '$what' ($(wc -l </tmp/journal-err.txt) lines at err; as stored: $(journalctl --no-pager -q -u "$unit" -o json --output-fields=PRIORITY,MESSAGE | grep -Em 1 "$what" | cut -c1-200))"
  fi
  if grep -Eq "$what" /tmp/journal-info.txt; then
    fail "$name.not_info" "'$what' is at priority info too"
  else
    pass "$name.not_info" "'$what' is not among the info lines"
  fi
done
if grep -q '^numabalancerd running' /tmp/journal-info.txt; then
  pass 7.info_at_info "journalctl -p info..info: $(grep -m 1 '^numabalancerd running' /tmp/journal-info.txt)"
else
  fail 7.info_at_info "no 'numabalancerd running' line at priority info"
fi
if journalctl --no-pager -q -o cat -u "$unit" | grep -q '^<[0-7]>'; then
  fail 7.no_prefix "journal messages still carry a '<N>' prefix: journald did not read it"
else
  pass 7.no_prefix "no '<N>' left in the messages: journald took it as the priority"
fi

# --- 8. a migration under the unit ---------------------------------------------------------------
a=$(cg_create sysd/a)
wl_start a "$a" 0 --mib 64 || finish
ctl_json /tmp/h0.json history --limit 1
last=$(json /tmp/h0.json /rounds/0/number)
[ "$last" = null ] && last=0
# Node 0 at 200 ns is above force_read_latency_ns; node 1 at 60 ns passes the gap ratio.
write_metrics "$metrics" 0:200:20 1:60:5
if wait_acted_round /tmp/h8.json 90 0 "$last"; then
  attach systemd-history8.json /tmp/h8.json
  check_eq 8.outcome "$(json /tmp/h8.json /rounds/$ROUND/outcome)" done "the acted round's job"
  check_eq 8.dest_nodes "$(json /tmp/h8.json /rounds/$ROUND/dest_nodes)" "[1]" "destinations"
  check_eq 8.containers "$(json /tmp/h8.json /rounds/$ROUND/containers)" '["nbtest/sysd/a"]' "containers"
  check_near 8.moved "$(json /tmp/h8.json /rounds/$ROUND/moved_bytes)" $((64 * MIB)) "$slack" "moved_bytes"
  # The config leaves [actuator] page_order at "auto": with DAMON the job watches the workload
  # through DAMON's sysfs files, which only ReadWritePaths= makes writable under
  # ProtectKernelTunables=; a refused write would fall back to address order, with the reason.
  order=$(json /tmp/h8.json /rounds/$ROUND/full_report/page_order)
  why=$(json /tmp/h8.json /rounds/$ROUND/full_report/page_order_fallback)
  if [ -d "$damon_admin/kdamonds" ]; then
    check_eq 6.damon_writable "$order" hot_first "the job's page order (fallback reason: $why)"
    check_eq 6.damon_no_kdamond_left "$(cat "$damon_admin/kdamonds/nr_kdamonds")" 0 "kdamonds left after the job"
  else
    check_eq 8.page_order "$order" address "the job's page order without DAMON (reason: $why)"
  fi
else
  fail 8.acted "no round moved memory within 90 s: $(status_field /last_round)"
fi
check_near 8.numa_stat "$(numa_stat_anon "$a" 1)" $((64 * MIB)) "$slack" "a's anon on node 1 (memory.numa_stat)"
check_near 8.numa_maps "$(numa_maps_anon_bytes "$WL_PID" 1)" $((64 * MIB)) "$slack" "the workload's anon on node 1 (numa_maps)"
wl_verify a 8.data
if [ -s /var/log/numabalancer/audit.log ]; then
  pass 8.audit_log "/var/log/numabalancer/audit.log: $(wc -l </var/log/numabalancer/audit.log) lines (LogsDirectory=)"
else
  fail 8.audit_log "the audit log in /var/log/numabalancer is empty or missing"
fi

# NB_SCENARIOS=systemd_damon (the 6.12 guest): the checks up to here, which are the ones whose
# outcome can depend on the kernel (DAMON's files under the sandbox); the rest test systemd and
# the package, which the 6.1 guest covers.
if [ "$(cmdline_value NB_SCENARIOS)" = systemd_damon ]; then
  finish
fi

# --- 4. watchdog -------------------------------------------------------------------------------
# A short watchdog for the test; RestartSec= stays the unit's (5 s).
mkdir -p "/etc/systemd/system/$unit.d"
printf '[Service]\nWatchdogSec=6s\n' >"/etc/systemd/system/$unit.d/nb-test-watchdog.conf"
systemctl daemon-reload
systemctl restart "$unit"
check_eq 4.watchdog_set "$(prop WatchdogUSec)" 6s "WatchdogUSec with the drop-in"
old_pid=$(main_pid)
restarts=$(prop NRestarts)
cursor=$(jcursor)
stopped_s=$(now_s)
stopped_at=$(date +%s.%N)
kill -STOP "$old_pid"
if wait_for 60 sh -c 'p=$(systemctl show -p MainPID --value "$0"); [ "$p" != 0 ] && [ "$p" != "$1" ] &&
    [ "$(systemctl show -p ActiveState --value "$0")" = active ]' "$unit" "$old_pid"; then
  took=$(($(now_s) - stopped_s))
  pass 4.restarted "SIGSTOPped $old_pid replaced by $(main_pid) after ${took} s"
  check_eq 4.nrestarts "$(prop NRestarts)" $((restarts + 1)) "NRestarts"
  # 6 s of watchdog, the unit's RestartSec=5s, the first round before READY=1: within 30 s.
  check_le 4.within_bound "$took" 30 "seconds from SIGSTOP to an active new daemon"
else
  fail 4.restarted "numabalancerd $old_pid stopped with SIGSTOP is still the unit's main process after 60 s ($(prop ActiveState)/$(prop SubState))"
fi
timeout_line=$(jsince "$cursor" -u "$unit" -o short-unix | grep -m 1 'Watchdog timeout')
if [ -n "$timeout_line" ]; then
  pass 4.watchdog_timeout "${timeout_line#* }"
  # The daemon pings after every round (1 s) and at least every half WatchdogSec (3 s), so
  # systemd's verdict, WatchdogSec after the last ping, comes 3 to 6 s after SIGSTOP (3.8 s once
  # on a loaded machine, where rounds took longer), plus the emulated machine's lag.
  after_ms=$(awk -v a="${timeout_line%% *}" -v b="$stopped_at" 'BEGIN { printf "%d", (a - b) * 1000 }')
  if [ "$after_ms" -ge 2500 ] && [ "$after_ms" -le 9000 ]; then
    pass 4.watchdog_after "the watchdog fired ${after_ms} ms after SIGSTOP (WatchdogSec=6s)"
  else
    fail 4.watchdog_after "the watchdog fired ${after_ms} ms after SIGSTOP, expected 2500-9000 (WatchdogSec=6s)"
  fi
else
  fail 4.watchdog_timeout "systemd logged no 'Watchdog timeout' for $unit"
fi
loaded=$(jsince "$cursor" -u "$unit" | grep -m 1 '^loaded [0-9]* rounds from')
if [ -n "$loaded" ] && [ "$(echo "$loaded" | cut -d' ' -f2)" -ge 1 ]; then
  pass 4.state_loaded "$loaded"
else
  fail 4.state_loaded "the restarted daemon loaded no rounds: '${loaded:-no line}'"
fi
rm -f "/etc/systemd/system/$unit.d/nb-test-watchdog.conf"
rmdir "/etc/systemd/system/$unit.d"
systemctl daemon-reload
systemctl restart "$unit"
check_eq 4.watchdog_back "$(prop WatchdogUSec)" 2min "WatchdogUSec without the drop-in (the unit's 120 s)"

# --- 5. stop during a job ----------------------------------------------------------------------
# A second container moved at 8 MiB/s (rate_limit): a job of about 12 s, stopped in its middle.
numabalancerctl pause >/dev/null
b=$(cg_create sysd/b)
wl_start b "$b" 0 --mib 96 || finish
numabalancerctl resume >/dev/null
if wait_for 60 job_running; then
  job=$(status_field /job/id)
  pass 5.job_running "job $job runs"
  sleep 2
  cursor=$(jcursor)
  run_timed /tmp/stop.out 60 systemctl stop "$unit"
  check_eq 5.stop "$RUN_STATUS" 0 "systemctl stop $(show_err /tmp/stop.out)"
  check_le 5.within_timeout "$RUN_MS" 15000 "ms to stop, TimeoutStopSec=$(prop TimeoutStopUSec)"
  check_eq 5.result "$(prop Result)" success "Result (timeout or signal if it had to be killed)"
  check_eq 5.exit_status "$(prop ExecMainStatus)" 0 "ExecMainStatus"
  if jsince "$cursor" -u "$unit" | grep -q "cancelling job $job before exit"; then
    pass 5.cancel_logged "$(jsince "$cursor" -u "$unit" | grep -m 1 'cancelling job')"
  else
    fail 5.cancel_logged "no 'cancelling job $job before exit' in the journal"
  fi
  moved_b=$(numa_stat_anon "$b" 1)
  if [ "$moved_b" -gt 0 ] && [ "$moved_b" -lt $((88 * MIB)) ]; then
    pass 5.partly_moved "$(mib "$moved_b") MiB of b's 96 MiB on node 1 when stopped"
  else
    fail 5.partly_moved "$(mib "$moved_b") MiB of b's 96 MiB on node 1: the job was not stopped in its middle"
  fi
  # The history after a start says how the job ended: cancelled.
  write_metrics "$metrics" 0:60:5 1:60:5
  systemctl start "$unit"
  if i=$(history_find /tmp/h5.json "cancelled"); then
    attach systemd-history5.json /tmp/h5.json
    pass 5.recorded "round $(json /tmp/h5.json /rounds/$i/number): outcome cancelled, $(mib "$(json /tmp/h5.json /rounds/$i/moved_bytes)") MiB moved"
  else
    ctl_json /tmp/h5.json history --limit 3
    attach systemd-history5.json /tmp/h5.json
    fail 5.recorded "no cancelled round in the history after the restart"
  fi
else
  fail 5.job_running "no job ran for container b within 60 s: $(status_field /last_round)"
  systemctl start "$unit"
fi
wl_verify b 5.data

# --- 9. upgrade and removal -------------------------------------------------------------------
conf_sum=$(md5sum "$conf" | cut -d' ' -f1)
rounds_before=$(ctl_json /tmp/h9.json history --limit 1000 && nb_vm_json --length /rounds </tmp/h9.json)
old_pid=$(main_pid)
# The operator's choice survives the upgrade: enabled (Also= takes the socket along) stays so.
systemctl enable "$unit" >/dev/null 2>&1
run_timed /tmp/dpkg-again.out 300 env DEBIAN_FRONTEND=noninteractive dpkg -i /nb/numabalancer.deb
check_eq 9.reinstall "$RUN_STATUS" 0 "dpkg -i over itself $(tail -n 2 /tmp/dpkg-again.out.err | tr '\n' ' ')"
new_pid=$(main_pid)
if [ "$(prop ActiveState)" = active ] && [ "$new_pid" != "$old_pid" ] && [ "$new_pid" != 0 ]; then
  pass 9.restarted "numabalancerd $old_pid restarted as $new_pid by postinst"
else
  fail 9.restarted "after dpkg -i: $(prop ActiveState), main pid $old_pid -> $new_pid"
fi
check_eq 9.still_enabled "$(systemctl is-enabled "$unit" "$sock" | tr '\n' ' ')" "enabled enabled " "$unit and $sock, enabled before the upgrade"
check_eq 9.conffile_kept "$(md5sum "$conf" | cut -d' ' -f1)" "$conf_sum" "the changed $conf"
rounds_after=$(ctl_json /tmp/h9.json history --limit 1000 && nb_vm_json --length /rounds </tmp/h9.json)
check_ge 9.state_kept "${rounds_after:-0}" "${rounds_before:-1}" "rounds in the history after the upgrade"
run_timed /tmp/dpkg-r.out 300 dpkg -r numabalancer
check_eq 9.remove "$RUN_STATUS" 0 "dpkg -r $(tail -n 2 /tmp/dpkg-r.out.err | tr '\n' ' ')"
check_eq 9.stopped "$(systemctl is-active "$unit" "$sock" | tr '\n' ' ')" "inactive inactive " "service and socket after dpkg -r"
if [ -f "$conf" ] && [ -d "$state_dir" ] && [ ! -e /usr/sbin/numabalancerd ] &&
  [ -L "/etc/systemd/system/multi-user.target.wants/$unit" ]; then
  pass 9.remove_keeps "binaries gone; $conf, $state_dir and the enable links kept"
else
  fail 9.remove_keeps "after dpkg -r: conf $(test -f "$conf" && echo kept || echo gone), state $(test -d "$state_dir" && echo kept || echo gone), binary $(test -e /usr/sbin/numabalancerd && echo left || echo gone), enable link $(test -L "/etc/systemd/system/multi-user.target.wants/$unit" && echo kept || echo gone)"
fi
run_timed /tmp/dpkg-purge.out 300 dpkg --purge numabalancer
check_eq 9.purge "$RUN_STATUS" 0 "dpkg --purge $(tail -n 2 /tmp/dpkg-purge.out.err | tr '\n' ' ')"
links="/etc/systemd/system/multi-user.target.wants/$unit /etc/systemd/system/sockets.target.wants/$sock"
if [ ! -e "$conf" ] && [ ! -e "$state_dir" ] && [ ! -e /var/log/numabalancer ] &&
  ! ls -d $links >/dev/null 2>&1; then
  pass 9.purge_removes "$conf, $state_dir, /var/log/numabalancer and the enable links removed"
else
  fail 9.purge_removes "after dpkg --purge: $(ls -d "$conf" "$state_dir" /var/log/numabalancer $links 2>/dev/null | tr '\n' ' ')left"
fi

finish
