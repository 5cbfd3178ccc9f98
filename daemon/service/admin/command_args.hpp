#pragma once
// Reading a command's arguments. A wrong one is the caller's mistake: the command answers
// bad_request with the error's message and changes nothing, so every argument is read before
// anything happens.

#include <cstddef>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "base/result.hpp"
#include "base/units.hpp"
#include "daemon/codec/protocol.hpp"

namespace nb::service {

struct ArgumentError {
  std::string message;  // the reply's text, naming the argument
};

template <typename T>
using ArgResult = Result<T, ArgumentError>;

// Absent or null: nullopt.
ArgResult<std::optional<bool>> bool_arg(const nlohmann::json& args, const char* name);
// "limit": a positive integer; absent or null: nullopt.
ArgResult<std::optional<std::size_t>> limit_arg(const nlohmann::json& args);
// "to": a node, a list of nodes or "1,2".
ArgResult<std::vector<NodeId>> node_list(const nlohmann::json& value);

codec::ErrorReply bad_request(const ArgumentError& error);

}  // namespace nb::service
