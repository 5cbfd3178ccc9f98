// `migrate`: a manual job on one cgroup or one process. Every argument is checked, and the nodes
// against the last snapshot, before the job starts; a bad request changes nothing.

#include <algorithm>

#include "daemon/service/admin/command_args.hpp"
#include "daemon/service/admin/daemon_commands.hpp"
#include "daemon/service/manual_migration.hpp"
#include "daemon/service/manual_migration_scope.hpp"

namespace nb::service::commands {

namespace {

using nlohmann::json;

bool has(const json& args, const char* name) {
  return args.contains(name) && !args[name].is_null();
}

// "from" and "to"; with a snapshot, every node must be one it knows.
ArgResult<Ok> read_nodes(const json& args, const core::Snapshot* snapshot,
                         ManualMigration& request) {
  if (!args.contains("from") || !args["from"].is_number_integer()) {
    return ArgumentError{"\"from\" (the source node) is required and must be a node number"};
  }
  request.from = args["from"].get<NodeId>();
  if (!args.contains("to")) {
    return ArgumentError{"\"to\" (the destination nodes) is required"};
  }
  auto dests = node_list(args["to"]);
  if (!dests) {
    return dests.error();
  }
  request.to = std::move(dests.value());
  if (auto distinct = check_source_and_destinations(request.from, request.to); !distinct) {
    return ArgumentError{distinct.error().detail};
  }
  if (snapshot != nullptr) {
    auto known = [&](NodeId id) {
      return std::any_of(snapshot->nodes.begin(), snapshot->nodes.end(),
                         [&](const auto& n) { return n.id == id; });
    };
    auto unknown = [&](NodeId id) {
      std::string nodes;
      for (const auto& node : snapshot->nodes) {
        nodes += (nodes.empty() ? "" : ", ") + std::to_string(node.id);
      }
      return ArgumentError{"unknown node " + std::to_string(id) + "; this host's nodes are " +
                           nodes};
    };
    if (!known(request.from)) {
      return unknown(request.from);
    }
    for (NodeId node : request.to) {
      if (!known(node)) {
        return unknown(node);
      }
    }
  }
  return Ok{};
}

ArgResult<std::optional<Bytes>> read_budget(const json& args) {
  auto max = args.find("max_bytes");
  if (max == args.end() || max->is_null()) {
    return std::optional<Bytes>();
  }
  if (max->is_number_integer() && max->get<long long>() > 0) {
    return std::optional<Bytes>(max->get<Bytes>());
  }
  if (!max->is_string()) {
    return ArgumentError{"\"max_bytes\" must be a positive number of bytes or a size (\"512MiB\")"};
  }
  auto budget = parse_budget(max->get<std::string>());
  if (!budget) {
    return ArgumentError{"\"max_bytes\": " +
                         (budget.error().problem == MigrationProblem::budget_not_positive
                              ? std::string("must be positive")
                              : budget.error().detail)};
  }
  return std::optional<Bytes>(budget.value());
}

ArgResult<std::optional<double>> read_rate(const json& args) {
  auto rate = args.find("rate");
  if (rate == args.end() || rate->is_null()) {
    return std::optional<double>();
  }
  if (!rate->is_number() || !check_rate(rate->get<double>())) {
    return ArgumentError{std::string("\"rate\" must be ") + kRateLimitRule + " MiB/s"};
  }
  return std::optional<double>(rate->get<double>());
}

ArgResult<std::optional<actuator::PageOrder>> read_page_order(const json& args) {
  auto order = args.find("page_order");
  if (order == args.end() || order->is_null()) {
    return std::optional<actuator::PageOrder>();
  }
  auto parsed =
      order->is_string() ? actuator::parse_page_order(order->get<std::string>()) : std::nullopt;
  if (!parsed) {
    return ArgumentError{"\"page_order\" must be \"auto\", \"hot_first\" or \"address\""};
  }
  return std::optional<actuator::PageOrder>(*parsed);
}

ArgResult<ManualMigration> read_request(const json& args, const core::Snapshot* snapshot) {
  bool has_cgroup = has(args, "cgroup");
  if (has_cgroup == has(args, "pid")) {
    return ArgumentError{"give exactly one of \"cgroup\" and \"pid\""};
  }
  ManualMigration request;
  if (auto nodes = read_nodes(args, snapshot, request); !nodes) {
    return nodes.error();
  }
  auto budget = read_budget(args);
  if (!budget) {
    return budget.error();
  }
  request.max_bytes = budget.value();
  auto rate = read_rate(args);
  if (!rate) {
    return rate.error();
  }
  request.rate_mib_per_s = rate.value();
  auto dry_run = bool_arg(args, "dry_run");
  if (!dry_run) {
    return dry_run.error();
  }
  request.dry_run = dry_run->value_or(false);
  auto page_order = read_page_order(args);
  if (!page_order) {
    return page_order.error();
  }
  request.page_order = page_order.value();
  if (has_cgroup) {
    if (!args["cgroup"].is_string() || args["cgroup"].get<std::string>().empty()) {
      return ArgumentError{"\"cgroup\" must be a cgroup path"};
    }
    request.cgroup = args["cgroup"].get<std::string>();
  } else {
    // Checked as a long long first: get<int>() of 4294967297 would be pid 1.
    if (!args["pid"].is_number_integer() || args["pid"].get<long long>() <= 0 ||
        args["pid"].get<long long>() > kMaxPid) {
      return ArgumentError{"\"pid\" must be a process id from 1 to " + std::to_string(kMaxPid)};
    }
    request.pid = args["pid"].get<int>();
  }
  return request;
}

// A cgroup beneath the memory controller's root, or a process; either outside the configured
// pools only for a root peer.
ArgResult<actuator::MigrationTarget> resolve_target(const DaemonView& daemon,
                                                    const ManualMigration& request,
                                                    bool caller_is_root) {
  const auto& pools = daemon.state().config.pools;
  if (request.pid) {
    if (!check_process(*request.pid, daemon.proc_root())) {
      return ArgumentError{"no process " + std::to_string(*request.pid)};
    }
    auto scope = check_process_scope(*request.pid, pools, daemon.proc_root(), caller_is_root);
    if (!scope) {
      return ArgumentError{scope.error().detail};
    }
    return target_of(request, {});
  }
  // container_dir joins an id to the memory controller's root; the empty id is the root itself.
  auto cgroup =
      resolve_cgroup_in_scope(daemon.container_dir(""), *request.cgroup, pools, caller_is_root);
  if (!cgroup) {
    return ArgumentError{cgroup.error().detail};
  }
  return target_of(request, cgroup->dir);
}

}  // namespace

CommandOutcome migrate(DaemonView& daemon, const Args& args, CommandContext& context) {
  if (daemon.state().stopping) {
    return wire::ErrorReply{wire::ErrorCode::busy, "the daemon is stopping"};
  }
  if (const RunningJob* job = daemon.job()) {
    return wire::ErrorReply{wire::ErrorCode::busy, "job " + std::to_string(job->id) +
                                                       " is running; wait for it or `cancel` it"};
  }
  const auto& snapshot = daemon.state().last_scan;
  auto request = read_request(args, snapshot ? &snapshot->snapshot : nullptr);
  if (!request) {
    return bad_request(request.error());
  }
  auto target = resolve_target(daemon, *request, context.caller_is_root);
  if (!target) {
    return bad_request(target.error());
  }
  auto options = job_options_for(*request, daemon_job_options(daemon.state().config));
  auto started = daemon.start_manual_job(std::move(target.value()), options);
  return json{{"job", started.job}, {"round", started.round}, {"dry_run", options.dry_run}};
}

}  // namespace nb::service::commands
