#include "daemon/config/toml_section.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <limits>
#include <utility>

#include "base/parse_units.hpp"
#include "daemon/config/checker.hpp"

namespace nb::config {
namespace {

std::size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) {
    row[j] = j;
  }
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      std::size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

}  // namespace

void Section::read(std::string_view name, std::string& out) {
  if (const toml::node* node = find(name)) {
    if (auto value = node->value_exact<std::string>()) {
      out = *value;
    } else {
      wrong_type(name, *node, "must be a string");
    }
  }
}

void Section::read(std::string_view name, bool& out) {
  if (const toml::node* node = find(name)) {
    if (auto value = node->value_exact<bool>()) {
      out = *value;
    } else {
      wrong_type(name, *node, "must be true or false");
    }
  }
}

void Section::read(std::string_view name, int& out) {
  if (const toml::node* node = find(name)) {
    auto value = node->value_exact<std::int64_t>();
    if (!value) {
      wrong_type(name, *node, "must be an integer");
    } else if (*value < std::numeric_limits<int>::min() ||
               *value > std::numeric_limits<int>::max()) {
      fail(name, "is out of range");
    } else {
      out = static_cast<int>(*value);
    }
  }
}

void Section::read(std::string_view name, double& out) {
  if (const toml::node* node = find(name)) {
    if (node->is_number()) {
      out = *node->value<double>();
    } else {
      wrong_type(name, *node, "must be a number");
    }
  }
}

void Section::read(std::string_view name, Bytes& out) {
  if (const toml::node* node = find(name)) {
    if (auto size = read_size(name, *node)) {
      out = *size;
    }
  }
}

void Section::read(std::string_view name, std::optional<Bytes>& out) {
  if (const toml::node* node = find(name)) {
    // "auto" is how the effective config shows the unset value, so it reads back as unset.
    if (node->value_exact<std::string>() == "auto") {
      out.reset();
    } else if (auto size = read_size(name, *node)) {
      out = *size;
    }
  }
}

void Section::read(std::string_view name, Duration& out) {
  if (const toml::node* node = find(name)) {
    auto text = node->value_exact<std::string>();
    if (!text) {
      wrong_type(name, *node, R"(must be a duration such as "500ms", "30s", "15m" or "1h")");
      return;
    }
    if (auto duration = parse_duration(*text)) {
      out = *duration;
    } else {
      fail(name, duration.error().message());
    }
  }
}

template <typename Read>
bool Section::each_element(std::string_view name, const toml::array& array, Read read) {
  bool all_good = true;
  for (std::size_t i = 0; i < array.size(); ++i) {
    const toml::node& element = *array.get(i);
    std::string element_key = key(name) + fmt::format("[{}]", i);
    loader_.remember(element_key, place_of(element.source()));
    if (auto problem = read(element); !problem.empty()) {
      loader_.problem(element_key, place_of(element.source()), std::move(problem));
      all_good = false;
    }
  }
  return all_good;
}

void Section::read(std::string_view name, std::vector<std::string>& out) {
  const toml::node* node = find(name);
  if (node == nullptr) {
    return;
  }
  const toml::array* array = node->as_array();
  if (array == nullptr) {
    wrong_type(name, *node, "must be an array of strings");
    return;
  }
  std::vector<std::string> values;
  bool all_strings = each_element(name, *array, [&](const toml::node& element) -> std::string {
    if (auto value = element.value_exact<std::string>()) {
      values.push_back(*value);
      return {};
    }
    return fmt::format("must be a string, not {}", type_name(element));
  });
  if (all_strings) {
    out = std::move(values);
  }
}

void Section::read(std::string_view name, unsigned& out) {
  const toml::node* node = find(name);
  if (node == nullptr) {
    return;
  }
  auto text = node->value_exact<std::string>();
  if (!text) {
    wrong_type(name, *node, R"(must be a string of octal digits such as "0660")");
    return;
  }
  unsigned mode = 0;
  const char* end = text->data() + text->size();
  auto [stop, error] = std::from_chars(text->data(), end, mode, 8);
  if (text->empty() || error != std::errc{} || stop != end) {
    fail(name, fmt::format(R"(must be a string of octal digits such as "0660", not "{}")", *text));
  } else if (mode > 0777) {
    fail(name, R"(must be at most "0777")");
  } else {
    out = mode;
  }
}

template <typename Enum>
void Section::read_choice(std::string_view name, Enum& out, std::span<const std::string_view> names,
                          std::optional<Enum> (*from)(std::string_view)) {
  const toml::node* node = find(name);
  if (node == nullptr) {
    return;
  }
  auto text = node->value_exact<std::string>();
  if (!text) {
    wrong_type(name, *node, one_of_message(names));
  } else if (auto value = from(*text)) {
    out = *value;
  } else {
    fail(name, fmt::format(R"({}, not "{}")", one_of_message(names), *text));
  }
}

void Section::read(std::string_view name, core::ThresholdMode& out) {
  read_choice(name, out, kThresholdModeNames, &core::threshold_mode_from);
}

void Section::read(std::string_view name, core::Strategy& out) {
  read_choice(name, out, kStrategyNames, &core::strategy_from);
}

