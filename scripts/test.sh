#!/usr/bin/env bash
# Sets up, builds and runs the whole test suite: the unit and integration tests under
# -Wall -Wextra -Werror, the unit tests again under ASan+UBSan, then the multi-NUMA guest rig.
# Exits non-zero when any test fails. NB_SKIP_SANITIZE=1 / NB_SKIP_VM=1 skip those stages locally.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/setup.sh" --tests

echo "== build (-Werror)"
"$root/scripts/build.sh" "$root/build" -DNB_WERROR=ON
echo "== tests"
(cd "$root/build" && ctest --output-on-failure -j "$(nproc)")

if [[ "${NB_SKIP_SANITIZE:-0}" != 1 ]]; then
  echo "== build (ASan+UBSan)"
  "$root/scripts/build.sh" "$root/build-sanitize" -DNB_WERROR=ON -DNB_SANITIZE=ON \
    -DNB_BUILD_BENCH=OFF
  echo "== tests (ASan+UBSan)"
  (cd "$root/build-sanitize" &&
    ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1 \
      ctest --output-on-failure -j "$(nproc)" -L unit)
fi

if [[ "${NB_SKIP_VM:-0}" != 1 && -x "$root/tests/vm/run.sh" ]]; then
  echo "== multi-NUMA guests"
  "$root/tests/vm/run.sh" "$root/build"
fi
