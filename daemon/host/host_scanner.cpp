#include "daemon/host/host_scanner.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <utility>

#include "daemon/host/cgroup_layout.hpp"
#include "daemon/host/container_walk.hpp"
#include "daemon/host/numa_stat.hpp"
#include "daemon/host/pool_nodes.hpp"
#include "daemon/host/small_file.hpp"
#include "daemon/host/topology.hpp"

namespace nb::host {
namespace {

// A few examples say what went wrong; thousands would drown the snapshot.
constexpr std::size_t kMaxReportedErrors = 10;

void unreadable_because(ScanCounts& counts, std::string message) {
  ++counts.unreadable;
  if (counts.errors.size() < kMaxReportedErrors) {
    counts.errors.push_back(std::move(message));
  }
}

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

CgroupReport cgroup_report(const CgroupLayout& layout, const std::filesystem::path& host_root) {
  return CgroupReport{.mode = layout.mode,
                      .discovery = std::string(cgroup_discovery_source(host_root)),
                      .memory_root = layout.memory_root,
                      .cpuset_root = layout.cpuset_root,
                      .unified_root = layout.unified_root};
}

ProviderReport provider_report(metrics::Metric metric, const metrics::MetricReading& reading) {
  return ProviderReport{.metric = metric,
                        .provider = reading.provider,
                        .available = reading.available(),
                        .kind = reading.kind,
                        .reason = reading.unavailable_reason};
}

void copy_metric(const metrics::MetricReading& reading, std::optional<double> core::Node::*field,
                 std::vector<core::Node>& nodes) {
  for (core::Node& node : nodes) {
    if (auto it = reading.values.find(node.id); it != reading.values.end()) {
      node.*field = it->second;
    }
  }
}

// The kind travels with the numbers: the policy picks its thresholds by it. With no numbers
// there is nothing for it to describe.
void copy_readings(const metrics::MetricReading& latency, const metrics::MetricReading& bandwidth,
                   core::Snapshot& snapshot) {
  copy_metric(latency, &core::Node::read_latency_ns, snapshot.nodes);
  if (latency.available()) {
    snapshot.read_latency_kind = latency.kind;
  }
  copy_metric(bandwidth, &core::Node::bandwidth_gbps, snapshot.nodes);
}

std::size_t pool_index(const std::vector<config::PoolConfig>& pools, std::string_view name) {
  for (std::size_t i = 0; i < pools.size(); ++i) {
    if (pools[i].name == name) {
      return i;
    }
  }
  return pools.size();
}

void add_walk_counts(const WalkCounts& walked, ScanCounts& counts) {
  counts.cgroups_seen = walked.cgroups_seen;
  counts.vanished += walked.vanished;
  counts.pool_conflicts = walked.conflicts;
}

// A pool without configured nodes gets those its containers' cpusets allow.
std::vector<core::Pool> resolve_pools(const std::vector<config::PoolConfig>& pools,
                                      const CgroupLayout& layout,
                                      const std::vector<core::Container>& containers,
                                      const std::vector<core::Node>& nodes, ScanCounts& counts) {
  std::vector<std::vector<std::string_view>> pool_containers(pools.size());
  for (const core::Container& container : containers) {
    pool_containers[pool_index(pools, container.pool)].push_back(container.id);
  }
  std::vector<core::Pool> resolved;
  for (std::size_t i = 0; i < pools.size(); ++i) {
    core::Pool pool{.name = pools[i].name, .nodes = {}};
    if (pools[i].nodes) {
      pool.nodes = *pools[i].nodes;
    } else if (auto found = auto_pool_nodes(layout, pool_containers[i], nodes)) {
      pool.nodes = std::move(found).value();
    } else {
      // Better every node with CPUs than none: the policy then still sees the pool.
      pool.nodes = nodes_with_cpus(nodes);
      counts.pool_errors.push_back("pool " + pools[i].name + ": " + found.error().message());
    }
    resolved.push_back(std::move(pool));
  }
  return resolved;
}

}  // namespace

HostScanner::HostScanner(std::filesystem::path host_root, const config::Config& config)
    : host_root_(std::move(host_root)), config_(config) {}

HostScanner::~HostScanner() = default;

void HostScanner::open_metric_sources(const std::vector<core::Node>& topology) {
  if (latency_) {
    return;
  }
  latency_ = metrics::MetricSource::create(metrics::Metric::read_latency, config_.metrics,
                                           host_root_, topology);
  bandwidth_ = metrics::MetricSource::create(metrics::Metric::bandwidth, config_.metrics,
                                             host_root_, topology);
}

Result<HostScan> HostScanner::scan(TimePoint now) {
  auto topology = read_topology(host_root_);
  if (!topology) {
    return topology.error();
  }
  auto layout = detect_cgroup_layout(host_root_);
  if (!layout) {
    return layout.error();
  }
  open_metric_sources(*topology);

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
        unreadable_because(counts,
                           Error{read.error().code,
                                 (layout->container_dir(found.id) / "memory.numa_stat").string()}
                               .message());
      }
      return;
    }
    auto anon = parse_numa_stat(numa_stat_buffer_, format, page_size, found.id);
    if (!anon) {
      unreadable_because(counts, layout->memory_root.string() + "/" + anon.error().message() +
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

  HostScan scan;
  core::Snapshot& snapshot = scan.snapshot;
  snapshot.time = now;
  snapshot.nodes = std::move(topology).value();
  snapshot.pools = resolve_pools(pools, *layout, containers, snapshot.nodes, counts);
  counts.containers = containers.size();
  snapshot.containers = std::move(containers);

  const metrics::MetricReading latency = latency_->read(now);
  const metrics::MetricReading bandwidth = bandwidth_->read(now);
  copy_readings(latency, bandwidth, snapshot);

  add_walk_counts(*walked, counts);
  scan.report = ScanReport{.host = host_name(host_root_),
                           .host_root = host_root_,
                           .cgroup = cgroup_report(*layout, host_root_),
                           .providers = {provider_report(metrics::Metric::read_latency, latency),
                                         provider_report(metrics::Metric::bandwidth, bandwidth)},
                           .counts = std::move(counts)};
  return scan;
}

}  // namespace nb::host
