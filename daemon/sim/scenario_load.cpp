#include "daemon/sim/scenario_load.hpp"

#include <fmt/format.h>
#include <toml++/toml.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <fstream>
#include <sstream>

#include "base/parse_units.hpp"
#include "base/result.hpp"
#include "daemon/config/keys.hpp"
#include "daemon/config/toml_place.hpp"
#include "daemon/config/toml_section.hpp"
#include "daemon/config/validate.hpp"
#include "daemon/service/extension_names.hpp"
#include "daemon/sim/scenario_rules.hpp"

namespace nb::sim {
namespace {

using config::Loader;
using config::Section;

std::optional<NodeId> node_id_from(std::string_view text) {
  NodeId id = -1;
  auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), id);
  if (text.empty() || error != std::errc{} || end != text.data() + text.size() || id < 0) {
    return std::nullopt;
  }
  return id;
}

// Keys every table of a kind must have; absent, the problem points at the table.
void require(Section& section, const toml::table& table,
             std::initializer_list<std::string_view> names) {
  for (std::string_view name : names) {
    if (!table.contains(name)) {
      const std::string key = section.key(name);
      section.loader().problem(key, section.loader().locate(key), "required");
    }
  }
}

std::optional<Bytes> size_of(const toml::node& value) {
  if (auto bytes = value.value_exact<std::int64_t>()) {
    return *bytes;
  }
  if (auto text = value.value_exact<std::string>()) {
    if (auto size = parse_size(*text)) {
      return *size;
    }
  }
  return std::nullopt;
}

// `memory = { "0" = "10GiB", "1" = 0 }`: bytes per node, each entry its own key.
void read_node_sizes(Section& section, std::string_view name,
                     std::optional<std::map<NodeId, Bytes>>& out) {
  const toml::table* table = section.table(name);
  if (table == nullptr) {
    return;
  }
  std::map<NodeId, Bytes> sizes;
  for (auto&& [entry, value] : *table) {
    const std::string key = Section::entry_key(section.key(name), entry.str());
    const config::Place place = config::place_of_entry(entry, value);
    section.loader().remember(key, place);
    auto id = node_id_from(entry.str());
    auto size = size_of(value);
    if (!id) {
      section.loader().problem(key, place, R"(must be a node id (such as "0"))");
    } else if (!size) {
      section.loader().problem(
          key, place, R"(must be a size such as "512MiB", "12GiB" or an integer of bytes)");
    } else {
      sizes[*id] = *size;
    }
  }
  out = std::move(sizes);
}

// [distance]: `"0" = [10, 21]`, each node's row in node-id order.
void read_distance(Section& root, Scenario& scenario) {
  const toml::table* table = root.table("distance");
  if (table == nullptr) {
    return;
  }
  for (auto&& [entry, value] : *table) {
    const std::string key = Section::entry_key("distance", entry.str());
    const config::Place place = config::place_of_entry(entry, value);
    root.loader().remember(key, place);
    auto id = node_id_from(entry.str());
    const toml::array* row = value.as_array();
    if (!id) {
      root.loader().problem(key, place, R"(must be a node id (such as "0"))");
      continue;
    }
    if (row == nullptr || !row->is_homogeneous<std::int64_t>()) {
      root.loader().problem(key, place, "must be an array of integers: the node's distances");
      continue;
    }
    std::vector<NodeId> ids;
    for (const auto& node : scenario.nodes) {
      ids.push_back(node.id);
    }
    std::sort(ids.begin(), ids.end());
    if (row->size() != ids.size()) {
      root.loader().problem(
          key, place,
          fmt::format("must have one distance per node ({}), not {}", ids.size(), row->size()));
      continue;
    }
    for (std::size_t i = 0; i < ids.size(); ++i) {
      scenario.distance[*id][ids[i]] = static_cast<int>(*row->get(i)->value<std::int64_t>());
    }
  }
}

void read_nodes(Section& root, Scenario& scenario) {
  std::vector<const toml::table*> tables = root.array_of_tables("node");
  for (std::size_t i = 0; i < tables.size(); ++i) {
    ScenarioNode& node = scenario.nodes.emplace_back();
    if (tables[i] == nullptr) {
      continue;
    }
    Section section(root.loader(), *tables[i], fmt::format("node[{}]", i));
    require(section, *tables[i],
            {"id", "cpus", "memory", "idle_latency_ns", "peak_bandwidth_gbps"});
    section.read("id", node.id);
    section.read("cpus", node.cpus);
    section.read("memory", node.memory);
    section.read("idle_latency_ns", node.idle_latency_ns);
    section.read("peak_bandwidth_gbps", node.peak_bandwidth_gbps);
    section.read("background_gbps", node.background_gbps);
    section.finish();
  }
}

void read_pools(Section& root, Scenario& scenario) {
  std::vector<const toml::table*> tables = root.array_of_tables("pool");
  for (std::size_t i = 0; i < tables.size(); ++i) {
    ScenarioPool& pool = scenario.pools.emplace_back();
    if (tables[i] == nullptr) {
      continue;
    }
    Section section(root.loader(), *tables[i], fmt::format("pool[{}]", i));
    require(section, *tables[i], {"name"});
    section.read("name", pool.name);
    std::optional<std::vector<NodeId>> nodes;
    section.read("nodes", nodes);
    if (nodes) {
      pool.nodes = *nodes;
    } else {
      for (const auto& node : scenario.nodes) {
        if (!node.memory_only()) {
          pool.nodes.push_back(node.id);
        }
      }
    }
    section.finish();
  }
}

