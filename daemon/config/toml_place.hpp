#pragma once
// Where things sit in a TOML file, and the problems found while reading it. Validation finds
// problems on values, not on text; the places remembered while reading let them be reported at
// the key (or, for a default, at the enclosing table) all the same.

#include <toml++/toml.h>

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "daemon/config/problem.hpp"

namespace nb::config {

struct Place {
  int line = 0;
  int column = 0;
};

Place place_of(const toml::source_region& region);
// A table is placed at its [header], any other value at its key.
Place place_of_entry(const toml::key& key, const toml::node& node);

// "a table", "an integer", ...: for "must be a string, not an integer".
std::string_view type_name(const toml::node& node);

// What has been read so far: the problems found while reading, and where each key sits in the
// file so that problems found later by validation can be placed too.
class Loader {
 public:
  void problem(std::string key, Place place, std::string message);
  void remember(const std::string& key, Place place) { places_.emplace(key, place); }
  // Whether the file holds the key (remembered while reading).
  bool wrote(std::string_view key) const { return places_.contains(std::string(key)); }

  // A key that is absent from the file (a default) takes the place of its nearest enclosing
  // table, so that e.g. a missing `cgroups` points at its `[[pool]]`.
  Place locate(std::string key) const;

  // Validation problems on keys that already failed to read would only repeat them.
  void add_validation(std::vector<ConfigProblem> found);

  // In file order; problems with no place last, in the order found.
  std::vector<ConfigProblem> take_problems();

 private:
  std::vector<ConfigProblem> problems_;
  std::map<std::string, Place> places_;
};

}  // namespace nb::config
