# shellcheck shell=sh
# Helpers for the guest's scenario scripts (busybox ash). Every check reports one line:
#   PASS <scenario>/<check> <detail>     FAIL <scenario>/<check> <detail>
# and figures as "RESULT name=value". The host counts the lines; /init ends with "done rc=N".

NB_RESULTS=/dev/ttyS1
NB_FAILURES=/tmp/nb-failures
NB_PIDS=/tmp/nb-pids
NB_CGROUP_ROOT=/sys/fs/cgroup
NB_TEST_CGROUP=$NB_CGROUP_ROOT/nbtest
MIB=1048576
# The guest's nodes have 512 MiB: the default free-memory floor of a destination (the larger of
# 1 GiB and 2% of the node) would rule every one of them out.
NB_CONFIG=/tmp/nb-guest.toml

nb_open_results() {
  # Raw mode: no \r added, nothing echoed back into the guest.
  stty -F "$NB_RESULTS" raw -echo 2>/dev/null
  : >"$NB_FAILURES"
  : >"$NB_PIDS"
  printf '[actuator]\nmin_free_bytes = "16MiB"\n' >"$NB_CONFIG"
}

say() { echo "$*" >"$NB_RESULTS"; }
info() { say "INFO ${SCENARIO:-init}: $*"; }
result() { say "RESULT $1"; }
pass() { say "PASS ${SCENARIO:-init}/$1 $2"; }
fail() {
  say "FAIL ${SCENARIO:-init}/$1 $2"
  echo "$1" >>"$NB_FAILURES"
}
# attach NAME FILE: sends a file to the host, which keeps it as results/<guest>/files/NAME.
attach() {
  [ -f "$2" ] || return 0
  sed "s|^|FILE $1 |" "$2" >"$NB_RESULTS"
}
nb_failure_count() { wc -l <"$NB_FAILURES" | tr -d ' '; }

# check_eq NAME ACTUAL EXPECTED [what]
check_eq() {
  if [ "$2" = "$3" ]; then
    pass "$1" "${4:-}${4:+: }$2"
  else
    fail "$1" "${4:-}${4:+: }got '$2', expected '$3'"
  fi
}

# check_near NAME ACTUAL EXPECTED SLACK [what]: |ACTUAL - EXPECTED| <= SLACK (integers).
check_near() {
  local diff=$(($2 - $3))
  [ "$diff" -lt 0 ] && diff=$((-diff))
  if [ "$diff" -le "$4" ]; then
    pass "$1" "${5:-}${5:+: }$2 (expected $3 +- $4)"
  else
    fail "$1" "${5:-}${5:+: }$2, expected $3 +- $4 (off by $diff)"
  fi
}

# check_le NAME ACTUAL LIMIT [what] / check_ge NAME ACTUAL LIMIT [what]
check_le() {
  if [ "$2" -le "$3" ]; then
    pass "$1" "${4:-}${4:+: }$2 <= $3"
  else
    fail "$1" "${4:-}${4:+: }$2 > $3"
  fi
}
check_ge() {
  if [ "$2" -ge "$3" ]; then
    pass "$1" "${4:-}${4:+: }$2 >= $3"
  else
    fail "$1" "${4:-}${4:+: }$2 < $3"
  fi
}

mib() { echo $(($1 / MIB)); }

# The topology the host declared: NB_NODES=N, NB_DISTANCES="10,20/20,10" (rows by node),
# NB_MEMORY_ONLY="3" (space- or comma-separated ids of CPU-less nodes, may be empty).
check_topology() {
  check_eq topology.online "$(cat /sys/devices/system/node/online)" "0-$((NB_NODES - 1))" "online nodes"
  local node=0 row expected
  for row in $(echo "$NB_DISTANCES" | tr '/' ' '); do
    expected=$(echo "$row" | tr ',' ' ')
    check_eq "topology.distance.node$node" "$(cat /sys/devices/system/node/node$node/distance)" "$expected"
    local cpus memory_only=no
    cpus=$(cat /sys/devices/system/node/node$node/cpulist)
    case ",$(echo "${NB_MEMORY_ONLY:-}" | tr ' ' ','),"  in *",$node,"*) memory_only=yes ;; esac
    if [ "$memory_only" = yes ]; then
      check_eq "topology.cpus.node$node" "${cpus:-none}" none "memory-only node has no CPUs"
    elif [ -n "$cpus" ]; then
      pass "topology.cpus.node$node" "cpus $cpus"
    else
      fail "topology.cpus.node$node" "node has no CPUs but was declared with some"
    fi
    node=$((node + 1))
  done
  check_eq topology.rows "$node" "$NB_NODES" "distance rows declared"
}

