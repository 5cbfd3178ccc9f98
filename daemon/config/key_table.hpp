#pragma once
// A config section described once: each key's name, the member it sets, the range it must lie in
// and one line saying what it means. The TOML reader, the range checks, the effective-config dump
// and the snapshot's [policy] overrides all walk these tables, so a new key is one row here (and,
// when it constrains another key, a rule in validate.cpp).
//
// The kind of a key is the type of its member; each type has one TOML syntax and one written
// form (sizes and durations as in the file: "512MiB", "30s").

#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "base/units.hpp"
#include "core/strategy.hpp"
#include "core/threshold_mode.hpp"

namespace nb::config {

// The range a key's value must lie in; its text is the problem reported when it does not.
enum class Bound {
  none,
  positive,                // "must be positive" (sizes, durations, finite numbers)
  not_negative,            // "must not be negative"
  ratio,                   // "must be in (0, 1]"
  at_least_one,            // "must be at least 1"
  open_fraction,           // "must be in (0, 1)" (a quantile)
  kib_to_mib,              // "must be from 1KiB to 1MiB" (a request line)
  one_to_1024,             // "must be from 1 to 1024" (connections of one kind)
  unlimited_if_zero,       // a rate: "must be 0 (unlimited) or from 1 to 1048576"
  file_mode,               // "must be at most \"0777\""
  absolute_path,           // "must be an absolute path"
  absolute_path_or_empty,  // empty switches the feature off
  not_empty,               // "must not be empty"
};

// A member of S, by its type: the kinds a config key can have. `unsigned` is a file mode written
// as an octal string; an optional size or node list is unset when written "auto"; a threshold
// mode is written by its name; a node map is a table keyed by node id ("0" = 92.0).
template <typename S>
using Member =
    std::variant<std::string S::*, bool S::*, int S::*, double S::*, Bytes S::*,
                 std::optional<Bytes> S::*, Duration S::*, std::vector<std::string> S::*,
                 unsigned S::*, std::optional<std::vector<NodeId>> S::*, core::ThresholdMode S::*,
                 core::Strategy S::*, std::map<NodeId, double> S::*>;

// The names a threshold mode is written as, in the order the docs explain them.
inline constexpr std::string_view kThresholdModeNames[] = {"auto", "absolute", "relative"};
// The names a strategy is written as.
inline constexpr std::string_view kStrategyNames[] = {"katalyst", "equalize"};

template <typename S>
struct Key {
  std::string_view name;
  Member<S> member;
  Bound bound = Bound::none;
  std::string_view doc;
  // For a string that must be one of a fixed list (log levels, file formats).
  std::span<const std::string_view> choices = {};
};

template <typename S>
using KeyTable = std::span<const Key<S>>;

}  // namespace nb::config
