#include "daemon/metrics/resctrl_provider.hpp"

#include <charconv>

#include "base/range_list.hpp"
#include "daemon/metrics/text_file.hpp"

namespace nb::metrics {
namespace {

namespace fs = std::filesystem;

constexpr double kBytesPerGigabyte = 1e9;
constexpr std::string_view kDomainPrefix = "mon_L3_";

std::optional<int> domain_of(const std::string& directory) {
  if (!directory.starts_with(kDomainPrefix)) {
    return std::nullopt;
  }
  std::string_view digits = std::string_view(directory).substr(kDomainPrefix.size());
  int id = -1;
  auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), id);
  if (digits.empty() || ec != std::errc{} || end != digits.data() + digits.size() || id < 0) {
    return std::nullopt;
  }
  return id;
}

// The L3 cache id of one CPU: the cache/indexK directory whose level is 3.
Result<int> l3_id(const fs::path& cpu_dir) {
  std::error_code error;
  fs::directory_iterator it(cpu_dir / "cache", error);
  if (error) {
    return make_error(error.value(), "list " + (cpu_dir / "cache").string());
  }
  for (const auto& entry : it) {
    if (!entry.path().filename().string().starts_with("index")) {
      continue;
    }
    auto level = read_trimmed(entry.path() / "level");
    if (!level || *level != "3") {
      continue;
    }
    auto id = read_unsigned(entry.path() / "id");
    if (!id) {
      return id.error();
    }
    return static_cast<int>(*id);
  }
  return make_error(ENOENT, "no level-3 cache under " + (cpu_dir / "cache").string());
}

std::string node_list(const std::set<NodeId>& nodes) {
  std::string text;
  for (NodeId node : nodes) {
    text += (text.empty() ? "" : ",") + std::to_string(node);
  }
  return text;
}

}  // namespace

ResctrlProvider::ResctrlProvider(const std::filesystem::path& host_root,
                                 std::vector<core::Node> topology,
                                 config::ResctrlProviderConfig config, Clock& clock)
    : host_root_(host_root),
      resctrl_(host_root / "sys/fs/resctrl"),
      topology_(std::move(topology)),
      config_(config),
      clock_(clock) {}

Result<std::map<int, NodeId>> ResctrlProvider::map_domains() const {
  std::map<int, std::set<NodeId>> nodes_of_domain;
  for (const auto& node : topology_) {
    auto cpus = parse_cpu_list(node.cpus);
    if (!cpus) {
      return make_error(0, "node " + std::to_string(node.id) + ": " + cpus.error().context);
    }
    for (int cpu : *cpus) {
      auto id = l3_id(host_root_ / "sys/devices/system/cpu" / ("cpu" + std::to_string(cpu)));
      if (!id) {
        return id.error();
      }
      nodes_of_domain[*id].insert(node.id);
    }
  }
  std::map<int, NodeId> owner;
  for (const auto& [domain, nodes] : nodes_of_domain) {
    if (nodes.size() > 1) {
      return make_error(0, "L3 domain " + std::to_string(domain) + " spans nodes " +
                               node_list(nodes) +
                               " (sub-NUMA clustering?): its traffic has no single node");
    }
    owner[domain] = *nodes.begin();
  }
  return owner;
}