# Cgroups: the memory and cpuset controllers enabled down to each test cgroup.
cg_create() {
  local path=$NB_CGROUP_ROOT part
  for part in nbtest $(echo "$1" | tr '/' ' '); do
    echo "+memory +cpuset" >"$path/cgroup.subtree_control" 2>/dev/null
    path=$path/$part
    mkdir -p "$path"
  done
  echo "$path"
}

# node_free_bytes NODE: the node's free memory (MemFree of its meminfo), in bytes.
node_free_bytes() { awk '/MemFree/ { print $4 * 1024 }' "/sys/devices/system/node/node$1/meminfo"; }

# Anonymous bytes of a cgroup on a node, from memory.numa_stat ("anon N0=<bytes> N1=<bytes>").
numa_stat_anon() {
  awk -v key="N$2=" '$1 == "anon" { for (i = 2; i <= NF; i++) if (index($i, key) == 1) value = substr($i, length(key) + 1) }
      END { print value + 0 }' "$1/memory.numa_stat"
}

# Bytes of a process on a node according to /proc/PID/numa_maps (pages x the VMA's page size).
numa_maps_bytes() {
  awk -v key="N$2=" '{
      size = 4; for (i = 1; i <= NF; i++) if ($i ~ /^kernelpagesize_kB=/) size = substr($i, 19)
      for (i = 1; i <= NF; i++) if (index($i, key) == 1) total += substr($i, length(key) + 1) * size * 1024
    } END { print total + 0 }' "/proc/$1/numa_maps"
}

# numa_maps_anon_bytes PID NODE: like numa_maps_bytes, over mappings not backed by a file. Page
# cache of a binary or library shared with another container can legitimately sit anywhere: the
# other container's migration may have moved it while it was mapped only there.
numa_maps_anon_bytes() {
  awk -v key="N$2=" '/ file=/ { next } {
      size = 4; for (i = 1; i <= NF; i++) if ($i ~ /^kernelpagesize_kB=/) size = substr($i, 19)
      for (i = 1; i <= NF; i++) if (index($i, key) == 1) total += substr($i, length(key) + 1) * size * 1024
    } END { print total + 0 }' "/proc/$1/numa_maps"
}

# field LINE KEY: the value of KEY=value in a line of key=value words.
field() {
  echo "$1" | tr ' ' '\n' | awk -F= -v key="$2" '$1 == key { print substr($0, length(key) + 2); exit }'
}

# wait_line FILE FROM_LINE PREFIX TIMEOUT_S [PID]: the first line after FROM_LINE starting with
# PREFIX; gives up at the timeout, or as soon as process PID (the writer) is gone.
wait_line() {
  local deadline=$(($(cut -d. -f1 /proc/uptime) + $4)) line
  while :; do
    line=$(tail -n +"$(($2 + 1))" "$1" 2>/dev/null | grep -m 1 "^$3")
    if [ -n "$line" ]; then
      echo "$line"
      return 0
    fi
    [ "$(cut -d. -f1 /proc/uptime)" -ge "$deadline" ] && return 1
    [ -n "${5:-}" ] && ! kill -0 "$5" 2>/dev/null && return 1
    sleep 0.1
  done
}

lines_in() { if [ -f "$1" ]; then wc -l <"$1" | tr -d ' '; else echo 0; fi; }

