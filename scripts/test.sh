#!/usr/bin/env bash
# Sets up, builds and runs the whole test suite: the unit and integration tests under
# -Wall -Wextra -Werror; the .deb built, installed and removed; the idle footprint; in one clang
# tree with ASan+UBSan, the unit tests and the daemon's service suite, then each fuzz target for
# 30 s, then the soak's short form on that tree's daemon; then the multi-NUMA guest rig. Each
# stage's time is printed at the end.
# Exits non-zero when any test fails. NB_SKIP_SANITIZE=1 (the sanitized suites and the fuzzers)
# and NB_SKIP_VM=1 skip those stages locally. Each test stage prints how many tests ran and were
# skipped, and the skipped tests are listed at the end.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)

# Stage times, printed last even when a stage fails, so CI's tail shows where the time went.
stage_name=setup
stage_started=$SECONDS
stage_times=()
next_stage() {
  stage_times+=("$stage_name $((SECONDS - stage_started))s")
  stage_name=$1
  stage_started=$SECONDS
  echo "== $1"
}
print_stage_times() {
  local status=$?
  stage_times+=("$stage_name $((SECONDS - stage_started))s")
  local joined
  joined=$(printf '%s; ' "${stage_times[@]}")
  echo "== stage times: ${joined}total ${SECONDS}s"
  if [[ -s "${NB_SKIPPED_LOG:-}" ]]; then
    echo "== skipped tests ($(wc -l <"$NB_SKIPPED_LOG")); each prints why when run alone:"
    cat "$NB_SKIPPED_LOG"
  fi
  return $status
}
trap print_stage_times EXIT
# Each stage that runs tests says how many ran and skipped (scripts/count_tests.sh) and adds the
# skipped ones here; the list is printed last, beside the stage times.
export NB_SKIPPED_LOG="$root/build/skipped-tests.txt"
mkdir -p "$root/build"
: >"$NB_SKIPPED_LOG"

"$root/scripts/setup.sh" --tests

next_stage "build (-Werror)"
"$root/scripts/build.sh" "$root/build" -DNB_WERROR=ON -DNB_SANITIZE=OFF -DNB_BUILD_TESTS=ON -DNB_BUILD_BENCH=ON \
  -DNB_LINE_TABLES_ONLY=ON
next_stage tests
(cd "$root/build" && ctest --output-on-failure) 2>&1 | tee "$root/build/tests.log"
"$root/scripts/count_tests.sh" tests "$root/build/tests.log"

next_stage "package (.deb: build, dpkg -i, checks, dpkg --purge)"
if [[ $(id -u) -eq 0 ]]; then
  "$root/scripts/package-check.sh" "$root/build"
else
  echo "package: not run: dpkg -i needs root (run scripts/package-check.sh build as root)"
fi
next_stage "footprint (idle 20 s)"
"$root/scripts/footprint.sh" "$root/build" 20

if [[ "${NB_SKIP_SANITIZE:-0}" != 1 ]]; then
  next_stage "sanitized suites and fuzzers (clang, ASan+UBSan, 30 s per target)"
  "$root/scripts/fuzz.sh" 30 --unit
  # The soak's short form (tests/soak/soak.sh, issue #34) on the sanitized tree: only the daemon
  # and numabalancerctl are built there beyond what fuzz.sh built; the workload comes from the
  # -Werror tree. A kill about every 20 s, the last 50 s without one (the leak window).
  next_stage "soak (ASan+UBSan daemon, 150 s of churn, kills, reloads and admin clients)"
  cmake --build "$root/build-fuzz" -j "$(nproc)" --target numabalancerd numabalancerctl
  NB_SOAK_KILL_EVERY=20 NB_SOAK_WARMUP=10 NB_SOAK_STEADY=50 "$root/tests/soak/soak.sh" \
    --daemon-dir "$root/build-fuzz" --workload "$root/build/tests/vm/nb_vm_workload" 150
fi

if [[ "${NB_SKIP_VM:-0}" != 1 && -x "$root/tests/vm/run.sh" ]]; then
  next_stage "multi-NUMA guests"
  "$root/tests/vm/run.sh" "$root/build"
fi
