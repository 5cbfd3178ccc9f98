#!/usr/bin/env bash
# Runs every unit suite (ctest label "unit") under valgrind's memcheck with a full leak check.
# Exits non-zero when memcheck reports any error or leak. Usage:
#   scripts/valgrind.sh [BUILD_DIR]   default build (the plain tree of scripts/test.sh); a missing
#                                     tree is configured without sanitizers
# NB_VALGRIND_FILTER is passed to every suite as --gtest_filter (e.g. "-RealMigration.*").
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build}
mkdir -p "$build"
build=$(cd "$build" && pwd)

if [[ ! -f "$build/CMakeCache.txt" ]]; then
  cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DNB_SANITIZE=OFF \
    -DNB_BUILD_TESTS=ON -DNB_BUILD_BENCH=OFF >/dev/null
fi
if grep -q "NB_SANITIZE:BOOL=ON\|NB_FUZZ:BOOL=ON" "$build/CMakeCache.txt"; then
  echo "valgrind.sh: $build is a sanitizer tree; valgrind needs a plain one" >&2
  exit 2
fi

# The unit suites are the executables behind the tests labelled "unit".
mapfile -t suites < <(cd "$build" && ctest -L unit --show-only=json-v1 | python3 -c '
import json, sys
seen = []
for test in json.load(sys.stdin)["tests"]:
    binary = test["command"][0]
    if binary not in seen:
        seen.append(binary)
print("\n".join(seen))')
if ((${#suites[@]} == 0)); then
  echo "valgrind.sh: no unit suite in $build" >&2
  exit 2
fi
names=()
for suite in "${suites[@]}"; do
  names+=("$(basename "$suite")")
done
cmake --build "$build" -j "$(nproc)" --target "${names[@]}"

failed=()
for suite in "${suites[@]}"; do
  name=$(basename "$suite")
  log="$build/valgrind-$name.log"
  echo "== $name under memcheck"
  filter=()
  if [[ -n "${NB_VALGRIND_FILTER:-}" ]]; then
    filter=(--gtest_filter="$NB_VALGRIND_FILTER")
  fi
  if (cd "$build" && valgrind --tool=memcheck --error-exitcode=99 --leak-check=full \
    --suppressions="$root/tests/valgrind.supp" \
    --show-leak-kinds=definite,indirect,possible --errors-for-leak-kinds=definite,indirect,possible \
    --track-origins=yes --log-file="$log" "$suite" "${filter[@]}" --gtest_brief=1); then
    grep -E "ERROR SUMMARY|definitely lost|possibly lost" "$log" | sed 's/^==[0-9]*== /  /'
  else
    echo "$name FAILED under memcheck; log: $log"
    grep -E "ERROR SUMMARY|definitely lost|indirectly lost|possibly lost" "$log" | sed 's/^==[0-9]*== /  /'
    failed+=("$name")
  fi
done

if ((${#failed[@]})); then
  echo "failed: ${failed[*]}"
  exit 1
fi
echo "memcheck: no error and no leak in ${#suites[@]} unit suites"
