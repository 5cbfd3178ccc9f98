#include "daemon/metrics/text_file.hpp"

#include <gtest/gtest.h>
#include <sys/stat.h>

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

TEST(ReadTextFile, ANamedPipeIsRefusedAtOnceInsteadOfBlocking) {
  nb::testing::TempTree tree;
  auto fifo = tree.path("metrics.prom");
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  auto content = read_text_file(fifo);  // blocked for good before: no writer ever opens it
  ASSERT_FALSE(content.ok());
  EXPECT_EQ(content.error().code, EINVAL);
  EXPECT_NE(content.error().context.find(fifo.string() + " is not a regular file (a named pipe)"),
            std::string::npos)
      << content.error().message();
}

TEST(ReadTextFile, ADirectoryIsNotARegularFile) {
  nb::testing::TempTree tree;
  auto content = read_text_file(tree.root());
  ASSERT_FALSE(content.ok());
  EXPECT_NE(content.error().context.find("is not a regular file"), std::string::npos);
}

TEST(Trim, DropsSurroundingWhitespaceOnly) {
  EXPECT_EQ(trim("  a b \n"), "a b");
  EXPECT_EQ(trim("\n\t "), "");
}

}  // namespace
}  // namespace nb::metrics
