#pragma once
// Pages found on the source and waiting to move, in the order the walk found them. A batch is a
// span of the front, handed to move_pages without copying; pages a batch could not move go back
// to the front. One entry per page is the hot path of a job (65,536 entries per 256 MiB), so this
// is a vector with a moving head rather than a deque, which allocates a block per few entries.

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "base/units.hpp"

namespace nb::actuator {

inline constexpr Bytes kBasePageBytes = 4 * kKiB;

struct PageEntry {
  std::uintptr_t address = 0;
  std::int64_t base_pages = 1;  // 512 for a transparent huge page moved by its head address
  bool requeued = false;        // already put back once after ENOMEM
  bool accessed = false;        // in a region DAMON saw accessed (hot-first order only)

  Bytes bytes() const { return base_pages * kBasePageBytes; }
};

class PageQueue {
 public:
  bool empty() const { return head_ == entries_.size(); }
  std::size_t size() const { return entries_.size() - head_; }
  // Base pages waiting, huge pages counting all of theirs.
  std::int64_t base_pages() const { return base_pages_; }

  std::span<const PageEntry> front(std::size_t count) const {
    return std::span<const PageEntry>(entries_).subspan(head_, count);
  }

  void push_back(const PageEntry& entry) {
    // Reclaim the consumed front once it is the larger part. The copy is of fewer entries than
    // were consumed, and it keeps the vector at about twice what is waiting: letting it grow to
    // every page of a VMA would cost a page fault per 170 entries, dearer than the copies.
    if (head_ > kCompactAfter && head_ * 2 > entries_.size()) {
      entries_.erase(entries_.begin(), entries_.begin() + static_cast<std::ptrdiff_t>(head_));
      head_ = 0;
    }
    entries_.push_back(entry);
    base_pages_ += entry.base_pages;
  }

  // `count` pages of `base_pages` each, `stride` bytes apart from `address`: a placed range.
  void push_run(std::uintptr_t address, std::size_t count, std::uintptr_t stride,
                std::int64_t base_pages, bool accessed = false) {
    if (count == 0) {
      return;
    }
    push_back({address, base_pages, false, accessed});
    for (std::size_t k = 1; k < count; ++k) {
      entries_.push_back({address + k * stride, base_pages, false, accessed});
    }
    base_pages_ += static_cast<std::int64_t>(count - 1) * base_pages;
  }

  // Puts a page back at the front; cheap right after pop_front, whose room it reuses.
  void push_front(const PageEntry& entry) {
    if (head_ > 0) {
      entries_[--head_] = entry;
    } else {
      entries_.insert(entries_.begin(), entry);
    }
    base_pages_ += entry.base_pages;
  }

  void pop_front(std::size_t count) {
    for (const auto& entry : front(count)) {
      base_pages_ -= entry.base_pages;
    }
    head_ += count;
    if (empty()) {
      clear();
    }
  }

  void clear() {
    entries_.clear();
    head_ = 0;
    base_pages_ = 0;
  }

 private:
  static constexpr std::size_t kCompactAfter = 4096;

  std::vector<PageEntry> entries_;
  std::size_t head_ = 0;
  std::int64_t base_pages_ = 0;
};

}  // namespace nb::actuator
