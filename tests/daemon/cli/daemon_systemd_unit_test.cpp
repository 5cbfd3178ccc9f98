// The shipped units pass systemd-analyze verify and security, and ask for what the daemon needs.

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <regex>
#include <sstream>

#include "daemon/config/config.hpp"
#include "tests/daemon/service/child_process.hpp"

namespace nb::testing {
namespace {

using namespace std::chrono_literals;

const std::filesystem::path kUnit =
    std::filesystem::path(NB_SOURCE_DIR) / "systemd/numabalancerd.service";
const std::filesystem::path kSocketUnit =
    std::filesystem::path(NB_SOURCE_DIR) / "systemd/numabalancerd.socket";
const char* kAnalyze = "/usr/bin/systemd-analyze";

// The value of `key=` in a unit, or "" when the line is absent.
std::string setting(const std::string& unit, const std::string& key) {
  std::smatch match;
  if (std::regex_search(unit, match, std::regex("(^|\n)" + key + "=([^\n]*)"))) {
    return match[2].str();
  }
  return "";
}

// Both units in one directory, with ExecStart pointing at the binary just built.
std::vector<std::filesystem::path> copy_units(const TempTree& tree) {
  std::string unit = read_file(kUnit);
  unit = std::regex_replace(unit, std::regex("/usr/sbin/numabalancerd"), binary("numabalancerd"));
  return {tree.make_file("units/numabalancerd.service", unit),
          tree.make_file("units/numabalancerd.socket", read_file(kSocketUnit))};
}

TEST(SystemdUnit, PassesSystemdAnalyzeVerify) {
  if (!std::filesystem::exists(kAnalyze)) {
    GTEST_SKIP() << "systemd-analyze is not installed";
  }
  // verify insists that ExecStart exists, and follows Requires= to the socket unit. The man pages
  // of Documentation= are checked by the packaging tests, where they are installed.
  TempTree tree;
  auto units = copy_units(tree);
  ChildProcess verify({kAnalyze, "verify", "--man=no", units[0].string(), units[1].string()},
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

TEST(SystemdUnit, TheSocketUnitListensWhereTheConfigDefaultsTo) {
  std::string socket = read_file(kSocketUnit);
  config::AdminConfig defaults;
  EXPECT_EQ(setting(socket, "ListenStream"), defaults.socket);
  EXPECT_EQ(setting(socket, "SocketMode"), fmt::format("{:04o}", defaults.socket_mode));
  EXPECT_EQ(setting(socket, "SocketGroup"), defaults.admin_group);
  EXPECT_EQ(setting(socket, "RemoveOnStop"), "yes");
  EXPECT_EQ(setting(socket, "Accept"), "no");
  EXPECT_EQ(setting(socket, "WantedBy"), "sockets.target");
}

TEST(SystemdUnit, TheServiceIsSocketActivatedAndHardened) {
  std::string unit = read_file(kUnit);
  EXPECT_EQ(setting(unit, "Requires"), "numabalancerd.socket");
  EXPECT_NE(setting(unit, "After").find("numabalancerd.socket"), std::string::npos);
  EXPECT_EQ(setting(unit, "Also"), "numabalancerd.socket");
  // The socket lives in the runtime directory and outlives a stop of the service.
  EXPECT_EQ(setting(unit, "RuntimeDirectoryPreserve"), "yes");
  for (auto [key, value] : {std::pair{"PrivateNetwork", "yes"},
                            {"IPAddressDeny", "any"},
                            {"PrivateMounts", "yes"},
                            {"UMask", "0077"},
                            {"ProtectKernelTunables", "yes"}}) {
    EXPECT_EQ(setting(unit, key), value) << key;
  }
  // freeze and kill write cgroup files: writable through ProtectKernelTunables' read-only /sys.
  EXPECT_NE(setting(unit, "ReadWritePaths").find("/sys/fs/cgroup"), std::string::npos);
  // hot_first writes DAMON's sysfs files; "-": a kernel without them starts the unit all the same.
  EXPECT_NE(setting(unit, "ReadWritePaths").find(" -/sys/kernel/mm/damon/admin"),
            std::string::npos);
  EXPECT_EQ(setting(unit, "ProtectControlGroups"), "");
  // The socket unit sets the group; delegated subtrees are documented, not overridden.
  auto caps = setting(unit, "CapabilityBoundingSet");
  EXPECT_EQ(caps.find("CAP_CHOWN"), std::string::npos) << caps;
  EXPECT_EQ(caps.find("CAP_DAC_OVERRIDE"), std::string::npos) << caps;
}

// systemd-analyze security rates the unit at most 2.5, and every item it still flags is named in
// a comment of the unit that says why it stays open.
TEST(SystemdUnit, ExposureIsAtMost2Point5AndEveryOpenItemIsExplained) {
  if (!std::filesystem::exists(kAnalyze)) {
    GTEST_SKIP() << "systemd-analyze is not installed";
  }
  TempTree tree;
  auto units = copy_units(tree);
  ChildProcess security({kAnalyze, "security", "--offline=true", "--no-pager", units[0].string()},
                        tree.root());
  ASSERT_EQ(security.exit_code(60s), 0) << security.out() << security.err();
  std::string report = security.out();
  std::smatch overall;
  ASSERT_TRUE(
      std::regex_search(report, overall, std::regex("Overall exposure level for [^:]*: ([0-9.]+)")))
      << report;
  EXPECT_LE(std::stod(overall[1].str()), 2.5) << report;

  std::string comments;
  std::string unit = read_file(kUnit);
  std::istringstream lines(unit);
  for (std::string line; std::getline(lines, line);) {
    if (line.starts_with("#")) {
      comments += line + "\n";
    }
  }
  std::istringstream items(report);
  int open = 0;
  for (std::string line; std::getline(items, line);) {
    // A flagged item ends with its exposure ("✗ ProtectProc=  ...  0.2"); a passed one does not.
    std::smatch item;
    if (std::regex_match(line, item, std::regex("\\S+\\s+(\\S+)\\s.*\\s[0-9]+\\.[0-9]+\\s*"))) {
      ++open;
      EXPECT_NE(comments.find(item[1].str()), std::string::npos)
          << item[1].str() << " is open and no comment in the unit says why";
    }
  }
  EXPECT_GT(open, 0) << report;
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
  EXPECT_TRUE(
      std::filesystem::exists(tree.path("root/usr/lib/systemd/system/numabalancerd.socket")));
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
