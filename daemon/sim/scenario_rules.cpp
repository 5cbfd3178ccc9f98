#include "daemon/sim/scenario_rules.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <set>

#include "base/human_format.hpp"
#include "base/range_list.hpp"
#include "daemon/config/checker.hpp"

namespace nb::sim {
namespace {

using config::Bound;
using config::Checker;

const ScenarioNode* find_node(const Scenario& scenario, NodeId id) {
  auto it = std::find_if(scenario.nodes.begin(), scenario.nodes.end(),
                         [id](const ScenarioNode& node) { return node.id == id; });
  return it == scenario.nodes.end() ? nullptr : &*it;
}

void check_top(const Scenario& scenario, Checker& check) {
  check.check("duration", scenario.duration, Bound::positive);
  if (check.check("interval", scenario.interval, Bound::positive) &&
      scenario.interval.count() % 1000 != 0) {
    check.fail("interval", "must be a whole number of seconds");
  } else if (scenario.duration > Duration::zero() && scenario.interval > scenario.duration) {
    check.fail("interval", "must not exceed the scenario's duration (" +
                               format_duration(scenario.duration) + "): no round would run");
  }
  check.check("curve", scenario.curve, Bound::not_negative);
  check.check("remote_factor", scenario.remote_factor, Bound::not_negative);
  if (scenario.noise < 0 || scenario.noise >= 1) {
    check.fail("noise", "must be in [0, 1)");
  }
  if (scenario.seed < 0) {
    check.fail("seed", "must not be negative");
  }
}

void check_nodes(const Scenario& scenario, Checker& check) {
  if (scenario.nodes.empty()) {
    check.fail("node", "at least one [[node]] is required");
  }
  std::set<NodeId> seen;
  bool any_cpus = false;
  for (std::size_t i = 0; i < scenario.nodes.size(); ++i) {
    const ScenarioNode& node = scenario.nodes[i];
    const std::string prefix = fmt::format("node[{}]", i);
    if (node.id < 0) {
      check.fail(prefix + ".id", "must not be negative");
    } else if (!seen.insert(node.id).second) {
      check.fail(prefix + ".id", fmt::format("duplicate node id {}", node.id));
    }
    if (auto cpus = parse_cpu_list(node.cpus); !cpus) {
      check.fail(prefix + ".cpus", "must be a cpulist such as \"0-15\": " + cpus.error().context);
    }
    any_cpus = any_cpus || !node.memory_only();
    check.check(prefix + ".memory", node.memory, Bound::positive);
    check.check(prefix + ".idle_latency_ns", node.idle_latency_ns, Bound::positive);
    check.check(prefix + ".peak_bandwidth_gbps", node.peak_bandwidth_gbps, Bound::positive);
    check.check(prefix + ".background_gbps", node.background_gbps, Bound::not_negative);
  }
  if (!scenario.nodes.empty() && !any_cpus) {
    check.fail("node", "at least one node must have CPUs");
  }
}

void check_distance(const Scenario& scenario, Checker& check) {
  for (const auto& [id, row] : scenario.distance) {
    const std::string key = fmt::format("distance.\"{}\"", id);
    if (find_node(scenario, id) == nullptr) {
      check.fail(key, fmt::format("node {} is not a [[node]] of the scenario", id));
      continue;
    }
    for (const auto& [to, distance] : row) {
      if (to == id ? distance != 10 : distance <= 10) {
        check.fail(key, fmt::format("distance to node {} must be {}", to,
                                    to == id ? "10 (itself)" : "above 10"));
      }
    }
  }
  for (const auto& node : scenario.nodes) {
    if (scenario.distance.count(node.id) == 0) {
      check.fail("distance", fmt::format("has no row for node {}", node.id));
    }
  }
}

void check_node_list(const Scenario& scenario, const std::string& key,
                     const std::vector<NodeId>& nodes, Checker& check) {
  for (std::size_t j = 0; j < nodes.size(); ++j) {
    if (find_node(scenario, nodes[j]) == nullptr) {
      check.fail(fmt::format("{}[{}]", key, j),
                 fmt::format("node {} is not a [[node]] of the scenario", nodes[j]));
    }
  }
}

void check_pools(const Scenario& scenario, Checker& check) {
  std::set<std::string> seen;
  for (std::size_t i = 0; i < scenario.pools.size(); ++i) {
    const ScenarioPool& pool = scenario.pools[i];
    const std::string prefix = fmt::format("pool[{}]", i);
    if (pool.name.empty()) {
      check.fail(prefix + ".name", "must not be empty");
    } else if (!seen.insert(pool.name).second) {
      check.fail(prefix + ".name", fmt::format("duplicate pool name \"{}\"", pool.name));
    }
    check_node_list(scenario, prefix + ".nodes", pool.nodes, check);
  }
}

void check_memory(const Scenario& scenario, const std::string& key,
                  const std::map<NodeId, Bytes>& memory, Checker& check) {
  for (const auto& [id, bytes] : memory) {
    const std::string entry = fmt::format("{}.\"{}\"", key, id);
    if (find_node(scenario, id) == nullptr) {
      check.fail(entry, fmt::format("node {} is not a [[node]] of the scenario", id));
    }
    check.check(entry, bytes, Bound::not_negative);
  }
}

bool has_pool(const Scenario& scenario, const std::string& name) {
  return std::any_of(scenario.pools.begin(), scenario.pools.end(),
                     [&](const ScenarioPool& pool) { return pool.name == name; });
}

void check_containers(const Scenario& scenario, Checker& check) {
  std::set<std::string> seen;
  std::map<NodeId, Bytes> used;
  for (std::size_t i = 0; i < scenario.containers.size(); ++i) {
    const ScenarioContainer& container = scenario.containers[i];
    const std::string prefix = fmt::format("container[{}]", i);
    if (container.id.empty()) {
      check.fail(prefix + ".id", "must not be empty");
    } else if (!seen.insert(container.id).second) {
      check.fail(prefix + ".id", fmt::format("duplicate container id \"{}\"", container.id));
    }
    if (!has_pool(scenario, container.pool)) {
      check.fail(prefix + ".pool",
                 fmt::format("pool \"{}\" is not a [[pool]] of the scenario", container.pool));
    }
    const ScenarioNode* cpu_node = find_node(scenario, container.cpu_node);
    if (cpu_node == nullptr || cpu_node->memory_only()) {
      check.fail(prefix + ".cpu_node",
                 fmt::format("node {} is not a [[node]] with CPUs", container.cpu_node));
    }
    check_memory(scenario, prefix + ".memory", container.memory, check);
    for (const auto& [id, bytes] : container.memory) {
      used[id] += bytes;
    }
    check.check(prefix + ".bandwidth_gbps", container.bandwidth_gbps, Bound::not_negative);
  }
  for (const auto& node : scenario.nodes) {
    if (used[node.id] > node.memory) {
      check.fail("container", fmt::format("the containers hold {} bytes on node {}, more than its "
                                          "memory ({} bytes)",
                                          used[node.id], node.id, node.memory));
    }
  }
}

bool has_container(const Scenario& scenario, const std::string& id) {
  return std::any_of(scenario.containers.begin(), scenario.containers.end(),
                     [&](const ScenarioContainer& container) { return container.id == id; });
}

void check_event(const Scenario& scenario, const ScenarioEvent& event, const std::string& prefix,
                 Checker& check) {
  if (event.at < Duration::zero() || event.at > scenario.duration) {
    check.fail(prefix + ".at", "must lie within the scenario's duration");
  }
  if (event.container.has_value() == event.node.has_value()) {
    check.fail(prefix, "must name either a container or a node");
    return;
  }
  if (event.container) {
    if (!has_container(scenario, *event.container)) {
      check.fail(
          prefix + ".container",
          fmt::format("container \"{}\" is not a [[container]] of the scenario", *event.container));
    }
    if (event.background_gbps) {
      check.fail(prefix + ".background_gbps", "belongs to a node's event, not a container's");
    }
    if (!event.bandwidth_gbps && !event.memory) {
      check.fail(prefix, "a container's event must change bandwidth_gbps or memory");
    }
    if (event.bandwidth_gbps) {
      check.check(prefix + ".bandwidth_gbps", *event.bandwidth_gbps, Bound::not_negative);
    }
    if (event.memory) {
      check_memory(scenario, prefix + ".memory", *event.memory, check);
    }
    return;
  }
  if (find_node(scenario, *event.node) == nullptr) {
    check.fail(prefix + ".node",
               fmt::format("node {} is not a [[node]] of the scenario", *event.node));
  }
  if (event.bandwidth_gbps || event.memory) {
    check.fail(prefix, "a node's event changes only background_gbps");
  } else if (!event.background_gbps) {
    check.fail(prefix, "a node's event must change background_gbps");
  } else {
    check.check(prefix + ".background_gbps", *event.background_gbps, Bound::not_negative);
  }
}

}  // namespace

std::vector<config::ConfigProblem> scenario_problems(const Scenario& scenario) {
  std::vector<config::ConfigProblem> problems;
  Checker check(problems);
  check_top(scenario, check);
  check_nodes(scenario, check);
  check_distance(scenario, check);
  check_pools(scenario, check);
  check_containers(scenario, check);
  for (std::size_t i = 0; i < scenario.events.size(); ++i) {
    check_event(scenario, scenario.events[i], fmt::format("event[{}]", i), check);
  }
  return problems;
}

}  // namespace nb::sim