Result<ResctrlProvider::Sample> ResctrlProvider::take_sample() const {
  if (!fs::is_directory(resctrl_ / "mon_data")) {
    return make_error(0, "no MBM data at " + (resctrl_ / "mon_data").string() +
                             " (resctrl not mounted, or no memory bandwidth monitoring)");
  }
  std::vector<std::string> groups = {""};
  std::error_code error;
  for (const auto& entry : fs::directory_iterator(resctrl_, error)) {
    auto name = entry.path().filename().string();
    if (name != "info" && fs::is_regular_file(entry.path() / "schemata") &&
        fs::is_directory(entry.path() / "mon_data")) {
      groups.push_back(name);
    }
  }
  Sample sample;
  sample.time = clock_.now();
  for (const auto& group : groups) {
    fs::path mon_data = resctrl_ / group / "mon_data";
    for (const auto& entry : fs::directory_iterator(mon_data, error)) {
      auto domain = domain_of(entry.path().filename().string());
      if (!domain) {
        continue;
      }
      sample.domains.insert(*domain);
      for (std::string event : {"mbm_total_bytes", "mbm_local_bytes"}) {
        auto path = entry.path() / event;
        auto text = read_trimmed(path);
        if (!text && text.error().vanished() && event == "mbm_local_bytes") {
          sample.has_local = false;
          continue;
        }
        if (!text) {
          sample.unreadable[*domain] = text.error().message();
          continue;
        }
        auto bytes = parse_unsigned(*text, path.string());
        if (!bytes) {
          sample.unreadable[*domain] = path.string() + " reads \"" + *text + "\"";
          continue;
        }
        sample.bytes[CounterKey{group, *domain, event}] = *bytes;
      }
    }
    if (error) {
      return make_error(error.value(), "list " + mon_data.string());
    }
  }
  if (sample.domains.empty()) {
    return make_error(0, "no mon_L3_* domain under " + (resctrl_ / "mon_data").string());
  }
  return sample;
}

Result<NodeValues> ResctrlProvider::served_bandwidth(const Sample& before,
                                                     const Sample& after) const {
  if (!after.unreadable.empty()) {
    const auto& [domain, why] = *after.unreadable.begin();
    return make_error(0, "L3 domain " + std::to_string(domain) + ": " + why);
  }
  std::chrono::duration<double> span = after.time - before.time;
  if (span.count() <= 0) {
    return make_error(0, "no time passed between two readings");
  }
  if (before.bytes.size() != after.bytes.size()) {
    return make_error(0, "the set of resctrl groups changed between two readings");
  }
  std::map<NodeId, double> local;
  std::map<NodeId, double> total;
  for (const auto& [key, bytes] : after.bytes) {
    auto previous = before.bytes.find(key);
    if (previous == before.bytes.end()) {
      return make_error(0, "the set of resctrl groups changed between two readings");
    }
    if (bytes < previous->second) {
      return make_error(0, "counter " + (key.group.empty() ? "" : key.group + "/") + "mon_L3_" +
                               std::to_string(key.domain) + "/" + key.event +
                               " went backwards (reset or wrapped)");
    }
    auto owner = domain_nodes_->find(key.domain);
    if (owner == domain_nodes_->end()) {
      continue;  // no CPU of the topology is in this domain (offline CPUs)
    }
    double rate = static_cast<double>(bytes - previous->second) / span.count();
    (key.event == "mbm_local_bytes" ? local : total)[owner->second] += rate;
  }
  bool exact_local = before.has_local && after.has_local;
  auto node_count = static_cast<double>(topology_.size());
  NodeValues served;
  for (const auto& node : topology_) {
    double value = 0;
    if (!exact_local || topology_.size() == 1) {
      value = total[node.id];
    } else {
      value = local[node.id];
      for (const auto& other : topology_) {
        if (other.id != node.id) {
          double remote = std::max(0.0, total[other.id] - local[other.id]);
          value += remote / (node_count - 1);
        }
      }
    }
    served[node.id] = value / kBytesPerGigabyte;
  }
  return served;
}

Result<NodeValues> ResctrlProvider::read(TimePoint) {
  if (!fs::is_directory(resctrl_ / "mon_data")) {
    return make_error(0, "no MBM data at " + (resctrl_ / "mon_data").string() +
                             " (resctrl not mounted, or no memory bandwidth monitoring)");
  }
  if (!domain_nodes_) {
    auto domains = map_domains();
    if (!domains) {
      return domains.error();
    }
    domain_nodes_ = std::move(*domains);
  }
  if (!last_) {
    auto first = take_sample();
    if (!first) {
      return first.error();
    }
    last_ = std::move(*first);
    clock_.sleep_for(config_.window);
  } else if (auto since = clock_.now() - last_->time; since < config_.window) {
    clock_.sleep_for(config_.window - since);
  }
  auto current = take_sample();
  if (!current) {
    last_.reset();
    return current.error();
  }
  auto served = served_bandwidth(*last_, *current);
  last_ = std::move(*current);
  return served;
}

}  // namespace nb::metrics
