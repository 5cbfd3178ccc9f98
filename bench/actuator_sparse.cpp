// Sparse: RESERVE GiB mapped with MAP_NORESERVE, TOUCHED MiB of it faulted in on the source
// (spread evenly by default: the worst case for us, since no part of the mapping is empty). Our
// numa_maps-guided walk, which asks only about resident pages, against a Katalyst-style
// baseline reimplemented here: every VMA of /proc/PID/maps asked about page by page (in chunks
// of 4096), then the pages found on the source moved.
//   bench_actuator_sparse [--from N] [--to M] [--reserve-gib 16] [--touched-mib 256]
//                         [--layout spread|front] [--repeat 3]
// Prints `RESULT bench=sparse ...`: walk_ratio compares finding the pages on the source (our
// dry run against the baseline's scan; target >= 20), walk_ceiling_ratio the best any
// numa_maps-guided walk could reach (the baseline's scan against reading numa_maps alone), ratio
// the whole job including the moves, which cost the same on both sides.

#include <atomic>
#include <fstream>
#include <sstream>

#include "actuator/migration_job.hpp"
#include "actuator/numa_maps.hpp"
#include "bench/actuator_support.hpp"

using namespace nb;

namespace {

struct BaselineResult {
  std::int64_t pages_asked = 0;
  std::int64_t pages_moved = 0;
};

BaselineResult full_scan(actuator::MemorySyscalls& syscalls, int pid, NodeId from, NodeId to,
                         bool move_found) {
  BaselineResult result;
  std::ifstream maps_file("/proc/" + std::to_string(pid) + "/maps");
  std::stringstream text;
  text << maps_file.rdbuf();
  auto ranges = actuator::parse_maps(text.str(), "maps");
  if (!ranges.ok()) {
    return result;
  }
  constexpr std::size_t kChunk = 4096;
  std::vector<std::uintptr_t> addresses;
  std::vector<int> status;
  std::vector<std::uintptr_t> on_source;
  auto move = [&] {
    std::vector<int> nodes(on_source.size(), to);
    std::vector<int> moved(on_source.size());
    syscalls.move_pages(pid, on_source, nodes, moved, false);
    result.pages_moved += static_cast<std::int64_t>(on_source.size());
    on_source.clear();
  };
  for (const auto& range : *ranges) {
    for (std::uintptr_t page = range.start; page < range.end; page += 4096) {
      addresses.push_back(page);
      if (addresses.size() == kChunk || page + 4096 >= range.end) {
        status.assign(addresses.size(), 0);
        syscalls.move_pages(pid, addresses, {}, status, false);
        result.pages_asked += static_cast<std::int64_t>(addresses.size());
        for (std::size_t i = 0; i < addresses.size(); ++i) {
          if (status[i] == from) {
            on_source.push_back(addresses[i]);
          }
        }
        addresses.clear();
        if (!move_found) {
          on_source.clear();
        } else if (on_source.size() >= kChunk) {
          move();
        }
      }
    }
  }
  if (!on_source.empty()) {
    move();
  }
  return result;
}

}  // namespace

int main(int argc, char** argv) {
  bench::Args args(argc, argv);
  NodeId from = static_cast<NodeId>(args.number("from", 0));
  NodeId to = static_cast<NodeId>(args.number("to", bench::default_destination()));
  int repeat = static_cast<int>(args.number("repeat", 3));
  bench::WorkloadSpec spec;
  spec.node = from;
  spec.reserved = args.number("reserve-gib", 16) * kGiB;
  spec.touched = args.number("touched-mib", 256) * kMiB;
  spec.spread = args.text("layout", "spread") == "spread";
  bench::Workload workload(spec);
  bench::RecordingSyscalls syscalls;

  std::vector<double> ours_ms, baseline_ms, walk_ms, scan_ms, walk_cpu, scan_cpu, numa_maps_ms;
  std::int64_t ours_scanned = 0;  // pages whose node the job learnt, from the page map or a query
  std::int64_t ours_asked = 0;    // of them, those asked about with move_pages
  BaselineResult baseline;
  Bytes placed = 0;
  for (int round = 0; round < repeat; ++round) {
    actuator::MigrationTarget target;
    target.container_id = "bench";
    target.pid = workload.pid();
    target.dest_nodes = {to};
    actuator::JobOptions options;
    options.source_node = from;
    options.rate_limit_mib_per_s = 0;
    options.min_free_bytes = 64 * kMiB;
    std::atomic<bool> cancel{false};
    actuator::MigrationReport report;

    options.dry_run = true;
    walk_ms.push_back(bench::time_ms([&] {
      report = actuator::run_migration({target}, options, syscalls, "/proc", cancel, {});
    }));
    scan_ms.push_back(
        bench::time_ms([&] { baseline = full_scan(syscalls, workload.pid(), from, to, false); }));
    walk_cpu.push_back(bench::cpu_ms([&] {
      report = actuator::run_migration({target}, options, syscalls, "/proc", cancel, {});
    }));
    scan_cpu.push_back(
        bench::cpu_ms([&] { baseline = full_scan(syscalls, workload.pid(), from, to, false); }));

    // The plan alone: any walk guided by numa_maps' per-VMA counts pays at least this.
    numa_maps_ms.push_back(
        bench::time_ms([&] { (void)actuator::read_process_vmas("/proc", workload.pid()); }));

    options.dry_run = false;
    std::int64_t queried_before = syscalls.pages_queried;
    ours_ms.push_back(bench::time_ms([&] {
      report = actuator::run_migration({target}, options, syscalls, "/proc", cancel, {});
    }));
    ours_scanned = report.pages_scanned();
    ours_asked = syscalls.pages_queried - queried_before;
    placed = report.bytes_placed();
    bench::move_back(syscalls, workload.pid(), from, to);

    baseline_ms.push_back(
        bench::time_ms([&] { baseline = full_scan(syscalls, workload.pid(), from, to, true); }));
    bench::move_back(syscalls, workload.pid(), from, to);
  }
  double walk = bench::median(walk_ms);
  double scan = bench::median(scan_ms);
  double ours = bench::median(ours_ms);
  double base = bench::median(baseline_ms);
  std::printf(
      "RESULT bench=sparse from=%d to=%d reserve_gib=%lld touched_mib=%lld layout=%s repeat=%d "
      "placed_mib=%.1f walk_ms=%.2f scan_ms=%.2f walk_ratio=%.1f walk_cpu_ms=%.2f scan_cpu_ms=%.2f "
      "walk_cpu_ratio=%.1f numa_maps_ms=%.2f walk_ceiling_ratio=%.1f ours_ms=%.2f baseline_ms=%.2f "
      "ratio=%.1f ours_pages_scanned=%lld ours_pages_asked=%lld "
      "baseline_pages_asked=%lld baseline_pages_moved=%lld\n",
      from, to, static_cast<long long>(spec.reserved / kGiB),
      static_cast<long long>(spec.touched / kMiB), spec.spread ? "spread" : "front", repeat,
      static_cast<double>(placed) / static_cast<double>(kMiB), walk, scan, scan / walk,
      bench::median(walk_cpu), bench::median(scan_cpu),
      bench::median(scan_cpu) / bench::median(walk_cpu), bench::median(numa_maps_ms),
      scan / bench::median(numa_maps_ms), ours, base, base / ours,
      static_cast<long long>(ours_scanned), static_cast<long long>(ours_asked),
      static_cast<long long>(baseline.pages_asked), static_cast<long long>(baseline.pages_moved));
  return 0;
}
