// `exec` runs the configured argv without a shell, within its timeout.

#include <fcntl.h>
#include <signal.h>
#include <sys/socket.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <set>
#include <thread>

#include "daemon/eviction/run_command.hpp"
#include "tests/daemon/eviction/request.hpp"

namespace nb::eviction {
namespace {

using namespace std::chrono_literals;

TEST(ExecAction, RunsWithoutAShellAndPassesTheEnvironment) {
  testing::TempTree tree;
  auto out = tree.path("out");
  auto config = action("exec");
  // printenv is run directly: the argv is not a shell line, so "$X" would stay literal.
  config.exec = {"/bin/sh", "-c",
                 "printf '%s|%s|%s|%s' \"$NUMABALANCER_CGROUP\" \"$NUMABALANCER_NODE\" "
                 "\"$NUMABALANCER_REASON\" \"$1\" > " +
                     out.string(),
                 "argv0", "$NOT_EXPANDED"};
  auto result = evict(config, request_for(tree));
  ASSERT_TRUE(result.ok()) << result.error().message();
  EXPECT_TRUE(result->acted);
  EXPECT_EQ(testing::read_file(out),
            tree.path("cg/pods/a").string() + "|1|node 1 under force pressure|$NOT_EXPANDED");
}

TEST(ExecAction, FailureIsReported) {
  auto config = action("exec");
  config.exec = {"false"};
  testing::TempTree tree;
  EXPECT_FALSE(evict(config, request_for(tree)).ok());
  config.exec = {"/no/such/program"};
  auto missing = evict(config, request_for(tree));
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.error().code, ENOENT);
}

TEST(ExecAction, OverItsTimeoutIsKilled) {
  auto config = action("exec");
  config.exec = {"sleep", "30"};
  config.timeout = 200ms;
  testing::TempTree tree;
  auto started = std::chrono::steady_clock::now();
  auto result = evict(config, request_for(tree));
  auto took = std::chrono::steady_clock::now() - started;
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.error().code, ETIMEDOUT);
  EXPECT_LT(took, 5s);
}

// Runs `config` with our stdout sent to `out`, since the child's stdout is ours.
Result<EvictionResult> evict_into(const config::EvictionConfig& config,
                                  const testing::TempTree& tree, const std::filesystem::path& out) {
  int file = ::open(out.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  int saved = ::fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 100);
  ::dup2(file, STDOUT_FILENO);
  auto result = evict(config, request_for(tree));
  ::dup2(saved, STDOUT_FILENO);
  ::close(saved);
  ::close(file);
  return result;
}

std::vector<std::string> lines_of(const std::filesystem::path& file) {
  std::ifstream in(file);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) {
    lines.push_back(line);
  }
  return lines;
}

// A descriptor without CLOEXEC, moved high so that it cannot be mistaken for the child's own.
int leaky(int fd) {
  int high = ::fcntl(fd, F_DUPFD, 60);
  ::close(fd);
  return high;
}

TEST(ExecAction, NoDescriptorButTheStandardOnesReachesTheChild) {
  testing::TempTree tree;
  int file = leaky(::open("/dev/null", O_RDONLY));
  int socket = leaky(::socket(AF_UNIX, SOCK_STREAM, 0));
  ASSERT_GE(file, 60);
  ASSERT_GE(socket, 60);
  auto config = action("exec");
  config.exec = {"/bin/ls", "/proc/self/fd"};
  auto result = evict_into(config, tree, tree.path("fds"));
  ::close(file);
  ::close(socket);
  ASSERT_TRUE(result.ok()) << result.error().message();
  // 3 is the directory ls reads.
  EXPECT_EQ(lines_of(tree.path("fds")), (std::vector<std::string>{"0", "1", "2", "3"}));
}

TEST(ExecAction, EnvironmentIsPathAndItsOwnVariablesOnly) {
  testing::TempTree tree;
  ::setenv("NOTIFY_SOCKET", "/run/systemd/notify", 1);
  ::setenv("NB_TEST_SECRET", "token", 1);
  auto config = action("exec");
  config.exec = {"/usr/bin/env"};
  auto result = evict_into(config, tree, tree.path("env"));
  ::unsetenv("NOTIFY_SOCKET");
  ::unsetenv("NB_TEST_SECRET");
  ASSERT_TRUE(result.ok()) << result.error().message();
  std::set<std::string> names;
  for (const auto& line : lines_of(tree.path("env"))) {
    names.insert(line.substr(0, line.find('=')));
  }
  EXPECT_EQ(names, (std::set<std::string>{"NUMABALANCER_CGROUP", "NUMABALANCER_NODE",
                                          "NUMABALANCER_REASON", "PATH"}));
}

TEST(ExecAction, PathFallsBackToASafeDefault) {
  std::string saved = std::getenv("PATH") != nullptr ? std::getenv("PATH") : "";
  ::unsetenv("PATH");
  auto environment = child_environment({"NUMABALANCER_NODE=1"});
  ::setenv("PATH", saved.c_str(), 1);
  EXPECT_EQ(environment,
            (std::vector<std::string>{std::string("PATH=") + kDefaultPath, "NUMABALANCER_NODE=1"}));
}

bool gone(pid_t pid) {
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  std::string text((std::istreambuf_iterator<char>(stat)), std::istreambuf_iterator<char>());
  auto close_paren = text.rfind(')');
  // A killed orphan may stay a zombie until whoever adopted it reaps it.
  return text.empty() ||
         (close_paren != std::string::npos && text.substr(close_paren + 2, 1) == "Z");
}

TEST(ExecAction, TimeoutKillsWhatTheCommandStartedToo) {
  testing::TempTree tree;
  auto pid_file = tree.path("grandchild");
  auto config = action("exec");
  config.exec = {"/bin/sh", "-c", "sleep 30 & echo $! > " + pid_file.string() + "; wait"};
  config.timeout = 300ms;
  auto result = evict(config, request_for(tree));
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.error().code, ETIMEDOUT);
  auto text = testing::read_file(pid_file);
  ASSERT_FALSE(text.empty());
  pid_t grandchild = std::stoi(text);
  auto deadline = std::chrono::steady_clock::now() + 2s;
  while (!gone(grandchild) && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(10ms);
  }
  bool was_gone = gone(grandchild);
  if (!was_gone) {
    ::kill(grandchild, SIGKILL);
  }
  EXPECT_TRUE(was_gone) << "the sleeping grandchild outlived the timeout";
}

}  // namespace
}  // namespace nb::eviction
