#include "base/option_checks.hpp"

#include <gtest/gtest.h>

#include <string>

#include "tests/daemon/ctl/parse_command.hpp"

// Numeric options refused with what they want, in words, and the value given.

namespace nb::ctl {
namespace {

std::string refusal(std::string_view command, std::vector<std::string> args) {
  try {
    parse_command(command, std::move(args));
  } catch (const CLI::ParseError& error) {
    return error.what();
  }
  return "";
}

TEST(OptionChecks, APidMustBeAWholeNumberAboveZero) {
  for (const char* pid : {"abc", "-3", "0", "1.5", "99999999999999999999"}) {
    EXPECT_EQ(refusal("migrate", {"--pid", pid, "--from", "0", "--to", "1"}),
              std::string("--pid: must be a whole number greater than 0, got '") + pid + "'");
  }
  EXPECT_EQ(refusal("migrate", {"--pid", "42", "--from", "0", "--to", "1"}), "");
}

TEST(OptionChecks, ASourceNodeIsANodeNumber) {
  EXPECT_EQ(refusal("migrate", {"--pid", "42", "--from", "x", "--to", "1"}),
            "--from: must be a node number (0, 1, ...), got 'x'");
  EXPECT_EQ(refusal("migrate", {"--pid", "42", "--from", "0", "--to", "1"}), "");
}

TEST(OptionChecks, ARateIsAFiniteNumberFromZero) {
  for (const char* rate : {"-5", "nan", "inf", "fast"}) {
    EXPECT_EQ(
        refusal("migrate", {"--pid", "42", "--from", "0", "--to", "1", "--rate", rate}),
        std::string("--rate: must be a rate in MiB/s, 0 (unlimited) or more, got '") + rate + "'");
  }
  EXPECT_EQ(refusal("migrate", {"--pid", "42", "--from", "0", "--to", "1", "--rate", "0"}), "");
}

TEST(OptionChecks, CountsOfRowsAndEventsAreAboveZero) {
  EXPECT_EQ(refusal("top", {"-n", "0"}),
            "--containers: must be a whole number greater than 0, got '0'");
  EXPECT_EQ(refusal("watch", {"-n", "-1"}),
            "--count: must be a whole number greater than 0, got '-1'");
  EXPECT_EQ(refusal("history", {"-n", "0"}),
            "--limit: must be a whole number greater than 0, got '0'");
}

// A NaN or an overflowing wait would make the deadline undefined.
TEST(OptionChecks, AWaitIsFiniteAboveZeroAndAtMostADay) {
  CLI::App app;
  double seconds = 0;
  app.add_option("--timeout", seconds)->check(seconds_up_to_a_day());
  for (const char* bad : {"0", "-1", "nan", "inf", "1e300", "86401", "abc", ""}) {
    EXPECT_THROW(app.parse(std::vector<std::string>{bad, "--timeout"}), CLI::ValidationError)
        << bad;
  }
  app.parse(std::vector<std::string>{"0.25", "--timeout"});
  EXPECT_EQ(seconds, 0.25);
  EXPECT_EQ(refusal("top", {"--interval", "nan"}),
            "--interval: must be a number of seconds greater than 0 and at most 86400, got 'nan'");
}

}  // namespace
}  // namespace nb::ctl