# wl_start NAME CGROUP_DIR NODE ARGS...: starts nb_vm_workload inside the cgroup (it joins before
# it allocates, so the memory is charged there), waits until it is ready and sets WL_PID. Not to
# be called in $(…): the subshell would own the background processes.
wl_start() {
  local name=$1 cgroup=$2 node=$3
  shift 3
  local fifo=/tmp/wl.$name.in out=/tmp/wl.$name.out
  rm -f "$fifo" "$out"
  mkfifo "$fifo"
  sh -c "echo \$\$ >$cgroup/cgroup.procs && exec nb_vm_workload --node $node $*" <"$fifo" >"$out" 2>&1 &
  local pid=$!
  echo "$pid" >>"$NB_PIDS"
  # Holds the FIFO open, so each command written below does not end the workload's stdin.
  sleep 1000000 >"$fifo" &
  echo "$!" >>"$NB_PIDS"
  local ready
  if ! ready=$(wait_line "$out" 0 ready 120 "$pid"); then
    local why="still not ready after 120 s"
    kill -0 "$pid" 2>/dev/null || why="it died"
    dmesg | grep -q "Killed process $pid " && why="the OOM killer took it"
    fail "$name.ready" "workload ($*) did not become ready: $why $(tail -n 3 "$out" | tr '\n' ' ')"
    return 1
  fi
  WL_PID=$(field "$ready" pid)
}

# wl_stop PID: kills a workload and waits until it is reaped, i.e. until its memory is freed: an
# exiting process of hundreds of MiB takes the emulated CPU a while to tear down, and what runs
# meanwhile competes with it.
wl_stop() {
  kill -9 "$1" 2>/dev/null
  wait "$1" 2>/dev/null
}

# wl_ask NAME COMMAND PREFIX: sends a command and prints the reply line starting with PREFIX.
wl_ask() {
  local out=/tmp/wl.$1.out before
  before=$(lines_in "$out")
  echo "$2" >"/tmp/wl.$1.in"
  wait_line "$out" "$before" "$3" 120
}

# wl_verify NAME: checks the workload's data is intact.
wl_verify() {
  local reply
  reply=$(wl_ask "$1" verify verify)
  check_eq "$2" "$(field "$reply" ok)" 1 "data intact ($reply)"
}

# wl_bytes_on NAME NODE: the workload's own move_pages view of its bytes on a node.
wl_bytes_on() {
  local reply value
  reply=$(wl_ask "$1" where where)
  value=$(field "$reply" "N$2")
  echo "${value:-0}"
}

# wl_hot_bytes_on NAME NODE: the same for the hot tail of a workload started with --hot-tail-mib.
wl_hot_bytes_on() {
  local reply value
  reply=$(wl_ask "$1" where hot)
  value=$(field "$reply" "N$2")
  echo "${value:-0}"
}

