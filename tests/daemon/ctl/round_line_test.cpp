// The one-line round of `status` and `reconcile`: a failed round reads "failed" once.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "daemon/ctl/round_view.hpp"

namespace nb::ctl {
namespace {

using nlohmann::json;
using ::testing::HasSubstr;
using ::testing::Not;

TEST(RoundLine, OutcomeIsShownOnlyWhenItAddsToTheStatus) {
  json failed{{"number", 4},
              {"time", "2026-12-02T10:00:00Z"},
              {"status", "failed"},
              {"outcome", "failed"},
              {"source_node", 1},
              {"dest_nodes", json::array()},
              {"reason", "no destination node"}};
  EXPECT_THAT(round_line(failed), HasSubstr(" failed, node 1 -> -: no destination node"));
  EXPECT_THAT(round_line(failed), Not(HasSubstr("(failed)")));
  json paused = failed;
  paused["status"] = "ready";
  paused["outcome"] = "paused";
  EXPECT_THAT(round_line(paused), HasSubstr(" ready (paused), node 1"));
}

}  // namespace
}  // namespace nb::ctl
