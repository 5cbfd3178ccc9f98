// `numabalancerctl top` on a real terminal (a pty): it draws the nodes and quits on q or Ctrl-C.

#include <gtest/gtest.h>
#include <poll.h>
#include <pty.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tests/daemon/service/running_daemon.hpp"

namespace nb::testing {
namespace {

using namespace std::chrono_literals;

class TopOnAPty {
 public:
  explicit TopOnAPty(const std::string& socket) {
    std::string ctl = binary("numabalancerctl");
    pid_ = ::forkpty(&master_, nullptr, nullptr, nullptr);
    if (pid_ == 0) {
      ::execl(ctl.c_str(), ctl.c_str(), "--socket", socket.c_str(), "top", "--interval", "0.2",
              static_cast<char*>(nullptr));
      ::_exit(127);
    }
  }
  ~TopOnAPty() {
    if (pid_ > 0 && !exited_) {
      ::kill(pid_, SIGKILL);
      ::waitpid(pid_, nullptr, 0);
    }
    if (master_ >= 0) {
      ::close(master_);
    }
  }

  bool started() const { return pid_ > 0; }

  // Reads the screen until `text` appears.
  bool wait_for(const std::string& text, std::chrono::milliseconds timeout) {
    auto deadline = std::chrono::steady_clock::now() + timeout;
    while (std::chrono::steady_clock::now() < deadline) {
      if (screen_.find(text) != std::string::npos) {
        return true;
      }
      pollfd waiting{master_, POLLIN, 0};
      if (::poll(&waiting, 1, 50) > 0) {
        char buffer[4096];
        ssize_t got = ::read(master_, buffer, sizeof buffer);
        if (got > 0) {
          screen_.append(buffer, static_cast<std::size_t>(got));
        }
      }
    }
    return screen_.find(text) != std::string::npos;
  }

  void type(const std::string& keys) { (void)!::write(master_, keys.data(), keys.size()); }

  // The exit code, or -1 when it did not exit in time.
  int wait_exit(std::chrono::milliseconds timeout) {
    auto deadline = std::chrono::steady_clock::now() + timeout;
    while (std::chrono::steady_clock::now() < deadline) {
      wait_for("\x01never", 20ms);  // keep draining the pty so the child never blocks on it
      int status = 0;
      if (::waitpid(pid_, &status, WNOHANG) == pid_) {
        exited_ = true;
        return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
      }
    }
    return -1;
  }

  const std::string& screen() const { return screen_; }

 private:
  int master_ = -1;
  pid_t pid_ = -1;
  bool exited_ = false;
  std::string screen_;
};

class CtlTop : public ::testing::TestWithParam<const char*> {};

TEST_P(CtlTop, DrawsTheNodesAndQuitsOnTheKey) {
  TempTree tree;
  RunningDaemon daemon(tree);
  ASSERT_TRUE(daemon.ready()) << daemon.process().err();
  TopOnAPty top(daemon.socket());
  ASSERT_TRUE(top.started());
  ASSERT_TRUE(top.wait_for("NODE", 20s)) << top.screen();
  EXPECT_TRUE(top.wait_for("95.5 ns", 5s)) << top.screen();
  top.type(GetParam());
  EXPECT_EQ(top.wait_exit(5s), 0) << top.screen();
}

INSTANTIATE_TEST_SUITE_P(Keys, CtlTop, ::testing::Values("q", "\x03"), [](const auto& info) {
  return std::string(info.param) == "q" ? "q" : "ctrl_c";
});

}  // namespace
}  // namespace nb::testing
