#pragma once
// Every metric family the daemon's exporter writes, with the labels of its samples: read from
// render_prometheus over a view in which every family has a sample (two nodes, a decision, both
// providers, a finished job, baselines learned and learning, a node in back-off).

#include <chrono>
#include <map>
#include <set>
#include <sstream>
#include <string>

#include "daemon/service/export/metrics_export.hpp"

namespace nb::testing {

using ExportedNames = std::map<std::string, std::set<std::string>>;  // metric -> its labels

inline ExportedNames exported_names() {
  using namespace std::chrono_literals;
  core::Snapshot snapshot;
  snapshot.time = TimePoint(std::chrono::seconds(1'780'000'000));
  for (NodeId id : {0, 1}) {
    core::Node node;
    node.id = id;
    node.read_latency_ns = 100;
    node.bandwidth_gbps = 10;
    snapshot.nodes.push_back(node);
  }
  snapshot.containers = {core::Container{"a", "share", {{0, 100}}}};
  core::Decision decision;
  service::DaemonCounters counters;
  counters.rounds[rounds::RoundOutcome::started] = 1;
  counters.evictions["freeze"] = 1;
  actuator::MigrationReport report;
  report.source_node = 0;
  actuator::ContainerReport container;
  actuator::ProcessReport process;
  process.bytes_moved_to[1] = 4096;
  process.syscalls = 1;
  container.processes.push_back(process);
  report.containers.push_back(container);
  counters.add_report(report);
  core::PolicyConfig policy;
  core::History history;
  for (int i = 0; i < 3; ++i) {
    core::Round round{snapshot.time - std::chrono::seconds(10 + i), 0, {1}, true, false,
                      core::RoundEffect{false, 200, 199, 100, 99}};
    history.push_back(round);
  }
  service::MetricsView view{&snapshot,
                            &decision,
                            {{metrics::Metric::read_latency, "file", true, "", "file"},
                             {metrics::Metric::bandwidth, "file", true, "", "file"}},
                            &counters};
  view.baselines = {metrics::NodeBaseline{0, 90.0, metrics::BaselineSource::learned, 60, 0},
                    metrics::NodeBaseline{1, std::nullopt, std::nullopt, 10, 50}};
  view.policy = &policy;
  view.history = &history;

  ExportedNames names;
  std::istringstream lines(service::render_prometheus(view));
  for (std::string line; std::getline(lines, line);) {
    if (line.empty() || line[0] == '#') {
      continue;
    }
    const std::size_t end = line.find_first_of("{ ");
    std::set<std::string>& labels = names[line.substr(0, end)];
    if (end != std::string::npos && line[end] == '{') {
      std::string inside = line.substr(end + 1, line.find('}') - end - 1);
      std::size_t at = 0;
      while (at < inside.size()) {
        const std::size_t equals = inside.find('=', at);
        labels.insert(inside.substr(at, equals - at));
        const std::size_t closing = inside.find('"', inside.find('"', equals) + 1);
        at = closing + 2;  // past the quote and the comma
      }
    }
  }
  return names;
}

}  // namespace nb::testing
