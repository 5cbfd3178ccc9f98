// `numabalancerd --check-config FILE`, run as an operator runs it.

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <string>
#include <vector>

#include "daemon/host/cgroup_layout.hpp"
#include "daemon/host/topology.hpp"
#include "tests/support/temp_tree.hpp"

namespace {

using ::testing::HasSubstr;
using ::testing::Not;

struct Outcome {
  int exit_code = -1;
  std::string out;
  std::string err;
};

std::string read_all(int fd) {
  std::string text;
  char buffer[4096];
  ssize_t count = 0;
  while ((count = ::read(fd, buffer, sizeof buffer)) > 0) {
    text.append(buffer, static_cast<std::size_t>(count));
  }
  ::close(fd);
  return text;
}

// Runs numabalancerd with `args`, capturing stdout and stderr. stderr is read after stdout's end:
// --check-config writes a few lines there, far below a pipe's buffer.
Outcome run_numabalancerd(const std::vector<std::string>& args) {
  std::string binary = NB_BINARY_DIR "/numabalancerd";
  int pipe_fds[2];
  int err_fds[2];
  if (::pipe(pipe_fds) != 0 || ::pipe(err_fds) != 0) {
    ADD_FAILURE() << "pipe failed";
    return {};
  }
  pid_t pid = ::fork();
  if (pid == 0) {
    ::dup2(pipe_fds[1], STDOUT_FILENO);
    ::dup2(err_fds[1], STDERR_FILENO);
    ::close(pipe_fds[0]);
    ::close(err_fds[0]);
    std::vector<char*> argv{binary.data()};
    std::vector<std::string> copies = args;
    for (std::string& arg : copies) {
      argv.push_back(arg.data());
    }
    argv.push_back(nullptr);
    ::execv(binary.c_str(), argv.data());
    ::_exit(127);
  }
  ::close(pipe_fds[1]);
  ::close(err_fds[1]);
  Outcome run;
  run.out = read_all(pipe_fds[0]);
  run.err = read_all(err_fds[0]);
  int status = 0;
  ::waitpid(pid, &status, 0);
  run.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return run;
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string::npos) {
      end = text.size();
    }
    lines.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  return lines;
}

TEST(CheckConfig, ExampleConfigPrintsOkAndExitsZero) {
  Outcome run = run_numabalancerd({"--check-config", NB_SOURCE_DIR "/config.toml.example"});
  EXPECT_EQ(run.exit_code, 0);
  EXPECT_EQ(run.out, "OK\n");
}

TEST(CheckConfig, FiveMistakesPrintFiveLinesWithKeyAndLineAndExitTwo) {
  Outcome run =
      run_numabalancerd({"--check-config", NB_SOURCE_DIR "/tests/data/config/five_mistakes.toml"});
  EXPECT_EQ(run.exit_code, 2);
  std::vector<std::string> lines = lines_of(run.out);
  ASSERT_EQ(lines.size(), 5u) << run.out;
  const std::vector<std::string> expected_starts = {
      "daemon.interval (line 3, column 1): ",        "daemon.log_level (line 4, column 1): ",
      "policy.grace_gap_ratio (line 7, column 1): ", "pool[0].cgroups (line 9, column 1): ",
      "export.textfil (line 14, column 1): ",
  };
  for (std::size_t i = 0; i < lines.size(); ++i) {
    EXPECT_EQ(lines[i].rfind(expected_starts[i], 0), 0u) << lines[i];
  }
  EXPECT_THAT(run.err, HasSubstr("numabalancer.toml(5) describes every key"));
}

TEST(CheckConfig, MissingFileIsAnErrorWithExitTwo) {
  nb::testing::TempTree tree;
  std::string path = tree.path("absent.toml").string();
  Outcome run = run_numabalancerd({"--check-config", path});
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_EQ(run.out, "cannot read " + path + ": No such file or directory\n");
  // No key is at fault, so the man page has nothing to add.
  EXPECT_THAT(run.err, Not(HasSubstr("numabalancer.toml(5)")));
}

TEST(CheckConfig, SyntaxErrorIsReportedWithItsLine) {
  nb::testing::TempTree tree;
  auto path = tree.make_file("broken.toml", "[daemon]\ndry_run = maybe\n");
  Outcome run = run_numabalancerd({"--check-config", path.string()});
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_EQ(run.out.rfind("line 2, column ", 0), 0u) << run.out;
}

