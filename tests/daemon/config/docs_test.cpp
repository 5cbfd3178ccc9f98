// Every key of every table, provider and eviction action is documented in the man page and the
// example config, in its own section; a failure names the line to add.

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>

#include "daemon/config/keys.hpp"
#include "tests/daemon/config/registered_names.hpp"

namespace nb::config {
namespace {

constexpr const char* kManPage = NB_SOURCE_DIR "/docs/man/numabalancer.toml.5";
constexpr const char* kExample = NB_SOURCE_DIR "/config.toml.example";

std::string read_text(const char* path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// The text from the line `header` to the next line that starts with `next_header`.
std::string section_of(const std::string& text, const std::string& header,
                       const std::string& next_header) {
  std::size_t start = text.find("\n" + header + "\n");
  if (start == std::string::npos) {
    return "";
  }
  std::size_t end = text.find("\n" + next_header, start + header.size() + 1);
  return text.substr(start, end == std::string::npos ? std::string::npos : end - start);
}

bool has_line_starting(const std::string& section, const std::string& start) {
  return section.find("\n" + start) != std::string::npos;
}

void expect_man_page_lists(const std::string& section_name, std::string_view word) {
  std::string section = section_of(read_text(kManPage), ".SH \"" + section_name + "\"", ".SH ");
  std::string name(word);
  EXPECT_TRUE(has_line_starting(section, ".BR " + name + " ") ||
              has_line_starting(section, ".B " + name + "\n") ||
              has_line_starting(section, ".BR " + name + ","))
      << "docs/man/numabalancer.toml.5 needs a line \".BR " << name << " ...\" under .SH \""
      << section_name << "\"";
}

void expect_example_sets(const std::string& section_name, std::string_view key) {
  std::string section = section_of(read_text(kExample), section_name, "[");
  std::string line = std::string(key) + " = ";
  EXPECT_TRUE(has_line_starting(section, line) || has_line_starting(section, "# " + line))
      << "config.toml.example needs a line \"" << line << "...\" under " << section_name;
}

template <typename S>
void expect_documented(const std::string& section_name, KeyTable<S> keys) {
  for (const Key<S>& key : keys) {
    expect_man_page_lists(section_name, key.name);
    expect_example_sets(section_name, key.name);
  }
}

TEST(ConfigDocs, EveryKeyIsInTheManPageAndTheExample) {
  expect_documented("[daemon]", daemon_keys());
  expect_documented("[admin]", admin_keys());
  expect_documented("[policy]", policy_keys());
  expect_documented("[[pool]]", pool_keys());
  expect_documented("[metrics]", metrics_keys());
  const MetricsConfig metrics;
  for_each_metrics_section(metrics, [](std::string_view name, auto keys, const auto&) {
    expect_documented("[metrics." + std::string(name) + "]", keys);
  });
  expect_documented("[actuator]", actuator_keys());
  expect_documented("[eviction]", eviction_keys());
  expect_documented("[export]", export_keys());
}

TEST(ConfigDocs, EveryProviderAndEvictionActionIsInTheManPage) {
  for (std::string_view name : registered_names().latency_providers) {
    expect_man_page_lists("[metrics]", name);
  }
  for (std::string_view name : registered_names().bandwidth_providers) {
    expect_man_page_lists("[metrics]", name);
  }
  for (std::string_view name : registered_names().eviction_actions) {
    expect_man_page_lists("[eviction]", name);
  }
}

}  // namespace
}  // namespace nb::config
