#!/usr/bin/env bash
# The soak and chaos run (issue #34): a real numabalancerd on this host for SECONDS under
#   - container churn: cgroups matching both pools, each with a workload that allocates, fills its
#     memory with a pattern and exits (SIGTERM: it verifies the pattern first) or is killed -9
#     (some while a migrate job walks them);
#   - the file provider's readings cycling calm, pressure, stale, malformed and missing;
#   - admin clients at a bounded rate: status, history, watch (connect, read, drop), reconcile,
#     migrate --dry-run, pause/resume, and an unprivileged client (nobody) whose mutating
#     commands must be refused;
#   - a reload every few seconds, alternately of a valid and an invalid config;
#   - kill -9 at a random moment (a random point of a round; every other one while a job runs)
#     and a restart, about every minute;
# and checks continuously and at the end:
#   - RSS and open fds, sampled after a warm-up, grow by no more than a bound (see rss_bound);
#   - each restart loads the state: every round the daemon reported before the kill is there
#     again, except at most the newest one (the round being written); the audit log parses with
#     at most a torn last line at each kill, and nothing else torn at the end;
#   - every admin request is answered within its deadline (p50/p99 printed);
#   - an invalid reload is refused and the old config kept; a valid one applied;
#   - the workloads' patterns hold; SIGTERM at the end stops the daemon within its grace (5 s).
# The figures are printed at the end; exit 0 when every check held, 1 otherwise, 2 on bad usage.
#
#   tests/soak/soak.sh [options] SECONDS
#     --daemon-dir DIR   the build tree holding numabalancerd and numabalancerctl (default build)
#     --workload FILE    nb_vm_workload (default DIR/tests/vm/nb_vm_workload, else build's)
#     --keep DIR         keep the work directory (logs, state, samples) in DIR
# Rates (environment, defaults in brackets): NB_SOAK_KILL_EVERY [60] seconds between kills
# (each one a random moment within ±25 %); NB_SOAK_RELOAD_EVERY [5] seconds between reloads;
# NB_SOAK_ADMIN_PER_S [4] admin requests per second at most; NB_SOAK_CHURN_PER_S [1] containers
# started per second, at most NB_SOAK_LIVE [8] at once, each NB_SOAK_MIB [8-48] MiB and living
# 1-10 s; NB_SOAK_DEADLINE [5] seconds an admin request may take (numabalancerctl's --timeout, and
# its wall time, its own start included); NB_SOAK_PHASE [6] seconds per provider phase; NB_SOAK_INTERVAL [500ms] the round
# interval; NB_SOAK_WARMUP [30] seconds after each start before RSS and fds count;
# NB_SOAK_STEADY [25 % of SECONDS] the last seconds run with no kill, so one process lives long
# enough for a slow leak to show; NB_SOAK_RSS_BOUND_KIB and NB_SOAK_FD_BOUND override the bounds.
# NB_SOAK_BREAK=what[,what] breaks one thing on purpose, to prove that its check fails the run:
# state (state.json deleted before each restart), audit (a line torn in the middle of the audit
# log), stall (the daemon stopped with SIGSTOP for twice the admin deadline mid-run), stop (SIGSTOP
# just before the final SIGTERM), sentinel (the sentinel's cgroup inside the share pool: on a
# multi-node machine its pages move), checksum (a workload's pattern damaged via /proc/PID/mem).
# Under an ASan build (detected from the binary) ASAN_OPTIONS caps the quarantine and LeakSanitizer
# checks the end; every report on the daemon's stderr fails the run.
set -Eeuo pipefail
# A command that ends the run through set -e says where, in every function and loop.
trap 'echo "soak.sh: line $LINENO: exit status $? ended $BASHPID" >&2' ERR
root=$(cd "$(dirname "$0")/../.." && pwd)

usage() {
  sed -n '/^#   tests\/soak/,/^#     --keep/p' "$0" | sed 's/^# \{0,1\}//' >&2
  exit 2
}

build=$root/build
workload=""
keep=""
while (($#)); do
  case $1 in
    --daemon-dir) build=$2; shift 2 ;;
    --workload) workload=$2; shift 2 ;;
    --keep) keep=$2; shift 2 ;;
    -h | --help) usage ;;
    -*) echo "soak.sh: unknown option $1" >&2; usage ;;
    *) break ;;
  esac
