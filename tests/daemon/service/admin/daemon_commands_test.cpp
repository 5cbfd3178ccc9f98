// The daemon's admin commands over a fake DaemonView: no socket, no loop, no host.

#include "daemon/service/admin/daemon_commands.hpp"
#include "base/time.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include "tests/support/temp_tree.hpp"

namespace nb::service {
namespace {

using nlohmann::json;

class FakeDaemon : public DaemonView {
 public:
  const DaemonState& state() const override { return state_; }
  const RunningJob* job() const override { return job_.get(); }
  TimePoint now() const override { return TimePoint{}; }
  const std::filesystem::path& config_file() const override { return config_file_; }
  const std::filesystem::path& proc_root() const override { return proc_root_; }
  std::filesystem::path container_dir(std::string_view id) const override {
    return cgroup_root_ / id;
  }
  std::size_t clients() const override { return 0; }
  void set_paused(bool paused) override { state_.paused = paused; }
  void set_dry_run(bool enabled) override { state_.dry_run = enabled; }
  rounds::RoundRecord begin_round(std::string trigger) override {
    rounds::RoundRecord record;
    record.trigger = std::move(trigger);
    return record;
  }
  ReloadResult reload() override { return reload_refused({"bad key"}); }
  void cancel_job() override { job_->cancel = true; }
  ManualJobStarted start_manual_job(actuator::MigrationTarget target,
                                    actuator::JobOptions options) override {
    started_target = std::move(target);
    started_options = options;
    return ManualJobStarted{7, 12};
  }
  void record_command(const codec::CommandAudit& command) override { recorded.push_back(command); }

  DaemonState state_;
  std::unique_ptr<RunningJob> job_;
  std::filesystem::path config_file_ = "/etc/numabalancer.toml";
  std::filesystem::path proc_root_ = "/proc";
  std::filesystem::path cgroup_root_ = "/nonexistent";
  std::optional<actuator::MigrationTarget> started_target;
  actuator::JobOptions started_options;
  std::vector<codec::CommandAudit> recorded;
};

class DaemonCommandsTest : public ::testing::Test {
 protected:
  DaemonCommandsTest() { register_daemon_commands(table, daemon); }

  // By default the caller is root; `as` narrows it to an admin-group member or a reader.
  wire::Response run(const std::string& cmd, json args = json::object(),
                     CommandContext context = {true, false, true}) {
    return table.dispatch(wire::Request{"1", cmd, std::move(args)}, context);
  }

  static std::string error_of(const wire::Response& response) {
    EXPECT_FALSE(response.ok());
    return response.error ? response.error->message : "";
  }

  void with_nodes(std::vector<NodeId> ids) {
    host::HostScan document;
    for (NodeId id : ids) {
      core::Node node;
      node.id = id;
      document.snapshot.nodes.push_back(node);
    }
    daemon.state_.last_scan = document;
  }

  json pid_request() const { return json{{"pid", ::getpid()}, {"from", 0}, {"to", json{1}}}; }

