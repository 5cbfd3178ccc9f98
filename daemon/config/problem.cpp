#include "daemon/config/problem.hpp"

#include <fmt/format.h>

namespace nb::config {

std::string ConfigProblem::to_string() const {
  std::string where;
  if (line > 0) {
    where = fmt::format("line {}, column {}", line, column);
  }
  if (key.empty()) {
    return where.empty() ? message : fmt::format("{}: {}", where, message);
  }
  if (where.empty()) {
    return fmt::format("{}: {}", key, message);
  }
  return fmt::format("{} ({}): {}", key, where, message);
}

}  // namespace nb::config
