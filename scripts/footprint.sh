#!/usr/bin/env bash
# The daemon's idle footprint: numabalancerd runs on this host for SECONDS (default 60) at a 10 s
# interval, in dry-run, on a temporary config whose state, lock and socket live in a temp dir.
# Prints its RSS (MiB, at the end, and the peak) and its CPU use over the idle period
# (utime+stime from /proc/PID/stat, start-up excluded). Targets: RSS <= 20 MiB, CPU <= 0.2 %.
#   scripts/footprint.sh [BUILD_DIR] [SECONDS]       default build, 60
# NB_FOOTPRINT_METRICS sets [metrics] latency and bandwidth (default "none"; "auto" measures the
# providers this host offers too, e.g. the probe's buffers). Exits 1 when a target is missed.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build}
seconds=${2:-60}
metrics=${NB_FOOTPRINT_METRICS:-none}

if [[ ! -f "$build/CMakeCache.txt" ]]; then
  cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
fi
cmake --build "$build" -j "$(nproc)" --target numabalancerd
daemon="$build/numabalancerd"

work=$(mktemp -d)
pid=""
cleanup() {
  if [[ -n "$pid" ]] && kill -0 "$pid" 2>/dev/null; then
    kill -TERM "$pid"
    wait "$pid" 2>/dev/null || true
  fi
  rm -rf "$work"
}
trap cleanup EXIT

cat >"$work/config.toml" <<TOML
[daemon]
interval = "10s"
dry_run = true
log_level = "warn"
state_dir = "$work/state"
lock_file = "$work/numabalancerd.lock"

[admin]
socket = "$work/admin.sock"
admin_group = ""

[metrics]
latency = "$metrics"
bandwidth = "$metrics"
TOML
mkdir -p "$work/state"

"$daemon" --config "$work/config.toml" >"$work/daemon.log" 2>&1 &
pid=$!
for _ in $(seq 100); do
  [[ -S "$work/admin.sock" ]] && break
  kill -0 "$pid" 2>/dev/null || { cat "$work/daemon.log"; echo "footprint.sh: the daemon exited" >&2; exit 2; }
  sleep 0.1
done
[[ -S "$work/admin.sock" ]] || { echo "footprint.sh: no admin socket after 10 s" >&2; exit 2; }

ticks() {  # utime + stime; the fields after the command name, which may hold spaces
  local stat
  stat=$(<"/proc/$pid/stat")
  stat=${stat##*) }
  read -r -a fields <<<"$stat"
  echo $((fields[11] + fields[12]))
}
hz=$(getconf CLK_TCK)
start_ticks=$(ticks)
start_ns=$(date +%s%N)
sleep "$seconds"
end_ticks=$(ticks)
end_ns=$(date +%s%N)
rss_kib=$(awk '/^VmRSS:/ {print $2}' "/proc/$pid/status")
hwm_kib=$(awk '/^VmHWM:/ {print $2}' "/proc/$pid/status")

awk -v t0="$start_ticks" -v t1="$end_ticks" -v hz="$hz" -v n0="$start_ns" -v n1="$end_ns" \
  -v rss="$rss_kib" -v hwm="$hwm_kib" -v metrics="$metrics" -v secs="$seconds" '
BEGIN {
  wall = (n1 - n0) / 1e9
  cpu = (t1 - t0) / hz
  pct = 100 * cpu / wall
  printf "numabalancerd idle %d s at a 10 s interval (metrics: %s)\n", secs, metrics
  printf "RSS  %.1f MiB (peak %.1f MiB)   target <= 20 MiB: %s\n", rss / 1024, hwm / 1024,
         rss / 1024 <= 20 ? "met" : "MISSED"
  printf "CPU  %.3f %% (%.2f s of CPU in %.1f s)   target <= 0.2 %%: %s\n", pct, cpu, wall,
         pct <= 0.2 ? "met" : "MISSED"
  exit (rss / 1024 <= 20 && pct <= 0.2) ? 0 : 1
}'