done
if (($# != 1)) || [[ ! $1 =~ ^[0-9]+$ ]]; then
  usage
fi
duration=$1
build=$(cd "$build" && pwd)
daemon_bin=$build/numabalancerd
ctl_bin=$build/numabalancerctl
if [[ -z $workload ]]; then
  workload=$build/tests/vm/nb_vm_workload
  [[ -x $workload ]] || workload=$root/build/tests/vm/nb_vm_workload
fi
for binary in "$daemon_bin" "$ctl_bin" "$workload"; do
  [[ -x $binary ]] || { echo "soak.sh: $binary is missing (build it first)" >&2; exit 2; }
done
[[ $(id -u) -eq 0 ]] || { echo "soak.sh: needs root (cgroups, kill -9, setpriv)" >&2; exit 2; }
command -v jq >/dev/null || { echo "soak.sh: needs jq (scripts/setup.sh --tests)" >&2; exit 2; }

kill_every=${NB_SOAK_KILL_EVERY:-60}
reload_every=${NB_SOAK_RELOAD_EVERY:-5}
admin_per_s=${NB_SOAK_ADMIN_PER_S:-4}
churn_per_s=${NB_SOAK_CHURN_PER_S:-1}
live_max=${NB_SOAK_LIVE:-8}
mib_range=${NB_SOAK_MIB:-8-48}
phase_s=${NB_SOAK_PHASE:-6}
interval=${NB_SOAK_INTERVAL:-500ms}
warmup=${NB_SOAK_WARMUP:-30}
steady=${NB_SOAK_STEADY:-$((duration / 4))}
# The deadline of an admin request: numabalancerctl's --timeout. A request that reaches it exits
# 3; one that is answered later than it (the client's own start included) counts as late too.
deadline_s=${NB_SOAK_DEADLINE:-5}
# SIGTERM must end the daemon within this (the tested bound of tests/daemon/cli/daemon_stop_test;
# the unit's TimeoutStopSec is 15 s).
grace_ms=5000

asan=0
# The runtime's name in the binary itself: `nm | grep -q` would fail under pipefail (nm killed by
# SIGPIPE once grep has its match), and the guest has no nm.
if grep -qa AddressSanitizer "$daemon_bin"; then
  asan=1
fi
# The bounds. RSS: after the warm-up the daemon holds what it keeps at its bound size -- 500 rounds
# of history (about 1-2 KiB each), 5 full reports, the audit-log reader's 4 MiB window while a
# `history --since` runs, glibc's per-thread arenas -- and nothing more accrues, so growth beyond
# what history still had to fill is a leak. 8 MiB covers the history filling up from empty to its
# 500 rounds during the run (under 1 MiB measured) and the allocator's high-water noise, and is
# small beside a leak of a connection's buffers (8 MiB cap each) or of a round record per round
# (1 KiB x 3600 rounds an hour). Under ASan the quarantine (capped at 16 MiB below) and its shadow
# memory move RSS by more than the daemon does, so the bound is 32 MiB there, and LeakSanitizer's
# report at the SIGTERM stop is the exact leak check.
# fds: the sample catches at most the soak's own clients in flight (one request, one watch, one
# unprivileged client) plus a job's pidfds and numa_maps file; 8 over the first sample is more.
if ((asan)); then
  rss_bound_kib=${NB_SOAK_RSS_BOUND_KIB:-$((32 * 1024))}
  export ASAN_OPTIONS=detect_leaks=1:abort_on_error=0:quarantine_size_mb=16:malloc_context_size=10
  export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
else
  rss_bound_kib=${NB_SOAK_RSS_BOUND_KIB:-$((8 * 1024))}
fi
fd_bound=${NB_SOAK_FD_BOUND:-8}
breaks=",${NB_SOAK_BREAK:-},"
breaking() { [[ $breaks == *",$1,"* ]]; }

work=$(mktemp -d /tmp/nb-soak.XXXXXX)
# nobody must reach the socket to be refused by the daemon, not by the file system.
chmod 755 "$work"
cgname=nb-soak-$$
memory_root=/sys/fs/cgroup/memory
if [[ ! -d $memory_root ]]; then
  memory_root=/sys/fs/cgroup  # cgroup v2 only
fi
cgroot=$memory_root/$cgname
# cg_mkdir PATH: a cgroup beneath cgroot; under cgroup v2 the memory controller is enabled on the
# way down, so that each container has its memory.numa_stat.
cg_mkdir() {
  local path=$memory_root part
  for part in $cgname ${1//\// }; do
    if [[ -f $path/cgroup.subtree_control ]]; then
      echo +memory >"$path/cgroup.subtree_control" 2>/dev/null || true
    fi
    path=$path/$part
    mkdir -p "$path"
  done
}
cg_mkdir share
cg_mkdir batch
# The nodes of this machine: with more than one, pressure on node 0 makes real jobs that move the
# containers' pages to the others; with one (this host) pressure rounds fail (no destination) and
# are kept, and the jobs are the admin clients' dry runs.
nodes=$(find /sys/devices/system/node -maxdepth 1 -name 'node[0-9]*' | wc -l)
state=$work/state
socket=$work/admin.sock
config=$work/config.toml
metrics=$work/metrics.json
audit=$work/audit.log
mkdir -p "$state" "$work/log" "$work/run"
: >"$work/failures"
: >"$work/checksum-failures"
pid=""
loops=()

ctl() { "$ctl_bin" --socket "$socket" --timeout "$deadline_s" "$@"; }
# bash's own clock: no fork per reading, and the guest's busybox date has no %N.
now_ms() {
  local t=${EPOCHREALTIME/[.,]/}
  echo $((t / 1000))
}
fail() {
  echo "FAIL $*" | tee -a "$work/failures" >&2
}
count() { echo 1 >>"$work/count.$1"; }
counted() { if [[ -f $work/count.$1 ]]; then wc -l <"$work/count.$1"; else echo 0; fi; }

cleanup() {
  local loop
  for loop in "${loops[@]}"; do
    kill -- "$loop" 2>/dev/null || true
  done
  for loop in "${loops[@]}"; do
    wait "$loop" 2>/dev/null || true
  done
  if [[ -n $pid ]] && kill -0 "$pid" 2>/dev/null; then
    kill -KILL "$pid" 2>/dev/null || true
  fi
  # Workloads left in the pools' cgroups, then the cgroups, deepest first.
  # shellcheck disable=SC2038 # xargs reads pids, not file names
  find "$cgroot" -name cgroup.procs -exec cat {} + 2>/dev/null | xargs -r kill -KILL 2>/dev/null || true
  sleep 0.2
  find "$cgroot" -depth -type d -exec rmdir {} + 2>/dev/null || true
  if [[ -n $keep ]]; then
    mkdir -p "$keep" && cp -a "$work/." "$keep/"
  fi
  rm -rf "$work"
}
trap cleanup EXIT

# write_config MARKER [INVALID]: the soak's config; MARKER (a [policy] min_improvement) tells
# which valid file the daemon runs with; INVALID adds a bad interval, which validation rejects.
write_config() {
  local daemon_interval=$interval
  if [[ ${2:-} == invalid ]]; then
    daemon_interval="soon"
  fi
  cat >"$config.tmp" <<TOML
[daemon]
interval = "$daemon_interval"
dry_run = false
log_level = "warn"
state_dir = "$state"
lock_file = "$work/run/numabalancerd.lock"

[admin]
socket = "$socket"
# Readable by everyone, so the unprivileged client reaches the daemon and is refused by it.
socket_mode = "0666"
admin_group = ""
max_clients = 16

[policy]
# The seed's strategy with absolute thresholds: the file provider's 200 ns pressure phase puts
# node 0 under force pressure every round.
strategy = "katalyst"
threshold_mode = "absolute"
container_min_bytes = "1MiB"
reclaim_container_min_bytes = "1MiB"
supported_pools = ["share"]
reclaim_pool = "reclaim"
min_interval = "0s"
min_improvement = $1

[[pool]]
name = "share"
cgroups = ["$cgname/share/*"]

[[pool]]
name = "reclaim"
cgroups = ["$cgname/batch/**"]

[metrics]
latency = "file"
bandwidth = "file"

[metrics.file]
path = "$metrics"
max_age = "3s"

[actuator]
# auto: hot_first where the kernel has DAMON (the 6.12 guest), so kills also land while a kdamond
# watches; address order elsewhere.
page_order = "auto"
hotness_window = "1s"
rate_limit = 64
# The guest's nodes have 512 MiB; the default floor (1 GiB) would rule every destination out.
min_free_bytes = "16MiB"

[export]
audit_log = "$audit"
# Small, so that the log rotates during a long run.
audit_log_max_bytes = "1MiB"
textfile = "$work/numabalancer.prom"
TOML
  mv "$config.tmp" "$config"
}

# ---- the daemon ------------------------------------------------------------------------------
incarnation=0
started_ms=0
start_daemon() {
  incarnation=$((incarnation + 1))
  "$daemon_bin" --config "$config" >>"$work/log/daemon.$incarnation.log" 2>&1 &
  pid=$!
  started_ms=$(now_ms)
  local waited
  for waited in $(seq 300); do
    if ctl status >/dev/null 2>&1; then
      echo "$incarnation" >"$work/incarnation"
      rm -f "$work/down"
      return 0
    fi
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.1
  done
  fail "start: incarnation $incarnation did not answer status within 30 s (waited $waited)" \
    "$(tail -n 5 "$work/log/daemon.$incarnation.log" | tr '\n' ' ')"
  return 1
}

rss_kib() {
  local rss
  rss=$(awk '/^VmRSS:/ {print $2}' "/proc/$1/status" 2>/dev/null) || true
  echo "${rss:-0}"
}
# A glob, not find: an fd closed between the directory read and find's look at it made busybox's
# find fail, and with it (set -e) the whole run in the guest.
fd_count() {
  local open=("/proc/$1/fd/"*)
  [[ -e ${open[0]} || -L ${open[0]} ]] || open=()
  echo "${#open[@]}"
}

# history_numbers FILE: the kept rounds' numbers, one a line, ascending.
history_numbers() {
  ctl --json history -n 1000 >"$1.json" 2>/dev/null || return 1
  jq -r '.rounds[]?.number' "$1.json" | sort -n >"$1"
}

# audit_check WHEN: every line of the audit log (and its rotated .1) is JSON but possibly the
# last line of audit.log, which a kill may have torn; returns the number of torn lines seen.
audit_check() {
  local file bad torn=0 lines
  for file in "$audit.1" "$audit"; do
    [[ -f $file ]] || continue
    lines=$(wc -l <"$file")
    # Line numbers of the lines that are not JSON; jq numbers a last line without its newline as
    # the line before it, which is wc -l's count.
    bad=$(jq -R -r 'try (fromjson | empty) catch input_line_number' "$file" 2>/dev/null || echo parse-error)
    [[ -z $bad ]] && continue
    if [[ $file == "$audit" && $bad == "$lines" ]] && [[ -n $(tail -c 1 "$file") ]]; then
      torn=$((torn + 1))
    else
      echo "$bad" | tr '\n' ' ' >"$work/audit-bad"
    fi
  done
  echo "$torn"
}

# metrics_doc TIME NODE0_NS: the file provider's document; node 0 reads NODE0_NS (and 40 GB/s when
# above 100 ns), every other node 60 ns and 5 GB/s.
metrics_doc() {
  local node entries="" bandwidth=5
  (($2 > 100)) && bandwidth=40
  entries="{\"id\": 0, \"read_latency_ns\": $2, \"bandwidth_gbps\": $bandwidth}"
  for ((node = 1; node < nodes; node++)); do
    entries="$entries, {\"id\": $node, \"read_latency_ns\": 60, \"bandwidth_gbps\": 5}"
  done
  echo "{\"time\": $1, \"nodes\": [$entries]}"
}

# ---- load loops (each in the background until killed) -----------------------------------------
# The provider's readings: each phase NB_SOAK_PHASE seconds, rewritten every second so that calm
# and pressure stay fresh (max_age 3 s).
metrics_loop() {
  local phases=(calm pressure stale malformed missing) i=0 phase started=$SECONDS now
  while :; do
    phase=${phases[$(((SECONDS - started) / phase_s % 5))]}
    now=$(date +%s)
    case $phase in
      calm) metrics_doc "$now" 60 >"$metrics.tmp" ;;
      pressure) metrics_doc "$now" 200 >"$metrics.tmp" ;;
      stale) metrics_doc $((now - 600)) 200 >"$metrics.tmp" ;;
      malformed) metrics_doc "$now" 200 | head -c 50 >"$metrics.tmp" ;;
      missing) rm -f "$metrics" "$metrics.tmp" ;;
    esac
    if [[ -f $metrics.tmp ]]; then
      mv "$metrics.tmp" "$metrics"
    fi
    i=$((i + 1))
    sleep 1
  done
}