TEST(CheckConfig, ValidFileWrittenByAnOperatorPasses) {
  nb::testing::TempTree tree;
  auto path = tree.make_file("config.toml",
                             "[daemon]\ninterval = \"30s\"\n\n[[pool]]\nname = \"share\"\n"
                             "cgroups = [\"system.slice/*.service\"]\nnodes = [0]\n");
  Outcome run = run_numabalancerd({"--check-config", path.string()});
  EXPECT_EQ(run.exit_code, 0);
  EXPECT_EQ(run.out, "OK\n");
}

// A note is not a problem: the exit code stays 0 and OK still ends the output.
TEST(CheckConfig, AbsoluteThresholdsWithTheProbeGetANoteAndStillPass) {
  nb::testing::TempTree tree;
  auto path = tree.make_file("config.toml",
                             "[policy]\nthreshold_mode = \"absolute\"\n\n"
                             "[metrics]\nlatency = \"probe\"\n");
  Outcome run = run_numabalancerd({"--check-config", path.string()});
  EXPECT_EQ(run.exit_code, 0);
  EXPECT_EQ(run.out,
            "note: threshold_mode = \"absolute\" with read latency of kind load_to_use from the "
            "probe provider: the *_ns thresholds are meant for memory_controller_queue latency; "
            "unless they were tuned for this provider, set threshold_mode = \"relative\" or "
            "\"auto\"\nOK\n");
}

TEST(CheckConfig, AbsoluteThresholdsWithAutoLatencySayItDepends) {
  nb::testing::TempTree tree;
  auto path = tree.make_file("config.toml", "[policy]\nthreshold_mode = \"absolute\"\n");
  Outcome run = run_numabalancerd({"--check-config", path.string()});
  EXPECT_EQ(run.exit_code, 0);
  std::vector<std::string> lines = lines_of(run.out);
  ASSERT_EQ(lines.size(), 2u) << run.out;
  EXPECT_EQ(lines[0].rfind("note: threshold_mode = \"absolute\" with latency = \"auto\": ", 0), 0u)
      << lines[0];
  EXPECT_EQ(lines[1], "OK");
}

TEST(CheckConfig, AOneNodeHostIsSaidOnStderrAndTheFileStillPasses) {
  auto online = nb::host::read_online_nodes("/");
  if (!online) {
    GTEST_SKIP() << "this host's online nodes cannot be read: " << online.error().message();
  }
  Outcome run = run_numabalancerd({"--check-config", NB_SOURCE_DIR "/config.toml.example"});
  EXPECT_EQ(run.exit_code, 0);
  EXPECT_EQ(run.out, "OK\n");
  const bool said = run.err.find("this host has one NUMA node") != std::string::npos;
  EXPECT_EQ(said, online->size() == 1) << run.err;
}

TEST(CheckConfig, AbsoluteThresholdsWithPerfNeedNoNote) {
  nb::testing::TempTree tree;
  auto path = tree.make_file("config.toml",
                             "[policy]\nthreshold_mode = \"absolute\"\n\n"
                             "[metrics]\nlatency = \"perf\"\n");
  Outcome run = run_numabalancerd({"--check-config", path.string()});
  EXPECT_EQ(run.exit_code, 0);
  EXPECT_EQ(run.out, "OK\n");
}

}  // namespace

namespace {

// A real cgroup on this host that two pools both match: only the live tree can show that, so
// --check-config reads it. Needs root and a writable memory hierarchy.
TEST(CheckConfig, CgroupMatchedByTwoPoolsOnThisHostIsAnError) {
  auto layout = nb::host::detect_cgroup_layout("/");
  if (!layout) {
    GTEST_SKIP() << "no cgroup hierarchy here: " << layout.error().message();
  }
  std::string name = "nb-check-config-" + std::to_string(::getpid());
  std::filesystem::path group = layout->memory_root / name;
  std::error_code error;
  std::filesystem::create_directories(group / "job", error);
  if (error) {
    GTEST_SKIP() << "cannot create a cgroup under " << layout->memory_root << ": "
                 << error.message();
  }
  nb::testing::TempTree tree;
  auto config =
      tree.make_file("two-pools.toml", "[[pool]]\nname = \"share\"\ncgroups = [\"" + name +
                                           "/*\"]\n\n[[pool]]\nname = \"reclaim\"\n"
                                           "cgroups = [\"" +
                                           name + "/job\"]\n");

  Outcome run = run_numabalancerd({"--check-config", config.string()});

  ::rmdir((group / "job").c_str());
  ::rmdir(group.c_str());
  EXPECT_EQ(run.exit_code, 2) << run.out;
  EXPECT_NE(run.out.find(name + "/job"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("share"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("reclaim"), std::string::npos) << run.out;
}

}  // namespace
