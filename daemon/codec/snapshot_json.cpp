#include "daemon/codec/snapshot_json.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <functional>
#include <set>
#include <unordered_set>

#include "base/parse_units.hpp"
#include "base/range_list.hpp"
#include "base/time.hpp"
#include "daemon/codec/history_json.hpp"
#include "daemon/codec/json_reader.hpp"
#include "daemon/codec/policy_overrides.hpp"

namespace nb::codec {

namespace reader = json_reader;
using nlohmann::json;

// ---- the snapshot ----------------------------------------------------------------------------

namespace {

// A cpulist as sysfs writes it ("0-15,32-47"); empty for a memory-only node. A snapshot carries
// the list without the sysfs file's newline, so surrounding space is an error here.
void check_cpulist(std::string_view cpus, std::string_view path) {
  constexpr int kLargestCpu = 1'000'000;
  const bool padded = !cpus.empty() && (std::isspace(static_cast<unsigned char>(cpus.front())) ||
                                        std::isspace(static_cast<unsigned char>(cpus.back())));
  if (padded || !parse_range_list(cpus, kLargestCpu)) {
    reader::fail(path, "not a cpu list: \"" + std::string(cpus) + "\"");
  }
}

// A baseline divides readings in relative mode, so zero is as wrong as a negative number.
double read_baseline(const json& value, std::string_view path) {
  const double number = reader::read_number(value, path);
  if (!(number > 0) || !std::isfinite(number)) {
    reader::fail(path, "a baseline is a latency above 0 ns, got " + value.dump());
  }
  return number;
}

core::LatencyKind read_latency_kind(const json& value, std::string_view path) {
  const std::string name = reader::read_string(value, path);
  if (auto kind = core::latency_kind_from(name)) {
    return *kind;
  }
  std::string allowed;
  for (auto kind : {core::LatencyKind::memory_controller_queue, core::LatencyKind::cache_miss,
                    core::LatencyKind::load_to_use, core::LatencyKind::external}) {
    allowed += std::string(allowed.empty() ? "" : ", ") + std::string(core::to_string(kind));
  }
  reader::fail(path, "unknown latency kind \"" + name + "\" (one of " + allowed + ")");
}

// [[bandwidth_gbps, latency_ns], ...], each finite and not negative.
std::vector<core::LoadPoint> read_load_points(const json& value, const std::string& path) {
  reader::require_array(value, path);
  if (value.size() > core::kMaxLoadPoints) {
    reader::fail(path, "at most " + std::to_string(core::kMaxLoadPoints) + " points, got " +
                           std::to_string(value.size()));
  }
  std::vector<core::LoadPoint> points;
  for (std::size_t i = 0; i < value.size(); ++i) {
    const std::string point_path = reader::item(path, i);
    reader::require_array(value[i], point_path);
    if (value[i].size() != 2) {
      reader::fail(point_path, "a point is [bandwidth_gbps, latency_ns]");
    }
    points.push_back(
        core::LoadPoint{reader::read_metric_value(value[i][0], reader::item(point_path, 0)),
                        reader::read_metric_value(value[i][1], reader::item(point_path, 1))});
  }
  return points;
}

core::Node read_node(const json& value, const std::string& path) {
  reader::require_object(value, path);
  reader::check_keys(value, path,
                     {"id", "read_latency_ns", "baseline_read_latency_ns", "bandwidth_gbps",
                      "distance", "free_bytes", "total_bytes", "cpus", "load_points"});
  core::Node node;
  node.id =
      reader::read_node_id(reader::required_field(value, path, "id"), reader::child(path, "id"));
  if (const auto* latency = reader::optional_field(value, "read_latency_ns")) {
    node.read_latency_ns =
        reader::read_metric_value(*latency, reader::child(path, "read_latency_ns"));
  }
  if (const auto* baseline = reader::optional_field(value, "baseline_read_latency_ns")) {
    node.baseline_read_latency_ns =
        read_baseline(*baseline, reader::child(path, "baseline_read_latency_ns"));
  }
  if (const auto* bandwidth = reader::optional_field(value, "bandwidth_gbps")) {
    node.bandwidth_gbps =
        reader::read_metric_value(*bandwidth, reader::child(path, "bandwidth_gbps"));
  }
  const std::string distance_path = reader::child(path, "distance");
  const json& distance = reader::required_field(value, path, "distance");
  reader::require_object(distance, distance_path);
  for (const auto& [key, hops] : distance.items()) {
    const NodeId to = reader::parse_node_key(key, distance_path);
    const std::string hops_path = reader::child(distance_path, key);
    const std::int64_t number = reader::read_integer(hops, hops_path);
    if (number <= 0 || number > 255) {
      reader::fail(hops_path, "a distance is between 1 and 255, got " + std::to_string(number));
    }
    node.distance[to] = static_cast<int>(number);
  }
  if (const auto* free = reader::optional_field(value, "free_bytes")) {
    node.free_bytes = reader::read_bytes(*free, reader::child(path, "free_bytes"));
  }
  if (const auto* total = reader::optional_field(value, "total_bytes")) {
    node.total_bytes = reader::read_bytes(*total, reader::child(path, "total_bytes"));
  }
  if (const auto* cpus = reader::optional_field(value, "cpus")) {
    node.cpus = reader::read_string(*cpus, reader::child(path, "cpus"));
    check_cpulist(node.cpus, reader::child(path, "cpus"));
  }
  if (const auto* points = reader::optional_field(value, "load_points")) {
    node.load_points = read_load_points(*points, reader::child(path, "load_points"));
  }
  return node;
}

std::vector<core::Node> read_nodes(const json& nodes) {
  reader::require_array(nodes, "nodes");
  std::vector<core::Node> result;
  std::set<NodeId> ids;
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    const std::string path = reader::item("nodes", i);
    core::Node node = read_node(nodes[i], path);
    if (!ids.insert(node.id).second) {
      reader::fail(reader::child(path, "id"), "duplicate node " + std::to_string(node.id));
    }
    result.push_back(std::move(node));
  }
  // A distance row must cover exactly the declared nodes, or candidates would be guessed.
  for (std::size_t i = 0; i < result.size(); ++i) {
    const std::string path = reader::child(reader::item("nodes", i), "distance");
    for (const auto& [to, hops] : result[i].distance) {
      if (!ids.contains(to)) {
        reader::fail(reader::child(path, std::to_string(to)), "unknown node " + std::to_string(to));
      }
    }
    for (NodeId id : ids) {
      if (!result[i].distance.contains(id)) {
        reader::fail(path, "missing node " + std::to_string(id));
      }
    }
  }
  return result;
}

void check_known_node(NodeId id, const std::set<NodeId>& nodes, std::string_view path) {
  if (!nodes.contains(id)) {
    reader::fail(path, "unknown node " + std::to_string(id));
  }
}

std::vector<core::Pool> read_pools(const json& pools, const std::set<NodeId>& nodes) {
  reader::require_array(pools, "pools");
  std::vector<core::Pool> result;
  std::unordered_set<std::string> names;
  for (std::size_t i = 0; i < pools.size(); ++i) {
    const std::string path = reader::item("pools", i);
    reader::require_object(pools[i], path);
    reader::check_keys(pools[i], path, {"name", "nodes"});
    core::Pool pool;
    pool.name = reader::read_string(reader::required_field(pools[i], path, "name"),
                                    reader::child(path, "name"));
    if (pool.name.empty()) {
      reader::fail(reader::child(path, "name"), "must not be empty");
    }
    if (!names.insert(pool.name).second) {
      reader::fail(reader::child(path, "name"), "duplicate pool " + pool.name);
    }
    const std::string nodes_path = reader::child(path, "nodes");
    const json& pool_nodes = reader::required_field(pools[i], path, "nodes");
    reader::require_array(pool_nodes, nodes_path);
    for (std::size_t j = 0; j < pool_nodes.size(); ++j) {
      const std::string node_path = reader::item(nodes_path, j);
      const NodeId id = reader::read_node_id(pool_nodes[j], node_path);
      check_known_node(id, nodes, node_path);
      if (std::find(pool.nodes.begin(), pool.nodes.end(), id) != pool.nodes.end()) {
        reader::fail(node_path, "duplicate node " + std::to_string(id));
      }
      pool.nodes.push_back(id);
    }
    result.push_back(std::move(pool));
  }
  return result;
}

std::vector<core::Container> read_containers(const json& containers,
                                             const std::set<NodeId>& nodes) {
  reader::require_array(containers, "containers");
  std::vector<core::Container> result;
  result.reserve(containers.size());
  std::unordered_set<std::string> ids;
  for (std::size_t i = 0; i < containers.size(); ++i) {
    const std::string path = reader::item("containers", i);
    const json& value = containers[i];
    reader::require_object(value, path);
    reader::check_keys(value, path, {"id", "pool", "anon_bytes"});
    core::Container container;
    container.id =
        reader::read_string(reader::required_field(value, path, "id"), reader::child(path, "id"));
    if (container.id.empty()) {
      reader::fail(reader::child(path, "id"), "must not be empty");
    }
    if (!ids.insert(container.id).second) {
      reader::fail(reader::child(path, "id"), "duplicate container " + container.id);
    }
    // An undeclared pool is not an error: the container is ignored and --explain says so.
    container.pool = reader::read_string(reader::required_field(value, path, "pool"),
                                         reader::child(path, "pool"));
    if (const auto* anon = reader::optional_field(value, "anon_bytes")) {
      const std::string anon_path = reader::child(path, "anon_bytes");
      reader::require_object(*anon, anon_path);
      for (const auto& [key, bytes] : anon->items()) {
        const NodeId node = reader::parse_node_key(key, anon_path);
        const std::string bytes_path = reader::child(anon_path, key);
        check_known_node(node, nodes, bytes_path);
        container.anon_bytes[node] = reader::read_bytes(bytes, bytes_path);
      }
    }
    result.push_back(std::move(container));
  }
  return result;
}

core::History read_history(const json& history) {
  reader::require_array(history, "history");
  core::History result;
  for (std::size_t i = 0; i < history.size(); ++i) {
    auto round = round_from_json(history[i], reader::item("history", i));
    if (!round.ok()) {
      reader::fail("", round.error().context);
    }
    result.push_back(std::move(*round));
  }
  return result;
}

json read_config(const json& config) {
  reader::require_object(config, "config");
  reader::check_keys(config, "config", {"policy"});
  const json* policy = reader::optional_field(config, "policy", false);
  if (policy == nullptr) {
    return json::object();
  }
  // Fail on unknown keys and wrong types now, while the path still means something to the user.
  (void)assign_policy_overrides(core::PolicyConfig{}, *policy);
  return *policy;
}

SnapshotDocument read_document(const json& root, TimePoint default_time) {
  if (!root.is_object()) {
    reader::fail("snapshot", "expected an object, got " + std::string(reader::type_name(root)));
  }
  reader::check_keys(
      root, "",
      {"time", "read_latency_kind", "nodes", "pools", "containers", "history", "config", "meta"});
  SnapshotDocument document;
  document.snapshot.time = default_time;
  if (const auto* time = reader::optional_field(root, "time")) {
    document.snapshot.time = reader::read_time(*time, "time");
  }
  if (const auto* kind = reader::optional_field(root, "read_latency_kind")) {
    document.snapshot.read_latency_kind = read_latency_kind(*kind, "read_latency_kind");
  }
  document.snapshot.nodes = read_nodes(reader::required_field(root, "", "nodes"));
  std::set<NodeId> ids;
  for (const core::Node& node : document.snapshot.nodes) {
    ids.insert(node.id);
  }
  if (const auto* pools = reader::optional_field(root, "pools")) {
    document.snapshot.pools = read_pools(*pools, ids);
  }
  if (const auto* containers = reader::optional_field(root, "containers")) {
    document.snapshot.containers = read_containers(*containers, ids);
  }
  if (const auto* history = reader::optional_field(root, "history")) {
    document.history = read_history(*history);
  }
  if (const auto* config = reader::optional_field(root, "config")) {
    document.policy_overrides = read_config(*config);
  }
  if (const auto* meta = reader::optional_field(root, "meta")) {
    reader::require_object(*meta, "meta");
    document.meta = *meta;
  }
  return document;
}

}  // namespace

