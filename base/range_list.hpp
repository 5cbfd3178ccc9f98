#pragma once
// The kernel's list-of-ranges syntax ("0-3,8,10-11"): node and PMU cpulists, and the bit ranges
// of a PMU format file ("config:0-7,21"). One parser, so both read the same text the same way.

#include <set>
#include <string_view>
#include <utility>
#include <vector>

#include "base/result.hpp"

namespace nb {

struct Range {
  int first = 0;
  int last = 0;  // inclusive
};

// Every range of the list, in order; surrounding white space (a sysfs file's newline) is ignored
// and an empty list is no ranges. Numbers above `max_value` and reversed ranges are errors.
Result<std::vector<Range>> parse_range_list(std::string_view text, int max_value);

// A cpulist as a set of CPU numbers; empty for a memory-only node.
Result<std::set<int>> parse_cpu_list(std::string_view text);

}  // namespace nb