# One container's life: a cgroup in one of the pools, a workload of a random size in it, a random
# life, then SIGTERM (the workload verifies its pattern and exits 0 only when it held) or, one in
# four, SIGKILL (it vanishes, maybe under a job), and the cgroup removed.
container_life() {
  local n=$1 pool dir mib life wl status
  if ((RANDOM % 2)); then pool=share; else pool=batch/q$((RANDOM % 3)); fi
  cg_mkdir "$pool/c$n"
  dir=$cgroot/$pool/c$n
  mib=$((${mib_range%-*} + RANDOM % (${mib_range#*-} - ${mib_range%-*} + 1)))
  life=$((1 + RANDOM % 10))
  # The subshell joins the cgroup first, so the workload's every page is charged there.
  (echo "$BASHPID" >"$dir/cgroup.procs" && exec "$workload" --mib "$mib" --node 0) \
    </dev/null >"$work/log/wl.$n" 2>&1 &
  wl=$!
  sleep "$life"
  if breaking checksum && ((n % 5 == 0)); then
    # One byte of the pattern flipped through /proc/PID/mem, a page into the region.
    local base
    base=$(sed -n 's/^ready .*base=\(0x[0-9a-f]*\).*/\1/p' "$work/log/wl.$n")
    if [[ -n $base ]]; then
      printf '\377' | dd of="/proc/$wl/mem" bs=1 seek=$((base + 4096 + 8)) conv=notrunc 2>/dev/null || true
    fi
  fi
  if ((RANDOM % 4 == 0)); then
    kill -KILL "$wl" 2>/dev/null || true
    wait "$wl" 2>/dev/null || true
    count killed
  else
    kill -TERM "$wl" 2>/dev/null || true
    status=0
    wait "$wl" || status=$?
    if [[ $status != 0 ]] || ! grep -q "exit intact=1" "$work/log/wl.$n"; then
      echo "container $n: workload exit $status: $(tail -n 2 "$work/log/wl.$n" | tr '\n' ' ')" >>"$work/checksum-failures"
    fi
    count exited
  fi
  rm -f "$work/log/wl.$n"
  # A memory cgroup with no task left may still be busy for a moment in v1.
  for _ in 1 2 3 4 5; do
    rmdir "$dir" 2>/dev/null && break
    sleep 0.2
  done
  [[ -d $dir ]] && echo "$dir" >>"$work/cgroups-left"
  return 0
}

churn_loop() {
  local n=0 pause_s
  pause_s=$(awk -v r="$churn_per_s" 'BEGIN { printf "%.3f", 1 / r }')
  while :; do
    if (($(jobs -rp | wc -l) < live_max)); then
      n=$((n + 1))
      container_life "$n" &
      count containers
    fi
    sleep "$pause_s"
  done
}

# A live container of the pools, for migrate --dry-run (may vanish at any moment: that is the
# point).
some_container() {
  local dirs
  mapfile -t dirs < <(find "$cgroot" -mindepth 2 -name 'c*' -type d 2>/dev/null)
  ((${#dirs[@]})) || return 1
  echo "${dirs[$((RANDOM % ${#dirs[@]}))]#"$memory_root"/}"
}

# timed KIND EXPECTED... -- COMMAND...: runs one admin request, logs "KIND ms status excused" to
# admin.log. A request during which the daemon was killed or restarted is excused (it may find no
# daemon); any other must end with one of the EXPECTED statuses, within the deadline.
timed() {
  local kind=$1 expected=() status=0 begin end before after excused=0
  shift
  while [[ $1 != -- ]]; do expected+=("$1"); shift; done
  shift
  # ran: this request ran and no kill cut it, so its output may be judged by the caller (a skipped
  # one would leave the previous request's output in admin.out).
  ran=0
  : >"$work/admin.out"
  before=$(cat "$work/incarnation" 2>/dev/null || echo 0)
  [[ -f $work/down ]] && return 0
  begin=$(now_ms)
  # In a subshell whose stderr is dropped: the shell's "Killed" notice for a watch that timeout
  # killed would otherwise land in the soak's output.
  ("$@" >"$work/admin.out" 2>&1) 2>/dev/null || status=$?
  end=$(now_ms)
  after=$(cat "$work/incarnation" 2>/dev/null || echo 0)
  if [[ $before != "$after" || -f $work/down ]]; then
    excused=1
  fi
  echo "$kind $((end - begin)) $status $excused" >>"$work/admin.log"
  if ((excused)); then
    return 0
  fi
  ran=1
  if [[ " ${expected[*]} " != *" $status "* ]]; then
    fail "admin: $kind exited $status (expected ${expected[*]}): $(head -c 300 "$work/admin.out" | tr '\n' ' ')"
  elif ((end - begin > deadline_s * 1000)); then
    fail "admin: $kind took $((end - begin)) ms, beyond its ${deadline_s} s deadline"
  fi
  return 0
}

admin_loop() {
  local pause_s cgroup paused=0 ran=0 nobody=(setpriv --reuid=65534 --regid=65534 --clear-groups)
  pause_s=$(awk -v r="$admin_per_s" 'BEGIN { printf "%.3f", 1 / r }')
  while :; do
    case $((RANDOM % 10)) in
      0 | 1) timed status 0 -- ctl --json status ;;
      2) timed history 0 -- ctl --json history -n 50 ;;
      3)
        # Connect, read one event, or be dropped (killed: 137) after 1.5 s, whichever comes first.
        timed watch 0 137 -- timeout -s KILL 1.5 "$ctl_bin" --socket "$socket" --timeout "$deadline_s" watch -n 1
        ;;
      4) timed reconcile 0 1 -- ctl --json reconcile ;;
      5)
        if cgroup=$(some_container); then
          # 0: found something; 1: the job found nothing or the cgroup vanished, or a job runs;
          # 2: a bad request, here node 1 on a one-node host.
          timed migrate 0 1 2 -- ctl --json migrate --cgroup "$cgroup" --from 0 --to 1 --dry-run
          if ((!ran)); then
            :
          elif grep -q 'unknown node' "$work/admin.out"; then
            count migrate-refused
          elif grep -q '"bytes_on_source"' "$work/admin.out"; then
            count jobs
          fi
        fi
        ;;
      6)
        if ((paused)); then timed resume 0 -- ctl resume; paused=0; else timed pause 0 -- ctl pause; paused=1; fi
        ;;
      7)
        # An unprivileged client: reading is open, changing is refused by the daemon (exit 1).
        timed nobody-pause 1 -- "${nobody[@]}" "$ctl_bin" --socket "$socket" --timeout "$deadline_s" pause
        if ((!ran)); then
          :
        elif grep -qi "permission\|denied\|not allowed\|admin" "$work/admin.out"; then
          count refused
        else
          fail "admin: nobody's pause was not refused: $(head -c 200 "$work/admin.out")"
        fi
        ;;
      8) timed nobody-status 0 -- "${nobody[@]}" "$ctl_bin" --socket "$socket" --timeout "$deadline_s" --json status ;;
      9) timed history-since 0 -- ctl --json history --since 10m ;;
    esac
    sleep "$pause_s"
  done
}

