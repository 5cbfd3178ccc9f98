# shellcheck shell=sh
# The page walk and the engine's moves on this guest's kernel, without the engine-against-
# migratepages comparison and the extra dense runs of `throughput`: the dense bench (4 KiB pages)
# and the sparse bench with its pages spread over the mapping and packed at its front. On 6.12 the
# walk finds resident pages with PAGEMAP_SCAN; bench/README.md has a column per kernel.

run_actuator_benches bench_actuator_dense bench_actuator_sparse "bench_actuator_sparse --layout front"
