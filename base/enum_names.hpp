#pragma once
// An enum's names as one table read both ways: the name written into files, replies, logs and
// metric labels, and the value a name read back stands for. One table per enum keeps the two
// directions from drifting apart.

#include <cstddef>
#include <optional>
#include <string_view>

namespace nb {

template <typename Enum>
struct EnumName {
  Enum value;
  std::string_view name;
};

// `fallback` is what a value outside the table (an integer cast into the enum) reads as.
template <typename Enum, std::size_t N>
constexpr std::string_view name_of(const EnumName<Enum> (&names)[N], Enum value,
                                   std::string_view fallback = "unknown") {
  for (const auto& entry : names) {
    if (entry.value == value) {
      return entry.name;
    }
  }
  return fallback;
}

template <typename Enum, std::size_t N>
constexpr std::optional<Enum> value_named(const EnumName<Enum> (&names)[N], std::string_view name) {
  for (const auto& entry : names) {
    if (entry.name == name) {
      return entry.value;
    }
  }
  return std::nullopt;
}

// True when the table lists the values 0 … N-1 in declaration order. Each table is checked with
// it at compile time, so a value inserted into its enum without a name breaks the build. One
// appended at the end is not caught: it reads as the fallback until its table names it.
template <typename Enum, std::size_t N>
constexpr bool names_every_value(const EnumName<Enum> (&names)[N]) {
  for (std::size_t i = 0; i < N; ++i) {
    if (static_cast<std::size_t>(names[i].value) != i) {
      return false;
    }
  }
  return true;
}

}  // namespace nb
