#!/bin/bash
# Bytes numabalancerd writes to its state_dir per round, from the kernel's own count
# (/proc/PID/io write_bytes: bytes the process caused to be sent to the storage layer).
#
# The worst case: a pressure nothing relieves. The file provider reports node 0 at 400 ns and
# 90 GB/s, and no other node can take memory, so every round (interval 1 s) fails and is kept;
# the state starts with 500 kept rounds, as a daemon that has run a while has.
#
#   bench/state_writes.sh NUMABALANCERD [SECONDS]    (default 120; run as root, on a disk file
#                                                     system: tmpfs counts no writes)
# Prints the rounds taken, the bytes written, the mean per round, the largest one-second write
# and how many seconds wrote more than 64 KiB (compactions).
set -euo pipefail

daemon_bin=${1:?usage: bench/state_writes.sh NUMABALANCERD [SECONDS]}
seconds=${2:-120}
ctl_bin=$(dirname "$daemon_bin")/numabalancerctl

dir=$(mktemp -d /var/tmp/nb-state-writes.XXXXXX)
feeder=""
daemon=""
cleanup() {
  [ -n "${NB_KEEP_LOG:-}" ] && cp "$dir/daemon.log" /tmp/state_writes.log
  [ -n "$daemon" ] && kill "$daemon" 2>/dev/null && wait "$daemon" 2>/dev/null
  [ -n "$feeder" ] && kill "$feeder" 2>/dev/null
  rm -rf "$dir"
}
trap cleanup EXIT
mkdir -p "$dir/state" "$dir/run"

# 500 kept rounds, in the version 1 format every numabalancerd reads.
{
  printf '{"version": 1, "rounds": ['
  for i in $(seq 1 500); do
    [ "$i" -gt 1 ] && printf ','
    printf '{"number": %d, "time": "2026-12-01T00:00:00Z", "trigger": "timer", ' "$i"
    printf '"status": "failed", "outcome": "failed", "reason": "pressure but no container can '
    printf 'be migrated or evicted", "source_node": 0, "dest_nodes": [], "containers": [], '
    printf '"evicted": [], "planned_bytes": 0, "moved_bytes": 0, "migrated": false}'
  done
  printf ']}\n'
} >"$dir/state/state.json"

feed() {
  while true; do
    printf '{"time": "%s", "nodes": [{"id": 0, "read_latency_ns": 400, "bandwidth_gbps": 90}]}\n' \
      "$(date -u +%Y-%m-%dT%H:%M:%SZ)" >"$dir/metrics.json.tmp"
    mv "$dir/metrics.json.tmp" "$dir/metrics.json"
    sleep 2
  done
}
feed &
feeder=$!

cat >"$dir/config.toml" <<EOF
[daemon]
interval = "1s"
state_dir = "$dir/state"
lock_file = "$dir/run/numabalancerd.lock"
log_level = "warn"
[admin]
socket = "$dir/run/admin.sock"
admin_group = ""
[policy]
strategy = "katalyst"
threshold_mode = "absolute"
[metrics]
latency = "file"
bandwidth = "file"
[metrics.file]
path = "$dir/metrics.json"
EOF

"$daemon_bin" --config "$dir/config.toml" 2>"$dir/daemon.log" &
daemon=$!
for _ in $(seq 1 100); do
  [ -S "$dir/run/admin.sock" ] && break
  sleep 0.1
done
round_number() {
  "$ctl_bin" --socket "$dir/run/admin.sock" --json status | tr -d ' \n' |
    sed -n 's/.*"last_round":{[^}]*"number":\([0-9]*\).*/\1/p' | head -1
}
written() { sed -n 's/^write_bytes: //p' "/proc/$daemon/io"; }

sleep 5 # past the start-up write
first_round=$(round_number)
first_bytes=$(written)
previous=$first_bytes
largest=0
above=0
for _ in $(seq 1 "$seconds"); do
  sleep 1
  now=$(written)
  step=$((now - previous))
  [ "$step" -gt "$largest" ] && largest=$step
  [ "$step" -gt 65536 ] && above=$((above + 1))
  previous=$now
done
last_round=$(round_number)
rounds=$((last_round - first_round))
bytes=$((previous - first_bytes))
outcome=$("$ctl_bin" --socket "$dir/run/admin.sock" --json status | tr -d ' \n' |
  sed -n 's/.*"last_round":{[^}]*"outcome":"\([a-z_]*\)".*/\1/p' | head -1)
echo "rounds ${rounds} (last outcome ${outcome:-?}), bytes written ${bytes}," \
  "per round $((bytes / (rounds > 0 ? rounds : 1))), largest one-second write ${largest}," \
  "seconds above 64 KiB ${above}"
