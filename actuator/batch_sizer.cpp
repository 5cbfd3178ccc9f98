#include "actuator/batch_sizer.hpp"

#include <algorithm>
#include <cmath>

namespace nb::actuator {

namespace {
// Half the weight on the newest call: fast to follow a change in the cost per page (THP vs 4 KiB,
// a busier machine), yet one outlier call only moves the size halfway.
constexpr double kNewestWeight = 0.5;
// The deviation changes more slowly, so that one steady stretch does not forget a swing at once.
constexpr double kDeviationWeight = 0.25;
constexpr double kDeviations = 2;
}  // namespace

BatchSizer::BatchSizer(Clock::duration call_target)
    : target_seconds_(std::chrono::duration<double>(call_target).count()) {}

void BatchSizer::record(std::int64_t pages, Clock::duration took) {
  if (pages <= 0) {
    return;
  }
  double per_page = std::chrono::duration<double>(took).count() / static_cast<double>(pages);
  if (seconds_per_page_ == 0) {
    seconds_per_page_ = per_page;
  } else {
    deviation_ = kDeviationWeight * std::abs(per_page - seconds_per_page_) +
                 (1 - kDeviationWeight) * deviation_;
    seconds_per_page_ = kNewestWeight * per_page + (1 - kNewestWeight) * seconds_per_page_;
  }
  double cost = seconds_per_page_ + kDeviations * deviation_;
  if (cost <= 0) {
    pages_ = std::clamp(2 * pages, kMinPages, kMaxPages);
    return;
  }
  double wanted = std::min(target_seconds_ / cost, 2.0 * static_cast<double>(pages));
  pages_ = std::clamp(static_cast<std::int64_t>(std::llround(wanted)), kMinPages, kMaxPages);
}

}  // namespace nb::actuator
