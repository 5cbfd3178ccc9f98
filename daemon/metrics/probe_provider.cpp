#include "daemon/metrics/probe_provider.hpp"

#include <sched.h>
#include <time.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <memory>
#include <set>

#include "base/range_list.hpp"
#include "daemon/metrics/chase_buffer.hpp"
#include "daemon/metrics/probe_budget.hpp"

namespace nb::metrics {
namespace {

constexpr std::size_t kSamplesKept = 5;
constexpr auto kFirstRoundTimeout = std::chrono::seconds(30);

std::chrono::nanoseconds thread_cpu_time() {
  timespec now{};
  ::clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
  return std::chrono::seconds(now.tv_sec) + std::chrono::nanoseconds(now.tv_nsec);
}

std::vector<int> current_affinity() {
  std::vector<int> cpus;
  constexpr int kMaxCpus = 1 << 16;
  cpu_set_t* set = CPU_ALLOC(kMaxCpus);
  std::size_t size = CPU_ALLOC_SIZE(kMaxCpus);
  CPU_ZERO_S(size, set);
  if (::sched_getaffinity(0, size, set) == 0) {
    for (int cpu = 0; cpu < kMaxCpus; ++cpu) {
      if (CPU_ISSET_S(cpu, size, set)) {
        cpus.push_back(cpu);
      }
    }
  }
  CPU_FREE(set);
  return cpus;
}

Status pin_to(const std::vector<int>& cpus) {
  int highest = *std::max_element(cpus.begin(), cpus.end());
  cpu_set_t* set = CPU_ALLOC(highest + 1);
  std::size_t size = CPU_ALLOC_SIZE(highest + 1);
  CPU_ZERO_S(size, set);
  for (int cpu : cpus) {
    CPU_SET_S(cpu, size, set);
  }
  int rc = ::sched_setaffinity(0, size, set);
  int error = errno;
  CPU_FREE(set);
  if (rc != 0) {
    return make_error(error, "sched_setaffinity");
  }
  return Ok{};
}

double median(std::deque<double> samples) {
  std::sort(samples.begin(), samples.end());
  std::size_t middle = samples.size() / 2;
  return samples.size() % 2 == 1 ? samples[middle] : (samples[middle - 1] + samples[middle]) / 2;
}

struct ProbedNode {
  NodeId node = 0;
  std::vector<int> cpus;
  ChaseBuffer buffer;
};

// Every node a buffer of its own, bound to it, and the CPUs that read it; or why not. Runs on the
// sampler thread, which it leaves pinned to the last node set up.
struct ProbeSetup {
  std::vector<ProbedNode> probed;
  std::map<NodeId, std::string> failures;
};

ProbeSetup set_up_nodes(const std::vector<core::Node>& topology,
                        const std::vector<int>& allowed_cpus, Bytes buffer_bytes) {
  ProbeSetup setup;
  std::set<int> allowed(allowed_cpus.begin(), allowed_cpus.end());
  for (const auto& node : topology) {
    auto from = probing_node(node.id, topology);
    if (!from) {
      setup.failures[node.id] =
          "node " + std::to_string(node.id) + " has no node with CPUs near it";
      continue;
    }
    auto from_node = std::find_if(topology.begin(), topology.end(),
                                  [&](const core::Node& n) { return n.id == *from; });
    auto cpus = parse_cpu_list(from_node->cpus);
    std::vector<int> usable;
    if (cpus) {
      std::set_intersection(cpus->begin(), cpus->end(), allowed.begin(), allowed.end(),
                            std::back_inserter(usable));
    }
    if (usable.empty()) {
      setup.failures[node.id] = "node " + std::to_string(node.id) + ": no CPU of node " +
                                std::to_string(*from) + " is in the daemon's affinity";
      continue;
    }
    if (auto pinned = pin_to(usable); !pinned) {
      setup.failures[node.id] = "node " + std::to_string(node.id) + ": " + pinned.error().message();
      continue;
    }
    auto buffer = ChaseBuffer::create(node.id, buffer_bytes,
                                      0x9E3779B97F4A7C15ULL ^ static_cast<std::uint64_t>(node.id));
    if (!buffer) {
      setup.failures[node.id] = buffer.error().message();
      continue;
    }
    setup.probed.push_back(ProbedNode{node.id, std::move(usable), std::move(*buffer)});
  }
  return setup;
}

}  // namespace

std::optional<NodeId> probing_node(NodeId node, const std::vector<core::Node>& topology) {
  auto self = std::find_if(topology.begin(), topology.end(),
                           [node](const core::Node& n) { return n.id == node; });
  if (self == topology.end()) {
    return std::nullopt;
  }
  if (!self->memory_only()) {
    return node;
  }
  std::optional<NodeId> nearest;
  int nearest_distance = 0;
  for (const auto& candidate : topology) {
    if (candidate.memory_only()) {
      continue;
    }
    auto distance = self->distance.find(candidate.id);
    if (distance == self->distance.end()) {
      continue;
    }
    if (!nearest || distance->second < nearest_distance ||
        (distance->second == nearest_distance && candidate.id < *nearest)) {
      nearest = candidate.id;
      nearest_distance = distance->second;
    }
  }
  return nearest;
}

ProbeProvider::ProbeProvider(std::vector<core::Node> topology, config::ProbeProviderConfig config)
    : topology_(std::move(topology)), config_(config), allowed_cpus_(current_affinity()) {}

ProbeProvider::~ProbeProvider() {
  if (sampler_.joinable()) {
    sampler_.request_stop();
    changed_.notify_all();
    sampler_.join();
  }
}

ProbeProvider::Stats ProbeProvider::stats() const {
  std::lock_guard lock(mutex_);
  return stats_;
}

void ProbeProvider::run(std::stop_token stop) {
  auto started = std::chrono::steady_clock::now();
  auto cpu_at_start = thread_cpu_time();
  auto [probed, failures] = set_up_nodes(topology_, allowed_cpus_, config_.buffer_bytes);
  auto setup_cpu = thread_cpu_time() - cpu_at_start;
  if (probed.empty()) {
    std::lock_guard lock(mutex_);
    failures_ = std::move(failures);
    stats_.setup_cpu = stats_.cpu_used = setup_cpu;
    stats_.rounds = 1;
    changed_.notify_all();
    return;  // nothing to sample: read() reports why
  }
  double fraction =
      config_.cpu_budget * static_cast<double>(std::max<std::size_t>(1, probed.size()));
  ProbeBudget budget(fraction, config_.sample_interval);

  auto round_start = started;
  auto cpu_before = cpu_at_start;
  while (!stop.stop_requested()) {
    std::map<NodeId, double> samples;
    for (auto& node : probed) {
      if (pin_to(node.cpus)) {
        // After the pause the TLB and page-walk caches hold other work: an untimed chase first,
        // so that the sample measures memory rather than the cold start.
        node.buffer.chase(config_.loads_per_sample);
        samples[node.node] = node.buffer.chase(config_.loads_per_sample);
      }
    }
    auto cpu_after = thread_cpu_time();
    auto next = budget.charge(round_start, cpu_after - cpu_before);
    {
      std::lock_guard lock(mutex_);
      for (const auto& [node, ns] : samples) {
        auto& recent = recent_[node];
        recent.push_back(ns);
        if (recent.size() > kSamplesKept) {
          recent.pop_front();
        }
      }
      failures_ = failures;
      ++stats_.rounds;
      stats_.setup_cpu = setup_cpu;
      stats_.cpu_used = budget.cpu_used();
      stats_.used_fraction = budget.used_fraction(std::chrono::steady_clock::now());
    }
    changed_.notify_all();
    std::unique_lock lock(mutex_);
    changed_.wait_until(lock, stop, next, [] { return false; });
    round_start = std::chrono::steady_clock::now();
    cpu_before = thread_cpu_time();
  }
}

Result<NodeValues> ProbeProvider::read(TimePoint) {
  if (!sampler_.joinable()) {
    sampler_ = std::jthread([this](std::stop_token stop) {
      try {
        run(stop);
      } catch (const std::exception& e) {
        std::lock_guard lock(mutex_);
        sampler_failure_ = std::string("the probe's sampler stopped: ") + e.what();
      }
      changed_.notify_all();
    });
  }
  std::unique_lock lock(mutex_);
  if (!changed_.wait_for(lock, kFirstRoundTimeout,
                         [this] { return stats_.rounds > 0 || !sampler_failure_.empty(); })) {
    return make_error(ETIMEDOUT, "the first probe round did not finish within 30 s");
  }
  if (!sampler_failure_.empty()) {
    return make_error(0, sampler_failure_);
  }
  NodeValues values;
  for (const auto& [node, samples] : recent_) {
    if (!samples.empty()) {
      values[node] = median(samples);
    }
  }
  if (values.empty()) {
    std::string reasons;
    for (const auto& [node, why] : failures_) {
      reasons += (reasons.empty() ? "" : "; ") + why;
    }
    return make_error(0, reasons.empty() ? "no node could be probed" : reasons);
  }
  return values;
}

}  // namespace nb::metrics
