#include "daemon/service/admin/line_framer.hpp"

#include <gtest/gtest.h>

namespace nb::service {
namespace {

std::vector<std::string> describe(const std::vector<Frame>& frames) {
  std::vector<std::string> out;
  for (const auto& frame : frames) {
    out.push_back(frame.oversized ? "<oversized>" : frame.line);
  }
  return out;
}

struct FramingCase {
  const char* name;
  std::vector<std::string> chunks;
  std::vector<std::string> expected;
};

class LineFraming : public ::testing::TestWithParam<FramingCase> {};

TEST_P(LineFraming, CutsChunksIntoLines) {
  LineFramer framer(8);
  std::vector<std::string> seen;
  for (const auto& chunk : GetParam().chunks) {
    for (auto& line : describe(framer.feed(chunk))) {
      seen.push_back(line);
    }
  }
  EXPECT_EQ(seen, GetParam().expected);
}

INSTANTIATE_TEST_SUITE_P(
    Cases, LineFraming,
    ::testing::Values(FramingCase{"two_lines_in_one_chunk", {"ab\ncd\n"}, {"ab", "cd"}},
                      FramingCase{"line_split_across_chunks", {"a", "b", "c\n"}, {"abc"}},
                      FramingCase{"half_line_waits", {"abc"}, {}},
                      FramingCase{"crlf_is_stripped", {"ab\r\n"}, {"ab"}},
                      FramingCase{"blank_lines_are_skipped", {"\n\nab\n"}, {"ab"}},
                      FramingCase{"exactly_the_limit_passes", {"12345678\n"}, {"12345678"}},
                      FramingCase{"oversized_reported_once_then_recovers",
                                  {"123456789", "0123456789", "\nok\n"},
                                  {"<oversized>", "ok"}},
                      FramingCase{
                          "oversized_across_chunks", {"12345", "6789\nx\n"}, {"<oversized>", "x"}}),
    [](const auto& info) { return std::string(info.param.name); });

TEST(LineFramer, PendingCountsTheUnfinishedLine) {
  LineFramer framer(100);
  (void)framer.feed("abc");
  EXPECT_EQ(framer.pending(), 3u);
  (void)framer.feed("\n");
  EXPECT_EQ(framer.pending(), 0u);
}

}  // namespace
}  // namespace nb::service
