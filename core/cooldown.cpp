#include "core/cooldown.hpp"

namespace nb::core {

const Round* cooldown_round(const History& history, TimePoint now, Duration min_interval) {
  const Round* latest = nullptr;
  for (const Round& round : history) {
    if ((round.migrated || round.evicted) && (latest == nullptr || round.time > latest->time)) {
      latest = &round;
    }
  }
  if (latest == nullptr || now - latest->time >= min_interval) {
    return nullptr;
  }
  return latest;
}

}  // namespace nb::core
