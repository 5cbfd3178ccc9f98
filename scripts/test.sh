#!/usr/bin/env bash
# Sets up, builds and runs the whole test suite: the unit and integration tests under
# -Wall -Wextra -Werror; the .deb built, installed and removed; the idle footprint; the unit tests
# and the daemon's service suite again under ASan+UBSan; each fuzz target for 30 s; then the
# multi-NUMA guest rig.
# Exits non-zero when any test fails. NB_SKIP_SANITIZE=1, NB_SKIP_FUZZ=1 and NB_SKIP_VM=1 skip
# those stages locally.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/setup.sh" --tests

echo "== build (-Werror)"
"$root/scripts/build.sh" "$root/build" -DNB_WERROR=ON -DNB_SANITIZE=OFF -DNB_BUILD_TESTS=ON -DNB_BUILD_BENCH=ON \
  -DNB_LINE_TABLES_ONLY=ON
echo "== tests"
(cd "$root/build" && ctest --output-on-failure)

echo "== package (.deb: build, dpkg -i, checks, dpkg --purge)"
if [[ $(id -u) -eq 0 ]]; then
  "$root/scripts/package-check.sh" "$root/build"
else
  echo "package: not run: dpkg -i needs root (run scripts/package-check.sh build as root)"
fi
echo "== footprint (idle 20 s)"
"$root/scripts/footprint.sh" "$root/build" 20

if [[ "${NB_SKIP_SANITIZE:-0}" != 1 ]]; then
  echo "== build (ASan+UBSan)"
  # What `ctest -L unit` runs, and the daemon's process-level suite (service_tests: the loop, the
  # admin socket under abusive clients, stops and faults), whose code is the daemon's own.
  "$root/scripts/build.sh" "$root/build-sanitize" --target unit_tests -DNB_WERROR=ON -DNB_SANITIZE=ON \
    -DNB_BUILD_TESTS=ON -DNB_BUILD_BENCH=OFF -DNB_LINE_TABLES_ONLY=ON
  cmake --build "$root/build-sanitize" --target service_tests
  echo "== tests (ASan+UBSan)"
  (cd "$root/build-sanitize" &&
    export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1 &&
    ctest --output-on-failure -L unit &&
    ./tests/service_tests)
fi

if [[ "${NB_SKIP_FUZZ:-0}" != 1 ]]; then
  echo "== fuzz (clang, libFuzzer + ASan + UBSan, 30 s per target)"
  "$root/scripts/fuzz.sh" 30
fi

if [[ "${NB_SKIP_VM:-0}" != 1 && -x "$root/tests/vm/run.sh" ]]; then
  echo "== multi-NUMA guests"
  "$root/tests/vm/run.sh" "$root/build"
fi