# run_actuator_benches RUN...: a warm-up, then each RUN ("program [--flag value]") of the
# actuator's bench programs with their RESULT lines forwarded as "<program>[_<flag>_<value>].…".
# A warm-up first: the first moves of 4 KiB pages after the guest boots include calls hundreds of
# times slower than any later one (64 pages in 250 ms, against 1 ms), in whatever program makes
# them, and a later program never shows them (bench/README.md). The warm-up takes them, and its
# own tail is reported too, so the figures that follow are of a warm guest without hiding a cold
# one.
run_actuator_benches() {
  local run bench name
  if [ -x /nb/bin/bench_actuator_dense ]; then
    run_timed /tmp/warmup.out 300 /nb/bin/bench_actuator_dense --size-mib 64 --repeat 1
    check_eq "bench_warmup.exit" "$RUN_STATUS" 0 "warm-up bench ran ($((RUN_MS / 1000)) s)"
    grep '^RESULT bench=stall' /tmp/warmup.out | while read -r _ figure; do
      result "bench_actuator_dense_warmup.$figure"
    done
  fi
  ls /nb/bin/bench_actuator_* >/dev/null 2>&1 || info "no bench_actuator_* programs in this build"
  for run in "$@"; do
    set -- $run
    bench=/nb/bin/$1
    [ -x "$bench" ] || continue
    shift
    name=$(basename "$bench")${1:+_${1#--}_$2}
    run_timed "/tmp/$name.out" 300 "$bench" "$@"
    check_eq "$name.exit" "$RUN_STATUS" 0 "$name ran ($((RUN_MS / 1000)) s)"
    grep '^RESULT ' "/tmp/$name.out" | while read -r _ figure; do result "$name.$figure"; done
  done
}

nb_cleanup_scenario() {
  local pid
  for pid in $(cat "$NB_PIDS"); do kill -9 "$pid" 2>/dev/null; done
  : >"$NB_PIDS"
  sleep 0.2
  # Deepest first: a cgroup can be removed only once it has no children and no processes.
  if [ -d "$NB_TEST_CGROUP" ]; then
    find "$NB_TEST_CGROUP" -depth -type d -exec rmdir {} \; 2>/dev/null
  fi
}

# json FILE POINTER: one value of a JSON document (see nb_vm_json).
json() { nb_vm_json "$2" <"$1"; }

# run_timed OUT_FILE TIMEOUT_S COMMAND...: runs a command with stdout to OUT_FILE and stderr to
# OUT_FILE.err, under a timeout; sets RUN_STATUS and RUN_MS (elapsed milliseconds, rounded).
run_timed() {
  local out=$1 limit=$2
  shift 2
  nb_vm_timed timeout "$limit" "$@" >"$out" 2>"$out.err"
  RUN_STATUS=$?
  RUN_MS=$(sed -n 's/^elapsed_ms=\([0-9]*\).*/\1/p' "$out.err" | tail -n 1)
  RUN_MS=${RUN_MS:-0}
  attach "$(basename "$out")" "$out"
  attach "$(basename "$out").err" "$out.err"
}

# show_err FILE: the first lines of a command's stderr, on one line, for a failure's detail.
show_err() { grep -v '^elapsed_ms=' "$1.err" 2>/dev/null | head -n 3 | tr '\n' ' '; }

# wl_corrupt NAME PAGE: flips one byte of the workload's memory through /proc/PID/mem, so a test
# can prove that verify notices damage.
wl_corrupt() {
  local out=/tmp/wl.$1.out ready base pid
  ready=$(grep -m 1 '^ready' "$out")
  base=$(field "$ready" base)
  pid=$(field "$ready" pid)
  printf '\377' | dd of="/proc/$pid/mem" bs=1 seek=$((base + $2 * 4096 + 8)) conv=notrunc 2>/dev/null
}

# clean_exit NAME STATUS: 0 (threshold met) or 1 (partial) are a migration's acceptable outcomes.
clean_exit() {
  case $2 in
    0 | 1) pass "$1" "exit status $2" ;;
    124) fail "$1" "timed out" ;;
    *) fail "$1" "exit status $2" ;;
  esac
}

# --- The daemon (numabalancerd with a config file, driven through numabalancerctl) ---------------
# One daemon at a time. daemon_setup gives each scenario its own socket, lock, state and log, so
# that no history (cooldowns, ping-pong bans) leaks from one scenario into the next.
daemon_setup() {
  NBD_DIR=/tmp/nbd-$SCENARIO
  NBD_SOCKET=$NBD_DIR/admin.sock
  NBD_LOG=$NBD_DIR.log
  rm -rf "$NBD_DIR"
  mkdir -p "$NBD_DIR"
  : >"$NBD_LOG"
}

# file_metrics_toml PATH: the [metrics] sections that read latency and bandwidth from the JSON
# file PATH, which the scenarios rewrite to make a node hot.
file_metrics_toml() {
  cat <<TOML
[metrics]
latency = "file"
bandwidth = "file"

[metrics.file]
path = "$1"
format = "json"
max_age = "10m"
TOML
}

