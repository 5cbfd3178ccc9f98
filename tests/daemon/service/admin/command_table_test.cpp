#include "daemon/service/admin/command_table.hpp"

#include <gtest/gtest.h>

#include <stdexcept>

namespace nb::service {
namespace {

using nlohmann::json;

class CommandTableTest : public ::testing::Test {
 protected:
  void SetUp() override {
    table.add("echo", "returns its args", Access::read_only,
              [](const json& args, CommandContext&) -> CommandOutcome { return args; });
    table.add("poke", "changes state", Access::mutating,
              [this](const json&, CommandContext&) -> CommandOutcome {
                ++pokes;
                return json{{"pokes", pokes}};
              });
    table.add("typed", "reads an int", Access::read_only,
              [](const json& args, CommandContext&) -> CommandOutcome {
                return json{{"n", args.at("n").get<int>() + 1}};
              });
    table.add("refuses", "returns an error", Access::read_only,
              [](const json&, CommandContext&) -> CommandOutcome {
                return wire::ErrorReply{wire::ErrorCode::busy, "try later"};
              });
    table.add(
        "throws", "a handler bug", Access::read_only,
        [](const json&, CommandContext&) -> CommandOutcome { throw std::runtime_error("boom"); });
  }

  wire::Response run(std::string_view line, bool admin) {
    CommandContext context{admin, false, false};
    return table.handle_line(line, context);
  }

  CommandTable table;
  int pokes = 0;
};

TEST_F(CommandTableTest, ReadOnlyCommandAnswersAnyone) {
  auto response = run(R"({"id": 1, "cmd": "echo", "args": {"a": 2}})", false);
  ASSERT_TRUE(response.ok());
  EXPECT_EQ(response.id, 1);
  EXPECT_EQ(response.result, json({{"a", 2}}));
}

TEST_F(CommandTableTest, MutatingCommandIsForbiddenToNonAdminsAndDoesNotRun) {
  auto response = run(R"({"id": 2, "cmd": "poke"})", false);
  ASSERT_FALSE(response.ok());
  EXPECT_EQ(response.error->code, wire::ErrorCode::forbidden);
  EXPECT_EQ(pokes, 0);
  EXPECT_TRUE(run(R"({"id": 3, "cmd": "poke"})", true).ok());
  EXPECT_EQ(pokes, 1);
}

TEST_F(CommandTableTest, UnknownCommandNamesIt) {
  auto response = run(R"({"id": 4, "cmd": "frobnicate"})", true);
  ASSERT_FALSE(response.ok());
  EXPECT_EQ(response.error->code, wire::ErrorCode::unknown_command);
  EXPECT_NE(response.error->message.find("frobnicate"), std::string::npos);
}

TEST_F(CommandTableTest, WrongArgumentTypeIsBadRequest) {
  auto response = run(R"({"id": 5, "cmd": "typed", "args": {"n": "x"}})", true);
  ASSERT_FALSE(response.ok());
  EXPECT_EQ(response.error->code, wire::ErrorCode::bad_request);
  EXPECT_EQ(run(R"({"cmd": "typed", "args": {"n": 1}})", true).result["n"], 2);
}

TEST_F(CommandTableTest, HandlerErrorsAndExceptionsBecomeReplies) {
  auto refused = run(R"({"cmd": "refuses"})", true);
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.error->code, wire::ErrorCode::busy);
  auto thrown = run(R"({"cmd": "throws"})", true);
  ASSERT_FALSE(thrown.ok());
  EXPECT_EQ(thrown.error->code, wire::ErrorCode::failed);
  EXPECT_EQ(thrown.error->message, "boom");
}

TEST_F(CommandTableTest, MalformedLineIsBadRequest) {
  auto response = run("{{{", true);
  ASSERT_FALSE(response.ok());
  EXPECT_EQ(response.error->code, wire::ErrorCode::bad_request);
}

TEST_F(CommandTableTest, ListCommandsDescribesEveryCommandSorted) {
  auto response = run(R"({"cmd": "list_commands"})", false);
  ASSERT_TRUE(response.ok());
  std::vector<std::string> names;
  for (const auto& entry : response.result) {
    names.push_back(entry["name"]);
    if (entry["name"] == "poke") {
      EXPECT_TRUE(entry["mutating"].get<bool>());
    }
    EXPECT_FALSE(entry["help"].get<std::string>().empty());
  }
  EXPECT_EQ(names, (std::vector<std::string>{"echo", "list_commands", "poke", "refuses", "throws",
                                             "typed"}));
}

}  // namespace
}  // namespace nb::service
