#include "daemon/metrics/cpu_nodes.hpp"

#include <gtest/gtest.h>

#include "tests/daemon/metrics/topology.hpp"

namespace nb::metrics {
namespace {

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
