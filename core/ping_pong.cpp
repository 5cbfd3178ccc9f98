#include "core/ping_pong.hpp"

#include <algorithm>
#include <string>

#include "core/describe.hpp"

namespace nb::core {

namespace {

// A round within the window that migrated memory from `dest` to a set including `source`.
bool moved_the_other_way(const Round& round, NodeId source, NodeId dest, TimePoint now,
                         Duration window) {
  return round.migrated && round.source_node == dest && now - round.time <= window &&
         std::find(round.dest_nodes.begin(), round.dest_nodes.end(), source) !=
             round.dest_nodes.end();
}

}  // namespace

Bytes bytes_that_came_from(const History& history, const std::string& container, NodeId source,
                           NodeId dest, TimePoint now, Duration window) {
  Bytes bytes = 0;
  for (const Round& round : history) {
    if (!moved_the_other_way(round, source, dest, now, window)) {
      continue;
    }
    for (const MovedShare& share : round.moved) {
      if (share.container == container && share.to == source) {
        bytes += share.bytes;
      }
    }
  }
  return bytes;
}

const Round* unitemized_ping_pong_ban(const History& history, NodeId source, NodeId dest,
                                      TimePoint now, Duration window) {
  const Round* latest = nullptr;
  for (const Round& round : history) {
    if (round.moved.empty() && moved_the_other_way(round, source, dest, now, window) &&
        (latest == nullptr || round.time > latest->time)) {
      latest = &round;
    }
  }
  return latest;
}

const Round* ping_pong_ban(const History& history, NodeId source, NodeId dest, TimePoint now,
                           Duration window) {
  const Round* latest = nullptr;
  for (const Round& round : history) {
    if (!moved_the_other_way(round, source, dest, now, window)) {
      continue;
    }
    if (latest == nullptr || round.time > latest->time) {
      latest = &round;
    }
  }
  return latest;
}

std::vector<Candidate> drop_ping_pong(std::vector<Candidate> destinations, NodeId source,
                                      const History& history, TimePoint now, Duration window,
                                      Notes& notes) {
  std::erase_if(destinations, [&](const Candidate& candidate) {
    const Round* ban = ping_pong_ban(history, source, candidate.id, now, window);
    if (ban != nullptr) {
      notes.add("candidate node " + std::to_string(candidate.id) +
                ": dropped (ping-pong), a round " +
                format_age(std::chrono::duration_cast<Duration>(now - ban->time)) +
                " moved memory from node " + std::to_string(candidate.id) + " to " +
                describe_node_set(ban->dest_nodes) + ", within ping_pong_window " +
                format_duration(window));
    }
    return ban != nullptr;
  });
  return destinations;
}

}  // namespace nb::core