# file_metrics_and_actuator_toml PATH: file_metrics_toml, then an [actuator] that keeps 16 MiB free,
# which the small guest nodes need.
file_metrics_and_actuator_toml() {
  file_metrics_toml "$1"
  cat <<TOML

[actuator]
min_free_bytes = "16MiB"
TOML
}

# daemon_config_head: the [daemon] and [admin] tables of a guest daemon config. Rounds every
# second keep the scenarios short; the admin group is empty because the guest has no groups.
daemon_config_head() {
  cat <<TOML
[daemon]
interval = "1s"
state_dir = "$NBD_DIR/state"
lock_file = "$NBD_DIR/numabalancerd.lock"
log_level = "info"

[admin]
socket = "$NBD_SOCKET"
admin_group = ""
TOML
}

# write_metrics FILE ID:LATENCY_NS:BANDWIDTH_GBPS...: the `file` provider's JSON document.
write_metrics() {
  local file=$1 entry sep="" nodes=""
  shift
  for entry in "$@"; do
    set -- $(echo "$entry" | tr ':' ' ')
    nodes="$nodes$sep{\"id\": $1, \"read_latency_ns\": $2, \"bandwidth_gbps\": $3}"
    sep=", "
  done
  # Written aside and renamed, so the daemon never reads half a document.
  echo "{\"time\": \"$(date -u +%Y-%m-%dT%H:%M:%SZ)\", \"nodes\": [$nodes]}" >"$file.tmp"
  mv "$file.tmp" "$file"
}

ctl() { numabalancerctl --socket "$NBD_SOCKET" --timeout 20 "$@"; }

# ctl_json OUT COMMAND...: the daemon's raw JSON result in OUT; returns numabalancerctl's status.
ctl_json() {
  local out=$1
  shift
  ctl --json "$@" >"$out" 2>"$out.err"
}

now_s() { cut -d. -f1 /proc/uptime; }

# daemon_start CONFIG: starts numabalancerd in the background (NBD_PID) and waits until it
# answers `status`. Fails the check NAME.started otherwise.
daemon_start() {
  numabalancerd --config "$1" >>"$NBD_LOG" 2>&1 &
  NBD_PID=$!
  echo "$NBD_PID" >>"$NB_PIDS"
  local deadline=$(($(now_s) + 60))
  while [ "$(now_s)" -lt "$deadline" ]; do
    if ! kill -0 "$NBD_PID" 2>/dev/null; then
      wait "$NBD_PID"
      fail daemon.started "numabalancerd exited with $? at start: $(tail -n 3 "$NBD_LOG" | tr '\n' ' ')"
      nbd_attach_log
      return 1
    fi
    if ctl status >/dev/null 2>&1; then
      pass daemon.started "numabalancerd $NBD_PID answers on $NBD_SOCKET"
      return 0
    fi
    sleep 0.2
  done
  fail daemon.started "numabalancerd did not answer within 60 s: $(tail -n 3 "$NBD_LOG" | tr '\n' ' ')"
  return 1
}

# daemon_alive NAME: the daemon process still runs and answers `status` (human and JSON).
daemon_alive() {
  if ! kill -0 "$NBD_PID" 2>/dev/null; then
    fail "$1" "numabalancerd $NBD_PID is gone: $(tail -n 3 "$NBD_LOG" | tr '\n' ' ')"
    return 1
  fi
  if ! ctl status >/tmp/nbd-status.txt 2>&1; then
    fail "$1" "numabalancerctl status failed: $(head -n 2 /tmp/nbd-status.txt | tr '\n' ' ')"
    return 1
  fi
  ctl_json /tmp/nbd-status.json status
  local state
  state=$(json /tmp/nbd-status.json /state)
  case $state in
    running | paused) pass "$1" "numabalancerctl status: $state" ;;
    *) fail "$1" "numabalancerctl status: state '$state', expected running or paused" ;;
  esac
}