void Section::read(std::string_view name, std::optional<std::vector<NodeId>>& out) {
  const toml::node* node = find(name);
  if (node == nullptr) {
    return;
  }
  constexpr std::string_view kExpected = R"(must be "auto" or an array of node ids)";
  if (auto text = node->value_exact<std::string>()) {
    if (*text == "auto") {
      out.reset();
    } else {
      fail(name, fmt::format(R"({}, not "{}")", kExpected, *text));
    }
    return;
  }
  const toml::array* array = node->as_array();
  if (array == nullptr) {
    wrong_type(name, *node, kExpected);
    return;
  }
  std::vector<NodeId> ids;
  bool all_ids = each_element(name, *array, [&](const toml::node& element) -> std::string {
    auto id = element.value_exact<std::int64_t>();
    if (!id) {
      return fmt::format("must be an integer node id, not {}", type_name(element));
    }
    if (*id < std::numeric_limits<NodeId>::min() || *id > std::numeric_limits<NodeId>::max()) {
      return "is out of range";
    }
    ids.push_back(static_cast<NodeId>(*id));
    return {};
  });
  if (all_ids) {
    out = std::move(ids);
  }
}

namespace {

// Node ids are written as TOML keys, which are strings: "0", "1", ... and nothing else, so that
// "node0" or "-1" is an error rather than a node nobody has.
std::optional<NodeId> node_id_from(std::string_view text) {
  NodeId id = 0;
  const char* end = text.data() + text.size();
  auto [stop, error] = std::from_chars(text.data(), end, id);
  if (text.empty() || error != std::errc{} || stop != end || id < 0) {
    return std::nullopt;
  }
  return id;
}

}  // namespace

void Section::read(std::string_view name, std::map<NodeId, double>& out) {
  const toml::node* node = find(name);
  if (node == nullptr) {
    return;
  }
  const toml::table* table = node->as_table();
  if (table == nullptr) {
    wrong_type(name, *node, R"(must be a table of node id -> number, such as { "0" = 92.0 })");
    return;
  }
  std::map<NodeId, double> values;
  bool all_good = true;
  for (auto&& [entry, value] : *table) {
    std::string entry_name = entry_key(key(name), entry.str());
    Place place = place_of_entry(entry, value);
    loader_.remember(entry_name, place);
    auto id = node_id_from(entry.str());
    std::string problem;
    if (!id) {
      problem = "must be a node id (a non-negative integer such as \"0\")";
    } else if (!value.is_number()) {
      problem = fmt::format("must be a number of nanoseconds, not {}", type_name(value));
    } else {
      values[*id] = *value.value<double>();
    }
    if (!problem.empty()) {
      loader_.problem(entry_name, place, std::move(problem));
      all_good = false;
    }
  }
  if (all_good) {
    out = std::move(values);
  }
}

const toml::table* Section::table(std::string_view name) {
  const toml::node* node = find(name);
  if (node == nullptr) {
    return nullptr;
  }
  const toml::table* table = node->as_table();
  if (table == nullptr) {
    wrong_type(name, *node, fmt::format("must be a table ([{}])", key(name)));
  }
  return table;
}

std::vector<const toml::table*> Section::array_of_tables(std::string_view name) {
  std::vector<const toml::table*> tables;
  const toml::node* node = find(name);
  if (node == nullptr) {
    return tables;
  }
  const toml::array* array = node->as_array();
  if (array == nullptr) {
    wrong_type(name, *node, fmt::format("must be an array of tables ([[{}]])", key(name)));
    return tables;
  }
  each_element(name, *array, [&](const toml::node& element) -> std::string {
    tables.push_back(element.as_table());
    if (tables.back() == nullptr) {
      return fmt::format("must be a table, not {}", type_name(element));
    }
    return {};
  });
  return tables;
}

void Section::finish() {
  for (auto&& [name, node] : table_) {
    if (std::find(known_.begin(), known_.end(), name.str()) != known_.end()) {
      continue;
    }
    std::string message = "unknown key";
    if (auto suggestion = closest_known(name.str())) {
      message += fmt::format(R"( (did you mean "{}"?))", *suggestion);
    }
    loader_.problem(key(name.str()), place_of_entry(name, node), std::move(message));
  }
}

const toml::node* Section::find(std::string_view name) {
  known_.emplace_back(name);
  auto it = table_.find(name);
  if (it == table_.end()) {
    return nullptr;
  }
  loader_.remember(key(name), place_of_entry(it->first, it->second));
  return &it->second;
}

void Section::fail(std::string_view name, std::string message) {
  loader_.problem(key(name), loader_.locate(key(name)), std::move(message));
}

void Section::wrong_type(std::string_view name, const toml::node& node, std::string_view expected) {
  fail(name, fmt::format("{}, not {}", expected, type_name(node)));
}

std::optional<Bytes> Section::read_size(std::string_view name, const toml::node& node) {
  if (auto bytes = node.value_exact<std::int64_t>()) {
    auto size = checked_size(std::to_string(*bytes), *bytes);
    if (!size) {
      fail(name, size.error().message());
      return std::nullopt;
    }
    return *size;
  }
  auto text = node.value_exact<std::string>();
  if (!text) {
    wrong_type(name, node, R"(must be a size such as "512MiB" or an integer of bytes)");
    return std::nullopt;
  }
  auto size = parse_size(*text);
  if (!size) {
    fail(name, size.error().message());
    return std::nullopt;
  }
  return *size;
}

std::optional<std::string_view> Section::closest_known(std::string_view name) const {
  std::optional<std::string_view> best;
  std::size_t best_distance = 3;  // beyond two edits it is a different word, not a typo
  for (const std::string& known : known_) {
    std::size_t distance = edit_distance(name, known);
    if (distance < best_distance && distance < known.size()) {
      best = known;
      best_distance = distance;
    }
  }
  return best;
}

}  // namespace nb::config
