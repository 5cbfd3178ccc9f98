// `numabalancerd migrate`: moves one cgroup's (or one process's) memory off a node now, with
// the same engine the daemon uses, and prints what happened. Exit 0 when the threshold was met,
// 1 when the move was partial, 2 for bad input (unknown node, missing cgroup or process,
// nothing to move).

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <csignal>
#include <filesystem>
#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "actuator/linux_memory_syscalls.hpp"
#include "actuator/migration_job.hpp"
#include "base/parse_units.hpp"
#include "daemon/cli/commands.hpp"
#include "daemon/codec/report_json.hpp"
#include "daemon/config/load.hpp"
#include "daemon/host/cgroup_layout.hpp"
#include "daemon/service/extension_names.hpp"

namespace nb::cli {
namespace {

constexpr int kThresholdMet = 0;
constexpr int kPartial = 1;
constexpr int kBadInput = 2;

struct MigrateOptions {
  std::string cgroup;
  std::optional<int> pid;
  NodeId from = 0;
  std::vector<NodeId> to;
  std::string max_bytes;
  std::optional<double> rate;
  bool dry_run = false;
  bool json = false;
};

std::atomic<bool> interrupted{false};

void on_interrupt(int) {
  interrupted.store(true);
}

int fail(const std::string& message) {
  std::cerr << "numabalancerd migrate: " << message << '\n';
  return kBadInput;
}

std::string human_bytes(Bytes bytes) {
  if (bytes >= kGiB) {
    return fmt::format("{:.2f} GiB", static_cast<double>(bytes) / static_cast<double>(kGiB));
  }
  if (bytes >= kMiB) {
    return fmt::format("{:.1f} MiB", static_cast<double>(bytes) / static_cast<double>(kMiB));
  }
  if (bytes >= kKiB) {
    return fmt::format("{:.1f} KiB", static_cast<double>(bytes) / static_cast<double>(kKiB));
  }
  return fmt::format("{} B", bytes);
}

double milliseconds(actuator::Nanoseconds duration) {
  return std::chrono::duration<double, std::milli>(duration).count();
}

std::string node_list(const std::vector<NodeId>& nodes) {
  return fmt::format("{}", fmt::join(nodes, ","));
}

std::string bytes_per_node(const std::map<NodeId, Bytes>& bytes) {
  std::vector<std::string> parts;
  for (const auto& [node, amount] : bytes) {
    parts.push_back(fmt::format("node {}: {}", node, human_bytes(amount)));
  }
  return parts.empty() ? "-" : fmt::format("{}", fmt::join(parts, ", "));
}

// Bytes moved of the goal, rate and ETA, redrawn in place; only on a terminal.
class ProgressBar {
 public:
  explicit ProgressBar(bool enabled) : enabled_(enabled) {}