# The sentinel: a workload in a cgroup outside every pool, its pages on node 0. No round and no
# job may move a page of it: its own move_pages(2) query ("where") must find all of its region on
# node 0 at every kill and at the end, and its pattern must hold.
sentinel_pid=""
sentinel_bytes=0
start_sentinel() {
  local where=sentinel
  if breaking sentinel; then where=share/sentinel; fi
  cg_mkdir "$where"
  (echo "$BASHPID" >"$cgroot/$where/cgroup.procs" &&
    exec "$workload" --mib "${NB_SOAK_SENTINEL_MIB:-32}" --node 0) </dev/null >"$work/sentinel.out" 2>&1 &
  sentinel_pid=$!
  for _ in $(seq 300); do
    grep -q '^ready' "$work/sentinel.out" && break
    sleep 0.1
  done
  sentinel_bytes=$(sed -n 's/^ready .*bytes=\([0-9]*\).*/\1/p' "$work/sentinel.out")
  if [[ -z $sentinel_bytes ]]; then
    echo "soak.sh: the sentinel workload did not start: $(cat "$work/sentinel.out")" >&2
    exit 2
  fi
}
# sentinel_check WHEN: all of the sentinel's region still on node 0.
sentinel_check() {
  local before on0 line
  before=$(grep -c '^where' "$work/sentinel.out" || true)
  kill -USR2 "$sentinel_pid" 2>/dev/null || { fail "sentinel: gone $1"; return; }
  for _ in $(seq 100); do
    (($(grep -c '^where' "$work/sentinel.out" || true) > before)) && break
    sleep 0.05
  done
  line=$(grep '^where' "$work/sentinel.out" | tail -n 1)
  on0=$(echo "$line" | tr ' ' '\n' | sed -n 's/^N0=//p')
  # "where" leaves out the nodes it found no page on.
  [[ -n $line ]] && on0=${on0:-0}
  if [[ $on0 != "$sentinel_bytes" ]]; then
    fail "sentinel: $1 its region has ${on0:-?} of $sentinel_bytes bytes on node 0 ($line)"
  fi
  sentinel_checks=$((sentinel_checks + 1))
}
sentinel_checks=0

