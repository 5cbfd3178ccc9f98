#include "daemon/host/host_scanner.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <utility>

#include "daemon/codec/policy_overrides.hpp"
#include "daemon/host/cgroup_layout.hpp"
#include "daemon/host/container_walk.hpp"
#include "daemon/host/numa_stat.hpp"
#include "daemon/host/pool_nodes.hpp"
#include "daemon/host/small_file.hpp"
#include "daemon/host/topology.hpp"

namespace nb::host {
namespace {

using nlohmann::json;

// A few examples say what went wrong; thousands would drown the snapshot.
constexpr std::size_t kMaxReportedErrors = 10;

struct ScanCounts {
  std::size_t without_numa_stat = 0;  // the memory controller is not enabled for the cgroup
  std::size_t vanished = 0;
  std::size_t unreadable = 0;
  std::vector<std::string> errors;

  void unreadable_because(std::string message) {
    ++unreadable;
    if (errors.size() < kMaxReportedErrors) {
      errors.push_back(std::move(message));
    }
  }
};

std::optional<std::string> host_name(const std::filesystem::path& host_root) {
  auto text = read_small_file(host_root / "proc/sys/kernel/hostname");
  if (!text) {
    return std::nullopt;
  }
  while (!text->empty() && (text->back() == '\n' || text->back() == ' ')) {
    text->pop_back();
  }
  return std::move(text).value();
}

json path_or_null(const std::optional<std::filesystem::path>& path) {
  return path ? json(path->string()) : json(nullptr);
}

json cgroup_meta(const CgroupLayout& layout, const std::filesystem::path& host_root) {
  return {{"mode", to_string(layout.mode)},
          {"discovery", cgroup_discovery_source(host_root)},
          {"memory_root", layout.memory_root.string()},
          {"cpuset_root", path_or_null(layout.cpuset_root)},
          {"unified_root", path_or_null(layout.unified_root)}};
}

json metric_meta(const metrics::MetricReading& reading) {
  json meta = {{"available", reading.available()},
               {"provider", reading.provider.empty() ? json(nullptr) : json(reading.provider)}};
  if (reading.kind) {
    meta["kind"] = metrics::to_string(*reading.kind);
  }
  // With a value, the reason only says why the providers tried first did not answer.
  if (!reading.unavailable_reason.empty()) {
    meta[reading.available() ? "skipped_providers" : "unavailable_reason"] =
        reading.unavailable_reason;
  }
  return meta;
}

void copy_metric(const metrics::MetricReading& reading, std::optional<double> core::Node::*field,
                 std::vector<core::Node>& nodes) {
  for (core::Node& node : nodes) {
    if (auto it = reading.values.find(node.id); it != reading.values.end()) {
      node.*field = it->second;
    }
  }
}

std::size_t pool_index(const std::vector<config::PoolConfig>& pools, std::string_view name) {
  for (std::size_t i = 0; i < pools.size(); ++i) {
    if (pools[i].name == name) {
      return i;
    }
  }
  return pools.size();
}

}  // namespace

HostScanner::HostScanner(std::filesystem::path host_root, const config::Config& config)
    : host_root_(std::move(host_root)), config_(config) {}

HostScanner::~HostScanner() = default;

Result<codec::SnapshotDocument> HostScanner::scan(TimePoint now) {
  auto topology = read_topology(host_root_);
  if (!topology) {
    return topology.error();
  }
  auto layout = detect_cgroup_layout(host_root_);
  if (!layout) {
    return layout.error();
  }
  if (!latency_) {
    latency_ = metrics::MetricSource::create(metrics::Metric::read_latency, config_.metrics,
                                             host_root_, *topology);
    bandwidth_ = metrics::MetricSource::create(metrics::Metric::bandwidth, config_.metrics,
                                               host_root_, *topology);
  }

  const auto& pools = config_.pools;
  const NumaStatFormat format =
      layout->mode == CgroupMode::v2 ? NumaStatFormat::v2 : NumaStatFormat::v1;
  const Bytes page_size = ::sysconf(_SC_PAGESIZE);
  std::vector<core::Container> containers;
  ScanCounts counts;

  auto read_container = [&](const FoundContainer& found) {
    relative_path_.assign(found.name);
    relative_path_ += "/memory.numa_stat";
    Status read = read_small_file_at(found.parent_fd, relative_path_.c_str(), numa_stat_buffer_);
    if (!read) {
      const std::string cgroup(found.name);
      if (read.error().code == ENOENT &&
          ::faccessat(found.parent_fd, cgroup.c_str(), F_OK, 0) == 0) {
        ++counts.without_numa_stat;
      } else if (vanished(read.error())) {
        ++counts.vanished;
      } else {
        counts.unreadable_because(Error{
            read.error().code, (layout->container_dir(found.id) / "memory.numa_stat").string()}
                                      .message());
      }
      return;
    }
    auto anon = parse_numa_stat(numa_stat_buffer_, format, page_size, found.id);
    if (!anon) {
      counts.unreadable_because(layout->memory_root.string() + "/" + anon.error().message() +
                                " (memory.numa_stat)");
      return;
    }
    containers.push_back(core::Container{.id = std::string(found.id),
                                         .pool = pools[found.pool].name,
                                         .anon_bytes = std::move(*anon)});
  };
  auto walked = walk_containers(layout->memory_root, pools, read_container);
  if (!walked) {
    return walked.error();
  }
  std::sort(containers.begin(), containers.end(),
            [](const core::Container& a, const core::Container& b) { return a.id < b.id; });

  codec::SnapshotDocument document;
  core::Snapshot& snapshot = document.snapshot;
  snapshot.time = now;
  snapshot.nodes = std::move(topology).value();

  std::vector<std::vector<std::string_view>> pool_containers(pools.size());
  for (const core::Container& container : containers) {
    pool_containers[pool_index(pools, container.pool)].push_back(container.id);
  }
  json pool_errors = json::array();
  for (std::size_t i = 0; i < pools.size(); ++i) {
    core::Pool pool{.name = pools[i].name, .nodes = {}};
    if (pools[i].nodes) {
      pool.nodes = *pools[i].nodes;
    } else if (auto nodes = auto_pool_nodes(*layout, pool_containers[i], snapshot.nodes)) {
      pool.nodes = std::move(nodes).value();
    } else {
      // Better every node with CPUs than none: the policy then still sees the pool.
      pool.nodes = nodes_with_cpus(snapshot.nodes);
      pool_errors.push_back("pool " + pools[i].name + ": " + nodes.error().message());
    }
    snapshot.pools.push_back(std::move(pool));
  }
  const std::size_t container_count = containers.size();
  snapshot.containers = std::move(containers);

  const metrics::MetricReading latency = latency_->read(now);
  const metrics::MetricReading bandwidth = bandwidth_->read(now);
  copy_metric(latency, &core::Node::read_latency_ns, snapshot.nodes);
  copy_metric(bandwidth, &core::Node::bandwidth_gbps, snapshot.nodes);

  document.policy_overrides = codec::policy_overrides_json(config_.policy);
  json& meta = document.meta;
  if (auto name = host_name(host_root_)) {
    meta["host"] = *name;
  }
  meta["host_root"] = host_root_.string();
  meta["cgroup"] = cgroup_meta(*layout, host_root_);
  meta["metrics"] = {{metrics::to_string(metrics::Metric::read_latency), metric_meta(latency)},
                     {metrics::to_string(metrics::Metric::bandwidth), metric_meta(bandwidth)}};
  meta["scan"] = {{"cgroups_seen", walked->cgroups_seen},
                  {"containers", container_count},
                  {"vanished", walked->vanished + counts.vanished},
                  {"without_numa_stat", counts.without_numa_stat},
                  {"unreadable", counts.unreadable},
                  {"errors", counts.errors},
                  {"pool_conflicts", walked->conflicts},
                  {"pool_errors", pool_errors}};
  return document;
}

}  // namespace nb::host
