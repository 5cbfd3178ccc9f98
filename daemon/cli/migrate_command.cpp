// `numabalancerd migrate`: moves one cgroup's (or one process's) memory off a node now, with
// the same engine the daemon uses, and prints what happened. Exit 0 when the threshold was met
// (a dry run: when it found something to move), 1 when the move was partial, 2 for bad input
// (the source among the destinations, unknown node, missing cgroup or process, a cgroup outside
// the memory cgroup root, a target outside the configured pools for a user other than root,
// nothing to move).

#include <unistd.h>

#include <atomic>
#include <csignal>
#include <filesystem>
#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "actuator/damon_sysfs.hpp"
#include "actuator/linux_memory_syscalls.hpp"
#include "actuator/migration_job.hpp"
#include "base/option_checks.hpp"
#include "daemon/cli/commands.hpp"
#include "daemon/cli/global_config.hpp"
#include "daemon/cli/migrate_output.hpp"
#include "daemon/codec/report_json.hpp"
#include "daemon/host/cgroup_layout.hpp"
#include "daemon/host/topology.hpp"
#include "daemon/service/manual_migration.hpp"
#include "daemon/service/manual_migration_scope.hpp"

namespace nb::cli {
namespace {

using service::check_process;
using service::check_process_scope;
using service::check_rate;
using service::job_options_for;
using service::job_options_from;
using service::ManualMigration;
using service::MigrationProblem;
using service::parse_budget;
using service::resolve_cgroup_in_scope;
using service::target_of;

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
  std::string page_order;  // empty: [actuator] page_order
};

std::atomic<bool> interrupted{false};

void on_interrupt(int) {
  interrupted.store(true);
}

int fail(const std::string& message) {
  std::cerr << "numabalancerd migrate: " << message << '\n';
  return kBadInput;
}

// Why the input was refused; it ends the command with kBadInput.
struct BadInput {
  std::string message;
};

template <typename T>
using Checked = Result<T, BadInput>;

// What --config sets for a manual move; without one, the built-in [actuator] and no pools.
struct Settings {
  config::ActuatorConfig actuator;
  std::vector<config::PoolConfig> pools;
};

Checked<Settings> load_settings(const GlobalOptions& global) {
  auto loaded = load_global_config(global, "migrate");
  if (!loaded) {
    return BadInput{loaded.error()};
  }
  return Settings{loaded->actuator, loaded->pools};
}

Checked<ManualMigration> read_request(const MigrateOptions& options,
                                      const config::ActuatorConfig& actuator) {
  if (auto distinct = service::check_source_and_destinations(options.from, options.to); !distinct) {
    return BadInput{distinct.error().detail};
  }
  ManualMigration request;
  request.from = options.from;
  request.to = options.to;
  request.dry_run = options.dry_run;
  request.rate_mib_per_s = options.rate.value_or(actuator.rate_limit_mib_per_s);
  if (!check_rate(*request.rate_mib_per_s)) {
    return BadInput{std::string("--rate must be ") + kRateLimitRule + " MiB/s"};
  }
  if (!options.max_bytes.empty()) {
    auto budget = parse_budget(options.max_bytes);
    if (!budget) {
      return BadInput{budget.error().problem == MigrationProblem::budget_not_positive
                          ? std::string("--max-bytes must be more than 0")
                          : "--max-bytes: " + budget.error().detail};
    }
    request.max_bytes = budget.value();
  }
  if (!options.page_order.empty()) {
    request.page_order = actuator::parse_page_order(options.page_order);
    if (!request.page_order) {
      return BadInput{"--page-order must be auto, hot_first or address"};
    }
  }
  if (options.pid) {
    request.pid = options.pid;
  } else {
    request.cgroup = options.cgroup;
  }
  return request;
}

Checked<Ok> check_nodes(actuator::MemorySyscalls& syscalls, const ManualMigration& request) {
  std::vector<NodeId> nodes{request.from};
  nodes.insert(nodes.end(), request.to.begin(), request.to.end());
  for (NodeId node : nodes) {
    if (auto memory = syscalls.node_memory(node); !memory.ok()) {
      std::string with_memory;
      if (auto online = host::read_online_nodes("/")) {
        for (NodeId candidate : *online) {
          if (syscalls.node_memory(candidate).ok()) {
            with_memory += (with_memory.empty() ? "" : ", ") + std::to_string(candidate);
          }
        }
      }
      return BadInput{"unknown node " + std::to_string(node) +
                      " (no such node, or it has no memory)" +
                      (with_memory.empty() ? "" : "; the nodes with memory are " + with_memory)};
    }
  }
  return Ok{};
}

struct Subject {
  actuator::MigrationTarget target;
  std::string name;  // "process 42", "cgroup /sys/fs/cgroup/x"
};

// The cgroup stays beneath the memory controller's root; a target outside the configured pools
// is the root user's alone, as over the admin socket.
Checked<Subject> resolve_subject(const ManualMigration& request,
                                 const std::vector<config::PoolConfig>& pools) {
  bool caller_is_root = ::getuid() == 0;
  if (request.pid) {
    if (!check_process(*request.pid, "/proc")) {
      return BadInput{"no such process: " + std::to_string(*request.pid)};
    }
    if (auto scope = check_process_scope(*request.pid, pools, "/proc", caller_is_root); !scope) {
      return BadInput{scope.error().detail};
    }
    return Subject{target_of(request, {}), "process " + std::to_string(*request.pid)};
  }
  auto layout = host::detect_cgroup_layout("/");
  if (!layout.ok()) {
    return BadInput{"cannot find the cgroup hierarchy: " + layout.error().message()};
  }
  auto cgroup =
      resolve_cgroup_in_scope(layout->memory_root, *request.cgroup, pools, caller_is_root);
  if (!cgroup) {
    return BadInput{cgroup.error().detail};
  }
  return Subject{target_of(request, cgroup->dir), "cgroup " + cgroup->dir.string()};
}

// Runs the job in the foreground; Ctrl-C cancels it at its next batch.
actuator::MigrationReport run_job(const actuator::MigrationTarget& target,
                                  const actuator::JobOptions& job,
                                  actuator::MemorySyscalls& syscalls, bool show_progress) {
  interrupted.store(false);
  auto previous_int = std::signal(SIGINT, on_interrupt);
  auto previous_term = std::signal(SIGTERM, on_interrupt);
  ProgressBar bar(show_progress);
  actuator::LinuxDamonSysfs damon(actuator::damon_admin_root("/sys"));
  auto report = actuator::run_migration({target}, job, syscalls, &damon, "/proc", interrupted,
                                        [&bar](const actuator::JobProgress& p) { bar.update(p); });
  bar.finish();
  std::signal(SIGINT, previous_int);
  std::signal(SIGTERM, previous_term);
  return report;
}

int run_migrate(const MigrateOptions& options, const GlobalOptions& global) {
  auto settings = load_settings(global);
  if (!settings) {
    std::cerr << settings.error().message;
    return kBadInput;
  }
  auto request = read_request(options, settings->actuator);
  if (!request) {
    return fail(request.error().message);
  }
  actuator::LinuxMemorySyscalls syscalls;
  if (auto nodes = check_nodes(syscalls, *request); !nodes) {
    return fail(nodes.error().message);
  }
  auto subject = resolve_subject(*request, settings->pools);
  if (!subject) {
    return fail(subject.error().message);
  }
  auto job = job_options_for(*request, job_options_from(settings->actuator));
  auto report =
      run_job(subject->target, job, syscalls, !options.json && ::isatty(STDERR_FILENO) == 1);
  if (report.stop_reason == actuator::StopReason::nothing_to_move) {
    for (const auto& error : report.errors) {
      std::cerr << "numabalancerd migrate: " << error.message << '\n';
    }
    return fail("nothing to move: " + subject->name + " has no memory on node " +
                std::to_string(options.from));
  }
  if (options.json) {
    std::cout << codec::to_json(report).dump(2) << '\n';
  } else {
    print_table(report);
  }
  // A dry run moves nothing, so it claims no threshold.
  return report.dry_run || report.threshold_met ? kThresholdMet : kPartial;
}

}  // namespace

