// `history --since` against a long audit log, many requests in one write: the daemon reads only
// the end of the log, caps what one request reads, and keeps answering other clients meanwhile.

#include <gtest/gtest.h>

#include <fstream>
#include <iostream>

#include "base/time.hpp"
#include "tests/daemon/service/daemon_harness.hpp"
#include "tests/support/sanitizers.hpp"

namespace nb::service {
namespace {

using namespace std::chrono_literals;
using nb::testing::DaemonHarness;
using nb::testing::SocketClient;
using nb::testing::TempTree;
using nlohmann::json;

constexpr int kLogLines = 12 * 1024;  // of 1 KiB each: 12 MiB, under the 16 MiB rotation

class DaemonHistoryFlood : public ::testing::Test {
 protected:
  DaemonHistoryFlood() : daemon(tree) {
    audit_log = tree.make_dir("audit") / "audit.jsonl";
    daemon.config().export_.audit_log = audit_log.string();
    std::ofstream out(audit_log);
    auto now = std::chrono::system_clock::now();
    std::string pad(900, 'p');
    for (int i = 0; i < kLogLines; ++i) {
      auto time = now - std::chrono::milliseconds(100) * (kLogLines - i);
      out << "{\"time\":\"" << format_rfc3339(time) << "\",\"kind\":\"round\",\"round\":" << i
          << ",\"pad\":\"" << pad << "\"}\n";
    }
  }

  static std::string flood(int requests, const std::string& args) {
    std::string lines;
    for (int i = 0; i < requests; ++i) {
      lines += "{\"id\":" + std::to_string(i) + ",\"cmd\":\"history\",\"args\":" + args + "}\n";
    }
    return lines;
  }

  // How long `status` took on a second connection.
  std::chrono::milliseconds status_wait() {
    SocketClient other(daemon.socket());
    auto begin = std::chrono::steady_clock::now();
    auto reply = other.call("status");
    auto waited = std::chrono::duration_cast<std::chrono::milliseconds>(
        std::chrono::steady_clock::now() - begin);
    EXPECT_EQ(reply["ok"], true) << "no answer within 5 s";
    return waited;
  }

  TempTree tree;
  DaemonHarness daemon;
  std::filesystem::path audit_log;
};

TEST_F(DaemonHistoryFlood, LimitedRequestsReadOnlyTheEndOfTheLog) {
  ASSERT_TRUE(daemon.start().ok());
  SocketClient flooder(daemon.socket());
  auto begin = std::chrono::steady_clock::now();
  ASSERT_TRUE(flooder.send_raw(flood(150, R"({"since":"1h","limit":10})")));
  std::this_thread::sleep_for(50ms);
  auto waited = status_wait();
  std::cout << "[ figures  ] status behind 150 history --since 1h --limit 10 on a 12 MiB log: "
            << waited.count() << " ms\n";
  EXPECT_LT(waited, testing::kSanitizerSlowdown * 1s);
  for (int i = 0; i < 150; ++i) {
    auto line = flooder.read_line(30s);
    ASSERT_TRUE(line.has_value()) << "reply " << i;
    auto reply = json::parse(*line);
    ASSERT_EQ(reply["ok"], true) << line->substr(0, 200);
    ASSERT_EQ(reply["result"]["entries"].size(), 10u);
    EXPECT_EQ(reply["result"]["entries"].back()["round"], kLogLines - 1);
    EXPECT_EQ(reply["result"]["truncated"], false);
  }
  std::cout << "[ figures  ] all 150 replies in "
            << std::chrono::duration_cast<std::chrono::milliseconds>(
                   std::chrono::steady_clock::now() - begin)
                   .count()
            << " ms\n";
}

TEST_F(DaemonHistoryFlood, UnlimitedRequestsStopAtTheByteCapAndSaySo) {
  ASSERT_TRUE(daemon.start().ok());
  SocketClient flooder(daemon.socket());
  ASSERT_TRUE(flooder.send_raw(flood(150, R"({"since":"1h"})")));
  std::this_thread::sleep_for(50ms);
  auto waited = status_wait();
  std::cout << "[ figures  ] status behind 150 history --since 1h on a 12 MiB log: "
            << waited.count() << " ms\n";
  EXPECT_LT(waited, testing::kSanitizerSlowdown * 1s);

  SocketClient reader(daemon.socket());
  auto reply = reader.call("history", json{{"since", "1h"}});
  ASSERT_EQ(reply["ok"], true);
  const auto& result = reply["result"];
  EXPECT_EQ(result["truncated"], true);
  ASSERT_FALSE(result["entries"].empty());
  EXPECT_LT(result["entries"].size(), static_cast<std::size_t>(kLogLines));
  EXPECT_EQ(result["entries"].back()["round"], kLogLines - 1) << "oldest first, newest last";
}

}  // namespace
}  // namespace nb::service
