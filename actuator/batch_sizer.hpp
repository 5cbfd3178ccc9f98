#pragma once
// How many pages go into the next move_pages call, so that each call stalls the target process
// for at most about the call target. Sizes are in base (4 KiB) pages, a huge page counting for
// all of its base pages; a call carries 64 to 4096 addresses, as the issue bounds them, so 4096
// base pages for small pages and up to 8 GiB of transparent huge pages, whose per-byte cost is far
// lower. The first call uses the minimum and each size at most doubles the last one measured, so
// a cheap start (pages already in place) never licenses one enormous call. The size follows the
// cost per page plus twice its mean deviation, as TCP sizes its retransmit timeout: when costs are
// steady the calls take the whole target, and when they swing the batch shrinks so that the slow
// calls, not the average ones, meet it.

#include <cstdint>

#include "actuator/memory_syscalls.hpp"

namespace nb::actuator {

class BatchSizer {
 public:
  static constexpr std::int64_t kMinPages = 64;
  static constexpr std::int64_t kMaxAddresses = 4096;             // per call
  static constexpr std::int64_t kMaxPages = kMaxAddresses * 512;  // all of them huge pages

  explicit BatchSizer(Clock::duration call_target);

  std::int64_t pages() const { return pages_; }
  // A call moved `pages` base pages in `took`; the estimate of the cost per page follows it.
  void record(std::int64_t pages, Clock::duration took);

 private:
  double target_seconds_;
  double seconds_per_page_ = 0;  // 0 until the first call
  double deviation_ = 0;         // mean absolute deviation of the cost per page
  std::int64_t pages_ = kMinPages;
};

}  // namespace nb::actuator