# kdamonds: DAMON's kernel threads. The daemon starts one per hot_first job (on a kernel with
# DAMON) and must stop it, also when a restart finds one that a killed predecessor left.
kdamonds() {
  local comm count=0
  for comm in /proc/[0-9]*/comm; do
    [[ $(cat "$comm" 2>/dev/null) == kdamond* ]] && count=$((count + 1))
  done
  echo "$count"
}

# collect_history FILE: the rounds the daemon keeps, added to rounds.jsonl (a round's last copy
# wins), so that the figures at the end count every round across the incarnations.
collect_history() {
  jq -c '.rounds[]?' "$1" >>"$work/rounds.jsonl" 2>/dev/null || true
}

# ---- the run -----------------------------------------------------------------------------------
marker=0.1
write_config "$marker"
"$daemon_bin" --check-config "$config" >"$work/check.out" 2>&1 ||
  { cat "$work/check.out"; echo "soak.sh: the soak's config is invalid" >&2; exit 2; }
metrics_doc "$(date +%s)" 60 >"$metrics"
echo 0 >"$work/incarnation"
start_sentinel
kdamonds_before=$(kdamonds)
start_daemon || exit 1

metrics_loop &
loops+=($!)
churn_loop &
loops+=($!)
admin_loop &
loops+=($!)