Result<SnapshotDocument> parse_snapshot(std::string_view json_text, TimePoint default_time) {
  json root = json::parse(json_text, nullptr, false);
  if (root.is_discarded()) {
    // Parse again for the library's message, which says where the text went wrong.
    try {
      json reparsed = json::parse(json_text);
    } catch (const json::exception& error) {
      std::string message = error.what();
      if (auto end = message.find("] ");
          message.starts_with("[json.exception") && end != std::string::npos) {
        message.erase(0, end + 2);
      }
      return make_error(0, "invalid JSON: " + message);
    }
    return make_error(0, "invalid JSON");
  }
  return reader::catching([&] { return read_document(root, default_time); });
}

json to_json(const core::Node& node) {
  json distance = json::object();
  for (const auto& [to, hops] : node.distance) {
    distance[std::to_string(to)] = hops;
  }
  json entry = {
      {"id", node.id},
      {"read_latency_ns", node.read_latency_ns ? json(*node.read_latency_ns) : json(nullptr)},
      {"baseline_read_latency_ns",
       node.baseline_read_latency_ns ? json(*node.baseline_read_latency_ns) : json(nullptr)},
      {"bandwidth_gbps", node.bandwidth_gbps ? json(*node.bandwidth_gbps) : json(nullptr)},
      {"distance", std::move(distance)},
  };
  if (node.free_bytes) {
    entry["free_bytes"] = *node.free_bytes;
  }
  if (node.total_bytes) {
    entry["total_bytes"] = *node.total_bytes;
  }
  if (!node.cpus.empty()) {
    entry["cpus"] = node.cpus;
  }
  if (!node.load_points.empty()) {
    json points = json::array();
    for (const core::LoadPoint& point : node.load_points) {
      points.push_back({point.bandwidth_gbps, point.latency_ns});
    }
    entry["load_points"] = std::move(points);
  }
  return entry;
}

