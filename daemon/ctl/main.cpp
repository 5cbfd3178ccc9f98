// numabalancerctl: the admin client. Exit codes: 0 ok, 1 the command failed, 2 cannot connect or
// bad usage (the message names the socket it tried).

#include <unistd.h>
#include <CLI/CLI.hpp>

#include <cstdlib>
#include <iostream>

#include "daemon/ctl/admin_client.hpp"
#include "daemon/ctl/audit_view.hpp"
#include "daemon/ctl/human_output.hpp"
#include "daemon/ctl/top_view.hpp"
#include "numabalancer_version.hpp"

namespace {

using nb::ctl::AdminClient;
using nlohmann::json;

constexpr int kOk = 0;
constexpr int kFailed = 1;
constexpr int kUsage = 2;

struct Options {
  std::string socket = "/run/numabalancer/admin.sock";
  bool json_output = false;
  double timeout_s = 10;
};

std::chrono::milliseconds timeout_of(const Options& options) {
  return std::chrono::milliseconds(static_cast<long long>(options.timeout_s * 1000));
}

std::optional<AdminClient> connect(const Options& options) {
  auto client = AdminClient::connect(options.socket, timeout_of(options));
  if (!client) {
    std::cerr << "numabalancerctl: cannot connect to numabalancerd at " << options.socket << ": "
              << client.error().message() << "\n";
    return std::nullopt;
  }
  return std::move(client.value());
}

int report_error(const nb::wire::Response& response) {
  std::cerr << "numabalancerctl: " << nb::wire::to_string(response.error->code) << ": "
            << response.error->message << "\n";
  return kFailed;
}

int run_simple(const Options& options, const std::string& cmd, const json& args) {
  auto client = connect(options);
  if (!client) {
    return kUsage;
  }
  auto response = client->call(cmd, args);
  if (!response) {
    std::cerr << "numabalancerctl: " << options.socket << ": " << response.error().message()
              << "\n";
    return kUsage;
  }
  if (!response->ok()) {
    return report_error(*response);
  }
  if (options.json_output || cmd == "snapshot") {
    std::cout << response->result.dump(2) << "\n";
  } else {
    std::cout << nb::ctl::format_result(cmd, response->result);
  }
  return kOk;
}

int run_watch(const Options& options, long long count) {
  auto client = connect(options);
  if (!client) {
    return kUsage;
  }
  auto response = client->call("watch");
  if (!response || !response->ok()) {
    return response ? report_error(*response) : kUsage;
  }
  for (long long seen = 0; count <= 0 || seen < count;) {
    auto line = client->next(std::chrono::hours(24));
    if (!line) {
      std::cerr << "numabalancerctl: " << line.error().message() << "\n";
      return kFailed;
    }
    if (auto* event = std::get_if<nb::wire::Event>(&line.value())) {
      if (options.json_output) {
        std::cout << nb::wire::to_line(*event) << std::flush;
      } else {
        std::cout << nb::ctl::format_event(event->kind, event->time, event->data) << std::endl;
      }
      ++seen;
    }
  }
  return kOk;
}

// Asks for a round and waits for its "round" event, so the operator sees what it decided rather
// than that it started. 1 when the round failed (the host could not be read).
int run_reconcile(const Options& options) {
  auto client = connect(options);
  if (!client) {
    return kUsage;
  }
  if (auto watching = client->call("watch"); !watching || !watching->ok()) {
    return watching ? report_error(*watching) : kUsage;
  }
  auto started = client->call("reconcile");
  if (!started) {
    std::cerr << "numabalancerctl: " << options.socket << ": " << started.error().message() << "\n";
    return kUsage;
  }
  if (!started->ok()) {
    return report_error(*started);
  }
  const json round = started->result.value("round", json::object());
  if (!started->result.value("pending", false)) {
    std::cout << (options.json_output ? started->result.dump(2) + "\n"
                                      : nb::ctl::format_result("reconcile", started->result));
    return round.value("outcome", std::string()) == "failed" ? kFailed : kOk;
  }
  const auto number = round.value("number", 0LL);
  while (true) {
    auto line = client->next(std::chrono::hours(1));
    if (!line) {
      std::cerr << "numabalancerctl: waiting for round " << number << ": " << line.error().message()
                << "\n";
      return kFailed;
    }
    auto* event = std::get_if<nb::wire::Event>(&line.value());
    if (event == nullptr || event->kind != "round" || event->data.value("number", 0LL) != number) {
      continue;
    }
    json result{{"round", event->data}};
    if (event->data.contains("decision")) {
      result["decision"] = event->data["decision"];
      result["round"].erase("decision");
    }
    std::cout << (options.json_output ? result.dump(2) + "\n"
                                      : nb::ctl::format_result("reconcile", result));
    return event->data.value("outcome", std::string()) == "failed" ? kFailed : kOk;
  }
}

// Starts the job, then follows its events to the end: a progress line on a terminal, the report
// at the end. 0 when the threshold was met, 1 otherwise.
int run_migrate(const Options& options, const json& args) {
  auto client = connect(options);
  if (!client) {
    return kUsage;
  }
  if (auto watching = client->call("watch"); !watching || !watching->ok()) {
    return watching ? report_error(*watching) : kUsage;
  }
  auto started = client->call("migrate", args);
  if (!started) {
    std::cerr << "numabalancerctl: " << started.error().message() << "\n";
    return kUsage;
  }
  if (!started->ok()) {
    return report_error(*started);
  }
  auto job_id = started->result.value("job", 0LL);
  bool tty = ::isatty(STDERR_FILENO);
  while (true) {
    auto line = client->next(std::chrono::hours(24));
    if (!line) {
      std::cerr << "numabalancerctl: " << line.error().message() << "\n";
      return kFailed;
    }
    auto* event = std::get_if<nb::wire::Event>(&line.value());
    if (event == nullptr) {
      continue;
    }
    if (event->kind == "job_progress" && tty && event->data.value("id", 0LL) == job_id) {
      const json& p = event->data.value("progress", json::object());
      double goal = p.value("goal", 0.0);
      double moved = p.value("moved", 0.0);
      double rate = p.value("rate_mib_per_s", 0.0);
      std::cerr << "\r" << nb::ctl::format_bytes(moved) << " of "
                << (goal > 0 ? nb::ctl::format_bytes(goal) : std::string("?")) << ", "
                << static_cast<long long>(rate) << " MiB/s";
      if (goal > moved && rate > 0) {
        std::cerr << ", ETA " << static_cast<long long>((goal - moved) / (rate * 1024 * 1024))
                  << " s";
      }
      std::cerr << "   " << std::flush;
    }
    if (event->kind == "job_done" && event->data.value("job", 0LL) == job_id) {
      if (tty) {
        std::cerr << "\n";
      }
      const json& report = event->data.value("report", json::object());
      if (options.json_output) {
        std::cout << event->data.dump(2) << "\n";
      } else {
        std::cout << "job " << job_id << ": " << event->data.value("outcome", std::string())
                  << ", moved " << nb::ctl::format_bytes(event->data.value("moved_bytes", 0.0))
                  << (report.value("dry_run", false) ? " (dry-run: nothing moved)" : "") << "\n";
        if (!report.empty()) {
          std::cout << "stop reason: " << report.value("stop_reason", std::string()) << ", "
                    << report.value("syscalls", 0LL) << " syscalls, longest call "
                    << report.value("longest_call_ms", 0.0) << " ms, threshold "
                    << (report.value("threshold_met", false) ? "met" : "not met") << "\n";
          for (const auto& error : report.value("errors", json::array())) {
            std::cout << "error: " << error.value("message", std::string()) << " "
                      << error.value("hint", std::string()) << "\n";
          }
        }
      }
      return report.value("threshold_met", false) ? kOk : kFailed;
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"numabalancerctl - controls numabalancerd over its admin socket"};
  app.set_version_flag("--version", std::string("numabalancerctl ") + NUMABALANCER_VERSION);
  app.fallthrough();
  app.require_subcommand(1);
  Options options;
  if (const char* env = std::getenv("NUMABALANCER_SOCKET"); env != nullptr && *env != '\0') {
    options.socket = env;
  }
  app.add_option("-s,--socket", options.socket,
                 "Admin socket of numabalancerd (default /run/numabalancer/admin.sock, or "
                 "$NUMABALANCER_SOCKET)");
  app.add_flag("--json", options.json_output, "Print the daemon's raw JSON result");
  app.add_option("--timeout", options.timeout_s, "Seconds to wait for an answer")
      ->check(CLI::PositiveNumber);

  std::function<int()> action;
  auto simple = [&](const std::string& name, const std::string& help) {
    auto* command = app.add_subcommand(name, help);
    command->callback(
        [&, name] { action = [&, name] { return run_simple(options, name, json::object()); }; });
    return command;
  };

  simple("list_commands", "List the daemon's admin commands");
  simple("status", "Running, paused or dry-run; the last round; the job's progress; providers");
  bool explain = false;
  auto* plan = app.add_subcommand("plan", "The latest decision");
  plan->add_flag("--explain", explain, "Show the reasoning");
  plan->callback([&] {
    action = [&] { return run_simple(options, "plan", {{"explain", explain}}); };
  });
  long long limit = 20;
  std::string since;
  std::string audit_log;
  auto* history = app.add_subcommand("history", "The last rounds with their migration reports");
  auto* limit_option =
      history->add_option("-n,--limit", limit, "How many rounds (with --since: all unless given)")
          ->check(CLI::PositiveNumber);
  history->add_option("--since", since,
                      "Rounds and jobs since DURATION ago (90s, 15m, 2h) or since an RFC 3339 "
                      "TIMESTAMP, from the daemon's audit log");
  history->add_option("--audit-log", audit_log,
                      "Read this audit log file directly instead of asking the daemon");
  history->callback([&, limit_option] {
    std::optional<long long> given;
    if (limit_option->count() > 0) {
      given = limit;
    }
    action = [&, given] {
      if (!audit_log.empty()) {
        return nb::ctl::print_audit_log(audit_log, since, given, options.json_output);
      }
      if (since.empty()) {
        return run_simple(options, "history", {{"limit", limit}});
      }
      json args{{"since", since}};
      if (given) {
        args["limit"] = *given;
      }
      return run_simple(options, "history", args);
    };
  });
  long long container_limit = 0;
  auto* containers = app.add_subcommand("containers", "The watched containers, largest first");
  containers->add_option("-n,--limit", container_limit, "How many containers")
      ->check(CLI::PositiveNumber);
  containers->callback([&] {
    json args = json::object();
    if (container_limit > 0) {
      args["limit"] = container_limit;
    }
    action = [&, args] { return run_simple(options, "containers", args); };
  });
  simple("topology", "Nodes, distances, memory and metrics; pools");
  simple("snapshot", "The latest snapshot document (JSON)");
  simple("metrics", "Prometheus text exposition");
  simple("pause", "Keep deciding but move nothing until resume");
  simple("resume", "Act on decisions again");
  app.add_subcommand("reconcile", "Run a round now and show what it decided")->callback([&] {
    action = [&] { return run_reconcile(options); };
  });
  simple("cancel", "Cancel the running migration job");
  simple("config", "The effective configuration");
  simple("reload", "Re-read the configuration file (an invalid one is rejected)");

  std::string dry_run_state;
  auto* dry_run = app.add_subcommand("dry_run", "Decide but never move: on or off");
  dry_run->alias("dry-run");
  dry_run->add_option("state", dry_run_state, "on or off")
      ->required()
      ->check(CLI::IsMember({"on", "off", "true", "false"}));
  dry_run->callback([&] {
    bool enabled = dry_run_state == "on" || dry_run_state == "true";
    action = [&, enabled] { return run_simple(options, "dry_run", {{"enabled", enabled}}); };
  });

  std::string cgroup;
  int pid = 0;
  int from = -1;
  std::string to;
  std::string max_bytes;
  double rate = -1;
  bool migrate_dry_run = false;
  bool no_wait = false;
  auto* migrate = app.add_subcommand("migrate", "Start a manual migration job and follow it");
  auto* cgroup_option =
      migrate->add_option("--cgroup", cgroup, "Cgroup path (relative to the cgroup root)");
  auto* pid_option =
      migrate->add_option("--pid", pid, "A single process")->check(CLI::PositiveNumber);
  cgroup_option->excludes(pid_option);
  migrate->add_option("--from", from, "Source node")->required()->check(CLI::NonNegativeNumber);
  migrate->add_option("--to", to, "Destination nodes, in order: M[,K...]")->required();
  migrate->add_option("--max-bytes", max_bytes, "Budget (bytes or a size such as 512MiB)");
  migrate->add_option("--rate", rate, "Rate limit in MiB/s (0 = unlimited)");
  migrate->add_flag("--dry-run", migrate_dry_run, "Report what would move, move nothing");
  migrate->add_flag("--no-wait", no_wait, "Return once the job started");
  migrate->callback([&] {
    if (cgroup.empty() && pid == 0) {
      throw CLI::ValidationError("migrate", "give --cgroup or --pid");
    }
    json args{{"from", from}, {"to", to}, {"dry_run", migrate_dry_run}};
    if (!cgroup.empty()) {
      args["cgroup"] = cgroup;
    } else {
      args["pid"] = pid;
    }
    if (!max_bytes.empty()) {
      args["max_bytes"] = max_bytes;
    }
    if (rate >= 0) {
      args["rate"] = rate;
    }
    action = [&, args] {
      return no_wait ? run_simple(options, "migrate", args) : run_migrate(options, args);
    };
  });

  long long watch_count = 0;
  auto* watch = app.add_subcommand("watch", "Stream the daemon's events");
  watch->add_option("-n,--count", watch_count, "Stop after this many events");
  watch->callback([&] { action = [&] { return run_watch(options, watch_count); }; });

  double top_interval = 0;
  std::size_t top_containers = 8;
  auto* top = app.add_subcommand("top", "Live view per node; q or Ctrl-C quits");
  top->add_option("-i,--interval", top_interval,
                  "Seconds between refreshes (default: the "
                  "daemon's interval)");
  top->add_option("-n,--containers", top_containers, "How many containers to show");
  top->callback([&] {
    action = [&] {
      nb::ctl::TopOptions top_options;
      top_options.socket = options.socket;
      top_options.containers = top_containers;
      if (top_interval > 0) {
        top_options.interval =
            std::chrono::milliseconds(static_cast<long long>(top_interval * 1000));
      }
      return nb::ctl::run_top(top_options);
    };
  });

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e) == 0 ? kOk : kUsage;
  }
  return action ? action() : kUsage;
}