echo "soak: ${duration}s of numabalancerd ($daemon_bin$( ((asan)) && echo ", ASan+UBSan")), kill every ~${kill_every}s but the last ${steady}s, reload every ${reload_every}s, admin ≤ ${admin_per_s}/s, ${churn_per_s} container/s (≤ ${live_max} live, ${mib_range} MiB)"

begin_s=$SECONDS
next_reload=$((SECONDS + reload_every))
next_kill=$((SECONDS + kill_every * 3 / 4 + RANDOM % (kill_every / 2 + 1)))
kills=0
kills_mid_job=0
restarts=0
lost_rounds=0
torn_rounds=0
torn_audit=0
reloads_valid=0
reloads_invalid=0
rounds_total=0
rss_first="" rss_last="" fd_first="" fd_last="" rss_peak=0 fd_peak=0
steady_rss_first="" steady_fd_first=""
# rss/fd at the end of warm-up of the first and of the last incarnation: state that grows across
# restarts shows here.
: >"$work/samples"
next_sample=$SECONDS

# rounds_of_incarnation: the status's round count of the running daemon (added up over the run).
status_rounds() { ctl --json status 2>/dev/null | jq -r '.rounds // 0' 2>/dev/null || echo 0; }

while ((SECONDS - begin_s < duration)); do
  elapsed=$((SECONDS - begin_s))
  # Samples, once a second after this incarnation's warm-up.
  if ((SECONDS >= next_sample)) && (($(now_ms) - started_ms >= warmup * 1000)); then
    next_sample=$((SECONDS + 1))
    rss=$(rss_kib "$pid")
    fds=$(fd_count "$pid")
    echo "$elapsed $incarnation $rss $fds" >>"$work/samples"
    [[ -z $rss_first ]] && rss_first=$rss && fd_first=$fds
    rss_last=$rss fd_last=$fds
    ((rss > rss_peak)) && rss_peak=$rss
    ((fds > fd_peak)) && fd_peak=$fds
    if ((elapsed >= duration - steady)); then
      if [[ -z $steady_rss_first ]]; then
        steady_rss_first=$rss steady_fd_first=$fds steady_incarnation=$incarnation
        steady_rss_start=$rss steady_fd_start=$fds
      elif [[ $steady_incarnation == "$incarnation" ]]; then
        if ((rss - steady_rss_first > rss_bound_kib)); then
          fail "rss: grew from $steady_rss_first to $rss KiB in one process after warm-up (bound $rss_bound_kib KiB)"
          steady_rss_first=$rss  # said once per bound crossed
        fi
        if ((fds - steady_fd_first > fd_bound)); then
          fail "fds: grew from $steady_fd_first to $fds after warm-up (bound +$fd_bound)"
          steady_fd_first=$fds
        fi
      fi
    fi
  fi

  if breaking stall && ((elapsed >= duration / 2)) && [[ -z ${stalled:-} ]]; then
    stalled=1
    kill -STOP "$pid"
    sleep $((deadline_s * 2))
    kill -CONT "$pid"
  fi

  if ((SECONDS >= next_reload)); then
    next_reload=$((SECONDS + reload_every))
    if (((reloads_valid + reloads_invalid) % 2)); then
      # Invalid: refused (exit 1), the old config kept; the file is made valid again at once, so
      # that a restart never meets it.
      write_config "$marker" invalid
      status=0
      ctl reload >"$work/reload.out" 2>&1 || status=$?
      write_config "$marker"
      if [[ $status == 1 ]]; then
        kept=$(ctl --json config 2>/dev/null | jq -r '.policy.min_improvement // empty' 2>/dev/null || true)
        if [[ $kept != "$marker" ]]; then
          fail "reload: after an invalid config the daemon runs min_improvement=${kept:-?}, not the old $marker"
        fi
        reloads_invalid=$((reloads_invalid + 1))
      else
        fail "reload: an invalid config was not refused (exit $status): $(head -c 300 "$work/reload.out")"
      fi
    else
      if [[ $marker == 0.1 ]]; then marker=0.2; else marker=0.1; fi
      write_config "$marker"
      status=0
      ctl reload >"$work/reload.out" 2>&1 || status=$?
      now=$(ctl --json config 2>/dev/null | jq -r '.policy.min_improvement // empty' 2>/dev/null || true)
      if [[ $status != 0 ]]; then
        fail "reload: a valid config was refused (exit $status): $(head -c 300 "$work/reload.out")"
      elif [[ $now != "$marker" ]]; then
        fail "reload: applied, yet the daemon runs min_improvement=${now:-?}, not $marker"
      else
        reloads_valid=$((reloads_valid + 1))
      fi
    fi
  fi

  if ((SECONDS >= next_kill && elapsed < duration - steady)); then
    next_kill=$((SECONDS + kill_every * 3 / 4 + RANDOM % (kill_every / 2 + 1)))
    if ! history_numbers "$work/before"; then
      fail "kill: history did not answer before kill $((kills + 1))"
      : >"$work/before"
    fi
    collect_history "$work/before.json"
    rounds_total=$((rounds_total + $(status_rounds)))
    sentinel_check "before kill $((kills + 1))"
    # Every other kill lands while a job walks the pools' containers.
    if ((kills % 2)) && cgroup=$(some_container); then
      # Counted only when the job started: a one-node host refuses node 1 as unknown.
      if ctl --json migrate --cgroup "$cgroup" --from 0 --to 1 --dry-run --no-wait >/dev/null 2>&1; then
        kills_mid_job=$((kills_mid_job + 1))
      fi
    fi
    # A random moment of a round (the interval is 500 ms by default).
    sleep "0.$((RANDOM % 1000))"
    touch "$work/down"
    kill -KILL "$pid"
    wait "$pid" 2>/dev/null || true
    kills=$((kills + 1))
    torn=$(audit_check)
    torn_audit=$((torn_audit + torn))
    if [[ -s $work/audit-bad ]]; then
      fail "audit: after kill $kills lines $(cat "$work/audit-bad") do not parse (only a torn last line may)"
      : >"$work/audit-bad"
    fi
    cp "$state/state.json" "$work/state-at-kill-$kills.json" 2>/dev/null || true
    if breaking state; then rm -f "$state/state.json"; fi
    if breaking audit && [[ -f $audit ]]; then
      sed -i '1s/$/ {"torn/' "$audit"
    fi
    if start_daemon; then
      restarts=$((restarts + 1))
      history_numbers "$work/after" || : >"$work/after"
      # A round kept before the kill and missing after: lost, unless older than every round kept
      # now (the history drops its oldest beyond 500) or the newest before the kill (the one
      # being written may be lost with the kill).
      oldest=$(head -n 1 "$work/after")
      newest_before=$(tail -n 1 "$work/before")
      # (grep -f of an empty file matches nothing in busybox, everything in GNU grep: an empty
      # history after the restart is said explicitly.)
      [[ -s $work/after ]] || echo "none" >"$work/after"
      missing=$({ grep -vxF -f "$work/after" "$work/before" || true; } | sort -n |
        awk -v oldest="${oldest:-0}" -v have="$(wc -l <"$work/after")" '$1 >= oldest || have == 0')
      if [[ -n $missing ]]; then
        n_missing=$(echo "$missing" | wc -l)
        if [[ $n_missing == 1 && $missing == "$newest_before" ]]; then
          torn_rounds=$((torn_rounds + 1))
        else
          lost_rounds=$((lost_rounds + n_missing))
          fail "state: kill $kills lost rounds $(echo "$missing" | tr '\n' ' ')(kept before: $(wc -l <"$work/before"), after: $(wc -l <"$work/after"))"
        fi
      fi
    else
      break
    fi
  fi
  sleep 0.2
