// The SIGHUP sender handler runs in front of the handler that was there (asio's, in the daemon),
// which must still see every signal.

#include "daemon/service/signal_sender.hpp"

#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <thread>

namespace nb::service {
namespace {

std::atomic<int> g_first_handler_calls{0};

void first_handler(int) {
  g_first_handler_calls.fetch_add(1);
}

// Installs a plain handler for SIGHUP, as asio's signal_set does, and puts the disposition back
// afterwards so that no other test sees ours.
class SignalSenderTest : public ::testing::Test {
 protected:
  void SetUp() override {
    struct sigaction plain {};
    plain.sa_handler = first_handler;
    sigemptyset(&plain.sa_mask);
    ASSERT_EQ(::sigaction(SIGHUP, &plain, &saved_), 0);
    g_first_handler_calls = 0;
    (void)take_sighup_sender();
  }
  void TearDown() override { ::sigaction(SIGHUP, &saved_, nullptr); }

  // kill() to the own process may deliver on another thread after it returns.
  static void send_and_wait(int expected_calls) {
    ASSERT_EQ(::kill(::getpid(), SIGHUP), 0);
    for (int i = 0; i < 500 && g_first_handler_calls < expected_calls; ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
    ASSERT_EQ(g_first_handler_calls, expected_calls);
  }

  struct sigaction saved_ {};
};

TEST_F(SignalSenderTest, KeepsTheSenderAndStillCallsTheHandlerBefore) {
  ASSERT_TRUE(chain_sighup_sender().ok());
  send_and_wait(1);
  auto sender = take_sighup_sender();
  ASSERT_TRUE(sender.has_value());
  EXPECT_EQ(*sender, (SignalSender{.uid = ::getuid(), .pid = ::getpid()}));
  EXPECT_FALSE(take_sighup_sender().has_value()) << "a sender is taken once";
}

TEST_F(SignalSenderTest, ChainingTwiceDoesNotCallTheHandlerTwice) {
  ASSERT_TRUE(chain_sighup_sender().ok());
  ASSERT_TRUE(chain_sighup_sender().ok());
  send_and_wait(1);
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  EXPECT_EQ(g_first_handler_calls, 1);
}

TEST_F(SignalSenderTest, WithoutAHandlerToChainToItRefusesAndLeavesTheDefault) {
  struct sigaction defaults {};
  defaults.sa_handler = SIG_DFL;
  ASSERT_EQ(::sigaction(SIGHUP, &defaults, nullptr), 0);
  auto chained = chain_sighup_sender();
  ASSERT_FALSE(chained.ok());
  EXPECT_NE(chained.error().message().find("SIGHUP has no handler"), std::string::npos);
  struct sigaction now {};
  ASSERT_EQ(::sigaction(SIGHUP, nullptr, &now), 0);
  EXPECT_EQ(now.sa_handler, SIG_DFL);
}

TEST_F(SignalSenderTest, NothingSentIsNoSender) {
  EXPECT_FALSE(take_sighup_sender().has_value());
}

}  // namespace
}  // namespace nb::service
