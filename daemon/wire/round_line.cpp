#include "daemon/wire/round_line.hpp"

#include "base/time.hpp"

namespace nb::wire {

namespace {

std::string node_list(const std::vector<NodeId>& nodes) {
  if (nodes.empty()) {
    return "-";
  }
  std::string list;
  for (NodeId node : nodes) {
    list += (list.empty() ? "" : ",") + std::to_string(node);
  }
  return list;
}

}  // namespace

std::string round_line(const RoundSummary& round, RoundLineStyle style) {
  std::string line;
  switch (style) {
    case RoundLineStyle::numbered_with_time:
      line = "#" + std::to_string(round.number) + " " +
             (round.time ? format_rfc3339_millis(*round.time) : std::string("-")) + " ";
      break;
    case RoundLineStyle::numbered:
      line = "#" + std::to_string(round.number) + " ";
      break;
    case RoundLineStyle::status:
      line = "round " + std::to_string(round.number) + ": ";
      break;
  }
  line += round.status.empty() ? "-" : round.status;
  if (!round.outcome.empty() && round.outcome != "none" && round.outcome != round.status) {
    line += " (" + round.outcome + ")";
  }
  if (round.source_node) {
    line += ", node " + std::to_string(*round.source_node) + " -> " + node_list(round.dest_nodes);
  }
  if (!round.reason.empty()) {
    line += ": " + round.reason;
  }
  return line;
}

}  // namespace nb::wire
