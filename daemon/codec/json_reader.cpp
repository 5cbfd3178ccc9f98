#include "daemon/codec/json_reader.hpp"

#include <charconv>
#include <limits>

#include "base/time.hpp"
#include "core/metric_value.hpp"
#include "daemon/codec/snapshot_json.hpp"

namespace nb::codec::json_reader {

void fail(std::string_view path, std::string message) {
  throw PathError{std::string(path), std::move(message)};
}

std::string child(std::string_view path, std::string_view key) {
  if (path.empty()) {
    return std::string(key);
  }
  std::string result(path);
  result += '.';
  result += key;
  return result;
}

std::string item(std::string_view path, std::size_t index) {
  return std::string(path) + "[" + std::to_string(index) + "]";
}

std::string_view type_name(const nlohmann::json& value) {
  switch (value.type()) {
    case nlohmann::json::value_t::object:
      return "object";
    case nlohmann::json::value_t::array:
      return "array";
    case nlohmann::json::value_t::string:
      return "string";
    case nlohmann::json::value_t::boolean:
      return "boolean";
    case nlohmann::json::value_t::null:
      return "null";
    case nlohmann::json::value_t::number_integer:
    case nlohmann::json::value_t::number_unsigned:
    case nlohmann::json::value_t::number_float:
      return "number";
    default:
      return "unsupported value";
  }
}

namespace {

[[noreturn]] void expected(const nlohmann::json& value, std::string_view path,
                           std::string_view what) {
  fail(path, "expected " + std::string(what) + ", got " + std::string(type_name(value)));
}

}  // namespace

void require_object(const nlohmann::json& value, std::string_view path) {
  if (!value.is_object()) {
    expected(value, path, "an object");
  }
}

void require_array(const nlohmann::json& value, std::string_view path) {
  if (!value.is_array()) {
    expected(value, path, "an array");
  }
}

void check_keys(const nlohmann::json& object, std::string_view path,
                std::initializer_list<std::string_view> allowed) {
  for (const auto& [key, value] : object.items()) {
    bool known = false;
    for (std::string_view name : allowed) {
      known = known || name == key;
    }
    if (!known) {
      fail(child(path, key), "unknown key");
    }
  }
}

const nlohmann::json* optional_field(const nlohmann::json& object, std::string_view key,
                                     bool null_is_absent) {
  auto it = object.find(key);
  if (it == object.end() || (null_is_absent && it->is_null())) {
    return nullptr;
  }
  return &*it;
}

const nlohmann::json& required_field(const nlohmann::json& object, std::string_view path,
                                     std::string_view key) {
  auto it = object.find(key);
  if (it == object.end()) {
    fail(child(path, key), "missing");
  }
  return *it;
}

std::int64_t read_integer(const nlohmann::json& value, std::string_view path) {
  if (value.is_number_integer()) {
    if (value.is_number_unsigned() &&
        value.get<std::uint64_t>() >
            static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())) {
      fail(path, "out of range");
    }
    return value.get<std::int64_t>();
  }
  if (value.is_number_float()) {
    fail(path, "expected an integer, got " + value.dump());
  }
  expected(value, path, "an integer");
}

double read_number(const nlohmann::json& value, std::string_view path) {
  if (!value.is_number()) {
    expected(value, path, "a number");
  }
  return value.get<double>();
}

double read_metric_value(const nlohmann::json& value, std::string_view path) {
  const double number = read_number(value, path);
  if (auto problem = core::metric_value_problem(number)) {
    fail(path, std::move(*problem));
  }
  return number;
}

Bytes read_bytes(const nlohmann::json& value, std::string_view path) {
  const std::int64_t bytes = read_integer(value, path);
  if (bytes < 0) {
    fail(path, "must not be negative, got " + std::to_string(bytes));
  }
  return bytes;
}

bool read_bool(const nlohmann::json& value, std::string_view path) {
  if (!value.is_boolean()) {
    expected(value, path, "true or false");
  }
  return value.get<bool>();
}

std::string read_string(const nlohmann::json& value, std::string_view path) {
  if (!value.is_string()) {
    expected(value, path, "a string");
  }
  return value.get<std::string>();
}

NodeId read_node_id(const nlohmann::json& value, std::string_view path) {
  const std::int64_t id = read_integer(value, path);
  if (id < 0 || id > std::numeric_limits<NodeId>::max()) {
    fail(path, "not a node id: " + std::to_string(id));
  }
  return static_cast<NodeId>(id);
}

NodeId parse_node_key(std::string_view key, std::string_view path) {
  NodeId id = 0;
  auto [end, error] = std::from_chars(key.data(), key.data() + key.size(), id);
  // "01" would name the same node as "1" and let a document list it twice.
  const bool leading_zero = key.size() > 1 && key.front() == '0';
  if (key.empty() || leading_zero || error != std::errc{} || end != key.data() + key.size() ||
      id < 0) {
    fail(child(path, key), "not a node id");
  }
  return id;
}

TimePoint read_time(const nlohmann::json& value, std::string_view path) {
  auto time = parse_rfc3339(read_string(value, path));
  if (!time.ok()) {
    fail(path, time.error().message());
  }
  return *time;
}

}  // namespace nb::codec::json_reader
