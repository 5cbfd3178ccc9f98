#pragma once
// One thing wrong with a configuration: which key, what is wrong, and where in the file.

#include <string>

namespace nb::config {

struct ConfigProblem {
  std::string key;  // dotted, e.g. "policy.grace_gap_ratio", "pool[1].name"; empty for the file
  std::string message;
  int line = 0;  // 1-based; 0 when the problem has no place in the file (a default, a snapshot)
  int column = 0;

  // "policy.grace_gap_ratio (line 12, column 1): must be in (0, 1]"
  std::string to_string() const;
};

}  // namespace nb::config