void add_migrate_command(CLI::App& app, const GlobalOptions& global, int& exit_code) {
  auto options = std::make_shared<MigrateOptions>();
  auto* command = app.add_subcommand(
      "migrate", "Move a cgroup's or a process's memory off a NUMA node now, within a budget");
  auto* cgroup = command->add_option(
      "--cgroup", options->cgroup,
      "Cgroup directory beneath the memory cgroup root: absolute, or relative to that root "
      "(with descendants); no '..', no symbolic links");
  auto* pid = command->add_option("--pid", options->pid, "A single process")
                  ->check(positive_whole_number());
  cgroup->excludes(pid);
  pid->excludes(cgroup);
  command->add_option("--from", options->from, "Source node")->required()->check(node_number());
  command->add_option("--to", options->to, "Destination nodes in order of preference (M[,K...])")
      ->required()
      ->delimiter(',');
  command->add_option("--max-bytes", options->max_bytes,
                      "Budget, e.g. 512MiB (default: everything on the source)");
  command->add_option("--rate", options->rate,
                      "Rate limit in MiB/s, 0 = unlimited (default: [actuator] rate_limit)");
  command->add_flag("--dry-run", options->dry_run, "Report what would move; move nothing");
  command->add_option("--page-order", options->page_order,
                      "auto, hot_first (DAMON's hottest regions first) or address "
                      "(default: [actuator] page_order)");
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
