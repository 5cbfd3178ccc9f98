#pragma once
// The daemon's side of baselines (daemon/metrics/baseline_tracker.hpp): each round it records
// the latency of every node the provider answered for, under that provider and kind, and fills
// each node's baseline_read_latency_ns in the snapshot the policy sees (configured first). The
// readings go to the state file with the rounds, at stop, and every kBaselineSaveEvery while the
// rounds themselves give no reason to save, so that a restart learns on where it left off.

#include <optional>
#include <string>
#include <vector>

#include "base/units.hpp"
#include "core/decision.hpp"
#include "core/snapshot.hpp"
#include "daemon/codec/baseline_json.hpp"
#include "daemon/config/config.hpp"
#include "daemon/host/host_scan.hpp"
#include "daemon/metrics/baseline_tracker.hpp"
#include "daemon/service/node_load_points.hpp"

namespace nb::service {

// Idle rounds change nothing else in the state file; at most this much learning is lost to a
// crash.
inline constexpr Duration kBaselineSaveEvery = std::chrono::minutes(5);

class NodeBaselines {
 public:
  // The readings of the state file, if any. They are kept only while the provider and kind that
  // answer are the ones that measured them (the first round checks).
  void restore(const std::optional<codec::SavedBaselines>& saved);

  // One round's scan: record its latencies (only when the latency provider answered, only for the
  // nodes it answered for), then fill the snapshot's baselines from `settings`' configured values
  // and what was learned, and each node's load points.
  void observe(host::HostScan& scan, const config::BaselineConfig& settings);

  // "; learning: node 0 needs 55 more readings, node 1 needs 55" for a calibrating decision: the
  // nodes of the snapshot that have no baseline yet. Empty otherwise.
  std::string learning_note(const core::Decision& decision, const core::Snapshot& snapshot) const;

  // Every node of `snapshot` (and any configured or learned one besides), for status and exports.
  std::vector<metrics::NodeBaseline> of(const core::Snapshot* snapshot) const;

  // What the state file keeps; nullopt when there is no source yet.
  std::optional<codec::SavedBaselines> saved() const;
  // The readings taken since the last save (all of them after a restore or a change of source).
  std::optional<codec::SavedBaselines> added_since_save() const;
  bool save_due(TimePoint now) const;
  // What saved() or added_since_save() returned is on disk.
  void mark_saved(TimePoint now);

  const metrics::BaselineTracker& tracker() const { return tracker_; }

 private:
  metrics::BaselineTracker tracker_;
  NodeLoadPoints load_points_;
  std::optional<TimePoint> last_saved_;
  std::optional<TimePoint> saved_through_;  // the newest reading on disk
  std::optional<metrics::LatencySource> saved_source_;
};

// Sets each node's baseline_read_latency_ns from the tracker: configured, else learned, else none.
void fill_baselines(core::Snapshot& snapshot, const metrics::BaselineTracker& tracker);

// Builds the tracker `numabalancerd snapshot` reads: the state file's readings, kept only when
// `source` is the one that measured them and only those of the window before `now`, and the
// configured values.
metrics::BaselineTracker tracker_from(const std::optional<codec::SavedBaselines>& saved,
                                      const std::optional<metrics::LatencySource>& source,
                                      const config::BaselineConfig& settings, TimePoint now);

// The latency source that answered in a scan, if any.
std::optional<metrics::LatencySource> latency_source(const host::HostScan& scan);

}  // namespace nb::service
