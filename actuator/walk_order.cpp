#include "actuator/walk_order.hpp"

#include <algorithm>
#include <map>

namespace nb::actuator {
namespace {

constexpr std::uintptr_t kPmdBytes = 2 * 1024 * 1024;

// The parts of one VMA already given to a span: start -> end, disjoint.
using Covered = std::map<std::uintptr_t, std::uintptr_t>;

// Appends the parts of [start, end) not yet covered, and covers them.
void take_uncovered(std::size_t vma, std::uintptr_t start, std::uintptr_t end, bool accessed,
                    Covered& covered, std::vector<WalkSpan>& spans) {
  std::uintptr_t at = start;
  auto next = covered.upper_bound(at);
  if (next != covered.begin() && std::prev(next)->second > at) {
    at = std::prev(next)->second;
  }
  while (at < end) {
    std::uintptr_t stop = next == covered.end() ? end : std::min(end, next->first);
    if (stop > at) {
      spans.push_back({vma, at, stop, accessed});
      covered[at] = stop;
    }
    if (next == covered.end()) {
      break;
    }
    at = std::max(at, next->second);
    ++next;
  }
}

bool hotter(const DamonRegion& a, const DamonRegion& b) {
  if (a.nr_accesses != b.nr_accesses) {
    return a.nr_accesses > b.nr_accesses;
  }
  if (a.age != b.age) {
    return a.age > b.age;
  }
  return a.start < b.start;
}

}  // namespace

std::vector<WalkSpan> walk_order(const std::vector<Vma>& vmas, NodeId source,
                                 const std::vector<DamonRegion>* regions) {
  std::vector<std::size_t> walked;
  for (std::size_t i = 0; i < vmas.size(); ++i) {
    if (vmas[i].pages_on(source) > 0 && vmas[i].end > vmas[i].start) {
      walked.push_back(i);
    }
  }
  std::vector<WalkSpan> spans;
  std::map<std::size_t, Covered> covered;
  if (regions != nullptr) {
    std::vector<DamonRegion> hot;
    std::copy_if(regions->begin(), regions->end(), std::back_inserter(hot),
                 [](const DamonRegion& r) { return r.nr_accesses > 0 && r.end > r.start; });
    std::sort(hot.begin(), hot.end(), hotter);
    for (const DamonRegion& region : hot) {
      for (std::size_t i : walked) {
        const Vma& vma = vmas[i];
        auto align = std::max(kPmdBytes, static_cast<std::uintptr_t>(vma.page_size));
        std::uintptr_t start = std::max(vma.start, region.start - region.start % align);
        std::uintptr_t end = region.end + (align - region.end % align) % align;
        end = std::min(vma.end, end < region.end ? vma.end : end);
        if (start < end) {
          take_uncovered(i, start, end, true, covered[i], spans);
        }
      }
    }
  }
  for (std::size_t i : walked) {
    take_uncovered(i, vmas[i].start, vmas[i].end, false, covered[i], spans);
  }
  return spans;
}

}  // namespace nb::actuator
