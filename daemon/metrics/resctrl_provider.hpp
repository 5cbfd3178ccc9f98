#pragma once
// The `resctrl` provider (bandwidth only): Memory Bandwidth Monitoring counters
// <root>/sys/fs/resctrl[/<group>]/mon_data/mon_L3_XX/{mbm_total_bytes,mbm_local_bytes}, summed over
// every control group (the root group and each top-level group; a control group's counters
// already include its monitoring subgroups), turned into GB/s (1 GB = 1e9 bytes) between reads
// at least `window` apart (the first read waits one window).
//
// MBM counts the traffic an L3 domain's CPUs *issue*: mbm_total_bytes to any memory,
// mbm_local_bytes to the domain's own node. The policy needs the traffic each node's memory
// *serves*. An L3 domain belongs to the node all its CPUs are on (from each CPU's
// cache/index*/id with level 3); served(n) = local(n) + the remote traffic of every other node
// that went to n. MBM does not say which node remote traffic went to, so:
//   - with 2 nodes the other node's remote traffic all went to n: exact;
//   - with more, each node's remote traffic is split evenly over the other nodes: an estimate;
//   - without mbm_local_bytes, served(n) = total(n): exact only on 1 node.
// An L3 domain whose CPUs span several nodes (sub-NUMA clustering) cannot be attributed, so the
// metric is unavailable. A domain reading "Unavailable" or "Error", a counter that went backwards
// (an RMID reused by a new group, a wrapped counter) or a group that appeared or vanished since
// the previous read makes that read unavailable and becomes the new baseline.

#include <filesystem>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "core/snapshot.hpp"
#include "daemon/config/config.hpp"
#include "daemon/metrics/clock.hpp"
#include "daemon/metrics/provider.hpp"

namespace nb::metrics {

class ResctrlProvider final : public Provider {
 public:
  ResctrlProvider(const std::filesystem::path& host_root, std::vector<core::Node> topology,
                  config::ResctrlProviderConfig config, Clock& clock);

  std::string_view name() const override { return "resctrl"; }
  Metric metric() const override { return Metric::bandwidth; }
  Result<NodeValues> read(TimePoint now) override;

 private:
  struct CounterKey {
    std::string group;  // "" for the root group
    int domain = 0;
    std::string event;  // mbm_total_bytes or mbm_local_bytes
    auto operator<=>(const CounterKey&) const = default;
  };
  struct Sample {
    SteadyTime time;
    std::map<CounterKey, std::uint64_t> bytes;  // a missing key is an unreadable counter
    std::map<int, std::string> unreadable;      // domain -> why
    std::set<int> domains;
    bool has_local = true;
  };

  Result<std::map<int, NodeId>> map_domains() const;
  Result<Sample> take_sample() const;
  Result<NodeValues> served_bandwidth(const Sample& before, const Sample& after) const;

  std::filesystem::path host_root_;
  std::filesystem::path resctrl_;
  std::vector<core::Node> topology_;
  config::ResctrlProviderConfig config_;
  Clock& clock_;
  std::optional<std::map<int, NodeId>> domain_nodes_;
  std::optional<Sample> last_;
};

}  // namespace nb::metrics
