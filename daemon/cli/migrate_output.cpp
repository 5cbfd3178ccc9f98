#include "daemon/cli/migrate_output.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <iostream>
#include <map>
#include <string>
#include <vector>

#include "base/human_format.hpp"

namespace nb::cli {

namespace {

std::string human_bytes(Bytes bytes) {
  return format_bytes(static_cast<double>(bytes), ByteDigits::two_fixed_from_gib);
}

double milliseconds(actuator::Nanoseconds duration) {
  return std::chrono::duration<double, std::milli>(duration).count();
}

std::string node_list(const std::vector<NodeId>& nodes) {
  return fmt::format("{}", fmt::join(nodes, ","));
}

// " (to node 0: 1.00 GiB, node 2: 512.0 MiB)"; nothing when nothing moved.
std::string where_moved(const std::map<NodeId, Bytes>& bytes) {
  std::vector<std::string> parts;
  for (const auto& [node, amount] : bytes) {
    parts.push_back(fmt::format("node {}: {}", node, human_bytes(amount)));
  }
  return parts.empty() ? "" : fmt::format(" (to {})", fmt::join(parts, ", "));
}

// A dry run moves nothing: it says what a real run would move, and claims no threshold, since
// whether the pages would move is only known by moving them.
void print_dry_run_totals(const actuator::MigrationReport& report) {
  std::cout << fmt::format(
      "would move {} of the goal {} (found on the source: {}); nothing moved\n",
      human_bytes(std::min(report.bytes_on_source(), report.goal)), human_bytes(report.goal),
      human_bytes(report.bytes_on_source()));
  std::cout << fmt::format("{} pages scanned, {:.2f} s\n", report.pages_scanned(),
                           milliseconds(report.elapsed) / 1000);
}

void print_totals(const actuator::MigrationReport& report) {
  auto outcomes = report.outcomes();
  std::cout << fmt::format("moved {}{}, already on a destination {}, goal {}\n",
                           human_bytes(report.bytes_moved()), where_moved(report.bytes_moved_to()),
                           human_bytes(report.bytes_placed() - report.bytes_moved()),
                           human_bytes(report.goal));
  std::cout << fmt::format("threshold {:.0f}% of the goal: {}\n", report.threshold * 100,
                           report.threshold_met ? "met" : "not met");
  std::cout << fmt::format(
      "pages: moved {}, already there {}, busy {}, no memory {}, access denied {}, unmapped {}, "
      "other {}\n",
      outcomes.moved, outcomes.already_on_destination, outcomes.busy, outcomes.no_memory,
      outcomes.access_denied, outcomes.unmapped, outcomes.other);
  std::cout << fmt::format(
      "{} pages scanned, {} syscalls, longest call {:.2f} ms, {:.2f} s, {:.0f} MiB/s\n",
      report.pages_scanned(), report.syscalls(), milliseconds(report.longest_call()),
      milliseconds(report.elapsed) / 1000, report.rate_mib_per_s());
}

}  // namespace

void ProgressBar::update(const actuator::JobProgress& progress) {
  if (!enabled_) {
    return;
  }
  auto now = std::chrono::steady_clock::now();
  if (drawn_ && now - last_ < std::chrono::milliseconds(100)) {
    return;
  }
  last_ = now;
  drawn_ = true;
  constexpr int kWidth = 30;
  double fraction = progress.goal > 0
                        ? static_cast<double>(progress.placed) / static_cast<double>(progress.goal)
                        : 0;
  fraction = std::clamp(fraction, 0.0, 1.0);
  int filled = static_cast<int>(fraction * kWidth);
  // Placed rather than moved: pages found already on a destination are progress too.
  double elapsed = std::chrono::duration<double>(progress.elapsed).count();
  double rate =
      elapsed > 0 ? static_cast<double>(progress.placed) / static_cast<double>(kMiB) / elapsed : 0;
  std::string eta = "-";
  if (rate > 0 && progress.goal > progress.placed) {
    double seconds =
        static_cast<double>(progress.goal - progress.placed) / static_cast<double>(kMiB) / rate;
    eta = fmt::format("{:.1f}s", seconds);
  }
  std::cerr << fmt::format("\r[{}{}] {} of {}  {:.0f} MiB/s  ETA {}   ", std::string(filled, '#'),
                           std::string(kWidth - filled, '.'), human_bytes(progress.placed),
                           human_bytes(progress.goal), rate, eta)
            << std::flush;
}

void ProgressBar::finish() {
  if (enabled_ && drawn_) {
    std::cerr << '\n';
  }
}

void print_table(const actuator::MigrationReport& report) {
  std::cout << fmt::format("{}node {} -> {}: {}\n", report.dry_run ? "dry run, " : "",
                           report.source_node, node_list(report.dest_nodes),
                           actuator::to_string(report.stop_reason));
  if (report.dry_run) {
    print_dry_run_totals(report);
  } else {
    print_totals(report);
  }
  std::cout << fmt::format("\n{:<24} {:>8} {:>12} {:>12} {:>12} {:>6} {:>9} {:>10}\n", "CONTAINER",
                           "PID", "ON SOURCE", "MOVED", "ALREADY", "BUSY", "SYSCALLS", "LONGEST");
  for (const auto& container : report.containers) {
    for (const auto& process : container.processes) {
      std::string note =
          process.vanished ? " (exited)" : (process.fast_path ? " (migrate_pages)" : "");
      std::cout << fmt::format(
          "{:<24} {:>8} {:>12} {:>12} {:>12} {:>6} {:>9} {:>8.2f}ms{}\n", container.id, process.pid,
          human_bytes(process.bytes_on_source), human_bytes(process.bytes_moved()),
          human_bytes(process.bytes_already_on_destination), process.outcomes.busy,
          process.syscalls, milliseconds(process.longest_call), note);
    }
  }
  if (!report.vanished_pids.empty()) {
    std::cout << fmt::format("\nexited during the job: {}\n",
                             fmt::join(report.vanished_pids, ", "));
  }
  for (const auto& dropped : report.dropped_destinations) {
    std::cout << fmt::format("dropped node {}: {}\n", dropped.node, dropped.reason);
  }
  for (const auto& error : report.errors) {
    std::cout << fmt::format("error: {}\n", error.message);
    if (!error.hint.empty()) {
      std::cout << fmt::format("  hint: {}\n", error.hint);
    }
  }
}

}  // namespace nb::cli