  FakeDaemon daemon;
  CommandTable table;
};

TEST_F(DaemonCommandsTest, MigrateStartsAJobWithTheRequestsOptions) {
  daemon.state_.config.actuator.rate_limit_mib_per_s = 64;
  daemon.state_.config.policy.migrate_threshold = 0.5;
  auto args = pid_request();
  args["max_bytes"] = "4MiB";
  args["dry_run"] = true;
  auto response = run("migrate", args);
  ASSERT_TRUE(response.ok());
  EXPECT_EQ(response.result, (json{{"job", 7}, {"round", 12}, {"dry_run", true}}));
  ASSERT_TRUE(daemon.started_target);
  EXPECT_EQ(daemon.started_target->container_id, "pid " + std::to_string(::getpid()));
  EXPECT_EQ(daemon.started_options.budget, 4 * kMiB);
  EXPECT_EQ(daemon.started_options.rate_limit_mib_per_s, 64);
  EXPECT_EQ(daemon.started_options.threshold, 0.5);
}

TEST_F(DaemonCommandsTest, MigrateTakesThePageOrderOrLeavesItToActuator) {
  daemon.state_.config.actuator.page_order = "address";
  ASSERT_TRUE(run("migrate", pid_request()).ok());
  EXPECT_EQ(daemon.started_options.page_order, actuator::PageOrder::address);
  auto args = pid_request();
  args["page_order"] = "hot_first";
  ASSERT_TRUE(run("migrate", args).ok());
  EXPECT_EQ(daemon.started_options.page_order, actuator::PageOrder::hot_first);
}

TEST_F(DaemonCommandsTest, MigrateRefusesWhileAJobRuns) {
  daemon.job_ = std::make_unique<RunningJob>();
  daemon.job_->id = 3;
  EXPECT_EQ(error_of(run("migrate", pid_request())),
            "job 3 is running; wait for it or `cancel` it");
}

TEST_F(DaemonCommandsTest, MigrateChecksTheNodesAgainstTheSnapshot) {
  with_nodes({0, 2});
  EXPECT_EQ(error_of(run("migrate", pid_request())), "unknown node 1; this host's nodes are 0, 2");
  EXPECT_EQ(error_of(run("migrate", json{{"pid", 1}, {"from", 2}, {"to", "0,2"}})),
            "the source node 2 is also a destination");
}

TEST_F(DaemonCommandsTest, MigrateWordsEachBadArgument) {
  auto with = [&](const char* name, json value) {
    auto args = pid_request();
    args[name] = std::move(value);
    return error_of(run("migrate", args));
  };
  EXPECT_EQ(with("max_bytes", "0"), "\"max_bytes\": must be positive");
  EXPECT_EQ(with("max_bytes", -5),
            "\"max_bytes\" must be a positive number of bytes or a size (\"512MiB\")");
  EXPECT_EQ(with("rate", -1), "\"rate\" must be 0 (unlimited) or from 1 to 1048576 MiB/s");
  EXPECT_EQ(with("rate", 1e-12), "\"rate\" must be 0 (unlimited) or from 1 to 1048576 MiB/s");
  // Read as an int, 4294967297 used to be pid 1.
  EXPECT_EQ(with("pid", 4294967297LL), "\"pid\" must be a process id from 1 to 4194304");
  EXPECT_EQ(with("dry_run", "yes"), "\"dry_run\" must be true or false");
  EXPECT_EQ(with("page_order", "hottest"),
            "\"page_order\" must be \"auto\", \"hot_first\" or \"address\"");
  EXPECT_EQ(with("page_order", 1), "\"page_order\" must be \"auto\", \"hot_first\" or \"address\"");
  EXPECT_EQ(with("cgroup", "web"), "give exactly one of \"cgroup\" and \"pid\"");
  EXPECT_EQ(error_of(run("migrate", json{{"cgroup", "web"}, {"from", 0}, {"to", 1}})),
            "open the memory cgroup root /nonexistent: No such file or directory");
  daemon.proc_root_ = "/nonexistent";
  EXPECT_EQ(error_of(run("migrate", pid_request())), "no process " + std::to_string(::getpid()));
  EXPECT_FALSE(daemon.started_target);
}

TEST_F(DaemonCommandsTest, MigrateKeepsCgroupsBeneathTheMemoryRoot) {
  testing::TempTree tree;
  tree.make_dir("cg/pods/a");
  tree.make_dir("etc");
  std::filesystem::create_directory_symlink(tree.path("etc"), tree.path("cg/escape"));
  daemon.cgroup_root_ = tree.path("cg");
  auto cgroup = [&](const std::string& path) {
    return json{{"cgroup", path}, {"from", 0}, {"to", 1}};
  };
  EXPECT_EQ(error_of(run("migrate", cgroup("../etc"))),
            "cgroup path '../etc' contains '..'; paths stay beneath the memory cgroup root " +
                tree.path("cg").string());
  EXPECT_EQ(error_of(run("migrate", cgroup(tree.path("etc").string()))),
            "cgroup path '" + tree.path("etc").string() + "' is outside the memory cgroup root " +
                tree.path("cg").string());
  EXPECT_EQ(error_of(run("migrate", cgroup("escape"))),
            "cgroup path 'escape' goes through a symbolic link; only directories beneath the "
            "memory cgroup root are accepted");
  EXPECT_FALSE(daemon.started_target);
  ASSERT_TRUE(run("migrate", cgroup(tree.path("cg/pods/a").string())).ok());
  EXPECT_EQ(daemon.started_target->cgroup_dir, tree.path("cg/pods/a"));
}

TEST_F(DaemonCommandsTest, MigrateOutsideThePoolsIsForRootAlone) {
  testing::TempTree tree;
  tree.make_dir("cg/pods/a");
  tree.make_dir("cg/system.slice/sshd.service");
  tree.make_file("proc/1/cgroup", "0::/init.scope\n");
  tree.make_file("proc/2/cgroup", "0::/pods/a\n");
  daemon.cgroup_root_ = tree.path("cg");
  daemon.proc_root_ = tree.path("proc");
  daemon.state_.config.pools = {config::PoolConfig{"pods", {"pods/*"}, std::nullopt}};
  CommandContext group_member{true, false, false};
  auto migrate = [&](json target, CommandContext context) {
    target["from"] = 0;
    target["to"] = 1;
    return run("migrate", target, context);
  };
  EXPECT_TRUE(migrate(json{{"cgroup", "pods/a"}}, group_member).ok());
  EXPECT_TRUE(migrate(json{{"pid", 2}}, group_member).ok());
  EXPECT_EQ(error_of(migrate(json{{"cgroup", "system.slice/sshd.service"}}, group_member)),
            "cgroup system.slice/sshd.service is outside the configured pools; only root may "
            "move it");
  EXPECT_EQ(error_of(migrate(json{{"pid", 1}}, group_member)),
            "process 1 (cgroup /init.scope) is outside the configured pools; only root may move "
            "it");
  EXPECT_TRUE(migrate(json{{"cgroup", "system.slice/sshd.service"}}, {true, false, true}).ok());
  EXPECT_TRUE(migrate(json{{"pid", 1}}, {true, false, true}).ok());
}

TEST_F(DaemonCommandsTest, ControlCommandsChangeTheState) {
  EXPECT_TRUE(run("pause").ok());
  EXPECT_TRUE(daemon.state_.paused);
  EXPECT_EQ(error_of(run("dry_run")), "\"enabled\": true or false is required");
  EXPECT_TRUE(run("dry_run", json{{"enabled", true}}).ok());
  EXPECT_TRUE(daemon.state_.dry_run);
  EXPECT_EQ(error_of(run("cancel")), "no migration job is running");
  EXPECT_EQ(error_of(run("reload")), "configuration rejected, the old one stays:\n  bad key");
}

TEST_F(DaemonCommandsTest, StateChangingCommandsRecordTheCallerAndTheResult) {
  CommandContext caller{true, false, false, PeerCredentials{4242, 1000, 1000, {}}};
  for (const char* name : {"pause", "resume", "cancel", "reload"}) {
    run(name, json::object(), caller);
  }
  run("dry_run", json{{"enabled", true}}, caller);
  run("migrate", json{{"cgroup", "pods/a"}, {"from", 0}, {"to", 1}}, caller);
  for (const char* name : {"status", "reconcile", "history", "config"}) {
    run(name, json::object(), caller);
  }
  ASSERT_EQ(daemon.recorded.size(), 6u) << "the six that change what the daemon does, once each";
  std::vector<std::string> names;
  for (const auto& command : daemon.recorded) {
    names.push_back(command.command);
    EXPECT_EQ(command.via, "socket");
    EXPECT_EQ(command.uid, 1000u);
    EXPECT_EQ(command.pid, 4242);
  }
  EXPECT_EQ(names, (std::vector<std::string>{"pause", "resume", "cancel", "reload", "dry_run",
                                             "migrate"}));
  EXPECT_FALSE(daemon.recorded[0].error.has_value());
  EXPECT_EQ(daemon.recorded[2].error, "no migration job is running");
  EXPECT_EQ(daemon.recorded[3].error, "configuration rejected, the old one stays:\n  bad key");
  EXPECT_EQ(daemon.recorded[4].args, json({{"enabled", true}}));
}

TEST_F(DaemonCommandsTest, ACommandThatThrowsIsRecordedAsFailedAndAnsweredAsAnError) {
  class ThrowingDaemon : public FakeDaemon {
   public:
    ReloadResult reload() override { throw std::runtime_error("disk on fire"); }
  };
  ThrowingDaemon throwing;
  CommandTable throwing_table;
  register_daemon_commands(throwing_table, throwing);
  CommandContext root{true, false, true};
  auto reply = throwing_table.dispatch(wire::Request{"1", "reload", json::object()}, root);
  EXPECT_FALSE(reply.ok());
  ASSERT_EQ(throwing.recorded.size(), 1u);
  EXPECT_EQ(throwing.recorded[0].error, "disk on fire");
  EXPECT_FALSE(throwing.recorded[0].uid.has_value()) << "no peer credentials, none recorded";
}

TEST_F(DaemonCommandsTest, PlanReadsItsArgumentBeforeAnythingElse) {
  EXPECT_EQ(error_of(run("plan", json{{"explain", 1}})), "\"explain\" must be true or false");
  EXPECT_EQ(error_of(run("plan")), "no round has decided yet");
}

TEST_F(DaemonCommandsTest, StatusAndTopologyShowEachNodesBaseline) {
  daemon.state_.config.metrics.baseline.read_latency_ns = {{1, 141.5}};
  daemon.state_.config.metrics.baseline.min_samples = 60;
  host::HostScan scan;
  scan.snapshot.nodes.resize(2);
  scan.snapshot.nodes[0].id = 0;
  scan.snapshot.nodes[0].read_latency_ns = 95;
  scan.snapshot.nodes[1].id = 1;
  scan.snapshot.nodes[1].read_latency_ns = 150;
  host::ProviderReport report;
  report.provider = "probe";
  report.available = true;
  report.kind = core::LatencyKind::load_to_use;
  scan.report.providers.push_back(report);
  daemon.state_.baselines.observe(scan, daemon.state_.config.metrics.baseline);
  daemon.state_.last_scan = scan;

  auto status = run("status");
  ASSERT_TRUE(status.ok());
  EXPECT_EQ(status.result["baselines"], json::parse(R"([
      {"node": 0, "read_latency_ns": null, "source": null, "samples": 1, "samples_needed": 59},
      {"node": 1, "read_latency_ns": 141.5, "source": "configured", "samples": 1,
       "samples_needed": 0}])"));

  auto topology = run("topology");
  ASSERT_TRUE(topology.ok());
  EXPECT_EQ(topology.result["nodes"][0]["baseline"],
            json::parse(R"({"read_latency_ns": null, "source": null, "samples": 1,
                            "samples_needed": 59})"));
  EXPECT_EQ(topology.result["nodes"][1]["baseline"]["read_latency_ns"], 141.5);
  EXPECT_EQ(topology.result["nodes"][1]["baseline"]["source"], "configured");

  auto snapshot = run("snapshot");
  ASSERT_TRUE(snapshot.ok());
  EXPECT_EQ(snapshot.result["nodes"][1]["baseline_read_latency_ns"], 141.5);
  EXPECT_TRUE(snapshot.result["nodes"][0]["baseline_read_latency_ns"].is_null());
}

TEST_F(DaemonCommandsTest, StatusBeforeAnyScanHasNoBaselines) {
  auto status = run("status");
  ASSERT_TRUE(status.ok());
  EXPECT_EQ(status.result["baselines"], json::array());
}

TEST_F(DaemonCommandsTest, ConfigHidesTheExecArgumentsFromReadOnlyPeers) {
  daemon.state_.config.eviction.exec = {"/usr/local/bin/evict", "--token", "s3cret"};
  auto admin = run("config", json::object(), {true, false, false});
  ASSERT_TRUE(admin.ok());
  EXPECT_EQ(admin.result["eviction"]["exec"], json({"/usr/local/bin/evict", "--token", "s3cret"}));
  auto reader = run("config", json::object(), {false, false, false});
  ASSERT_TRUE(reader.ok());
  EXPECT_EQ(reader.result["eviction"]["exec"], json({"<hidden: admin only>"}));
  EXPECT_EQ(reader.result.dump().find("s3cret"), std::string::npos);
  EXPECT_EQ(reader.result["eviction"]["timeout"], admin.result["eviction"]["timeout"]);
}

// Adding a command: a free function over the DaemonView (in the topic's file, declared in
// daemon_commands.hpp) and one row in daemon_commands.cpp's table. This one shows the shape.
CommandOutcome uptime_example(DaemonView& daemon, const json&, CommandContext&) {
  return json{{"started", format_rfc3339(daemon.state().started)}};
}

TEST_F(DaemonCommandsTest, ACommandIsAFunctionOverTheView) {
  table.add("uptime_example", "When the daemon started", Access::read_only,
            [this](const json& args, CommandContext& context) {
              return uptime_example(daemon, args, context);
            });
  auto response = run("uptime_example");
  ASSERT_TRUE(response.ok());
  EXPECT_EQ(response.result["started"], "1970-01-01T00:00:00Z");
}

}  // namespace
}  // namespace nb::service
