#include "daemon/metrics/cpu_list.hpp"

#include <gtest/gtest.h>

#include "tests/daemon/metrics/topology.hpp"

namespace nb::metrics {
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
  };
  for (const auto& c : cases) {
    auto cpus = parse_cpu_list(c.text);
    ASSERT_TRUE(cpus.ok()) << c.text;
    EXPECT_EQ(*cpus, c.cpus) << c.text;
  }
}

TEST(ParseCpuList, RejectsGarbage) {
  for (const char* garbage : {"a", "3-1", "1-", "-1", "1,,2", "1,", "0-99999999", "1 2"}) {
    EXPECT_FALSE(parse_cpu_list(garbage).ok()) << garbage;
  }
}

TEST(NodeOfCpu, MapsEveryCpuToItsNodeAndSkipsMemoryOnlyNodes) {
  std::vector<core::Node> topology = {testing::node(0, "0-1"), testing::node(2, "2,3"),
                                      testing::node(4, "")};
  auto owner = node_of_cpu(topology);
  ASSERT_TRUE(owner.ok());
  EXPECT_EQ(*owner, (std::map<int, NodeId>{{0, 0}, {1, 0}, {2, 2}, {3, 2}}));
}

TEST(NodeOfCpu, NamesTheNodeWithABadCpuList) {
  auto owner = node_of_cpu({testing::node(7, "x")});
  ASSERT_FALSE(owner.ok());
  EXPECT_NE(owner.error().context.find("node 7"), std::string::npos);
}

}  // namespace
}  // namespace nb::metrics
