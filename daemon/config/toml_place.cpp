#include "daemon/config/toml_place.hpp"

#include <algorithm>
#include <limits>
#include <utility>

namespace nb::config {
namespace {

// "pool[1].cgroups[0]" -> "pool[1].cgroups" -> "pool[1]" -> "pool" -> "".
std::string parent_key(std::string_view key) {
  std::size_t cut = key.find_last_of(".[");
  return cut == std::string_view::npos ? std::string() : std::string(key.substr(0, cut));
}

// True when one key is the other or lies inside it.
bool overlaps(std::string_view a, std::string_view b) {
  if (a.size() > b.size()) {
    std::swap(a, b);
  }
  return b.substr(0, a.size()) == a &&
         (b.size() == a.size() || b[a.size()] == '.' || b[a.size()] == '[');
}

}  // namespace

Place place_of(const toml::source_region& region) {
  return Place{static_cast<int>(region.begin.line), static_cast<int>(region.begin.column)};
}

Place place_of_entry(const toml::key& key, const toml::node& node) {
  bool has_header = node.is_table() && node.source().begin.line > 0;
  return place_of(has_header ? node.source() : key.source());
}

std::string_view type_name(const toml::node& node) {
  switch (node.type()) {
    case toml::node_type::table:
      return "a table";
    case toml::node_type::array:
      return "an array";
    case toml::node_type::string:
      return "a string";
    case toml::node_type::integer:
      return "an integer";
    case toml::node_type::floating_point:
      return "a float";
    case toml::node_type::boolean:
      return "a boolean";
    case toml::node_type::date:
      return "a date";
    case toml::node_type::time:
      return "a time";
    case toml::node_type::date_time:
      return "a date-time";
    case toml::node_type::none:
      break;
  }
  return "nothing";
}

void Loader::problem(std::string key, Place place, std::string message) {
  problems_.push_back(ConfigProblem{std::move(key), std::move(message), place.line, place.column});
}

Place Loader::locate(std::string key) const {
  while (!key.empty()) {
    if (auto it = places_.find(key); it != places_.end()) {
      return it->second;
    }
    key = parent_key(key);
  }
  return {};
}

void Loader::add_validation(std::vector<ConfigProblem> found) {
  std::size_t read_problems = problems_.size();
  for (ConfigProblem& problem : found) {
    bool repeated = std::any_of(problems_.begin(), problems_.begin() + read_problems,
                                [&](const ConfigProblem& earlier) {
                                  return !earlier.key.empty() && overlaps(earlier.key, problem.key);
                                });
    if (repeated) {
      continue;
    }
    Place place = locate(problem.key);
    problem.line = place.line;
    problem.column = place.column;
    problems_.push_back(std::move(problem));
  }
}

std::vector<ConfigProblem> Loader::take_problems() {
  std::stable_sort(
      problems_.begin(), problems_.end(), [](const ConfigProblem& a, const ConfigProblem& b) {
        auto rank = [](const ConfigProblem& p) {
          return std::pair(p.line == 0 ? std::numeric_limits<int>::max() : p.line, p.column);
        };
        return rank(a) < rank(b);
      });
  return std::move(problems_);
}

}  // namespace nb::config
