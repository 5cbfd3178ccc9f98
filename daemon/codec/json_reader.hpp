#pragma once
// Field-by-field reading of the JSON documents in issue 3 (snapshot, decision, history), for the
// codec's own .cpp files. Every failure names the JSON path of the bad field. Inside the codec a
// failure travels as a PathError exception, so that deep readers stay short; each public codec
// function catches it at its boundary and returns a Result.

#include <cstdint>
#include <initializer_list>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "base/result.hpp"
#include "base/units.hpp"

namespace nb::codec::json_reader {

struct PathError {
  std::string path;
  std::string message;

  std::string text() const { return path.empty() ? message : path + ": " + message; }
};

[[noreturn]] void fail(std::string_view path, std::string message);

std::string child(std::string_view path, std::string_view key);  // "nodes[0]" + "id"
std::string item(std::string_view path, std::size_t index);      // "nodes" + 0 -> "nodes[0]"

// "object", "array", "string", "number", "boolean" or "null".
std::string_view type_name(const nlohmann::json& value);

void require_object(const nlohmann::json& value, std::string_view path);
void require_array(const nlohmann::json& value, std::string_view path);
// Fails on the first key not in `allowed`.
void check_keys(const nlohmann::json& object, std::string_view path,
                std::initializer_list<std::string_view> allowed);

// nullptr when the key is absent or, with `null_is_absent`, null.
const nlohmann::json* optional_field(const nlohmann::json& object, std::string_view key,
                                     bool null_is_absent = true);
const nlohmann::json& required_field(const nlohmann::json& object, std::string_view path,
                                     std::string_view key);

std::int64_t read_integer(const nlohmann::json& value, std::string_view path);
double read_number(const nlohmann::json& value, std::string_view path);
// A node's read latency or bandwidth, checked by core::metric_value_problem.
double read_metric_value(const nlohmann::json& value, std::string_view path);
Bytes read_bytes(const nlohmann::json& value, std::string_view path);  // integer >= 0
bool read_bool(const nlohmann::json& value, std::string_view path);
std::string read_string(const nlohmann::json& value, std::string_view path);
NodeId read_node_id(const nlohmann::json& value, std::string_view path);
// An object key naming a node, e.g. the "1" of "distance": {"1": 21}.
NodeId parse_node_key(std::string_view key, std::string_view path);
TimePoint read_time(const nlohmann::json& value, std::string_view path);

// Runs `read`, turning a PathError (or a JSON library error) into an Error.
template <typename Read>
auto catching(Read&& read) -> Result<decltype(read())> {
  try {
    return read();
  } catch (const PathError& error) {
    return make_error(0, error.text());
  } catch (const nlohmann::json::exception& error) {
    return make_error(0, error.what());
  }
}

}  // namespace nb::codec::json_reader