void read_containers(Section& root, Scenario& scenario) {
  std::vector<const toml::table*> tables = root.array_of_tables("container");
  for (std::size_t i = 0; i < tables.size(); ++i) {
    ScenarioContainer& container = scenario.containers.emplace_back();
    if (tables[i] == nullptr) {
      continue;
    }
    Section section(root.loader(), *tables[i], fmt::format("container[{}]", i));
    require(section, *tables[i], {"id", "pool", "cpu_node", "memory", "bandwidth_gbps"});
    section.read("id", container.id);
    section.read("pool", container.pool);
    section.read("cpu_node", container.cpu_node);
    std::optional<std::map<NodeId, Bytes>> memory;
    read_node_sizes(section, "memory", memory);
    container.memory = memory.value_or(std::map<NodeId, Bytes>{});
    section.read("bandwidth_gbps", container.bandwidth_gbps);
    section.read("latency_sensitive", container.latency_sensitive);
    section.finish();
  }
}

void read_events(Section& root, Scenario& scenario) {
  std::vector<const toml::table*> tables = root.array_of_tables("event");
  for (std::size_t i = 0; i < tables.size(); ++i) {
    ScenarioEvent& event = scenario.events.emplace_back();
    if (tables[i] == nullptr) {
      continue;
    }
    const toml::table& table = *tables[i];
    Section section(root.loader(), table, fmt::format("event[{}]", i));
    require(section, table, {"at"});
    section.read("at", event.at);
    auto optional = [&](std::string_view name, auto& out) {
      if (table.contains(name)) {
        section.read(name, out.emplace());
      }
    };
    optional("container", event.container);
    optional("node", event.node);
    optional("bandwidth_gbps", event.bandwidth_gbps);
    optional("background_gbps", event.background_gbps);
    read_node_sizes(section, "memory", event.memory);
    section.finish();
  }
}

// The scenario's [policy], [actuator] and [metrics.baseline] over --config's, read by the
// config's own key tables so that a scenario takes exactly the keys a config file does.
void read_config_tables(Section& root, config::Config& config) {
  auto read_table = [&](Section& parent, std::string_view name, auto keys, auto& values) {
    if (const toml::table* table = parent.table(name)) {
      Section section(parent.loader(), *table, parent.key(name));
      config::read_keys(section, keys, values);
      section.finish();
    }
  };
  read_table(root, "policy", config::policy_keys(), config.policy);
  read_table(root, "actuator", config::actuator_keys(), config.actuator);
  if (const toml::table* metrics = root.table("metrics")) {
    // Only [metrics.baseline]: the simulated host is its own latency and bandwidth provider.
    Section section(root.loader(), *metrics, "metrics");
    read_table(section, "baseline", config::baseline_keys(), config.metrics.baseline);
    section.finish();
  }
  config.pools.clear();  // a config's pools and providers mean nothing on the modelled host
}

void read_document(const toml::table& document, Loader& loader, Scenario& scenario) {
  Section root(loader, document, "");
  require(root, document, {"duration"});
  root.read("duration", scenario.duration);
  scenario.interval = scenario.config.daemon.interval;
  root.read("interval", scenario.interval);
  root.read("curve", scenario.curve);
  root.read("remote_factor", scenario.remote_factor);
  root.read("noise", scenario.noise);
  int seed = 0;
  root.read("seed", seed);
  scenario.seed = seed;
  read_nodes(root, scenario);
  read_distance(root, scenario);
  read_pools(root, scenario);
  read_containers(root, scenario);
  read_events(root, scenario);
  read_config_tables(root, scenario.config);
  root.finish();
}

}  // namespace

ScenarioLoad load_scenario_string(std::string_view toml, std::string_view name,
                                  const config::Config& base) {
  ScenarioLoad load;
  load.scenario.name = std::string(name);
  load.scenario.config = base;
  toml::table document;
  try {
    document = toml::parse(toml, name);
  } catch (const toml::parse_error& error) {
    const config::Place place = config::place_of(error.source());
    load.problems.push_back(
        config::ConfigProblem{"", std::string(error.description()), place.line, place.column});
    return load;
  }
  Loader loader;
  read_document(document, loader, load.scenario);
  loader.add_validation(scenario_problems(load.scenario));
  loader.add_validation(
      config::validate_config(load.scenario.config, service::extension_names(),
                              [&loader](std::string_view key) { return loader.wrote(key); }));
  load.problems = loader.take_problems();
  std::stable_sort(load.scenario.events.begin(), load.scenario.events.end(),
                   [](const ScenarioEvent& a, const ScenarioEvent& b) { return a.at < b.at; });
  std::sort(load.scenario.nodes.begin(), load.scenario.nodes.end(),
            [](const ScenarioNode& a, const ScenarioNode& b) { return a.id < b.id; });
  return load;
}

ScenarioLoad load_scenario_file(const std::filesystem::path& path, const config::Config& base) {
  errno = 0;
  std::ifstream file(path, std::ios::binary);
  std::ostringstream text;
  if (file) {
    text << file.rdbuf();
  }
  if (!file || file.bad()) {
    ScenarioLoad load;
    load.problems.push_back(
        config::ConfigProblem{"", make_error(errno, "cannot read " + path.string()).message()});
    return load;
  }
  ScenarioLoad load = load_scenario_string(text.str(), path.string(), base);
  load.scenario.name = path.stem().string();
  return load;
}

}  // namespace nb::sim
