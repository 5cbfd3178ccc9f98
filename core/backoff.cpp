#include "core/backoff.hpp"

#include <algorithm>

#include "base/human_format.hpp"
#include "core/cooldown.hpp"

namespace nb::core {

namespace {

// min_interval x 2^doublings, capped at max_backoff without overflowing on the way.
Duration doubled_wait(Duration min_interval, int doublings, Duration cap) {
  Duration wait = min_interval;
  for (int i = 0; i < doublings && wait < cap; ++i) {
    wait *= 2;
  }
  return std::min(wait, cap);
}

// The rounds that migrated off `source` and have an effect, newest first.
std::vector<const Round*> measured_rounds(const History& history, NodeId source) {
  std::vector<const Round*> measured;
  for (const Round& round : history) {
    if (round.migrated && round.source_node == source && round.effect) {
      measured.push_back(&round);
    }
  }
  std::stable_sort(measured.begin(), measured.end(),
                   [](const Round* a, const Round* b) { return a->time > b->time; });
  return measured;
}

int rounds_in_flight(const History& history, NodeId source) {
  return static_cast<int>(std::count_if(history.begin(), history.end(), [&](const Round& round) {
    return round.migrated && round.source_node == source && round.effect_pending;
  }));
}

int leading_failures(const std::vector<const Round*>& measured) {
  int run = 0;
  while (run < static_cast<int>(measured.size()) && !measured[run]->effect->improved) {
    ++run;
  }
  return run;
}

}  // namespace

std::optional<Backoff> backoff_for(const History& history, NodeId source,
                                   const PolicyConfig& config) {
  if (config.backoff_after <= 0) {
    return std::nullopt;
  }
  const auto measured = measured_rounds(history, source);
  const int run = leading_failures(measured);
  if (run < config.backoff_after) {
    return std::nullopt;
  }
  return Backoff{
      run, measured.front()->time,
      doubled_wait(config.min_interval, run - config.backoff_after + 1, config.max_backoff)};
}

std::optional<std::string> hold_back(const History& history, NodeId source, TimePoint now,
                                     const PolicyConfig& config, Notes& notes) {
  const std::string off_node = " off node " + std::to_string(source);
  if (config.backoff_after <= 0) {
    notes.add("backoff: off (backoff_after 0)");
    return std::nullopt;
  }
  // Rounds whose effects are not measured yet may not have helped either: with them, no more than
  // backoff_after rounds go out before the readings say whether moving helps.
  if (const int in_flight = rounds_in_flight(history, source); in_flight > 0) {
    const int failed = leading_failures(measured_rounds(history, source));
    if (in_flight + failed >= config.backoff_after) {
      const std::string reason =
          "backoff: " + std::to_string(in_flight) + " round(s)" + off_node + " not measured yet" +
          (failed > 0 ? ", after " + std::to_string(failed) + " that did not lower its latency"
                      : std::string()) +
          "; waiting for their effects (backoff_after " + std::to_string(config.backoff_after) +
          ")";
      notes.add(reason);
      return reason;
    }
  }
  const auto backoff = backoff_for(history, source, config);
  if (!backoff) {
    const auto measured = measured_rounds(history, source);
    const int run = leading_failures(measured);
    if (measured.empty()) {
      notes.add("backoff: none, no round" + off_node + " has a measured effect");
    } else if (run == 0) {
      notes.add("backoff: none, the newest measured round" + off_node + " lowered its latency");
    } else {
      notes.add("backoff: none, the last " + std::to_string(run) + " round(s)" + off_node +
                " did not lower its latency, fewer than backoff_after " +
                std::to_string(config.backoff_after));
    }
    return std::nullopt;
  }
  const std::string rounds = backoff->failed_rounds == 1
                                 ? std::string("round")
                                 : std::to_string(backoff->failed_rounds) + " rounds";
  const std::string reason =
      "backoff: the last " + rounds + off_node + " did not lower its latency";
  const std::string wait = "wait " + format_duration(backoff->wait) + " (min_interval " +
                           format_duration(config.min_interval) + " doubled per round past " +
                           std::to_string(config.backoff_after - 1) + ", at most max_backoff " +
                           format_duration(config.max_backoff) + ") after the newest, " +
                           format_age(std::chrono::duration_cast<Duration>(now - backoff->newest));
  if (now < backoff->until()) {
    notes.add(reason + ": " + wait);
    return reason;
  }
  notes.add(reason + ", but the " + wait + " is over");
  return std::nullopt;
}

std::optional<std::string> must_wait(const History& history, NodeId source, TimePoint now,
                                     const PolicyConfig& config, Notes& notes) {
  if (const Round* last = cooldown_round(history, now, config.min_interval)) {
    return "the last round acted " +
           format_age(std::chrono::duration_cast<Duration>(now - last->time)) +
           ", within min_interval " + format_duration(config.min_interval);
  }
  return hold_back(history, source, now, config, notes);
}

}  // namespace nb::core
