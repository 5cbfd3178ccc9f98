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

// A reply with fields of other types (another version, a broken proxy) prints what it can.
TEST(RoundLine, FieldsOfAnotherTypeAreLeftOutRatherThanThrown) {
  json odd{{"number", "4"},      {"time", 7},         {"status", 1},
           {"source_node", "x"}, {"dest_nodes", "0"}, {"reason", json::array()}};
  EXPECT_EQ(round_line(odd), "#0 - -");
  EXPECT_EQ(round_line(json::array()), "-");
}

// The daemon's status text for systemd comes from the same line.
TEST(RoundLine, TheNumberedLineShowsTheTimeWithMilliseconds) {
  json round{{"number", 12},
             {"time", "2026-12-02T10:00:00Z"},
             {"status", "ready"},
             {"outcome", "started"},
             {"source_node", 1},
             {"dest_nodes", {0, 2}},
             {"reason", "node 1 under force pressure"}};
  EXPECT_EQ(round_line(round),
            "#12 2026-12-02T10:00:00.000Z ready (started), node 1 -> 0,2: node 1 under force "
            "pressure");
  EXPECT_EQ(round_line(round, RoundTime::omitted),
            "#12 ready (started), node 1 -> 0,2: node 1 under force pressure");
}

}  // namespace
}  // namespace nb::ctl
