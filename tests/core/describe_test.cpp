#include "core/describe.hpp"

#include <gtest/gtest.h>

namespace nb::core {
namespace {

TEST(Describe, NodeLists) {
  EXPECT_EQ(describe_nodes({}), "none");
  EXPECT_EQ(describe_nodes({1, 3}), "1, 3");
}

TEST(Describe, NodeSetsWithTheirNoun) {
  EXPECT_EQ(describe_node_set({}), "no node");
  EXPECT_EQ(describe_node_set({2}), "node 2");
  EXPECT_EQ(describe_node_set({1, 3}), "nodes 1, 3");
}

}  // namespace
}  // namespace nb::core