done

# ---- the end ------------------------------------------------------------------------------------
for loop in "${loops[@]}"; do
  kill -- "$loop" 2>/dev/null || true
done
for loop in "${loops[@]}"; do
  wait "$loop" 2>/dev/null || true
done
loops=()
# Containers still alive end their lives (their checks included).
for _ in $(seq 150); do
  [[ -n $(find "$cgroot" -mindepth 2 -name 'c*' -type d 2>/dev/null) ]] || break
  sleep 0.1
done

rounds_total=$((rounds_total + $(status_rounds)))
history_numbers "$work/final" || : >"$work/final"
collect_history "$work/final.json"
sentinel_check "at the end"
term_begin=$(now_ms)
stop_status=0
if breaking stop; then kill -STOP "$pid"; fi
if kill -0 "$pid" 2>/dev/null; then
  kill -TERM "$pid"
  for _ in $(seq $((grace_ms / 50 + 200))); do
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.05
  done
  if kill -0 "$pid" 2>/dev/null; then
    fail "stop: SIGTERM did not stop the daemon within $((grace_ms + 10000)) ms"
    kill -CONT "$pid"
    kill -KILL "$pid"
  fi
  wait "$pid" || stop_status=$?
else
  fail "stop: the daemon was not running at the end: $(tail -n 5 "$work/log/daemon.$incarnation.log" | tr '\n' ' ')"
fi
stop_ms=$(($(now_ms) - term_begin))
if ((stop_ms > grace_ms)); then
  fail "stop: SIGTERM took $stop_ms ms (grace $grace_ms ms)"
fi
if [[ $stop_status != 0 ]]; then
  fail "stop: the daemon exited $stop_status after SIGTERM"
fi
pid=""
# The stop writes the whole state anew: it must hold every round the daemon kept at the end.
jq -r 'select(.round) | .round.number' "$state/state.json" 2>/dev/null | sort -u >"$work/stopped"
[[ -s $work/stopped ]] || echo "none" >"$work/stopped"
not_saved=$({ grep -vxF -f "$work/stopped" "$work/final" || true; } | tr '\n' ' ')
if [[ -n $not_saved ]]; then
  fail "state: the state written at stop lacks rounds the daemon reported last: $not_saved"
fi
torn_end=$(audit_check)
if [[ -s $work/audit-bad ]] || ((torn_end > 0)); then
  # A torn line is allowed only where a kill left one; an orderly stop tears nothing.
  fail "audit: at the end, lines $(cat "$work/audit-bad" 2>/dev/null) $( ((torn_end)) && echo "(torn last line)") do not parse"
fi
kdamonds_left=$(($(kdamonds) - kdamonds_before))
if ((kdamonds_left > 0)); then
  fail "damon: $kdamonds_left kdamond threads left after the daemon stopped"
fi
kill -TERM "$sentinel_pid" 2>/dev/null || true
wait "$sentinel_pid" 2>/dev/null || true
if ! grep -q 'exit intact=1' "$work/sentinel.out"; then
  fail "sentinel: its pattern did not hold: $(tail -n 2 "$work/sentinel.out" | tr '\n' ' ')"
fi
audit_lines=$({ cat "$audit.1" "$audit" 2>/dev/null || true; } | wc -l)
# Every sanitizer report and every crash the daemon's stderr holds, in any incarnation.
if grep -l -E "ERROR: (AddressSanitizer|LeakSanitizer)|runtime error:|SUMMARY: UndefinedBehaviorSanitizer|terminate called|Segmentation fault" "$work"/log/daemon.*.log >"$work/sanitizer-logs" 2>/dev/null; then
  while read -r log; do
    fail "sanitizer/crash report in $(basename "$log"): $(grep -m 3 -E "ERROR:|runtime error:|SUMMARY:|terminate" "$log" | tr '\n' ' ')"
  done <"$work/sanitizer-logs"
