// Dense: a workload with SIZE MiB on the source node. Our budgeted engine (batched move_pages)
// against the kernel's own migrate_pages for the same pages, plus the engine's fast path, and
// the stall each move_pages call imposes (p99 target: 25 ms).
//   bench_actuator_dense [--from N] [--to M] [--size-mib 256] [--repeat 3] [--thp 0|1]
//                        [--call-target-ms 20]
// Prints `RESULT bench=dense ...` (ratio = kernel time / engine time; target >= 0.9),
// `RESULT bench=dense_parts ...` (what the engine pays besides moving) and `RESULT bench=stall
// ...` with a control: a CPU-bound loop as long as the median call, run as often, whose tail is
// the machine's (an emulated CPU's scheduling gaps), not the engine's.

#include <atomic>
#include <string>

#include "actuator/migration_job.hpp"
#include "actuator/numa_maps.hpp"
#include "bench/actuator_support.hpp"

using namespace nb;

namespace {

Duration call_target = std::chrono::milliseconds(20);

actuator::MigrationReport run_engine(bench::RecordingSyscalls& syscalls, int pid, NodeId from,
                                     NodeId to, Bytes fast_path_max_bytes,
                                     bool move_shared = false) {
  actuator::MigrationTarget target;
  target.container_id = "bench";
  target.pid = pid;
  target.dest_nodes = {to};
  actuator::JobOptions options;
  options.source_node = from;
  options.rate_limit_mib_per_s = 0;
  options.fast_path_max_bytes = fast_path_max_bytes;
  options.move_shared = move_shared;
  options.min_free_bytes = 64 * kMiB;
  options.call_target = call_target;
  std::atomic<bool> cancel{false};
  return actuator::run_migration({target}, options, syscalls, "/proc", cancel, {});
}

// What the timed rounds measured; every vector has one entry per round.
struct Runs {
  std::vector<double> engine_ms, kernel_ms, fast_ms, engine_cpu, kernel_cpu, inside_calls_ms,
      outside_calls_ms, engine_faults;
  Bytes engine_bytes = 0;
  bool fast_taken = false;
  // Calls a quarter over the call target in the timed runs, as position:duration/addresses.
  std::string slow_calls;
  // In the guest the slow calls cluster in the program's first job (see bench/README.md), so the
  // tail is also given without it.
  std::size_t first_job_calls = 0;
};

struct Setup {
  bench::RecordingSyscalls& syscalls;
  int pid = 0;
  NodeId from = 0;
  NodeId to = 0;
};

// The engine once timed and once for its CPU time, the kernel's migrate_pages the same way, then
// the fast path; the pages go back to the source after each.
void run_round(const Setup& setup, Runs& runs) {
  auto& syscalls = setup.syscalls;
  auto back = [&] { bench::move_back(syscalls, setup.pid, setup.from, setup.to); };
  auto engine = [&](Bytes fast_path_max, bool move_shared) {
    return run_engine(syscalls, setup.pid, setup.from, setup.to, fast_path_max, move_shared);
  };
  actuator::MigrationReport report;
  std::size_t calls_before = syscalls.move_call_ms.size();
  long faults_before = bench::page_faults_now();
  runs.engine_ms.push_back(bench::time_ms([&] { report = engine(0, false); }));
  double inside = 0;
  for (std::size_t i = calls_before; i < syscalls.move_call_ms.size(); ++i) {
    inside += syscalls.move_call_ms[i];
    if (syscalls.move_call_ms[i] > 1.25 * static_cast<double>(call_target.count())) {
      runs.slow_calls += " " + std::to_string(i - calls_before) + ":" +
                         std::to_string(static_cast<int>(syscalls.move_call_ms[i])) + "ms/" +
                         std::to_string(static_cast<int>(syscalls.move_call_pages[i]));
    }
  }
  if (runs.inside_calls_ms.empty()) {
    runs.first_job_calls = syscalls.move_call_ms.size() - calls_before;
  }
  runs.inside_calls_ms.push_back(inside);
  runs.engine_faults.push_back(static_cast<double>(bench::page_faults_now() - faults_before));
  runs.outside_calls_ms.push_back(runs.engine_ms.back() - inside);
  runs.engine_bytes = report.bytes_placed();
  back();
  runs.engine_cpu.push_back(bench::cpu_ms([&] { report = engine(0, false); }));
  back();

  runs.kernel_ms.push_back(
      bench::time_ms([&] { syscalls.migrate_pages(setup.pid, setup.from, setup.to); }));
  back();
  runs.kernel_cpu.push_back(
      bench::cpu_ms([&] { syscalls.migrate_pages(setup.pid, setup.from, setup.to); }));
  back();

  // The fast path, allowed for any size: the engine hands the whole process to migrate_pages.
  // The workload, a fork of this program, shares pages with it on the source, and migrate_pages
  // run as root moves those too; the engine takes that shortcut only when sharing may move.
  actuator::MigrationReport fast_report;
  runs.fast_ms.push_back(
      bench::time_ms([&] { fast_report = engine(actuator::kUnlimitedBudget, true); }));
  runs.fast_taken = !fast_report.containers.empty() &&
                    !fast_report.containers[0].processes.empty() &&
                    fast_report.containers[0].processes[0].fast_path;
  back();
}

void print_dense(const Setup& setup, const Runs& runs, Bytes size, bool huge_pages, int repeat) {
  double engine = bench::median(runs.engine_ms);
  double kernel = bench::median(runs.kernel_ms);
  double fast = bench::median(runs.fast_ms);
  // The kernel moves the same pages the engine placed.
  double mib = static_cast<double>(runs.engine_bytes) / static_cast<double>(kMiB);
  std::printf(
      "RESULT bench=dense from=%d to=%d size_mib=%lld thp=%d repeat=%d placed_mib=%.1f "
      "engine_ms=%.2f kernel_ms=%.2f fast_path_ms=%.2f ratio=%.3f fast_path_ratio=%.3f "
      "fast_path_taken=%d engine_mib_per_s=%.0f kernel_mib_per_s=%.0f engine_cpu_ms=%.2f "
      "kernel_cpu_ms=%.2f cpu_ratio=%.3f\n",
      setup.from, setup.to, static_cast<long long>(size / kMiB), huge_pages ? 1 : 0, repeat, mib,
      engine, kernel, fast, kernel / engine, kernel / fast, runs.fast_taken ? 1 : 0,
      mib / (engine / 1000), mib / (kernel / 1000), bench::median(runs.engine_cpu),
      bench::median(runs.kernel_cpu),
      bench::median(runs.kernel_cpu) / bench::median(runs.engine_cpu));
}

// What the engine pays besides moving: reading the plan (numa_maps), free memory and the clock.
void print_parts(const Setup& setup, const Runs& runs, int repeat) {
  auto& syscalls = setup.syscalls;
  std::vector<double> plan_ms;
  for (int round = 0; round < repeat; ++round) {
    plan_ms.push_back(
        bench::time_ms([&] { (void)actuator::read_process_vmas("/proc", setup.pid); }));
  }
  double node_memory_us = bench::time_ms([&] {
                            for (int i = 0; i < 200; ++i) {
                              (void)syscalls.node_memory(setup.to);
                            }
                          }) *
                          1000 / 200;
  // The engine reads the clock several times per batch (deadline, rate, call length); on a guest
  // whose clock source has no vDSO read, each read is a system call.
  constexpr int kClockReads = 20000;
  double clock_read_ns = bench::time_ms([&] {
                           for (int i = 0; i < kClockReads; ++i) {
                             (void)syscalls.now();
                           }
                         }) *
                         1e6 / kClockReads;
  double pages_per_call = 0;
  for (double pages : syscalls.move_call_pages) {
    pages_per_call += pages;
  }
  pages_per_call /= std::max<double>(1, static_cast<double>(syscalls.move_call_pages.size()));
  std::printf(
      "RESULT bench=dense_parts numa_maps_ms=%.2f engine_inside_move_calls_ms=%.1f move_calls=%zu "
      "mean_pages_per_call=%.0f node_free_read_us=%.0f clock_read_ns=%.0f "
      "engine_outside_move_calls_ms=%.1f engine_page_faults=%.0f\n",
      bench::median(plan_ms), bench::median(runs.inside_calls_ms), syscalls.move_call_pages.size(),
      pages_per_call, node_memory_us, clock_read_ns, bench::median(runs.outside_calls_ms),
      bench::median(runs.engine_faults));
}

std::vector<std::uintptr_t> resident_pages(bench::RecordingSyscalls& syscalls, int pid) {
  std::vector<std::uintptr_t> pages;
  auto vmas = actuator::read_process_vmas("/proc", pid);
  for (const auto& vma : vmas.ok() ? *vmas : std::vector<actuator::Vma>{}) {
    auto ranges = syscalls.real.resident_ranges(pid, vma.start, vma.end);
    for (const auto& range : ranges.ok() ? *ranges : std::vector<actuator::ResidentRange>{}) {
      for (auto address = range.start; address < range.end; address += 4096) {
        pages.push_back(address);
      }
    }
  }
  return pages;
}

// The same pages moved by plain move_pages calls of fixed sizes: what a call costs whatever its
// size, against the cost per page, with none of the engine's own work.
void print_fixed_batches(const Setup& setup, Bytes size) {
  std::string fixed_batches;
  for (std::size_t batch : {std::size_t{256}, std::size_t{1024}, std::size_t{4096}}) {
    std::vector<std::uintptr_t> pages = resident_pages(setup.syscalls, setup.pid);
    std::vector<int> nodes(pages.size(), setup.to);
    std::vector<int> status(pages.size());
    double took = bench::time_ms([&] {
      for (std::size_t first = 0; first < pages.size(); first += batch) {
        std::size_t count = std::min(pages.size() - first, batch);
        setup.syscalls.real.move_pages(setup.pid, std::span(pages).subspan(first, count),
                                       std::span(nodes).subspan(first, count),
                                       std::span(status).subspan(first, count), false);
      }
    });
    bench::move_back(setup.syscalls, setup.pid, setup.from, setup.to);
    char figure[96];
    std::snprintf(figure, sizeof(figure), " batch_%zu_ms=%.1f", batch, took);
    fixed_batches += figure;
  }
  std::printf("RESULT bench=dense_batches pages=%lld%s\n",
              static_cast<long long>(size / (4 * kKiB)), fixed_batches.c_str());
}

void print_stall(const Setup& setup, const Runs& runs) {
  const std::vector<double>& calls = setup.syscalls.move_call_ms;
  std::printf("calls over 1.25 x the call target (position in the job:duration/addresses):%s\n",
              runs.slow_calls.c_str());
  double p50 = bench::percentile(calls, 0.5);
  double p99 = bench::percentile(calls, 0.99);
  auto control = bench::busy_loop_durations(p50, calls.size());
  double control_p99 = bench::percentile(control, 0.99);
  std::vector<double> after_first_job(
      calls.begin() + static_cast<std::ptrdiff_t>(runs.first_job_calls), calls.end());
  std::printf(
      "RESULT bench=stall from=%d to=%d call_target_ms=%lld calls=%zu p50_ms=%.3f p90_ms=%.3f "
      "p99_ms=%.3f max_ms=%.3f target_p99_ms=25 control_p50_ms=%.3f control_p99_ms=%.3f "
      "control_max_ms=%.3f p99_vs_control=%.2f p99_after_first_job_ms=%.3f\n",
      setup.from, setup.to, static_cast<long long>(call_target.count()), calls.size(), p50,
      bench::percentile(calls, 0.9), p99, bench::percentile(calls, 1.0),
      bench::percentile(control, 0.5), control_p99, bench::percentile(control, 1.0),
      control_p99 > 0 ? p99 / control_p99 : 0, bench::percentile(after_first_job, 0.99));
}

}  // namespace

int main(int argc, char** argv) {
  bench::Args args(argc, argv);
  NodeId from = static_cast<NodeId>(args.number("from", 0));
  NodeId to = static_cast<NodeId>(args.number("to", bench::default_destination()));
  Bytes size = args.number("size-mib", 256) * kMiB;
  int repeat = static_cast<int>(args.number("repeat", 3));
  call_target = std::chrono::milliseconds(args.number("call-target-ms", 20));

  bench::WorkloadSpec spec;
  spec.node = from;
  spec.reserved = size;
  spec.touched = size;
  spec.huge_pages = args.number("thp", 0) != 0;
  bench::Workload workload(spec);
  bench::RecordingSyscalls syscalls;
  Setup setup{syscalls, workload.pid(), from, to};

  Runs runs;
  for (int round = 0; round < repeat; ++round) {
    run_round(setup, runs);
  }
  print_dense(setup, runs, size, spec.huge_pages, repeat);
  print_parts(setup, runs, repeat);
  print_fixed_batches(setup, size);
  print_stall(setup, runs);
  return 0;
}
