#pragma once
// What a migration job did, per container and per process: a plain struct the daemon keeps,
// the CLI prints and daemon/codec/report_json.hpp turns into JSON.

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "actuator/page_order.hpp"
#include "base/units.hpp"

namespace nb::actuator {

using Nanoseconds = std::chrono::nanoseconds;

// Per-page outcomes of move requests, from move_pages' status array.
struct OutcomeCounts {
  std::int64_t moved = 0;
  std::int64_t already_on_destination = 0;
  std::int64_t busy = 0;           // EBUSY after one retry
  std::int64_t no_memory = 0;      // ENOMEM: the destination was full
  std::int64_t access_denied = 0;  // EACCES: shared page without move_shared, or cpuset
  std::int64_t unmapped = 0;       // EFAULT/ENOENT: unmapped or freed meanwhile
  std::int64_t other = 0;

  OutcomeCounts& operator+=(const OutcomeCounts& other_counts);
};

enum class StopReason {
  completed,   // every page found on the source was handled
  budget_met,  // the budget was reached
  cancelled,
  deadline,
  no_destination,   // every destination was dropped (full, ENOMEM, missing)
  nothing_to_move,  // nothing on the source node
};
std::string_view to_string(StopReason reason);
std::optional<StopReason> parse_stop_reason(std::string_view name);

// MiB per second; 0 for no time.
double rate_mib_per_s(Bytes bytes, Nanoseconds elapsed);

struct ProcessReport {
  int pid = 0;
  std::int64_t pages_scanned = 0;  // addresses whose node was asked
  Bytes bytes_on_source = 0;       // found there by the walk (numa_maps for the fast path)
  std::map<NodeId, Bytes> bytes_moved_to;
  Bytes bytes_already_on_destination = 0;
  OutcomeCounts outcomes;
  std::int64_t syscalls = 0;
  Nanoseconds longest_call{0};
  Nanoseconds elapsed{0};
  bool fast_path = false;          // migrate_pages moved it
  bool vanished = false;           // exited during the job
  bool hot_first = false;          // walked hottest region first: DAMON watched it
  Bytes bytes_moved_accessed = 0;  // of bytes moved, those from regions DAMON saw accessed

  Bytes bytes_moved() const;
  double rate_mib_per_s() const;
};

struct ContainerReport {
  std::string id;
  std::filesystem::path cgroup_dir;  // empty for a single pid
  std::optional<Bytes> budget;       // the target's own cap, when it had one
  std::vector<ProcessReport> processes;
  Nanoseconds elapsed{0};

  Bytes bytes_moved() const;
  Bytes bytes_on_source() const;
  std::map<NodeId, Bytes> bytes_moved_to() const;
  Bytes bytes_already_on_destination() const;
  OutcomeCounts outcomes() const;
  std::int64_t pages_scanned() const;
  std::int64_t syscalls() const;
  Nanoseconds longest_call() const;
  double rate_mib_per_s() const;
};

// A failure worth an operator's attention, with what to do about it when we know.
struct ReportError {
  std::optional<int> pid;
  std::string container_id;
  int code = 0;  // errno, 0 when none applies
  std::string message;
  std::string hint;
};

struct DroppedDestination {
  NodeId node = 0;
  std::string reason;
};

struct MigrationReport {
  NodeId source_node = 0;
  std::vector<NodeId> dest_nodes;
  bool dry_run = false;
  bool move_shared = false;
  Bytes budget = 0;
  // What the threshold is measured against: the budget, or less when less was on the source.
  Bytes goal = 0;
  double threshold = 0.7;
  bool threshold_met = false;
  StopReason stop_reason = StopReason::completed;
  std::vector<ContainerReport> containers;
  std::vector<int> vanished_pids;
  std::vector<DroppedDestination> dropped_destinations;
  std::vector<ReportError> errors;
  Nanoseconds elapsed{0};
  // The order pages went in: hot_first when DAMON watched at least one process. The fallback
  // says why some or all went in address order though hot_first was asked for (or auto chose
  // it); empty when none did. The cost is DAMON's run: set-up, the window and clean-up.
  PageOrder page_order = PageOrder::address;
  std::string page_order_fallback;
  Nanoseconds hotness_cost{0};

  Bytes bytes_moved() const;
  // Moved by processes walked hot first, from regions DAMON saw accessed and from the rest.
  Bytes bytes_moved_accessed() const;
  Bytes bytes_moved_not_accessed() const;
  // Moved by processes walked in `order`.
  Bytes bytes_moved_in(PageOrder order) const;
  // Moved, plus what was found already on a destination: both now sit where the plan wants them.
  Bytes bytes_placed() const;
  Bytes bytes_on_source() const;
  std::map<NodeId, Bytes> bytes_moved_to() const;
  OutcomeCounts outcomes() const;
  std::int64_t pages_scanned() const;
  std::int64_t syscalls() const;
  Nanoseconds longest_call() const;
  double rate_mib_per_s() const;
};

// What an operator can do about an errno from move_pages/migrate_pages ("" when nothing).
std::string hint_for(int code);

}  // namespace nb::actuator