  void update(const actuator::JobProgress& progress) {
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
    double fraction = progress.goal > 0 ? static_cast<double>(progress.placed) /
                                              static_cast<double>(progress.goal)
                                        : 0;
    fraction = std::clamp(fraction, 0.0, 1.0);
    int filled = static_cast<int>(fraction * kWidth);
    // Placed rather than moved: pages found already on a destination are progress too.
    double elapsed = std::chrono::duration<double>(progress.elapsed).count();
    double rate = elapsed > 0
                      ? static_cast<double>(progress.placed) / static_cast<double>(kMiB) / elapsed
                      : 0;
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

  void finish() {
    if (enabled_ && drawn_) {
      std::cerr << '\n';
    }
  }

 private:
  bool enabled_;
  bool drawn_ = false;
  std::chrono::steady_clock::time_point last_;
};

void print_table(const actuator::MigrationReport& report) {
  auto outcomes = report.outcomes();
  std::cout << fmt::format("{}node {} -> {}: {}\n", report.dry_run ? "dry run, " : "",
                           report.source_node, node_list(report.dest_nodes),
                           actuator::to_string(report.stop_reason));
  if (report.dry_run) {
    std::cout << fmt::format("would move {} (found on the source: {})\n",
                             human_bytes(std::min(report.bytes_on_source(), report.goal)),
                             human_bytes(report.bytes_on_source()));
  }
  std::cout << fmt::format(
      "moved {} ({}), already on a destination {}, goal {}\n", human_bytes(report.bytes_moved()),
      bytes_per_node(report.bytes_moved_to()),
      human_bytes(report.bytes_placed() - report.bytes_moved()), human_bytes(report.goal));
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

std::optional<std::filesystem::path> resolve_cgroup(const std::string& text, std::string& problem) {
  std::filesystem::path path(text);
  if (!path.is_absolute()) {
    auto layout = host::detect_cgroup_layout("/");
    if (!layout.ok()) {
      problem = "cannot find the cgroup hierarchy: " + layout.error().message();
      return std::nullopt;
    }
    path = layout->container_dir(text);
  }
  std::error_code error;
  if (!std::filesystem::is_directory(path, error)) {
    problem = "cgroup not found: " + path.string();
    return std::nullopt;
  }
  return path;
}

int run_migrate(const MigrateOptions& options, const GlobalOptions& global) {
  config::ActuatorConfig actuator_config;
  if (!global.config_path.empty()) {
    config::ConfigLoad load =
        config::load_config_file(global.config_path, service::extension_names());
    if (!load.ok()) {
      for (const auto& problem : load.problems) {
        std::cerr << "numabalancerd migrate: " << global.config_path << ": " << problem.to_string()
                  << '\n';
      }
      return kBadInput;
    }
    actuator_config = load.config.actuator;
  }

  actuator::JobOptions job;
  job.source_node = options.from;
  job.rate_limit_mib_per_s = options.rate.value_or(actuator_config.rate_limit_mib_per_s);
  job.call_target = actuator_config.call_target;
  job.deadline = actuator_config.job_deadline;
  job.move_shared = actuator_config.move_shared;
  job.min_free_bytes = actuator_config.min_free_bytes;
  job.dry_run = options.dry_run;
  if (job.rate_limit_mib_per_s < 0) {
    return fail("--rate must be 0 (unlimited) or more");
  }
  if (!options.max_bytes.empty()) {
    auto size = parse_size(options.max_bytes);
    if (!size.ok()) {
      return fail("--max-bytes: " + size.error().message());
    }
    if (*size <= 0) {
      return fail("--max-bytes must be more than 0");
    }
    job.budget = *size;
  }

  actuator::LinuxMemorySyscalls syscalls;
  std::vector<NodeId> nodes{options.from};
  nodes.insert(nodes.end(), options.to.begin(), options.to.end());
  for (NodeId node : nodes) {
    if (auto memory = syscalls.node_memory(node); !memory.ok()) {
      return fail("unknown node " + std::to_string(node) + " (no such node, or it has no memory)");
    }
  }

  actuator::MigrationTarget target;
  target.dest_nodes = options.to;
  std::string subject;
  if (options.pid) {
    if (*options.pid <= 0 || !std::filesystem::exists("/proc/" + std::to_string(*options.pid))) {
      return fail("no such process: " + std::to_string(*options.pid));
    }
    target.pid = options.pid;
    target.container_id = "pid " + std::to_string(*options.pid);
    subject = "process " + std::to_string(*options.pid);
  } else {
    std::string problem;
    auto dir = resolve_cgroup(options.cgroup, problem);
    if (!dir) {
      return fail(problem);
    }
    target.cgroup_dir = *dir;
    target.container_id = options.cgroup;
    subject = "cgroup " + dir->string();
  }

  interrupted.store(false);
  auto previous_int = std::signal(SIGINT, on_interrupt);
  auto previous_term = std::signal(SIGTERM, on_interrupt);
  ProgressBar bar(!options.json && ::isatty(STDERR_FILENO) == 1);
  auto report = actuator::run_migration({target}, job, syscalls, "/proc", interrupted,
                                        [&bar](const actuator::JobProgress& p) { bar.update(p); });
  bar.finish();
  std::signal(SIGINT, previous_int);
  std::signal(SIGTERM, previous_term);

  if (report.stop_reason == actuator::StopReason::nothing_to_move) {
    for (const auto& error : report.errors) {
      std::cerr << "numabalancerd migrate: " << error.message << '\n';
    }
    return fail("nothing to move: " + subject + " has no memory on node " +
                std::to_string(options.from));
  }
  if (options.json) {
    std::cout << codec::to_json(report).dump(2) << '\n';
  } else {
    print_table(report);
  }
  return report.threshold_met ? kThresholdMet : kPartial;
}

}  // namespace

void add_migrate_command(CLI::App& app, const GlobalOptions& global, int& exit_code) {
  auto options = std::make_shared<MigrateOptions>();
  auto* command = app.add_subcommand(
      "migrate", "Move a cgroup's or a process's memory off a NUMA node now, within a budget");
  auto* cgroup = command->add_option(
      "--cgroup", options->cgroup,
      "Cgroup directory: absolute, or relative to the memory cgroup root (with descendants)");
  auto* pid = command->add_option("--pid", options->pid, "A single process");
  cgroup->excludes(pid);
  pid->excludes(cgroup);
  command->add_option("--from", options->from, "Source node")->required();
  command->add_option("--to", options->to, "Destination nodes in order of preference (M[,K...])")
      ->required()
      ->delimiter(',');
  command->add_option("--max-bytes", options->max_bytes,
                      "Budget, e.g. 512MiB (default: everything on the source)");
  command->add_option("--rate", options->rate,
                      "Rate limit in MiB/s, 0 = unlimited (default: [actuator] rate_limit)");
  command->add_flag("--dry-run", options->dry_run, "Report what would move; move nothing");
  command->add_flag("--json", options->json, "Print the report as JSON");
  command->callback([options, &global, &exit_code, cgroup, pid] {
    if (cgroup->count() == 0 && pid->count() == 0) {
      exit_code = fail("one of --cgroup or --pid is required");
      return;
    }
    exit_code = run_migrate(*options, global);
  });
}

}  // namespace nb::cli
