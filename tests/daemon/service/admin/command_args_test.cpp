#include "daemon/service/admin/command_args.hpp"

#include <gtest/gtest.h>

namespace nb::service {
namespace {

using nlohmann::json;

TEST(BoolArg, AbsentOrNullIsUnset) {
  EXPECT_FALSE(bool_arg(json::object(), "explain").value().has_value());
  EXPECT_FALSE(bool_arg(json{{"explain", nullptr}}, "explain").value().has_value());
}

TEST(BoolArg, ReadsTrueAndFalse) {
  EXPECT_EQ(bool_arg(json{{"explain", true}}, "explain").value(), std::optional<bool>(true));
  EXPECT_EQ(bool_arg(json{{"explain", false}}, "explain").value(), std::optional<bool>(false));
}

TEST(BoolArg, AnythingElseNamesTheArgument) {
  auto read = bool_arg(json{{"enabled", "yes"}}, "enabled");
  ASSERT_FALSE(read);
  EXPECT_EQ(read.error().message, "\"enabled\" must be true or false");
}

TEST(LimitArg, MustBeAPositiveInteger) {
  EXPECT_EQ(limit_arg(json{{"limit", 3}}).value(), std::optional<std::size_t>(3));
  EXPECT_FALSE(limit_arg(json::object()).value().has_value());
  for (const json& bad : {json(0), json(-2), json(1.5), json("3")}) {
    auto read = limit_arg(json{{"limit", bad}});
    ASSERT_FALSE(read) << bad;
    EXPECT_EQ(read.error().message, "\"limit\" must be a positive integer");
  }
}

TEST(NodeList, AcceptsANodeAListOrText) {
  EXPECT_EQ(node_list(json(2)).value(), (std::vector<NodeId>{2}));
  EXPECT_EQ(node_list(json{1, 3}).value(), (std::vector<NodeId>{1, 3}));
  EXPECT_EQ(node_list(json("1,2")).value(), (std::vector<NodeId>{1, 2}));
}

TEST(NodeList, SaysWhatIsWrong) {
  EXPECT_EQ(node_list(json(5000)).error().message, "\"to\": node out of range");
  EXPECT_EQ(node_list(json{1, "x"}).error().message, "\"to\" must list node numbers");
  EXPECT_EQ(node_list(json("1,,2")).error().message,
            "\"to\": \"1,,2\" is not a list of node numbers");
  EXPECT_EQ(node_list(json::object()).error().message,
            "\"to\" must be a node, a list of nodes or \"1,2\"");
  EXPECT_EQ(node_list(json::array()).error().message, "\"to\" names no node");
}

TEST(ArgumentError, BecomesABadRequest) {
  auto reply = bad_request(ArgumentError{"\"limit\" must be a positive integer"});
  EXPECT_EQ(reply.code, codec::ErrorCode::bad_request);
  EXPECT_EQ(reply.message, "\"limit\" must be a positive integer");
}

}  // namespace
}  // namespace nb::service
