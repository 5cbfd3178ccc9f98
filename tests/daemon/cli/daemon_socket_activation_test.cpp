// numabalancerd started the way numabalancerd.socket starts it: systemd-socket-activate holds
// the listening socket and execs the daemon with LISTEN_PID/LISTEN_FDS on the first connection.

#include <gtest/gtest.h>
#include <sys/stat.h>

#include "tests/daemon/service/running_daemon.hpp"

namespace nb::testing {
namespace {

using namespace std::chrono_literals;

const char* kActivate = "/usr/bin/systemd-socket-activate";

class ActivatedDaemon {
 public:
  ActivatedDaemon(const TempTree& tree, const std::filesystem::path& listen) {
    write_metrics(tree, 95.5);
    tree.make_dir("run");
    auto config = tree.make_file("config.toml", e2e_config(tree));
    process_ = std::make_unique<ChildProcess>(
        std::vector<std::string>{kActivate, "-l", listen.string(), binary("numabalancerd"),
                                 "--config", config.string()},
        tree.root());
  }
  ~ActivatedDaemon() {
    if (!process_->wait(0ms)) {
      process_->signal(SIGTERM);
      process_->wait(10s);
    }
  }
  ChildProcess& process() { return *process_; }

 private:
  std::unique_ptr<ChildProcess> process_;
};

unsigned mode_of(const std::filesystem::path& path) {
  struct stat info {};
  return ::stat(path.c_str(), &info) == 0 ? info.st_mode & 07777 : 0;
}

TEST(DaemonSocketActivation, ServesTheSocketItWasGivenAndLeavesItsFileToSystemd) {
  if (!std::filesystem::exists(kActivate)) {
    GTEST_SKIP() << kActivate << " is not installed";
  }
  TempTree tree;
  auto socket = tree.path("run/admin.sock");
  ActivatedDaemon daemon(tree, socket);
  ASSERT_TRUE(wait_for_socket(socket.string())) << daemon.process().err();
  auto made_by_systemd = mode_of(socket);

  SocketClient client(socket.string());
  EXPECT_EQ(client.call("status")["result"]["state"], "running");
  EXPECT_EQ(mode_of(socket), made_by_systemd) << "socket_mode 0660 is not applied over systemd's";

  daemon.process().signal(SIGTERM);
  EXPECT_EQ(daemon.process().exit_code(10s), 0) << daemon.process().err();
  EXPECT_TRUE(std::filesystem::exists(socket)) << "the file is systemd's to remove";
  EXPECT_EQ(daemon.process().err().find("stale"), std::string::npos) << daemon.process().err();
  EXPECT_EQ(daemon.process().err().find("[admin] socket is"), std::string::npos);
}

TEST(DaemonSocketActivation, ASocketElsewhereThanTheConfigIsServedAndBothPathsAreLogged) {
  if (!std::filesystem::exists(kActivate)) {
    GTEST_SKIP() << kActivate << " is not installed";
  }
  TempTree tree;
  auto socket = tree.path("elsewhere.sock");
  ActivatedDaemon daemon(tree, socket);
  ASSERT_TRUE(wait_for_socket(socket.string())) << daemon.process().err();
  EXPECT_FALSE(std::filesystem::exists(tree.path("run/admin.sock")));

  daemon.process().signal(SIGTERM);
  EXPECT_EQ(daemon.process().exit_code(10s), 0) << daemon.process().err();
  auto err = daemon.process().err();
  EXPECT_NE(err.find("systemd passed the socket " + socket.string()), std::string::npos) << err;
  EXPECT_NE(err.find("[admin] socket is " + tree.path("run/admin.sock").string()),
            std::string::npos)
      << err;
}

}  // namespace
}  // namespace nb::testing
