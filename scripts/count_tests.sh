#!/usr/bin/env bash
# Says how many tests a stage ran and which it skipped, from the output of ctest or of a gtest
# binary, so that a suite that skipped itself silently (no root, no NUMA, no systemd) is seen:
#   scripts/count_tests.sh STAGE LOG
# prints "== STAGE: N tests, R ran, S skipped" and, when NB_SKIPPED_LOG names a file, appends
# "STAGE: TEST" for each skipped test to it (scripts/test.sh prints that file last).
set -euo pipefail
stage=${1:?usage: count_tests.sh STAGE LOG}
log=${2:?usage: count_tests.sh STAGE LOG}

total=0
skipped_names=()
# ctest: "100% tests passed, 0 tests failed out of 1826" and, under "The following tests did not
# run:", one "<TAB>1584 - Suite.Name (Skipped)" line per skipped test.
if grep -qE '[0-9]+% tests passed, [0-9]+ tests? failed out of [0-9]+' "$log"; then
  total=$(grep -oE 'failed out of [0-9]+' "$log" | tail -1 | grep -oE '[0-9]+$')
  while IFS= read -r name; do
    skipped_names+=("$name")
  done < <(sed -nE 's/^[[:space:]]+[0-9]+ - ([^ ]+).*\(Skipped\)[[:space:]]*$/\1/p' "$log")
fi
# gtest: "[==========] 66 tests from 9 test suites ran." and "[  SKIPPED ] Suite.Name" lines
# (the count line "[  SKIPPED ] 3 tests, listed below:" is not a name).
if grep -qE '^\[==========\] [0-9]+ tests? from .* ran\.' "$log"; then
  gtest_total=$(sed -nE 's/^\[==========\] ([0-9]+) tests? from .* ran\..*/\1/p' "$log" | tail -1)
  total=$((total + gtest_total))
  while IFS= read -r name; do
    skipped_names+=("$name")
  done < <(sed -nE 's/^\[  SKIPPED \] ([^ ]+)$/\1/p' "$log" | sort -u)
fi

skipped=${#skipped_names[@]}
echo "== ${stage}: ${total} tests, $((total - skipped)) ran, ${skipped} skipped"
if [[ -n "${NB_SKIPPED_LOG:-}" && $skipped -gt 0 ]]; then
  for name in "${skipped_names[@]}"; do
    printf '%s: %s\n' "$stage" "$name"
  done >>"$NB_SKIPPED_LOG"
fi
