#include "daemon/service/node_baselines.hpp"

#include <fmt/format.h>
#include <spdlog/spdlog.h>

namespace nb::service {
namespace {

metrics::NodeReadings readings_of(const codec::SavedBaselines& saved) {
  metrics::NodeReadings readings;
  for (const auto& [node, list] : saved.readings) {
    auto& kept = readings[node];
    for (const auto& [time, ns] : list) {
      kept.push_back(metrics::LatencyReading{time, ns});
    }
  }
  return readings;
}

std::vector<NodeId> node_ids(const core::Snapshot* snapshot) {
  std::vector<NodeId> ids;
  if (snapshot != nullptr) {
    for (const auto& node : snapshot->nodes) {
      ids.push_back(node.id);
    }
  }
  return ids;
}

}  // namespace

std::optional<metrics::LatencySource> latency_source(const host::HostScan& scan) {
  const host::ProviderReport* report = scan.report.provider(metrics::Metric::read_latency);
  if (report == nullptr || !report->available || report->provider.empty()) {
    return std::nullopt;
  }
  return metrics::LatencySource{report->provider,
                                report->kind.value_or(scan.snapshot.latency_kind())};
}

void NodeBaselines::restore(const std::optional<codec::SavedBaselines>& saved) {
  if (saved) {
    tracker_.restore(metrics::LatencySource{saved->provider, saved->kind}, readings_of(*saved));
  }
}

void NodeBaselines::observe(host::HostScan& scan, const config::BaselineConfig& settings) {
  if (tracker_.settings() != settings) {
    tracker_.configure(settings);
  }
  if (auto source = latency_source(scan)) {
    const auto before = tracker_.source();
    if (tracker_.use_source(*source)) {
      spdlog::info("baselines: latency now from {} ({}), was {} ({}); learning starts over",
                   source->provider, core::to_string(source->kind), before->provider,
                   core::to_string(before->kind));
      load_points_.clear();
    }
    for (const auto& node : scan.snapshot.nodes) {
      if (node.read_latency_ns) {
        tracker_.record(node.id, scan.snapshot.time, *node.read_latency_ns);
      }
    }
  }
  tracker_.prune(scan.snapshot.time);
  fill_baselines(scan.snapshot, tracker_);
  load_points_.observe(scan.snapshot);
}

std::string NodeBaselines::learning_note(const core::Decision& decision,
                                         const core::Snapshot& snapshot) const {
  if (decision.status != core::DecisionStatus::calibrating) {
    return "";
  }
  std::string note;
  for (const auto& node : snapshot.nodes) {
    const metrics::NodeBaseline baseline = tracker_.baseline(node.id);
    if (baseline.read_latency_ns) {
      continue;
    }
    note += note.empty()
                ? fmt::format("; learning: node {} needs {} more reading{}", node.id,
                              baseline.samples_needed, baseline.samples_needed == 1 ? "" : "s")
                : fmt::format(", node {} needs {}", node.id, baseline.samples_needed);
  }
  return note;
}

std::vector<metrics::NodeBaseline> NodeBaselines::of(const core::Snapshot* snapshot) const {
  return tracker_.baselines(node_ids(snapshot));
}

std::optional<codec::SavedBaselines> NodeBaselines::saved() const {
  if (!tracker_.source()) {
    return std::nullopt;
  }
  codec::SavedBaselines saved{tracker_.source()->provider, tracker_.source()->kind, {}};
  for (const auto& [node, readings] : tracker_.readings()) {
    auto& list = saved.readings[node];
    list.reserve(readings.size());
    for (const auto& reading : readings) {
      list.emplace_back(reading.time, reading.ns);
    }
  }
  return saved;
}

std::optional<codec::SavedBaselines> NodeBaselines::added_since_save() const {
  auto all = saved();
  if (!all || !saved_through_ || saved_source_ != tracker_.source()) {
    return all;
  }
  for (auto& [node, readings] : all->readings) {
    std::erase_if(readings, [&](const auto& reading) { return reading.first <= *saved_through_; });
  }
  std::erase_if(all->readings, [](const auto& node) { return node.second.empty(); });
  return all;
}

void NodeBaselines::mark_saved(TimePoint now) {
  last_saved_ = now;
  saved_source_ = tracker_.source();
  saved_through_.reset();
  for (const auto& [node, readings] : tracker_.readings()) {
    if (!readings.empty() && (!saved_through_ || readings.back().time > *saved_through_)) {
      saved_through_ = readings.back().time;
    }
  }
}

bool NodeBaselines::save_due(TimePoint now) const {
  return !tracker_.readings().empty() && (!last_saved_ || now - *last_saved_ >= kBaselineSaveEvery);
}

void fill_baselines(core::Snapshot& snapshot, const metrics::BaselineTracker& tracker) {
  for (auto& node : snapshot.nodes) {
    node.baseline_read_latency_ns = tracker.baseline(node.id).read_latency_ns;
  }
}

metrics::BaselineTracker tracker_from(const std::optional<codec::SavedBaselines>& saved,
                                      const std::optional<metrics::LatencySource>& source,
                                      const config::BaselineConfig& settings, TimePoint now) {
  metrics::BaselineTracker tracker(settings);
  if (saved && source && saved->provider == source->provider && saved->kind == source->kind) {
    tracker.restore(*source, readings_of(*saved));
    tracker.prune(now);
  }
  return tracker;
}

}  // namespace nb::service
