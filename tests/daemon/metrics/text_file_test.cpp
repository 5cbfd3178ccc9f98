#include "daemon/metrics/text_file.hpp"

#include <gtest/gtest.h>

#include "tests/support/temp_tree.hpp"

namespace nb::metrics {
namespace {

TEST(ReadUnsigned, ReadsDecimalAndHexValuesWithTheirNewline) {
  nb::testing::TempTree tree;
  EXPECT_EQ(*read_unsigned(tree.make_file("type", "13\n")), 13U);
  EXPECT_EQ(*read_unsigned(tree.make_file("config", "0x0304\n")), 0x304U);
}

TEST(ReadUnsigned, MissingFileCarriesEnoentAndThePath) {
  nb::testing::TempTree tree;
  auto value = read_unsigned(tree.path("absent"));
  ASSERT_FALSE(value.ok());
  EXPECT_EQ(value.error().code, ENOENT);
  EXPECT_TRUE(value.error().vanished());
  EXPECT_NE(value.error().message().find(tree.path("absent").string()), std::string::npos);
}

TEST(ReadUnsigned, GarbageNamesTheFileAndTheText) {
  nb::testing::TempTree tree;
  for (const char* garbage : {"Unavailable\n", "12ab", "", "-3", "0x"}) {
    auto value = read_unsigned(tree.make_file("value", garbage));
    ASSERT_FALSE(value.ok()) << garbage;
    EXPECT_NE(value.error().context.find(tree.path("value").string()), std::string::npos);
  }
}

TEST(Trim, DropsSurroundingWhitespaceOnly) {
  EXPECT_EQ(trim("  a b \n"), "a b");
  EXPECT_EQ(trim("\n\t "), "");
}

}  // namespace
}  // namespace nb::metrics
