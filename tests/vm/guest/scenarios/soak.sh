# shellcheck shell=sh
# Issue #34's guest form: the soak and chaos run of tests/soak/soak.sh inside the guest, for
# NB_SOAK_SECONDS (from the host's environment via the kernel command line; default 120). With
# more than one node, the file provider's pressure phase makes node 0 hot and the rounds' jobs
# really move the churning containers' pages to nodes 1 and 2, while kill -9 lands mid-round and
# mid-job. On top of the host form's checks, the guest's: a sentinel workload outside the pools
# keeps every page on node 0, every workload's pattern holds, and no kdamond is left.
# soak.sh is bash with jq and setpriv (/nb/soak/bin, this scenario's PATH only); its figures
# become RESULT soak.* lines, its failures FAIL lines.

seconds=${NB_SOAK_SECONDS:-120}
# bash's process substitution reads /dev/fd, which the guest's devtmpfs lacks.
[ -e /dev/fd ] || ln -s /proc/self/fd /dev/fd
out=/tmp/soak.out
# The guest's nodes have 512 MiB: smaller containers and fewer at once than on the host. The
# guest runs slower (TCG), so the kills come about every 40 s and the warm-up is shorter. The admin
# deadline is 10 s, not 5: under TCG on a loaded 2-core host the client's own start costs
# hundreds of ms (p50 638 ms, p99 3.9 s over a 10-minute run on 2026-12-07, when one `resume`
# took 6.95 s of wall time yet numabalancerctl's own 5 s wait never ran out).
PATH=/nb/soak/bin:$PATH NB_SOAK_MIB=${NB_SOAK_MIB:-4-16} NB_SOAK_LIVE=${NB_SOAK_LIVE:-4} \
  NB_SOAK_KILL_EVERY=${NB_SOAK_KILL_EVERY:-40} NB_SOAK_WARMUP=${NB_SOAK_WARMUP:-15} \
  NB_SOAK_ADMIN_PER_S=${NB_SOAK_ADMIN_PER_S:-2} NB_SOAK_INTERVAL=${NB_SOAK_INTERVAL:-1s} \
  NB_SOAK_SENTINEL_MIB=32 NB_SOAK_DEADLINE=${NB_SOAK_DEADLINE:-10} \
  bash /nb/soak/soak.sh --daemon-dir /nb/bin --workload /nb/bin/nb_vm_workload "$seconds" >"$out" 2>&1
status=$?
attach soak.out "$out"
grep '^FAIL ' "$out" | while read -r _ line; do
  fail "check" "$line"
done
# The figures, one RESULT line each: "soak.rounds=…" and so on.
sed -n '/^== soak figures/,/^== soak:/p' "$out" | grep -v '^==' | while read -r key value; do
  result "soak.$key=$(echo "$value" | tr ' ' '_')"
done
check_eq run "$status" 0 "soak.sh over ${seconds}s: $(tail -n 1 "$out")"
