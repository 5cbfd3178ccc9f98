// `numabalancerd migrate` run as an operator would, against child processes of this test.

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "tests/support/temp_tree.hpp"

namespace {

struct Outcome {
  int exit_code = -1;
  std::string out;
  std::string err;
};

Outcome run_migrate(std::vector<std::string> args) {
  std::string binary = std::string(NB_BINARY_DIR) + "/numabalancerd";
  args.insert(args.begin(), {binary, "migrate"});
  nb::testing::TempTree tree;
  auto out_path = tree.path("out");
  auto err_path = tree.path("err");
  pid_t pid = ::fork();
  if (pid == 0) {
    int out = ::open(out_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    int err = ::open(err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    ::dup2(out, STDOUT_FILENO);
    ::dup2(err, STDERR_FILENO);
    std::vector<char*> argv;
    for (auto& arg : args) {
      argv.push_back(arg.data());
    }
    argv.push_back(nullptr);
    ::execv(binary.c_str(), argv.data());
    ::_exit(127);
  }
  int status = 0;
  ::waitpid(pid, &status, 0);
  Outcome outcome;
  outcome.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  outcome.out = nb::testing::read_file(out_path);
  outcome.err = nb::testing::read_file(err_path);
  return outcome;
}

// A process holding `mib` MiB of touched anonymous memory until the test ends.
class Workload {
 public:
  explicit Workload(std::size_t mib, bool exit_at_once = false) {
    int ready[2];
    if (::pipe(ready) != 0) {
      return;
    }
    pid_ = ::fork();
    if (pid_ == 0) {
      ::close(ready[0]);
      std::vector<char> memory(mib * 1024 * 1024, 1);
      char byte = memory[memory.size() / 2];
      if (::write(ready[1], &byte, 1) != 1 || exit_at_once) {
        ::_exit(0);
      }
      for (;;) {
        ::pause();
      }
    }
    ::close(ready[1]);
    char byte = 0;
    ready_ = ::read(ready[0], &byte, 1) == 1;
    ::close(ready[0]);
  }
  ~Workload() {
    if (pid_ > 0) {
      ::kill(pid_, SIGKILL);
      ::waitpid(pid_, nullptr, 0);
    }
  }
  std::string pid() const { return std::to_string(pid_); }
  bool ready() const { return ready_; }

 private:
  pid_t pid_ = -1;
  bool ready_ = false;
};

// A node other than 0 to move to: the source may not be a destination.
std::string second_node() {
  for (int node = 1; node < 64; ++node) {
    if (std::filesystem::exists("/sys/devices/system/node/node" + std::to_string(node))) {
      return std::to_string(node);
    }
  }
  return "";
}

class MigrateCommand : public ::testing::Test {
 protected:
  void SetUp() override {
    if (::geteuid() != 0) {
      GTEST_SKIP() << "moving another process's pages needs root (CAP_SYS_NICE)";
    }
    to = second_node();
    if (to.empty()) {
      GTEST_SKIP() << "needs a second NUMA node (the guest rig, tests/vm, has them)";
    }
  }

  std::string to;
};

TEST_F(MigrateCommand, MovingToTheSecondNodeMeetsTheThresholdAndPrintsJson) {
  Workload workload(32);
  ASSERT_TRUE(workload.ready());
  auto outcome = run_migrate({"--pid", workload.pid(), "--from", "0", "--to", to, "--json"});
  EXPECT_EQ(outcome.exit_code, 0) << outcome.err;
  auto report = nlohmann::json::parse(outcome.out);
  EXPECT_EQ(report["threshold_met"], true);
  EXPECT_GE(report["bytes_placed"].get<std::int64_t>(), 32 * 1024 * 1024);
  EXPECT_EQ(report["containers"][0]["processes"][0]["pid"].get<int>(), std::stoi(workload.pid()));
  EXPECT_EQ(outcome.err, "") << "no progress bar without a terminal";
}

TEST_F(MigrateCommand, TableNamesTheProcessAndTheStopReason) {
  Workload workload(8);
  ASSERT_TRUE(workload.ready());
  auto outcome =
      run_migrate({"--pid", workload.pid(), "--from", "0", "--to", to, "--max-bytes", "4MiB"});
  EXPECT_EQ(outcome.exit_code, 0) << outcome.err;
  EXPECT_NE(outcome.out.find("budget_met"), std::string::npos) << outcome.out;
  EXPECT_NE(outcome.out.find(workload.pid()), std::string::npos) << outcome.out;
  EXPECT_NE(outcome.out.find("page order: "), std::string::npos) << outcome.out;
}

// On this host DAMON may be absent, busy with another tool, or free: either the job watched the
// process, or the report says why not; and no kdamond of the run is left behind.
TEST_F(MigrateCommand, HotFirstEitherWatchesWithDamonOrSaysWhyNot) {
  Workload workload(32);
  ASSERT_TRUE(workload.ready());
  nb::testing::TempTree tree;
  auto config = tree.make_file("config.toml", "[actuator]\nhotness_window = \"200ms\"\n");
  const std::string kdamonds = "/sys/kernel/mm/damon/admin/kdamonds/nr_kdamonds";
  bool damon = ::access(kdamonds.c_str(), R_OK) == 0;
  std::string before = damon ? nb::testing::read_file(kdamonds) : "";
  auto outcome = run_migrate({"--config", config.string(), "--pid", workload.pid(), "--from", "0",
                              "--to", "0", "--page-order", "hot_first", "--json"});
  EXPECT_EQ(outcome.exit_code, 0) << outcome.err;
  auto report = nlohmann::json::parse(outcome.out);
  if (report["page_order"] == "hot_first") {
    EXPECT_GT(report["hotness_window_ms"].get<double>(), 150);
  } else {
    EXPECT_EQ(report["page_order"], "address");
    EXPECT_TRUE(report["page_order_fallback"].is_string()) << report.dump(2);
  }
  if (damon) {
    EXPECT_EQ(nb::testing::read_file(kdamonds), before) << "the run's kdamonds are gone";
  }
}

TEST_F(MigrateCommand, DeadlineBeforeTheThresholdIsPartial) {
  Workload workload(64);
  ASSERT_TRUE(workload.ready());
  nb::testing::TempTree tree;
  auto config = tree.make_file("config.toml", "[actuator]\njob_deadline = \"300ms\"\n");
  auto outcome = run_migrate({"--config", config.string(), "--pid", workload.pid(), "--from", "0",
                              "--to", to, "--rate", "16", "--json"});
  EXPECT_EQ(outcome.exit_code, 1) << outcome.out << outcome.err;
  auto report = nlohmann::json::parse(outcome.out);
  EXPECT_EQ(report["stop_reason"], "deadline");
  EXPECT_EQ(report["threshold_met"], false);
}

TEST_F(MigrateCommand, DryRunSaysWhatWouldMoveAndClaimsNoThreshold) {
  Workload workload(8);
  ASSERT_TRUE(workload.ready());
  auto outcome =
      run_migrate({"--pid", workload.pid(), "--from", "0", "--to", to, "--dry-run", "--json"});
  EXPECT_EQ(outcome.exit_code, 0) << outcome.err;
  auto report = nlohmann::json::parse(outcome.out);
  EXPECT_EQ(report["dry_run"], true);
  EXPECT_EQ(report["outcomes"]["already_on_destination"], 0);
  EXPECT_GE(report["bytes_on_source"].get<std::int64_t>(), 8 * 1024 * 1024);
  EXPECT_GE(report["would_move_bytes"].get<std::int64_t>(), 8 * 1024 * 1024);
  EXPECT_TRUE(report["threshold_met"].is_null());
}

TEST_F(MigrateCommand, ExitedProcessHasNothingToMove) {
  Workload zombie(1, true);
  ASSERT_TRUE(zombie.ready());
  ::usleep(100 * 1000);  // let it exit; it stays a zombie until the Workload reaps it
  auto outcome = run_migrate({"--pid", zombie.pid(), "--from", "0", "--to", to});
  EXPECT_EQ(outcome.exit_code, 2);
  EXPECT_NE(outcome.err.find("nothing to move"), std::string::npos) << outcome.err;
}

// "TO" in the arguments stands for a second node: the nodes are checked (the source must not be
// a destination, and both must exist) before the cgroup or the process.
struct BadInput {
  const char* name;
  std::vector<std::string> args;
  const char* message;
};

class MigrateBadInput : public ::testing::TestWithParam<BadInput> {};

TEST_P(MigrateBadInput, ExitsTwoNamingTheProblem) {
  auto args = GetParam().args;
  for (auto& arg : args) {
    if (arg == "TO") {
      arg = second_node();
      if (arg.empty()) {
        GTEST_SKIP() << "needs a second NUMA node to get past the node checks";
      }
    }
  }
  auto outcome = run_migrate(args);
  EXPECT_EQ(outcome.exit_code, 2);
  EXPECT_NE(outcome.err.find(GetParam().message), std::string::npos) << outcome.err;
}

INSTANTIATE_TEST_SUITE_P(
    Cases, MigrateBadInput,
    ::testing::Values(
        BadInput{"SourceIsADestination",
                 {"--pid", "1", "--from", "0", "--to", "1,0"},
                 "the source node 0 is also a destination"},
        BadInput{
            "UnknownNode",
            {"--pid", "1", "--from", "0", "--to", "4095"},
            "unknown node 4095 (no such node, or it has no memory); the nodes with memory are "},
        BadInput{"NoSuchProcess",
                 {"--pid", "999999999", "--from", "0", "--to", "TO"},
                 "no such process"},
        BadInput{"MissingCgroup",
                 {"--cgroup", "nb-test-no-such-cgroup", "--from", "0", "--to", "TO"},
                 "cgroup not found: "},
        BadInput{"ParentComponent",
                 {"--cgroup", "../../../etc", "--from", "0", "--to", "TO"},
                 "cgroup path '../../../etc' contains '..'"},
        BadInput{"OutsideTheMemoryRoot",
                 {"--cgroup", "/etc", "--from", "0", "--to", "TO"},
                 "cgroup path '/etc' is outside the memory cgroup root"},
        BadInput{"NeitherCgroupNorPid", {"--from", "0", "--to", "0"}, "--cgroup or --pid"},
        BadInput{"BothCgroupAndPid",
                 {"--cgroup", "/x", "--pid", "1", "--from", "0", "--to", "0"},
                 "excludes"},
        BadInput{"UnknownPageOrder",
                 {"--pid", "1", "--from", "0", "--to", "1", "--page-order", "hottest"},
                 "--page-order must be auto, hot_first or address"},
        BadInput{"DecimalSize",
                 {"--pid", "1", "--from", "0", "--to", "1", "--max-bytes", "1GB"},
                 "--max-bytes"},
        BadInput{"NegativePid",
                 {"--pid", "-3", "--from", "0", "--to", "1"},
                 "--pid: must be a whole number greater than 0, got '-3'"},
        BadInput{"SourceNodeNotANumber",
                 {"--pid", "1", "--from", "x", "--to", "1"},
                 "--from: must be a node number (0, 1, ...), got 'x'"}),
    [](const auto& info) { return std::string(info.param.name); });

}  // namespace
