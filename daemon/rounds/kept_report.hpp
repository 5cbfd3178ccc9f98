#pragma once
// A job's report as a round keeps it beside its summary, for the newest rounds only (`status`,
// `history`, job events, the state file): each container keeps its busiest processes, so that a
// job over thousands of processes cannot grow the state without bound. The totals are stored, not
// summed from the kept processes, so they still count every process; codec/report_json.hpp is its
// JSON, and reads it back.

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "actuator/migration_report.hpp"
#include "base/units.hpp"

namespace nb::rounds {

// What a set of processes did together.
struct MoveTotals {
  std::int64_t pages_scanned = 0;
  Bytes bytes_on_source = 0;
  std::map<NodeId, Bytes> bytes_moved_to;
  Bytes bytes_already_on_destination = 0;
  actuator::OutcomeCounts outcomes;
  std::int64_t syscalls = 0;
  actuator::Nanoseconds longest_call{0};
  actuator::Nanoseconds elapsed{0};

  Bytes bytes_moved() const;
  double rate_mib_per_s() const;
};

struct KeptContainer {
  std::string id;
  std::filesystem::path cgroup_dir;  // empty for a single pid
  std::optional<Bytes> budget;
  MoveTotals totals;
  std::vector<actuator::ProcessReport> processes;
  std::size_t processes_omitted = 0;
};

struct KeptReport {
  NodeId source_node = 0;
  std::vector<NodeId> dest_nodes;
  bool dry_run = false;
  bool move_shared = false;
  Bytes budget = 0;
  Bytes goal = 0;
  double threshold = 0;
  bool threshold_met = false;
  actuator::StopReason stop_reason = actuator::StopReason::completed;
  std::vector<int> vanished_pids;
  std::vector<actuator::DroppedDestination> dropped_destinations;
  std::vector<actuator::ReportError> errors;
  actuator::PageOrder page_order = actuator::PageOrder::address;
  std::string page_order_fallback;
  actuator::Nanoseconds hotness_cost{0};
  MoveTotals totals;
  Bytes bytes_moved_accessed = 0;
  Bytes bytes_moved_not_accessed = 0;
  std::vector<KeptContainer> containers;

  Bytes bytes_placed() const;
};

// At most `processes_per_container` processes per container: within it all, in the walk's order;
// over it those with the most bytes on the source (ties in walk order).
KeptReport keep_busiest(const actuator::MigrationReport& report,
                        std::size_t processes_per_container);

}  // namespace nb::rounds
