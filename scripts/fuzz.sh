#!/usr/bin/env bash
# Builds the clang tree (build-fuzz: libFuzzer hooks, ASan and UBSan on every object) and runs
# each fuzz target of tests/fuzz for SECONDS (default 30). Fails on the first crash, leak, UB
# report or timeout; the input that caused it is kept in build-fuzz/fuzz-artifacts/<target>/.
# Inputs the fuzzer finds go to build-fuzz/fuzz-corpus/<target>/, never into the repository.
#
#   scripts/fuzz.sh            CI's short run, 30 s per target
#   scripts/fuzz.sh 600        a longer run
#   scripts/fuzz.sh 30 --unit  CI's sanitizer stage and fuzz run in one tree: also builds the unit
#                              suites and the daemon's service suite there and runs them first
#                              (`ctest -L unit`, then service_tests, the loop and the admin socket
#                              under abusive clients), so CI compiles one sanitized tree, not two
# NB_FUZZ_BUILD_DIR overrides the tree, NB_FUZZ_ONLY=stem runs one target.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
seconds=${1:-30}
unit=0
if [[ "${2:-}" == "--unit" ]]; then
  unit=1
fi
build=${NB_FUZZ_BUILD_DIR:-$root/build-fuzz}

cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_CXX_COMPILER=clang++ -DNB_FUZZ=ON -DNB_WERROR=ON -DNB_SANITIZE=OFF \
  -DNB_BUILD_TESTS=ON -DNB_BUILD_BENCH=OFF -DNB_LINE_TABLES_ONLY=ON >/dev/null

stems=()
for source in "$root"/tests/fuzz/*.cpp; do
  stem=$(basename "$source" .cpp)
  if [[ -z "${NB_FUZZ_ONLY:-}" || "$NB_FUZZ_ONLY" == "$stem" ]]; then
    stems+=("$stem")
  fi
done

export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:allocator_may_return_null=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1

targets=()
for stem in "${stems[@]}"; do
  targets+=("fuzz_$stem")
done
if [[ $unit == 1 ]]; then
  echo "== build (clang, ASan+UBSan, fuzz hooks)"
  cmake --build "$build" -j "$(nproc)" --target unit_tests service_tests "${targets[@]}"
  echo "== tests (clang, ASan+UBSan)"
  (cd "$build" && ctest --output-on-failure -L unit && ./tests/service_tests) 2>&1 |
    tee "$build/sanitized-tests.log"
  "$root/scripts/count_tests.sh" "sanitized suites" "$build/sanitized-tests.log"
else
  cmake --build "$build" -j "$(nproc)" --target "${targets[@]}"
fi

failed=()
for stem in "${stems[@]}"; do
  corpus="$build/fuzz-corpus/$stem"
  artifacts="$build/fuzz-artifacts/$stem/"
  mkdir -p "$corpus" "$artifacts"
  echo "== fuzz_$stem for ${seconds}s"
  log="$build/fuzz-artifacts/$stem.log"
  # Every input that once crashed a target is replayed first: a regression fails at once.
  findings=("$root"/tests/fuzz/findings/"$stem"-*)
  if [[ -e ${findings[0]} ]] && ! "$build/tests/fuzz/fuzz_$stem" "${findings[@]}" >"$log" 2>&1; then
    echo "fuzz_$stem FAILED on a recorded finding; log: $log"
    tail -40 "$log"
    failed+=("$stem")
    continue
  fi
  # The JSON targets get inputs long enough to nest deeply (libFuzzer's default stops at 4 KiB)
  # and JSON's tokens as a dictionary.
  extra=()
  case $stem in
    admin_request | file_provider_json | state_journal) extra=(-max_len=131072 -dict="$root/tests/fuzz/json.dict") ;;
  esac
  if "$build/tests/fuzz/fuzz_$stem" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
    -artifact_prefix="$artifacts" -print_final_stats=1 "${extra[@]}" \
    "$corpus" "$root/tests/fuzz/corpus/$stem" >"$log" 2>&1; then
    grep -E "^stat::number_of_executed_units|^Done" "$log" | tr '\n' ' '
    echo
  else
    echo "fuzz_$stem FAILED; log: $log; reproducer: $(ls -t "$artifacts" | head -1)"
    tail -40 "$log"
    failed+=("$stem")
  fi
done

if ((${#failed[@]})); then
  echo "failed: ${failed[*]}"
  exit 1
fi
echo "every fuzz target ran ${seconds}s without a finding"