json to_json(const core::Pool& pool) {
  return {{"name", pool.name}, {"nodes", pool.nodes}};
}

json to_json(const core::Container& container) {
  json anon = json::object();
  for (const auto& [node, bytes] : container.anon_bytes) {
    anon[std::to_string(node)] = bytes;
  }
  return {{"id", container.id}, {"pool", container.pool}, {"anon_bytes", std::move(anon)}};
}

json to_json(const SnapshotDocument& document) {
  json nodes = json::array();
  for (const core::Node& node : document.snapshot.nodes) {
    nodes.push_back(to_json(node));
  }
  json pools = json::array();
  for (const core::Pool& pool : document.snapshot.pools) {
    pools.push_back(to_json(pool));
  }
  json containers = json::array();
  for (const core::Container& container : document.snapshot.containers) {
    containers.push_back(to_json(container));
  }
  json history = json::array();
  for (const core::Round& round : document.history) {
    history.push_back(to_json(round));
  }
  json root = {
      {"time", format_rfc3339(document.snapshot.time)},
      {"nodes", std::move(nodes)},
      {"pools", std::move(pools)},
      {"containers", std::move(containers)},
      {"history", std::move(history)},
  };
  if (document.snapshot.read_latency_kind) {
    root["read_latency_kind"] = core::to_string(*document.snapshot.read_latency_kind);
  }
  if (!document.policy_overrides.empty()) {
    root["config"] = {{"policy", document.policy_overrides}};
  }
  if (!document.meta.empty()) {
    root["meta"] = document.meta;
  }
  return root;
}

}  // namespace nb::codec
