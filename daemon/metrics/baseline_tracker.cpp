#include "daemon/metrics/baseline_tracker.hpp"

#include <algorithm>
#include <cmath>
#include <set>

#include "base/enum_names.hpp"

namespace nb::metrics {

namespace {

constexpr EnumName<BaselineSource> kSourceNames[] = {{BaselineSource::configured, "configured"},
                                                     {BaselineSource::learned, "learned"}};
static_assert(names_every_value(kSourceNames));

}  // namespace

std::string_view to_string(BaselineSource source) {
  return name_of(kSourceNames, source, "learned");
}

std::optional<double> interpolated_quantile(std::vector<double> values, double quantile) {
  if (values.empty()) {
    return std::nullopt;
  }
  std::sort(values.begin(), values.end());
  const double position = std::clamp(quantile, 0.0, 1.0) * static_cast<double>(values.size() - 1);
  const auto below = static_cast<std::size_t>(std::floor(position));
  const std::size_t above = std::min(below + 1, values.size() - 1);
  const double fraction = position - static_cast<double>(below);
  return values[below] + fraction * (values[above] - values[below]);
}

BaselineTracker::BaselineTracker(config::BaselineConfig settings, std::size_t max_readings_per_node)
    : settings_(std::move(settings)),
      max_readings_per_node_(std::max<std::size_t>(1, max_readings_per_node)) {}

void BaselineTracker::configure(config::BaselineConfig settings) {
  settings_ = std::move(settings);
}

bool BaselineTracker::use_source(const LatencySource& source) {
  if (source_ == source) {
    return false;
  }
  const bool changed = source_.has_value();
  source_ = source;
  readings_.clear();
  return changed;
}

void BaselineTracker::trim(std::deque<LatencyReading>& readings, TimePoint now) const {
  const TimePoint oldest_kept = now - settings_.window;
  while (!readings.empty() && readings.front().time < oldest_kept) {
    readings.pop_front();
  }
  while (readings.size() > max_readings_per_node_) {
    readings.pop_front();
  }
}

void BaselineTracker::record(NodeId node, TimePoint time, double ns) {
  if (!std::isfinite(ns) || ns <= 0) {
    return;  // not a latency; a baseline must stay above 0
  }
  auto& readings = readings_[node];
  // Rounds run in time order; a reading older than the newest (a clock stepped back) goes in its
  // place so that pruning from the front stays right.
  auto later = std::upper_bound(readings.begin(), readings.end(), time,
                                [](TimePoint t, const LatencyReading& r) { return t < r.time; });
  readings.insert(later, LatencyReading{time, ns});
  trim(readings, readings.back().time);
}

void BaselineTracker::prune(TimePoint now) {
  for (auto it = readings_.begin(); it != readings_.end();) {
    trim(it->second, now);
    it = it->second.empty() ? readings_.erase(it) : std::next(it);
  }
}

NodeBaseline BaselineTracker::baseline(NodeId node) const {
  NodeBaseline result;
  result.node = node;
  auto readings = readings_.find(node);
  if (readings != readings_.end()) {
    result.samples = readings->second.size();
  }
  if (auto configured = settings_.read_latency_ns.find(node);
      configured != settings_.read_latency_ns.end()) {
    result.read_latency_ns = configured->second;
    result.source = BaselineSource::configured;
    return result;
  }
  const auto needed = static_cast<std::size_t>(std::max(1, settings_.min_samples));
  if (result.samples < needed) {
    result.samples_needed = needed - result.samples;
    return result;
  }
  std::vector<double> values;
  values.reserve(result.samples);
  for (const LatencyReading& reading : readings->second) {
    values.push_back(reading.ns);
  }
  result.read_latency_ns = interpolated_quantile(std::move(values), settings_.quantile);
  result.source = BaselineSource::learned;
  return result;
}

std::vector<NodeBaseline> BaselineTracker::baselines(const std::vector<NodeId>& nodes) const {
  std::set<NodeId> ids(nodes.begin(), nodes.end());
  for (const auto& [node, value] : settings_.read_latency_ns) {
    ids.insert(node);
  }
  for (const auto& [node, readings] : readings_) {
    ids.insert(node);
  }
  std::vector<NodeBaseline> result;
  for (NodeId node : ids) {
    result.push_back(baseline(node));
  }
  return result;
}

void BaselineTracker::restore(LatencySource source, NodeReadings readings) {
  source_ = std::move(source);
  readings_.clear();
  for (auto& [node, list] : readings) {
    std::sort(list.begin(), list.end(),
              [](const LatencyReading& a, const LatencyReading& b) { return a.time < b.time; });
    std::erase_if(list, [](const LatencyReading& r) { return !std::isfinite(r.ns) || r.ns <= 0; });
    if (list.empty()) {
      continue;
    }
    trim(list, list.back().time);
    readings_[node] = std::move(list);
  }
}

}  // namespace nb::metrics
