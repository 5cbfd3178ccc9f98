#pragma once
// A modelled host for `numabalancerd simulate`: its nodes, distances, pools, containers and the
// events that change their traffic, read from a scenario TOML file (scenario_load.hpp). Only the
// host is modelled; the policy, the baselines, the job mapping and the destination weighting are
// the daemon's own.

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "base/units.hpp"
#include "daemon/config/config.hpp"

namespace nb::sim {

struct ScenarioNode {
  NodeId id = 0;
  std::string cpus;  // a cpulist; empty for a memory-only node
  Bytes memory = 0;
  double idle_latency_ns = 0;
  double peak_bandwidth_gbps = 0;
  double background_gbps = 0;  // traffic no container owns; nothing can move it

  bool memory_only() const { return cpus.empty(); }
};

struct ScenarioPool {
  std::string name;
  std::vector<NodeId> nodes;  // absent in the file: every node with CPUs
};

struct ScenarioContainer {
  std::string id;
  std::string pool;
  NodeId cpu_node = 0;
  std::map<NodeId, Bytes> memory;  // bytes per node
  double bandwidth_gbps = 0;       // spread over its memory in proportion to bytes
  bool latency_sensitive = false;
};

// At `at`, either a container's traffic or memory changes, or a node's background traffic.
struct ScenarioEvent {
  Duration at{};
  std::optional<std::string> container;
  std::optional<NodeId> node;
  std::optional<double> bandwidth_gbps;
  std::optional<std::map<NodeId, Bytes>> memory;
  std::optional<double> background_gbps;
};

struct Scenario {
  std::string name;  // the file's stem
  Duration duration{};
  Duration interval{};  // the round interval
  double curve = 0.15;
  double remote_factor = 0.05;
  double noise = 0;  // relative Gaussian noise on the reported metrics
  std::int64_t seed = 0;
  std::vector<ScenarioNode> nodes;                   // by id
  std::map<NodeId, std::map<NodeId, int>> distance;  // node -> its row
  std::vector<ScenarioPool> pools;
  std::vector<ScenarioContainer> containers;
  std::vector<ScenarioEvent> events;  // by time, file order among equal times
  // --config's, with the scenario's [policy], [actuator] and [metrics.baseline] keys over it.
  config::Config config;
};

}  // namespace nb::sim
