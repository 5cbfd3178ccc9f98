#!/usr/bin/env bash
# Sets up, builds and runs the whole test suite: the unit and integration tests under
# -Wall -Wextra -Werror; the .deb built, installed and removed; the idle footprint; in one clang
# tree with ASan+UBSan, the unit tests and the daemon's service suite, then each fuzz target for
# 30 s; then the multi-NUMA guest rig. Each stage's time is printed at the end.
# Exits non-zero when any test fails. NB_SKIP_SANITIZE=1 (the sanitized suites and the fuzzers)
# and NB_SKIP_VM=1 skip those stages locally.
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
  return $status
}
trap print_stage_times EXIT

"$root/scripts/setup.sh" --tests

next_stage "build (-Werror)"
"$root/scripts/build.sh" "$root/build" -DNB_WERROR=ON -DNB_SANITIZE=OFF -DNB_BUILD_TESTS=ON -DNB_BUILD_BENCH=ON \
  -DNB_LINE_TABLES_ONLY=ON
next_stage tests
(cd "$root/build" && ctest --output-on-failure)

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
fi

if [[ "${NB_SKIP_VM:-0}" != 1 && -x "$root/tests/vm/run.sh" ]]; then
  next_stage "multi-NUMA guests"
  "$root/tests/vm/run.sh" "$root/build"
fi