# daemon_stop NAME: SIGTERM, which must end the daemon with status 0 within 5 s.
daemon_stop() {
  kill -TERM "$NBD_PID" 2>/dev/null
  local tries=0
  while kill -0 "$NBD_PID" 2>/dev/null && [ "$tries" -lt 100 ]; do
    sleep 0.1
    tries=$((tries + 1))
  done
  if kill -0 "$NBD_PID" 2>/dev/null; then
    fail "$1" "numabalancerd still runs 10 s after SIGTERM"
    kill -9 "$NBD_PID" 2>/dev/null
    nbd_attach_log
    return 1
  fi
  wait "$NBD_PID"
  local status=$?
  check_eq "$1" "$status" 0 "exit status after SIGTERM ($((tries / 10)).$((tries % 10)) s)"
  check_le "$1.within_5s" "$tries" 50 "tenths of a second from SIGTERM to exit"
  nbd_attach_log
}

# nbd_attach_log: the end of the daemon's log goes to the host (results/<guest>/files/).
nbd_attach_log() {
  tail -n 300 "$NBD_LOG" >"$NBD_LOG.tail"
  attach "$SCENARIO.numabalancerd.log" "$NBD_LOG.tail"
  : >"$NBD_LOG"
}

# status_field POINTER: one value of the daemon's current status.
status_field() {
  ctl_json /tmp/nbd-status.json status || return 1
  json /tmp/nbd-status.json "$1"
}

# wait_for TIMEOUT_S COMMAND...: polls until COMMAND succeeds; 1 at the timeout.
wait_for() {
  local deadline=$(($(now_s) + $1))
  shift
  while ! "$@"; do
    [ "$(now_s)" -ge "$deadline" ] && return 1
    sleep 0.2
  done
}

job_running() { [ "$(status_field /job)" != null ]; }
job_idle() { [ "$(status_field /job)" = null ]; }

# history_find OUT OUTCOMES [SOURCE_NODE]: the index of the latest round in the daemon's history
# whose outcome is one of OUTCOMES (space-separated) and, if given, whose source is SOURCE_NODE.
# OUT holds the history document afterwards.
history_find() {
  ctl_json "$1" history --limit 100 || return 1
  local i outcome
  i=$(($(nb_vm_json --length /rounds <"$1") - 1))
  while [ "$i" -ge 0 ]; do
    outcome=$(json "$1" "/rounds/$i/outcome")
    case " $2 " in
      *" $outcome "*)
        # A failed round that started no job (pressure nothing could relieve) is no finished job.
        if ! { [ "$outcome" = failed ] && [ "$(json "$1" "/rounds/$i/acted")" = false ]; } &&
          { [ -z "${3:-}" ] || [ "$(json "$1" "/rounds/$i/source_node")" = "$3" ]; }; then
          echo "$i"
          return 0
        fi
        ;;
    esac
    i=$((i - 1))
  done
  return 1
}

# Outcomes of a round whose migration job has finished.
NBD_FINISHED="done partial cancelled failed"

# wait_acted_round OUT TIMEOUT_S [SOURCE_NODE] [AFTER_NUMBER]: waits until a round numbered above
# AFTER_NUMBER (default 0) has finished its job; sets ROUND to the index in OUT's history of the
# earliest such round (a later one may have acted meanwhile).
wait_acted_round() {
  local deadline=$(($(now_s) + $2)) i count outcome
  while :; do
    if ctl_json "$1" history --limit 100; then
      count=$(nb_vm_json --length /rounds <"$1")
      i=0
      while [ "$i" -lt "$count" ]; do
        outcome=$(json "$1" "/rounds/$i/outcome")
        case " $NBD_FINISHED " in
          *" $outcome "*)
            if [ "$(json "$1" "/rounds/$i/number")" -gt "${4:-0}" ] &&
              ! { [ "$outcome" = failed ] && [ "$(json "$1" "/rounds/$i/acted")" = false ]; } &&
              { [ -z "${3:-}" ] || [ "$(json "$1" "/rounds/$i/source_node")" = "$3" ]; }; then
              ROUND=$i
              return 0
            fi
            ;;
        esac
        i=$((i + 1))
      done
    fi
    [ "$(now_s)" -ge "$deadline" ] && return 1
    sleep 0.3
  done
}
