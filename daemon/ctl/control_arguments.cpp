// The arguments of the commands that act or follow: `reconcile`, `dry_run`, `migrate`, `watch`
// and `top`.

#include <memory>

#include "base/option_checks.hpp"
#include "daemon/ctl/commands.hpp"
#include "daemon/ctl/conversation.hpp"
#include "daemon/ctl/top_view.hpp"

namespace nb::ctl {

using nlohmann::json;

std::function<Action()> reconcile_arguments(CLI::App&) {
  return [] { return [](const Options& options, const Command&) { return run_round(options); }; };
}

std::function<Action()> dry_run_arguments(CLI::App& subcommand) {
  auto state = std::make_shared<std::string>();
  subcommand.alias("dry-run");
  subcommand.add_option("state", *state, "on or off")
      ->type_name("on|off")
      ->check(CLI::IsMember({"on", "off", "true", "false"}));
  // Checked here rather than by required(): CLI11 would say "state is required".
  return [state] {
    if (state->empty()) {
      throw CLI::ValidationError("dry-run", "give on or off: numabalancerctl dry_run on|off");
    }
    return request({{"enabled", *state == "on" || *state == "true"}});
  };
}

namespace {

struct MigrateArguments {
  std::string cgroup;
  int pid = 0;
  int from = -1;
  std::string to;
  std::string max_bytes;
  double rate = -1;
  bool dry_run = false;
  bool no_wait = false;
  std::string page_order;
};

json migrate_request(const MigrateArguments& given) {
  if (given.cgroup.empty() && given.pid == 0) {
    throw CLI::ValidationError("migrate", "give --cgroup or --pid");
  }
  json args{{"from", given.from}, {"to", given.to}, {"dry_run", given.dry_run}};
  if (!given.cgroup.empty()) {
    args["cgroup"] = given.cgroup;
  } else {
    args["pid"] = given.pid;
  }
  if (!given.max_bytes.empty()) {
    args["max_bytes"] = given.max_bytes;
  }
  if (given.rate >= 0) {
    args["rate"] = given.rate;
  }
  if (!given.page_order.empty()) {
    args["page_order"] = given.page_order;
  }
  return args;
}

}  // namespace

std::function<Action()> migrate_arguments(CLI::App& subcommand) {
  auto given = std::make_shared<MigrateArguments>();
  auto* cgroup =
      subcommand.add_option("--cgroup", given->cgroup, "Cgroup path (relative to the cgroup root)");
  auto* pid = subcommand.add_option("--pid", given->pid, "A single process")
                  ->check(positive_whole_number());
  cgroup->excludes(pid);
  subcommand.add_option("--from", given->from, "Source node")->required()->check(node_number());
  subcommand.add_option("--to", given->to, "Destination nodes, in order: M[,K...]")->required();
  subcommand.add_option("--max-bytes", given->max_bytes, "Budget (bytes or a size such as 512MiB)");
  subcommand.add_option("--rate", given->rate, "Rate limit in MiB/s (0 = unlimited)")
      ->check(mib_per_second());
  subcommand.add_flag("--dry-run", given->dry_run, "Report what would move, move nothing");
  subcommand
      .add_option("--page-order", given->page_order,
                  "auto, hot_first (DAMON's hottest regions first) or address (default: the "
                  "daemon's [actuator] page_order)")
      ->check(CLI::IsMember({"auto", "hot_first", "address"}));
  subcommand.add_flag("--no-wait", given->no_wait, "Return once the job started");
  return [given]() -> Action {
    json args = migrate_request(*given);
    if (given->no_wait) {
      return request(std::move(args));
    }
    return [args](const Options& options, const Command&) { return follow_job(options, args); };
  };
}

std::function<Action()> watch_arguments(CLI::App& subcommand) {
  auto count = std::make_shared<long long>(0);
  subcommand.add_option("-n,--count", *count, "Stop after this many events")
      ->check(positive_whole_number());
  return [count]() -> Action {
    return
        [count](const Options& options, const Command&) { return stream_events(options, *count); };
  };
}

namespace {

struct TopArguments {
  double interval_s = 0;
  std::size_t containers = 8;
};

}  // namespace

std::function<Action()> top_arguments(CLI::App& subcommand) {
  auto given = std::make_shared<TopArguments>();
  subcommand
      .add_option("-i,--interval", given->interval_s,
                  "Seconds between refreshes (default: the "
                  "daemon's interval)")
      ->check(seconds_up_to_a_day());
  subcommand.add_option("-n,--containers", given->containers, "How many containers to show")
      ->check(positive_whole_number());
  return [given]() -> Action {
    return [given](const Options& options, const Command&) {
      TopOptions top;
      top.socket = options.socket;
      top.containers = given->containers;
      top.timeout = timeout_of(options);
      if (given->interval_s > 0) {
        top.interval = std::chrono::milliseconds(static_cast<long long>(given->interval_s * 1000));
      }
      return run_top(top);
    };
  };
}

}  // namespace nb::ctl
