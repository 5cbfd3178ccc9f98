#include "daemon/codec/policy_overrides.hpp"

#include <algorithm>
#include <limits>
#include <string>
#include <vector>

#include "base/parse_units.hpp"
#include "daemon/codec/json_reader.hpp"
#include "daemon/config/checker.hpp"
#include "daemon/config/config_json.hpp"
#include "daemon/config/keys.hpp"
#include "daemon/config/validate.hpp"

namespace nb::codec {
namespace {

namespace reader = json_reader;
using nlohmann::json;

constexpr std::string_view kPolicyPath = "config.policy";

// One reader per kind of key, chosen by the member's type.
void read_value(const json& value, std::string_view path, double& out) {
  out = reader::read_number(value, path);
}

void read_value(const json& value, std::string_view path, std::string& out) {
  out = reader::read_string(value, path);
}

void read_value(const json& value, std::string_view path, int& out) {
  const std::int64_t number = reader::read_integer(value, path);
  if (number < std::numeric_limits<int>::min() || number > std::numeric_limits<int>::max()) {
    reader::fail(path, "out of range");
  }
  out = static_cast<int>(number);
}

void read_value(const json& value, std::string_view path, Bytes& out) {
  if (value.is_string()) {
    auto size = parse_size(value.get<std::string>());
    if (!size.ok()) {
      reader::fail(path, size.error().message());
    }
    out = *size;
    return;
  }
  if (!value.is_number_integer()) {
    reader::fail(path, "expected a size (bytes, or a string such as \"512MiB\"), got " +
                           std::string(reader::type_name(value)));
  }
  const Bytes bytes = reader::read_bytes(value, path);
  if (auto size = checked_size(value.dump(), bytes); !size.ok()) {
    reader::fail(path, size.error().message());
  }
  out = bytes;
}

void read_value(const json& value, std::string_view path, Duration& out) {
  if (!value.is_string()) {
    reader::fail(path, "expected a duration string such as \"30s\", got " +
                           std::string(reader::type_name(value)));
  }
  auto duration = parse_duration(value.get<std::string>());
  if (!duration.ok()) {
    reader::fail(path, duration.error().message());
  }
  out = *duration;
}

void read_value(const json& value, std::string_view path, std::vector<std::string>& out) {
  reader::require_array(value, path);
  std::vector<std::string> strings;
  for (std::size_t i = 0; i < value.size(); ++i) {
    strings.push_back(reader::read_string(value[i], reader::item(path, i)));
  }
  out = std::move(strings);
}

// A name that must be one of `names`, read back into the enum by `from`.
template <typename Enum>
void read_choice(const json& value, std::string_view path, Enum& out,
                 std::span<const std::string_view> names,
                 std::optional<Enum> (*from)(std::string_view)) {
  const std::string name = reader::read_string(value, path);
  if (auto known = from(name)) {
    out = *known;
    return;
  }
  reader::fail(path, config::one_of_message(names) + ", not \"" + name + "\"");
}

void read_value(const json& value, std::string_view path, core::ThresholdMode& out) {
  read_choice(value, path, out, config::kThresholdModeNames, &core::threshold_mode_from);
}

void read_value(const json& value, std::string_view path, core::Strategy& out) {
  read_choice(value, path, out, config::kStrategyNames, &core::strategy_from);
}

// [policy] has no key of the remaining kinds; one added would need its reader here.
template <typename T>
void read_value(const json&, std::string_view path, T&) {
  reader::fail(path, "cannot be overridden in a snapshot");
}

}  // namespace

nlohmann::json policy_overrides_json(const core::PolicyConfig& policy) {
  return config::policy_json(policy);
}

core::PolicyConfig assign_policy_overrides(core::PolicyConfig policy, const json& overrides) {
  reader::require_object(overrides, kPolicyPath);
  const auto keys = config::policy_keys();
  // Named references, not a structured binding: clang 14 cannot capture one in a lambda.
  for (const auto& item : overrides.items()) {
    const std::string& name = item.key();
    const json& value = item.value();
    auto key =
        std::find_if(keys.begin(), keys.end(), [&](const auto& key) { return key.name == name; });
    const std::string path = reader::child(kPolicyPath, name);
    if (key == keys.end()) {
      reader::fail(path, "unknown key");
    }
    std::visit([&](auto member) { read_value(value, path, policy.*member); }, key->member);
  }
  return policy;
}

Result<core::PolicyConfig> apply_policy_overrides(core::PolicyConfig base,
                                                  const nlohmann::json& overrides) {
  return reader::catching([&] {
    core::PolicyConfig policy = assign_policy_overrides(std::move(base), overrides);
    const auto problems = config::validate_policy(policy);
    if (!problems.empty()) {
      std::string message;
      for (const auto& problem : problems) {
        if (!message.empty()) {
          message += "; ";
        }
        message += "config." + problem.key + ": " + problem.message;
      }
      reader::fail("", message);
    }
    return policy;
  });
}

}  // namespace nb::codec
