// The shipped unit passes systemd-analyze verify, and asks for what the daemon needs.

#include <gtest/gtest.h>

#include <regex>

#include "tests/daemon/service/child_process.hpp"

namespace nb::testing {
namespace {

using namespace std::chrono_literals;

const std::filesystem::path kUnit =
    std::filesystem::path(NB_SOURCE_DIR) / "systemd/numabalancerd.service";

TEST(SystemdUnit, PassesSystemdAnalyzeVerify) {
  if (!std::filesystem::exists("/usr/bin/systemd-analyze")) {
    GTEST_SKIP() << "systemd-analyze is not installed";
  }
  // verify insists that ExecStart exists: point it at the binary just built. The man pages of
  // Documentation= are checked by the packaging tests, where they are installed.
  TempTree tree;
  std::string unit = read_file(kUnit);
  unit = std::regex_replace(unit, std::regex("/usr/sbin/numabalancerd"), binary("numabalancerd"));
  auto copy = tree.make_file("numabalancerd.service", unit);
  ChildProcess verify({"/usr/bin/systemd-analyze", "verify", "--man=no", copy.string()},
                      tree.root());
  EXPECT_EQ(verify.exit_code(60s), 0) << verify.out() << verify.err();
  EXPECT_EQ(verify.err(), "");
}

TEST(SystemdUnit, DeclaresNotifyStateHardeningAndCapabilities) {
  std::string unit = read_file(kUnit);
  for (const char* line :
       {"Type=notify", "ExecReload=/bin/kill -HUP $MAINPID", "RuntimeDirectory=numabalancer",
        "StateDirectory=numabalancer", "ProtectSystem=strict", "ProtectHome=yes", "PrivateTmp=yes",
        "NoNewPrivileges=yes", "RestrictAddressFamilies=AF_UNIX",
        "SystemCallFilter=@system-service", "OOMScoreAdjust=", "MemoryMin=", "WatchdogSec="}) {
    EXPECT_NE(unit.find(line), std::string::npos) << line;
  }
  std::smatch caps;
  ASSERT_TRUE(std::regex_search(unit, caps, std::regex("CapabilityBoundingSet=([^\n]*)")));
  for (const char* cap :
       {"CAP_SYS_NICE", "CAP_SYS_PTRACE", "CAP_DAC_READ_SEARCH", "CAP_KILL", "CAP_PERFMON"}) {
    EXPECT_NE(caps[1].str().find(cap), std::string::npos) << cap;
  }
  EXPECT_EQ(caps[1].str().find("CAP_SYS_ADMIN"), std::string::npos);
}

TEST(SystemdUnit, StartsTheDaemonWithTheInstalledConfig) {
  std::string unit = read_file(kUnit);
  EXPECT_NE(unit.find("ExecStart=/usr/sbin/numabalancerd --config /etc/numabalancer/config.toml"),
            std::string::npos);
}

TEST(Install, PutsBinariesUnitAndConfigInPlaceWithoutOverwritingAConfig) {
  const char* kCmake = "/usr/bin/cmake";
  if (!std::filesystem::exists(std::string(NB_BINARY_DIR) + "/cmake_install.cmake") ||
      !std::filesystem::exists(kCmake)) {
    GTEST_SKIP() << "no install script in the build tree, or no " << kCmake;
  }
  TempTree tree;
  std::vector<std::string> install{kCmake, "--install", NB_BINARY_DIR, "--prefix", "/usr"};
  ChildProcess first(install, tree.root(), {"DESTDIR=" + tree.path("root").string()});
  ASSERT_EQ(first.exit_code(120s), 0) << first.out() << first.err();
  EXPECT_TRUE(std::filesystem::exists(tree.path("root/usr/sbin/numabalancerd")));
  EXPECT_TRUE(std::filesystem::exists(tree.path("root/usr/sbin/numabalancerctl")));
  EXPECT_TRUE(
      std::filesystem::exists(tree.path("root/usr/lib/systemd/system/numabalancerd.service")));
  auto config = tree.path("root/etc/numabalancer/config.toml");
  ASSERT_TRUE(std::filesystem::exists(config));
  EXPECT_EQ(read_file(config),
            read_file(std::filesystem::path(NB_SOURCE_DIR) / "config.toml.example"));

  tree.make_file("root/etc/numabalancer/config.toml", "# edited by the operator\n");
  ChildProcess again(install, tree.root(), {"DESTDIR=" + tree.path("root").string()});
  ASSERT_EQ(again.exit_code(120s), 0) << again.err();
  EXPECT_EQ(read_file(config), "# edited by the operator\n");
}

}  // namespace
}  // namespace nb::testing
