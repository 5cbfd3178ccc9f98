// Reading a file's lines last first, across chunk boundaries and up to a byte cap.

#include "daemon/wire/reverse_lines.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tests/support/temp_tree.hpp"

namespace nb::wire {
namespace {

using nb::testing::TempTree;

std::vector<std::string> all_lines(ReverseLines& lines) {
  std::vector<std::string> out;
  while (true) {
    auto line = lines.previous();
    EXPECT_TRUE(line.ok());
    if (!line.ok() || !line->has_value()) {
      return out;
    }
    out.push_back(**line);
  }
}

TEST(ReverseLines, LastLineFirstWithTheEmptyTailOfTheFinalNewline) {
  TempTree tree;
  auto lines = ReverseLines::open(tree.make_file("f", "one\ntwo\nthree\n"), SIZE_MAX);
  ASSERT_TRUE(lines.ok());
  EXPECT_EQ(all_lines(*lines), (std::vector<std::string>{"", "three", "two", "one"}));
  EXPECT_FALSE(lines->capped());
}

TEST(ReverseLines, LinesLongerThanAChunkComeBackWhole) {
  TempTree tree;
  std::string long_line(200 * 1024, 'x');
  auto lines = ReverseLines::open(tree.make_file("f", "a\n" + long_line + "\nb"), SIZE_MAX);
  ASSERT_TRUE(lines.ok());
  EXPECT_EQ(all_lines(*lines), (std::vector<std::string>{"b", long_line, "a"}));
}

TEST(ReverseLines, StopsAtTheByteCapWithoutThePartialLine) {
  TempTree tree;
  std::string content;
  for (int i = 0; i < 100000; ++i) {
    content += "line " + std::to_string(i) + "\n";
  }
  auto lines = ReverseLines::open(tree.make_file("f", content), 100 * 1024);
  ASSERT_TRUE(lines.ok());
  auto read = all_lines(*lines);
  EXPECT_TRUE(lines->capped());
  EXPECT_LE(lines->bytes_read(), 100u * 1024);
  ASSERT_GT(read.size(), 2u);
  EXPECT_EQ(read[1], "line 99999");
  EXPECT_EQ(read.back().rfind("line ", 0), 0u) << "a line cut by the cap is not returned";
}

TEST(ReverseLines, MissingFileHasNoLines) {
  TempTree tree;
  auto lines = ReverseLines::open(tree.path("absent"), SIZE_MAX);
  ASSERT_TRUE(lines.ok());
  EXPECT_TRUE(all_lines(*lines).empty());
  EXPECT_FALSE(lines->capped());
}

}  // namespace
}  // namespace nb::wire
