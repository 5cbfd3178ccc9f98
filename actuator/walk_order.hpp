#pragma once
// The spans a job walks a process's memory in (see page_order.hpp). In address order, each VMA
// whole, one after the other. Hot first, DAMON's regions go first, hottest first (accesses seen per
// aggregation descending, then age descending), and the rest of the process (regions DAMON never
// saw accessed, and memory outside any region) follows in address order. Every page falls in
// exactly one span, so none is walked twice; spans end on huge-page boundaries, so no transparent
// huge page straddles two.

#include <cstddef>
#include <cstdint>
#include <vector>

#include "actuator/damon_monitor.hpp"
#include "actuator/numa_maps.hpp"
#include "base/units.hpp"

namespace nb::actuator {

// [start, end) of the VMA at `vma` in the process's list; `accessed` when DAMON saw it accessed.
struct WalkSpan {
  std::size_t vma = 0;
  std::uintptr_t start = 0;
  std::uintptr_t end = 0;
  bool accessed = false;
};

// The spans of the VMAs with pages on `source`, in walk order: each whole VMA in address order
// without `regions`, hottest first with them. A hot region is widened to the huge-page
// boundaries around it (a 2 MiB page, or the VMA's hugetlb page), clipped to each VMA.
std::vector<WalkSpan> walk_order(const std::vector<Vma>& vmas, NodeId source,
                                 const std::vector<DamonRegion>* regions);

}  // namespace nb::actuator
