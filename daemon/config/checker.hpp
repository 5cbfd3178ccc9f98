#pragma once
// Collects validation problems: a key's Bound from its table row, and the rules validate.cpp adds
// for what one key says about another.

#include <functional>
#include <initializer_list>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "daemon/config/key_table.hpp"
#include "daemon/config/problem.hpp"

namespace nb::config {

// "must be one of a, b, c"
std::string one_of_message(std::span<const std::string_view> allowed);
bool is_one_of(std::string_view value, std::span<const std::string_view> allowed);

class Checker {
 public:
  explicit Checker(std::vector<ConfigProblem>& problems) : problems_(problems) {}

  void fail(std::string key, std::string message);

  // Each reports the Bound's problem and returns false when `value` lies outside it.
  bool check(const std::string& key, double value, Bound bound);
  bool check(const std::string& key, int value, Bound bound);
  bool check(const std::string& key, unsigned value, Bound bound);
  bool check(const std::string& key, Bytes value, Bound bound);
  bool check(const std::string& key, const std::optional<Bytes>& value, Bound bound);
  bool check(const std::string& key, Duration value, Bound bound);
  bool check(const std::string& key, const std::string& value, Bound bound);
  // Kinds no Bound applies to.
  bool check(const std::string&, bool, Bound) { return true; }
  bool check(const std::string&, const std::vector<std::string>&, Bound) { return true; }
  bool check(const std::string&, const std::optional<std::vector<NodeId>>&, Bound) { return true; }
  // Each value against the bound, each named by its node: `read_latency_ns."0"`.
  bool check(const std::string& key, const std::map<NodeId, double>& values, Bound bound);
  // Read from its name, so an unknown mode was reported by the reader.
  bool check(const std::string&, core::ThresholdMode, Bound) { return true; }
  bool check(const std::string&, core::Strategy, Bound) { return true; }

  void one_of(const std::string& key, std::string_view value,
              std::span<const std::string_view> allowed);

 private:
  std::vector<ConfigProblem>& problems_;
};

// A check on more than one key, run right after the key it is reported on has been checked, so
// that problems come out in the order of the table.
template <typename S>
struct RuleAfter {
  std::string_view key;
  std::function<void(const S&, Checker&)> rule;
};

// Every row's Bound (and choices), then the rules that follow it. Keys are "<prefix>.<name>".
template <typename S>
void check_keys(KeyTable<S> keys, const S& values, std::string_view prefix, Checker& check,
                std::initializer_list<RuleAfter<S>> rules = {}) {
  for (const Key<S>& key : keys) {
    std::string name = std::string(prefix) + "." + std::string(key.name);
    std::visit([&](auto member) { check.check(name, values.*member, key.bound); }, key.member);
    if (!key.choices.empty()) {
      if (const auto* text = std::get_if<std::string S::*>(&key.member)) {
        check.one_of(name, values.**text, key.choices);
      }
    }
    for (const RuleAfter<S>& after : rules) {
      if (after.key == key.name) {
        after.rule(values, check);
      }
    }
  }
}

}  // namespace nb::config
