#include "base/range_list.hpp"

#include <gtest/gtest.h>

namespace nb {
namespace {

struct CpuListCase {
  const char* text;
  std::set<int> cpus;
};

TEST(ParseCpuList, ReadsRangesSinglesAndTheEmptyList) {
  const CpuListCase cases[] = {
      {"0-3", {0, 1, 2, 3}},
      {"0,4", {0, 4}},
      {"0-1,8,10-11\n", {0, 1, 8, 10, 11}},
      {"", {}},
      {"\n", {}},
      {"65535", {65535}},
  };
  for (const auto& c : cases) {
    auto cpus = parse_cpu_list(c.text);
    ASSERT_TRUE(cpus.ok()) << c.text;
    EXPECT_EQ(*cpus, c.cpus) << c.text;
  }
}

TEST(ParseCpuList, RejectsGarbage) {
  for (const char* garbage :
       {"a", "3-1", "1-", "-1", "1,,2", "1,", ",1", "0-99999999", "65536", "1 2", "0x1"}) {
    auto cpus = parse_cpu_list(garbage);
    ASSERT_FALSE(cpus.ok()) << garbage;
    EXPECT_NE(cpus.error().context.find("bad cpu list"), std::string::npos) << garbage;
  }
}

TEST(ParseRangeList, KeepsTheOrderAndBoundsOfEachRange) {
  auto ranges = parse_range_list("0-7,21,32-35", 63);
  ASSERT_TRUE(ranges.ok()) << ranges.error().message();
  ASSERT_EQ(ranges->size(), 3u);
  EXPECT_EQ((*ranges)[0].first, 0);
  EXPECT_EQ((*ranges)[0].last, 7);
  EXPECT_EQ((*ranges)[1].first, 21);
  EXPECT_EQ((*ranges)[1].last, 21);
  EXPECT_EQ((*ranges)[2].first, 32);
  EXPECT_EQ((*ranges)[2].last, 35);
}

TEST(ParseRangeList, RefusesNumbersAboveTheMaximumNamingTheRange) {
  auto ranges = parse_range_list("0-7,60-64", 63);
  ASSERT_FALSE(ranges.ok());
  EXPECT_EQ(ranges.error().context, "bad range \"60-64\" in \"0-7,60-64\"");
}

}  // namespace
}  // namespace nb
