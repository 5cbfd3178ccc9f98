# shellcheck shell=sh
# Issue 17 — hot pages first. A workload holds 256 MiB on node 0 and reads its last 32 MiB over
# and over (one thread); `numabalancerd migrate --max-bytes 64MiB` to node 1 runs once with
# `--page-order hot_first` and once with `address`, each on a fresh workload. Where the kernel has
# DAMON (6.12), hot_first must move at least 90 % of the hot 32 MiB and address order next to
# none; where it has not (6.1), hot_first falls back to address order and the report says why.
# With DAMON, the kernel's own DAMOS `migrate_hot` (paddr, target node 1, a 64 MiB quota) runs on
# a third workload as the peer figure: hot bytes moved and how long it took.

size_mib=256
hot_mib=32
hot=$((hot_mib * MIB))
damon_admin=/sys/kernel/mm/damon/admin
has_damon=0
[ -d "$damon_admin/kdamonds" ] && has_damon=1
info "kernel $(uname -r): DAMON sysfs $([ $has_damon = 1 ] && echo present || echo absent)"

# hot_workload NAME: a fresh workload with its hot tail; sets WL_PID.
hot_workload() {
  wl_start "$1" "$(cg_create "hot/$1")" 0 --mib "$size_mib" --hot-tail-mib "$hot_mib" || return 1
  # Let the reader run a while, so the tail is hot before anything looks.
  sleep 1
}

# percent PART WHOLE
percent() { awk -v p="$1" -v w="$2" 'BEGIN { if (w > 0) printf "%.1f", 100 * p / w; else print 0 }'; }

# migrate_order ORDER: one budgeted migration of a fresh workload in that order; sets HOT_MOVED.
migrate_order() {
  local order=$1 out=/tmp/hot_$1.json moved
  hot_workload "$order" || return 1
  run_timed "$out" 300 numabalancerd migrate --config "$NB_CONFIG" --pid "$WL_PID" --from 0 --to 1 \
    --max-bytes 64MiB --page-order "$order" --json
  clean_exit "$order.exit" "$RUN_STATUS"
  moved=$(json "$out" /bytes_moved)
  HOT_MOVED=$(wl_hot_bytes_on "$order" 1)
  info "$order: moved ${moved:-0} bytes, of them ${HOT_MOVED} of the hot $hot (from regions DAMON saw" \
    "accessed: $(json "$out" /bytes_moved_accessed)), in $RUN_MS ms" \
    "(order used $(json "$out" /page_order), window $(json "$out" /hotness_window_ms) ms," \
    "reason $(json "$out" /page_order_fallback))"
  result "hot_first_${order}_hot_moved_percent=$(percent "$HOT_MOVED" "$hot")"
  result "hot_first_${order}_wall_ms=$RUN_MS"
  result "hot_first_${order}_window_ms=$(json "$out" /hotness_window_ms)"
  check_le "$order.budget" "${moved:-0}" $((64 * MIB + 2 * MIB)) "bytes moved within the 64 MiB budget"
  wl_verify "$order" "$order.data"
  # wl_stop's status is the killed workload's (137), not a failure of this step.
  wl_stop "$WL_PID" || true
}

migrate_order address || exit 1
address_hot=$HOT_MOVED
check_le address.hot_moved "$address_hot" $((hot / 10)) "address order moves next to none of the hot tail"

migrate_order hot_first || exit 1
if [ $has_damon = 1 ]; then
  check_eq hot_first.order_used "$(json /tmp/hot_hot_first.json /page_order)" hot_first "the report's order"
  check_ge hot_first.hot_moved "$HOT_MOVED" $((hot * 9 / 10)) "hot_first moves >= 90 % of the hot 32 MiB"
  check_eq hot_first.no_kdamond_left "$(cat $damon_admin/kdamonds/nr_kdamonds)" 0 "no kdamond left behind"
else
  check_eq hot_first.fallback "$(json /tmp/hot_hot_first.json /page_order)" address "falls back to address order"
  reason=$(json /tmp/hot_hot_first.json /page_order_fallback)
  case $reason in
    *DAMON*) pass hot_first.fallback_reason "the report says why: $reason" ;;
    *) fail hot_first.fallback_reason "the report names no reason about DAMON: '$reason'" ;;
  esac
fi

# The peer: the kernel's own DAMOS migrate_hot (6.11+) over node 0's physical range.
damos_migrate_hot() {
  local k=$damon_admin/kdamonds block_size first last start end c s started elapsed
  block_size=$((0x$(cat /sys/devices/system/memory/block_size_bytes)))
  first=$(ls -d /sys/devices/system/node/node0/memory* | sed 's/.*memory//' | sort -n | head -n 1)
  last=$(ls -d /sys/devices/system/node/node0/memory* | sed 's/.*memory//' | sort -n | tail -n 1)
  start=$((first * block_size))
  end=$(((last + 1) * block_size))
  echo 1 >"$k/nr_kdamonds" || return 1
  c=$k/0/contexts
  echo 1 >"$c/nr_contexts" && echo paddr >"$c/0/operations" || return 1
  echo 5000 >"$c/0/monitoring_attrs/intervals/sample_us"
  echo 100000 >"$c/0/monitoring_attrs/intervals/aggr_us"
  echo 1 >"$c/0/targets/nr_targets"
  echo 1 >"$c/0/targets/0/regions/nr_regions"
  echo "$start" >"$c/0/targets/0/regions/0/start"
  echo "$end" >"$c/0/targets/0/regions/0/end"
  echo 1 >"$c/0/schemes/nr_schemes"
  s=$c/0/schemes/0
  echo migrate_hot >"$s/action" || return 1
  echo 1 >"$s/target_nid"
  echo 1 >"$s/access_pattern/nr_accesses/min"
  echo 4294967295 >"$s/access_pattern/nr_accesses/max"
  echo 18446744073709551615 >"$s/access_pattern/sz/max"
  echo 4294967295 >"$s/access_pattern/age/max"
  echo $((64 * MIB)) >"$s/quotas/bytes"
  echo 1000 >"$s/quotas/reset_interval_ms"
  echo on >"$k/0/state" || return 1
}

damos_stop() {
  echo off >"$damon_admin/kdamonds/0/state" 2>/dev/null
  echo 0 >"$damon_admin/kdamonds/nr_kdamonds" 2>/dev/null
}

if [ $has_damon = 1 ]; then
  hot_workload damos || exit 1
  started=$(date +%s)
  if damos_migrate_hot; then
    # Up to 60 s, until 90 % of the hot tail is on node 1.
    moved=0
    while [ $(($(date +%s) - started)) -lt 60 ]; do
      moved=$(wl_hot_bytes_on damos 1)
      [ "$moved" -ge $((hot * 9 / 10)) ] && break
      sleep 1
    done
    elapsed=$(($(date +%s) - started))
    total=$(wl_bytes_on damos 1)
    damos_stop
    info "DAMOS migrate_hot: ${moved} of the hot $hot bytes on node 1 after ${elapsed} s (all moved: $total)"
    result "damos_migrate_hot_hot_moved_percent=$(percent "$moved" "$hot")"
    result "damos_migrate_hot_seconds=$elapsed"
    result "damos_migrate_hot_total_moved_bytes=$total"
  else
    damos_stop
    info "DAMOS migrate_hot could not be set up on $(uname -r)"
  fi
  wl_verify damos damos.data
  wl_stop "$WL_PID" || true
fi
