#include "daemon/metrics/pmu.hpp"

#include <gtest/gtest.h>

#include "tests/support/temp_tree.hpp"

namespace nb::metrics {
namespace {

TEST(ParseFormatField, ReadsTheWordAndEveryBitRange) {
  auto simple = parse_format_field("config:0-7");
  ASSERT_TRUE(simple.ok());
  EXPECT_EQ(simple->word, 0);
  EXPECT_EQ(simple->bit_ranges, (std::vector<std::pair<int, int>>{{0, 7}}));

  auto split = parse_format_field("config1:8-15,32-55");
  ASSERT_TRUE(split.ok());
  EXPECT_EQ(split->word, 1);
  EXPECT_EQ(split->bit_ranges, (std::vector<std::pair<int, int>>{{8, 15}, {32, 55}}));

  auto single_bit = parse_format_field("config2:63");
  ASSERT_TRUE(single_bit.ok());
  EXPECT_EQ(single_bit->bit_ranges, (std::vector<std::pair<int, int>>{{63, 63}}));
}

TEST(ParseFormatField, RejectsGarbage) {
  for (const char* garbage : {"", "config", "config:", "config3:0-7", "config:7-0", "config:0-64",
                              "config:a-b", "config:0-7,"}) {
    EXPECT_FALSE(parse_format_field(garbage).ok()) << garbage;
  }
}

Pmu pmu_with_formats() {
  Pmu pmu;
  pmu.name = "uncore_test";
  pmu.formats["event"] = *parse_format_field("config:0-7");
  pmu.formats["umask"] = *parse_format_field("config:8-15,32-39");
  pmu.formats["inv"] = *parse_format_field("config:23");
  pmu.formats["filter"] = *parse_format_field("config1:0-3");
  return pmu;
}

TEST(PmuEncode, PlacesEachTermInItsFormatBits) {
  auto pmu = pmu_with_formats();
  struct Case {
    const char* encoding;
    PerfEventConfig expected;
  };
  const Case cases[] = {
      {"event=0x04,umask=0x03", {0x0304, 0, 0}},
      {"event=0x04, umask=0x1ff", {0x1'0000'ff04, 0, 0}},  // umask bit 8 goes to bit 32
      {"event=0x80,inv", {0x800080, 0, 0}},
      {"event=1,filter=0xa", {0x1, 0xa, 0}},
      {"config=0x1234,config2=7", {0x1234, 0, 7}},
  };
  for (const auto& c : cases) {
    auto config = pmu.encode(c.encoding);
    ASSERT_TRUE(config.ok()) << c.encoding << ": " << config.error().context;
    EXPECT_EQ(*config, c.expected) << c.encoding;
  }
}

TEST(PmuEncode, RejectsUnknownTermsValuesTooWideAndGarbage) {
  auto pmu = pmu_with_formats();
  for (const char* garbage : {"", "channel=1", "event=0x100", "filter=0x10", "event=zz"}) {
    EXPECT_FALSE(pmu.encode(garbage).ok()) << garbage;
  }
}

TEST(ReadPmu, ReadsTypeCpumaskFormatsEventsAndScales) {
  nb::testing::TempTree tree;
  tree.make_file("imc/type", "13\n");
  tree.make_file("imc/cpumask", "0,18\n");
  tree.make_file("imc/format/event", "config:0-7\n");
  tree.make_file("imc/format/umask", "config:8-15\n");
  tree.make_file("imc/events/cas_count_read", "event=0x04,umask=0x03\n");
  tree.make_file("imc/events/cas_count_read.scale", "6.103515625e-5\n");
  tree.make_file("imc/events/cas_count_read.unit", "MiB\n");
  tree.make_file("imc/events/clockticks", "event=0x00,umask=0x00\n");
  tree.make_file("imc/events/clockticks.per-pkg", "1\n");

  auto pmu = read_pmu(tree.path("imc"));

  ASSERT_TRUE(pmu.ok()) << pmu.error().message();
  EXPECT_EQ(pmu->name, "imc");
  EXPECT_EQ(pmu->type, 13U);
  EXPECT_EQ(pmu->cpus, (std::set<int>{0, 18}));
  EXPECT_EQ(pmu->events.size(), 2U);
  EXPECT_EQ(pmu->events.at("cas_count_read"), "event=0x04,umask=0x03");
  EXPECT_DOUBLE_EQ(pmu->bytes_per_count("cas_count_read", 1), 64);
  EXPECT_DOUBLE_EQ(pmu->bytes_per_count("clockticks", 64), 64);
}

TEST(ReadPmu, APmuWithoutEventsDirectoryHasNoEvents) {
  nb::testing::TempTree tree;
  tree.make_file("amd_umc_0/type", "27\n");
  tree.make_file("amd_umc_0/cpumask", "0\n");
  tree.make_file("amd_umc_0/format/event", "config:0-7\n");
  auto pmu = read_pmu(tree.path("amd_umc_0"));
  ASSERT_TRUE(pmu.ok()) << pmu.error().message();
  EXPECT_TRUE(pmu->events.empty());
}

TEST(ReadPmu, MissingTypeIsAnErrorWithThePath) {
  nb::testing::TempTree tree;
  tree.make_file("imc/cpumask", "0\n");
  auto pmu = read_pmu(tree.path("imc"));
  ASSERT_FALSE(pmu.ok());
  EXPECT_EQ(pmu.error().code, ENOENT);
  EXPECT_NE(pmu.error().context.find("imc/type"), std::string::npos);
}

TEST(ReadPmu, GarbageFilesAreErrorsNamingTheFile) {
  struct Case {
    const char* file;
    const char* content;
  };
  const Case cases[] = {{"type", "uncore\n"},
                        {"cpumask", "zero\n"},
                        {"format/event", "bits 0 to 7\n"},
                        {"events/cas_count_read.scale", "tiny\n"}};
  for (const auto& c : cases) {
    nb::testing::TempTree tree;
    tree.make_file("imc/type", "13\n");
    tree.make_file("imc/cpumask", "0\n");
    tree.make_file("imc/format/event", "config:0-7\n");
    tree.make_file(std::string("imc/") + c.file, c.content);
    auto pmu = read_pmu(tree.path("imc"));
    ASSERT_FALSE(pmu.ok()) << c.file;
    EXPECT_NE(pmu.error().context.find(c.file), std::string::npos) << pmu.error().context;
  }
}

TEST(FindPmus, MatchesThePrefixFollowedByANumberOnly) {
  nb::testing::TempTree tree;
  for (const char* name : {"uncore_imc_0", "uncore_imc_12", "uncore_imc_free_running_0",
                           "uncore_imc_", "uncore_cha_0", "cpu"}) {
    tree.make_dir(name);
  }
  EXPECT_EQ(find_pmus(tree.root(), "uncore_imc_"),
            (std::vector<std::string>{"uncore_imc_0", "uncore_imc_12"}));
  EXPECT_TRUE(find_pmus(tree.path("absent"), "uncore_imc_").empty());
}

}  // namespace
}  // namespace nb::metrics