fi
if [[ -s $work/checksum-failures ]]; then
  fail "workloads: $(wc -l <"$work/checksum-failures") ended with their pattern broken or a bad exit: $(head -n 3 "$work/checksum-failures" | tr '\n' ' ')"
fi
if [[ -s $work/cgroups-left ]]; then
  fail "cgroups: $(wc -l <"$work/cgroups-left") could not be removed after their workload ended"
fi
# Across restarts: the last incarnation's first sample after warm-up against the first one's.
first_inc_rss=$(awk -v i=1 '$2 == i { print $3; exit }' "$work/samples")
last_inc_rss=$(awk -v i="$incarnation" '$2 == i { print $3; exit }' "$work/samples")
if [[ -n $first_inc_rss && -n $last_inc_rss ]] && ((last_inc_rss - first_inc_rss > rss_bound_kib)); then
  fail "rss: a fresh daemon after warm-up holds $last_inc_rss KiB at the end, $first_inc_rss KiB at the start (bound $rss_bound_kib KiB)"
fi
if [[ -z $steady_rss_first ]]; then
  fail "rss: no sample in the last ${steady}s after warm-up (run longer than the warm-up of ${warmup}s)"
fi

admin_requests=$(awk '!$4' "$work/admin.log" 2>/dev/null | wc -l)
admin_excused=$(awk '$4' "$work/admin.log" 2>/dev/null | wc -l)
# Latency over the requests that are answered at once: a watch waits for an event by design (its
# deadline is checked above all the same).
read -r p50 p99 pmax < <(awk '!$4 && $1 != "watch" { print $2 }' "$work/admin.log" 2>/dev/null | sort -n |
  awk '{ v[NR] = $1 } END { if (NR == 0) { print "- - -"; exit }
    i50 = int(NR * 0.50 + 0.999); i99 = int(NR * 0.99 + 0.999); print v[i50], v[i99], v[NR] }')
per_kind=$(awk '!$4 { n[$1]++; s[$1] += $2; if ($2 > m[$1]) m[$1] = $2 } END { for (k in n) printf "%s %d (mean %.0f, max %d ms); ", k, n[k], s[k] / n[k], m[k] }' "$work/admin.log" 2>/dev/null)
late=$(awk -v d=$((deadline_s * 1000)) '!$4 && ($2 > d || $3 == 3)' "$work/admin.log" 2>/dev/null | wc -l)
newest_round=$(tail -n 1 "$work/final")
# The rounds' jobs, each round counted once (its last copy) across every history collected.
read -r round_jobs moved_bytes vanished_pids < <(jq -s -r 'group_by(.number) | map(last) |
  map(select(.report != null)) | [length, (map(.moved_bytes) | add // 0),
  (map(.report.vanished_pids // 0) | add // 0)] | @tsv' "$work/rounds.jsonl" 2>/dev/null || echo "0 0 0")

cat <<FIGURES
== soak figures ($((SECONDS - begin_s)) s, $( ((asan)) && echo "ASan+UBSan build" || echo "-O2 build"), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg))
rounds            $rounds_total run (summed over the incarnations' status), newest kept round number ${newest_round:-none}
jobs              $round_jobs round jobs (moved $((moved_bytes / 1048576)) MiB, $vanished_pids processes vanished mid-move), $(counted jobs) migrate --dry-run jobs by admin clients ($(counted migrate-refused) refused: node 1 unknown on a one-node machine)
sentinel          $sentinel_checks checks, all of its $((sentinel_bytes / 1048576)) MiB on node 0 each time: $(grep -q '^FAIL sentinel' "$work/failures" && echo no || echo yes); kdamonds left: ${kdamonds_left}
containers        $(counted containers) started, $(counted exited) exited with their pattern checked, $(counted killed) killed -9; checksum failures $(wc -l <"$work/checksum-failures" 2>/dev/null || echo 0)
reloads           $reloads_valid valid applied, $reloads_invalid invalid refused with the old config kept
kills             $kills kill -9 ($kills_mid_job with a job just started), restarts $restarts
lost_rounds       $lost_rounds (besides $torn_rounds newest-round-at-kill losses, at most 1 per kill allowed)
audit_log         $audit_lines lines, $torn_audit torn last lines at kills, none elsewhere required
admin_requests    $admin_requests answered (+$admin_excused cut by a kill), p50 ${p50} ms, p99 ${p99} ms, max ${pmax} ms (numabalancerctl wall time, process start included, watch left out); over the ${deadline_s} s deadline: $late
admin_by_kind     $per_kind
refused_clients   $(counted refused) unprivileged pause requests refused
rss_kib           first sample $rss_first, last $rss_last, peak $rss_peak; last ${steady}s in one process: ${steady_rss_start:-?} -> $rss_last (bound +$rss_bound_kib)
fds               first sample $fd_first, last $fd_last, peak $fd_peak; last ${steady}s: ${steady_fd_start:-?} -> $fd_last (bound +$fd_bound)
sigterm_stop      $stop_ms ms (grace $grace_ms ms), exit $stop_status
FIGURES
if [[ -s $work/failures ]]; then
  echo "== soak: $(wc -l <"$work/failures") checks FAILED:"
  cat "$work/failures"
  exit 1
fi
echo "== soak: every check held"
