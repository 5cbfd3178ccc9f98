// The registry is what config validation accepts and what evict() can run: the same names.

#include "daemon/eviction/registry.hpp"

#include <gtest/gtest.h>

#include "tests/daemon/eviction/request.hpp"

namespace nb::eviction {
namespace {

TEST(EvictionRegistry, NamesTheActionsInDocumentedOrder) {
  EXPECT_EQ(action_names(), (std::vector<std::string_view>{"none", "freeze", "kill", "exec"}));
}

TEST(EvictionRegistry, EveryEntryMakesAnActionWithADocLine) {
  for (const ActionEntry& entry : actions()) {
    config::EvictionConfig config;
    config.action = std::string(entry.name);
    EXPECT_NE(entry.make(config), nullptr) << entry.name;
    EXPECT_FALSE(entry.doc.empty()) << entry.name;
  }
}

TEST(EvictionRegistry, UnknownActionIsRefused) {
  testing::TempTree tree;
  auto result = evict(action("explode"), request_for(tree));
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.error().code, EINVAL);
}

}  // namespace
}  // namespace nb::eviction
