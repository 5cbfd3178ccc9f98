// Dense: a workload with SIZE MiB on the source node. Our budgeted engine (batched move_pages)
// against the kernel's own migrate_pages for the same pages, plus the engine's fast path, and
// the stall each move_pages call imposes (p99 target: 25 ms).
//   bench_actuator_dense [--from N] [--to M] [--size-mib 256] [--repeat 3] [--thp 0|1]
// Prints `RESULT bench=dense ...` (ratio = kernel time / engine time; target >= 0.9) and
// `RESULT bench=stall ...`.

#include <atomic>

#include "actuator/migration_job.hpp"
#include "bench/actuator_support.hpp"

using namespace nb;

namespace {

actuator::MigrationReport run_engine(bench::RecordingSyscalls& syscalls, int pid, NodeId from,
                                     NodeId to, Bytes fast_path_max_bytes) {
  actuator::MigrationTarget target;
  target.container_id = "bench";
  target.pid = pid;
  target.dest_nodes = {to};
  actuator::JobOptions options;
  options.source_node = from;
  options.rate_limit_mib_per_s = 0;
  options.fast_path_max_bytes = fast_path_max_bytes;
  options.min_free_bytes = 64 * kMiB;
  std::atomic<bool> cancel{false};
  return actuator::run_migration({target}, options, syscalls, "/proc", cancel, {});
}

}  // namespace

int main(int argc, char** argv) {
  bench::Args args(argc, argv);
  NodeId from = static_cast<NodeId>(args.number("from", 0));
  NodeId to = static_cast<NodeId>(args.number("to", bench::default_destination()));
  Bytes size = args.number("size-mib", 256) * kMiB;
  int repeat = static_cast<int>(args.number("repeat", 3));

  bench::WorkloadSpec spec;
  spec.node = from;
  spec.reserved = size;
  spec.touched = size;
  spec.huge_pages = args.number("thp", 0) != 0;
  bench::Workload workload(spec);
  bench::RecordingSyscalls syscalls;

  std::vector<double> engine_ms, kernel_ms, fast_ms, engine_cpu, kernel_cpu;
  Bytes engine_bytes = 0, kernel_bytes = 0;
  for (int round = 0; round < repeat; ++round) {
    actuator::MigrationReport report;
    engine_ms.push_back(
        bench::time_ms([&] { report = run_engine(syscalls, workload.pid(), from, to, 0); }));
    engine_bytes = report.bytes_placed();
    bench::move_back(syscalls, workload.pid(), from, to);
    engine_cpu.push_back(
        bench::cpu_ms([&] { report = run_engine(syscalls, workload.pid(), from, to, 0); }));
    bench::move_back(syscalls, workload.pid(), from, to);

    kernel_ms.push_back(bench::time_ms([&] { syscalls.migrate_pages(workload.pid(), from, to); }));
    bench::move_back(syscalls, workload.pid(), from, to);
    kernel_cpu.push_back(bench::cpu_ms([&] { syscalls.migrate_pages(workload.pid(), from, to); }));
    kernel_bytes = engine_bytes;
    bench::move_back(syscalls, workload.pid(), from, to);

    // The fast path, allowed for any size: the engine hands the whole process to migrate_pages.
    fast_ms.push_back(bench::time_ms(
        [&] { run_engine(syscalls, workload.pid(), from, to, actuator::kUnlimitedBudget); }));
    bench::move_back(syscalls, workload.pid(), from, to);
  }
  double engine = bench::median(engine_ms);
  double kernel = bench::median(kernel_ms);
  double fast = bench::median(fast_ms);
  double mib = static_cast<double>(engine_bytes) / static_cast<double>(kMiB);
  std::printf(
      "RESULT bench=dense from=%d to=%d size_mib=%lld thp=%d repeat=%d placed_mib=%.1f "
      "engine_ms=%.2f kernel_ms=%.2f fast_path_ms=%.2f ratio=%.3f fast_path_ratio=%.3f "
      "engine_mib_per_s=%.0f kernel_mib_per_s=%.0f engine_cpu_ms=%.2f kernel_cpu_ms=%.2f "
      "cpu_ratio=%.3f\n",
      from, to, static_cast<long long>(size / kMiB), spec.huge_pages ? 1 : 0, repeat, mib, engine,
      kernel, fast, kernel / engine, kernel / fast, mib / (engine / 1000),
      static_cast<double>(kernel_bytes) / static_cast<double>(kMiB) / (kernel / 1000),
      bench::median(engine_cpu), bench::median(kernel_cpu),
      bench::median(kernel_cpu) / bench::median(engine_cpu));
  std::printf(
      "RESULT bench=stall from=%d to=%d calls=%zu p50_ms=%.3f p99_ms=%.3f max_ms=%.3f "
      "target_p99_ms=25\n",
      from, to, syscalls.move_call_ms.size(), bench::percentile(syscalls.move_call_ms, 0.5),
      bench::percentile(syscalls.move_call_ms, 0.99),
      bench::percentile(syscalls.move_call_ms, 1.0));
  return 0;
}
