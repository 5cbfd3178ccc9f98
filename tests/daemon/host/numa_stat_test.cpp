#include "daemon/host/numa_stat.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "daemon/host/small_file.hpp"
#include "tests/daemon/host/host_fixture.hpp"

namespace nb::host {
namespace {

using ::testing::HasSubstr;

struct ParseCase {
  std::string name;
  std::string text;
  NumaStatFormat format;
  AnonBytes expected;
};

class NumaStatParse : public ::testing::TestWithParam<ParseCase> {};

TEST_P(NumaStatParse, ReadsAnonBytesPerNode) {
  const ParseCase& c = GetParam();
  auto anon = parse_numa_stat(c.text, c.format, 4096, "numa_stat");
  ASSERT_TRUE(anon.ok()) << anon.error().message();
  EXPECT_EQ(*anon, c.expected);
}

INSTANTIATE_TEST_SUITE_P(
    Formats, NumaStatParse,
    ::testing::Values(
        ParseCase{"V2InBytes",
                  "anon N0=1048576 N1=0 N2=8192 N4=4096\nfile N0=1 N1=2 N2=3 N4=4\n"
                  "kernel_stack N0=16384 N1=0 N2=0 N4=0\n",
                  NumaStatFormat::v2,
                  {{0, 1048576}, {1, 0}, {2, 8192}, {4, 4096}}},
        ParseCase{"V2SkipsAnonThpAndReadsAnonAfterIt",
                  "anon_thp N0=2097152\nanon N0=12288 N1=4096\n",
                  NumaStatFormat::v2,
                  {{0, 12288}, {1, 4096}}},
        ParseCase{"V1NonLeafUsesHierarchicalPages",
                  "total=30 N0=20 N1=10\nanon=3 N0=2 N1=1\nhierarchical_total=300 N0=200 "
                  "N1=100\nhierarchical_anon=30 N0=20 N1=10\n",
                  NumaStatFormat::v1,
                  {{0, 20 * 4096}, {1, 10 * 4096}}},
        ParseCase{"V1WithoutHierarchicalLinesUsesAnon",
                  "total=30 N0=20 N1=10\nfile=27 N0=18 N1=9\nanon=3 N0=2 N1=1\n",
                  NumaStatFormat::v1,
                  {{0, 2 * 4096}, {1, 1 * 4096}}},
        ParseCase{"V2WithoutTrailingNewline", "anon N0=5", NumaStatFormat::v2, {{0, 5}}}),
    [](const auto& info) { return info.param.name; });

struct GarbageCase {
  std::string name;
  std::string text;
  NumaStatFormat format;
};

class NumaStatGarbage : public ::testing::TestWithParam<GarbageCase> {};

TEST_P(NumaStatGarbage, IsAnErrorNamingTheFile) {
  auto anon = parse_numa_stat(GetParam().text, GetParam().format, 4096, "/cg/x/memory.numa_stat");
  ASSERT_FALSE(anon.ok());
  EXPECT_EQ(anon.error().code, 0);
  EXPECT_THAT(anon.error().message(), HasSubstr("/cg/x/memory.numa_stat"));
}

INSTANTIATE_TEST_SUITE_P(
    Texts, NumaStatGarbage,
    ::testing::Values(GarbageCase{"Empty", "", NumaStatFormat::v2},
                      GarbageCase{"NoAnonLine", "file N0=1\n", NumaStatFormat::v2},
                      GarbageCase{"LetterValue", "anon N0=abc\n", NumaStatFormat::v2},
                      GarbageCase{"MissingValue", "anon N0=1 N1\n", NumaStatFormat::v2},
                      GarbageCase{"NegativeValue", "anon N0=-5\n", NumaStatFormat::v2},
                      GarbageCase{"NoNodes", "anon\n", NumaStatFormat::v2},
                      GarbageCase{"V1FormatReadAsV2", "anon=3 N0=3\n", NumaStatFormat::v2},
                      GarbageCase{"V2FormatReadAsV1", "anon N0=3\n", NumaStatFormat::v1},
                      GarbageCase{"V1NoTotal", "anon= N0=3\n", NumaStatFormat::v1},
                      GarbageCase{"V1PagesOverflowBytes", "anon=1 N0=9223372036854775807\n",
                                  NumaStatFormat::v1},
                      GarbageCase{"Binary", std::string("anon N0=\0\x01", 10), NumaStatFormat::v2}),
    [](const auto& info) { return info.param.name; });

TEST(NumaStatFile, ReadsTheCgroupsFile) {
  nb::testing::TempTree tree;
  nb::testing::make_v2_cgroup(tree, "a", {{0, 4096}, {4, 8192}});
  auto anon = read_numa_stat(tree.path("sys/fs/cgroup/a"), NumaStatFormat::v2, 4096);
  ASSERT_TRUE(anon.ok()) << anon.error().message();
  EXPECT_EQ(*anon, (AnonBytes{{0, 4096}, {4, 8192}}));
}

TEST(NumaStatFile, MissingFileIsAVanishedCgroup) {
  nb::testing::TempTree tree;
  auto anon = read_numa_stat(tree.path("gone"), NumaStatFormat::v2, 4096);
  ASSERT_FALSE(anon.ok());
  EXPECT_TRUE(vanished(anon.error()));
  EXPECT_THAT(anon.error().message(), HasSubstr(tree.path("gone/memory.numa_stat").string()));
}

TEST(NumaStatFile, GarbageFileIsAnError) {
  nb::testing::TempTree tree;
  tree.make_file("cg/memory.numa_stat", "anon N0=lots\n");
  auto anon = read_numa_stat(tree.path("cg"), NumaStatFormat::v2, 4096);
  ASSERT_FALSE(anon.ok());
  EXPECT_FALSE(vanished(anon.error()));
}

TEST(SmallFile, ReadsAFileLargerThanOneBuffer) {
  nb::testing::TempTree tree;
  const std::string big(100'000, 'x');
  tree.make_file("big", big);
  auto text = read_small_file(tree.path("big"));
  ASSERT_TRUE(text.ok()) << text.error().message();
  EXPECT_EQ(*text, big);
}

}  // namespace
}  // namespace nb::host
