#include "daemon/wire/protocol.hpp"

#include <gtest/gtest.h>

namespace nb::wire {
namespace {

struct BadRequestCase {
  const char* name;
  const char* line;
  bool keeps_id;
};

class ParseRequestRejects : public ::testing::TestWithParam<BadRequestCase> {};

TEST_P(ParseRequestRejects, WithBadRequestAndTheIdWhenReadable) {
  auto parsed = parse_request(GetParam().line);
  ASSERT_TRUE(std::holds_alternative<Response>(parsed));
  const auto& response = std::get<Response>(parsed);
  ASSERT_FALSE(response.ok());
  EXPECT_EQ(response.error->code, ErrorCode::bad_request);
  EXPECT_FALSE(response.error->message.empty());
  EXPECT_EQ(response.id.is_null(), !GetParam().keeps_id);
}

INSTANTIATE_TEST_SUITE_P(
    Lines, ParseRequestRejects,
    ::testing::Values(BadRequestCase{"not_json", "{\"cmd\": ", false},
                      BadRequestCase{"array", "[1,2]", false},
                      BadRequestCase{"bad_id_type", "{\"id\": [1], \"cmd\": \"status\"}", false},
                      BadRequestCase{"missing_cmd", "{\"id\": 3}", true},
                      BadRequestCase{"empty_cmd", "{\"id\": 3, \"cmd\": \"\"}", true},
                      BadRequestCase{"cmd_not_string", "{\"id\": 3, \"cmd\": 5}", true},
                      BadRequestCase{"args_not_object",
                                     "{\"id\": \"x\", \"cmd\": \"a\", \"args\": 1}", true}),
    [](const auto& info) { return std::string(info.param.name); });

TEST(ParseRequest, ReadsIdCommandAndArgs) {
  auto parsed = parse_request(R"({"id": 7, "cmd": "plan", "args": {"explain": true}})");
  ASSERT_TRUE(std::holds_alternative<Request>(parsed));
  const auto& request = std::get<Request>(parsed);
  EXPECT_EQ(request.id, 7);
  EXPECT_EQ(request.cmd, "plan");
  EXPECT_EQ(request.args, nlohmann::json({{"explain", true}}));
}

// Before the limit, 60,000 levels (about 120 KB) crashed the daemon ahead of any access check.
TEST(ParseRequest, ARequestNestedTooDeepIsABadRequestThatSaysSo) {
  const std::string deep = "{\"cmd\": \"status\", \"args\": {\"a\": " + std::string(60'000, '[') +
                           std::string(60'000, ']') + "}}";
  auto parsed = parse_request(deep);
  ASSERT_TRUE(std::holds_alternative<Response>(parsed));
  const auto& response = std::get<Response>(parsed);
  ASSERT_FALSE(response.ok());
  EXPECT_EQ(response.error->code, ErrorCode::bad_request);
  EXPECT_EQ(response.error->message, "the request nests deeper than 32 levels");
}

TEST(ParseRequest, MissingArgsAreAnEmptyObject) {
  auto parsed = parse_request(R"({"cmd": "status"})");
  ASSERT_TRUE(std::holds_alternative<Request>(parsed));
  EXPECT_TRUE(std::get<Request>(parsed).args.is_object());
  EXPECT_TRUE(std::get<Request>(parsed).id.is_null());
}

TEST(ResponseLine, ErrorCarriesCodeAndMessageOnOneLine) {
  auto line = to_line(failure(4, ErrorCode::forbidden, "no\nway"));
  ASSERT_EQ(line.back(), '\n');
  EXPECT_EQ(line.find('\n'), line.size() - 1);
  auto json = nlohmann::json::parse(line);
  EXPECT_EQ(json["id"], 4);
  EXPECT_EQ(json["ok"], false);
  EXPECT_EQ(json["error"]["code"], "forbidden");
  EXPECT_EQ(json["error"]["message"], "no\nway");
}

TEST(ResponseLine, InvalidUtf8IsReplacedNotThrown) {
  auto line = to_line(success(1, {{"id", std::string("cg\xff\xfe")}}));
  EXPECT_NE(line.find("cg"), std::string::npos);
}

TEST(ServerLine, RoundTripsResponsesErrorsAndEvents) {
  auto ok = parse_server_line(to_line(success(9, {{"paused", true}})));
  ASSERT_TRUE(ok.ok());
  auto& ok_response = std::get<Response>(ok.value());
  EXPECT_TRUE(ok_response.ok());
  EXPECT_EQ(ok_response.result["paused"], true);

  auto error = parse_server_line(to_line(failure(9, ErrorCode::busy, "later")));
  ASSERT_TRUE(error.ok());
  auto& error_response = std::get<Response>(error.value());
  ASSERT_FALSE(error_response.ok());
  EXPECT_EQ(error_response.error->code, ErrorCode::busy);

  auto event = parse_server_line(to_line(Event{"round", "2026-12-02T10:00:00Z", {{"n", 1}}}));
  ASSERT_TRUE(event.ok());
  EXPECT_EQ(std::get<Event>(event.value()).kind, "round");
  EXPECT_EQ(std::get<Event>(event.value()).data["n"], 1);
}

TEST(ServerLine, GarbageIsAnErrorNotAnException) {
  EXPECT_FALSE(parse_server_line("nonsense").ok());
  EXPECT_FALSE(parse_server_line(R"({"id": 1})").ok());
  EXPECT_FALSE(parse_server_line(R"({"event": "x", "time": 5})").ok());
}

TEST(ErrorCodes, NamesRoundTrip) {
  for (auto code : {ErrorCode::bad_request, ErrorCode::too_large, ErrorCode::unknown_command,
                    ErrorCode::forbidden, ErrorCode::busy, ErrorCode::failed,
                    ErrorCode::unavailable, ErrorCode::reply_too_large}) {
    EXPECT_EQ(error_code_from_string(to_string(code)), code);
  }
  EXPECT_FALSE(error_code_from_string("nope").has_value());
}

}  // namespace
}  // namespace nb::wire
