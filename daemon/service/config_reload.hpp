#pragma once
// What a reload of the configuration file came to: accepted (with the settings that only a
// restart applies) or rejected with the problems found, the old configuration staying.

#include <string>
#include <vector>

namespace nb::service {

struct ReloadOutcome {
  bool ok = false;
  std::vector<std::string> problems;
  std::vector<std::string> restart_needed;
};

}  // namespace nb::service
