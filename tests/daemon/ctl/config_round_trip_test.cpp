// `numabalancerctl config` prints TOML that the config loader reads back to the same config:
// the default config (whose min_free_bytes is "auto") and one with every key set.

#include <gtest/gtest.h>

#include <functional>

#include "daemon/config/config_json.hpp"
#include "daemon/config/load.hpp"
#include "daemon/ctl/result_views.hpp"
#include "tests/daemon/config/registered_names.hpp"
#include "tests/support/temp_tree.hpp"

namespace nb::ctl {
namespace {

using nlohmann::json;

// What the daemon's `config` command answers for this config.
json config_reply(const config::Config& config) {
  json reply = config::effective_config_json(config);
  reply["file"] = "/etc/numabalancer/config.toml";
  return reply;
}

config::ConfigLoad load(const std::string& toml) {
  return config::load_config_string(toml, "numabalancerctl config", config::registered_names());
}

std::string problems_of(const config::ConfigLoad& loaded) {
  std::string out;
  for (const auto& problem : loaded.problems) {
    out += problem.to_string() + "\n";
  }
  return out;
}

// dump → load → dump gives the same text, and the config loaded is the one dumped.
void expect_round_trip(const config::Config& config) {
  const std::string printed = format_config(config_reply(config));
  auto loaded = load(printed);
  ASSERT_TRUE(loaded.ok()) << problems_of(loaded) << "in:\n" << printed;
  EXPECT_EQ(config::effective_config_json(loaded.config), config::effective_config_json(config));
  EXPECT_EQ(format_config(config_reply(loaded.config)), printed);
}

TEST(ConfigRoundTrip, TheDefaultConfigReadsBack) {
  expect_round_trip(config::Config{});
}

TEST(ConfigRoundTrip, AutoMinFreeBytesReadsBackAsUnset) {
  auto loaded = load("[actuator]\nmin_free_bytes = \"auto\"\n");
  ASSERT_TRUE(loaded.ok()) << problems_of(loaded);
  EXPECT_FALSE(loaded.config.actuator.min_free_bytes.has_value());
}

TEST(ConfigRoundTrip, AConfigWithEveryKeySetReadsBack) {
  auto every_key = config::load_config_file(NB_SOURCE_DIR "/tests/data/config/every_key.toml",
                                            config::registered_names());
  ASSERT_TRUE(every_key.ok()) << problems_of(every_key);
  expect_round_trip(every_key.config);
}

// Each key of the defaults, by its JSON pointer: a section's keys, a value (a list, a node map)
// as one.
void each_key(const json& section, const std::string& at,
              const std::function<void(const std::string&, const json&)>& visit) {
  for (const auto& [key, value] : section.items()) {
    if (value.is_object() && !value.empty()) {
      each_key(value, at + "/" + key, visit);
    } else {
      visit(at + "/" + key, value);
    }
  }
}

// The case above proves every key only if the file sets every key away from its default.
TEST(ConfigRoundTrip, TheEveryKeyFileSetsEveryKey) {
  auto every_key = config::load_config_file(NB_SOURCE_DIR "/tests/data/config/every_key.toml",
                                            config::registered_names());
  ASSERT_TRUE(every_key.ok()) << problems_of(every_key);
  const json set = config::effective_config_json(every_key.config);
  const json defaults = config::effective_config_json(config::Config{});
  int keys = 0;
  each_key(defaults, "", [&](const std::string& pointer, const json& value) {
    ++keys;
    EXPECT_NE(set.at(json::json_pointer(pointer)), value) << pointer << " keeps its default";
  });
  EXPECT_GT(keys, 60);
  ASSERT_EQ(set.at("pool").size(), 3u);
  EXPECT_EQ(set.at("pool").at(1).at("nodes"), "auto");
}

}  // namespace
}  // namespace nb::ctl
