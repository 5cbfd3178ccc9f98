// A nesting limit on JSON from peers and other programs: the depth is counted as documented, and
// a document far deeper than any stack can take is refused without building it.

#include "daemon/wire/bounded_json.hpp"

#include <gtest/gtest.h>

#include <string>

namespace nb::wire {
namespace {

// `depth` arrays inside each other around a 1, then an object holding it: depth + 1 levels.
std::string nested(int depth) {
  return "{\"a\": " + std::string(static_cast<std::size_t>(depth), '[') + "1" +
         std::string(static_cast<std::size_t>(depth), ']') + "}";
}

TEST(BoundedJson, ADocumentAtTheLimitIsRead) {
  BoundedJson parsed = parse_bounded_json(nested(kMaxJsonDepth - 1));
  ASSERT_EQ(parsed.problem, JsonProblem::none);
  EXPECT_TRUE(parsed.value.is_object());
}

TEST(BoundedJson, OneLevelMoreIsTooDeep) {
  BoundedJson parsed = parse_bounded_json(nested(kMaxJsonDepth));
  EXPECT_EQ(parsed.problem, JsonProblem::too_deep);
  EXPECT_TRUE(parsed.value.is_discarded());
}

TEST(BoundedJson, ScalarsAndFlatContainersAreOneLevelAtMost) {
  EXPECT_EQ(parse_bounded_json("7", 1).problem, JsonProblem::none);
  EXPECT_EQ(parse_bounded_json("[1, 2]", 1).problem, JsonProblem::none);
  EXPECT_EQ(parse_bounded_json("[[1]]", 1).problem, JsonProblem::too_deep);
}

// The measured crash: a release build died at 60,000 levels, an ASan build at 16,000.
TEST(BoundedJson, AMillionLevelsAreRefusedNotACrash) {
  BoundedJson parsed = parse_bounded_json(nested(1'000'000));
  EXPECT_EQ(parsed.problem, JsonProblem::too_deep);
}

TEST(BoundedJson, InvalidJsonIsInvalidNotTooDeep) {
  EXPECT_EQ(parse_bounded_json("{\"a\": ").problem, JsonProblem::invalid);
  EXPECT_EQ(describe(JsonProblem::invalid, "the request"), "the request is not valid JSON");
  EXPECT_EQ(describe(JsonProblem::too_deep, "the request"),
            "the request nests deeper than 32 levels");
}

}  // namespace
}  // namespace nb::wire
