#include "daemon/metrics/perf_provider.hpp"

#include <map>
#include <set>
#include <utility>

#include "base/range_list.hpp"
#include "daemon/metrics/cpu_id.hpp"
#include "daemon/metrics/cpu_nodes.hpp"
#include "daemon/metrics/uncore_events.hpp"

namespace nb::metrics {
namespace {

namespace fs = std::filesystem;

constexpr double kBytesPerCacheLine = 64;
constexpr double kBytesPerGigabyte = 1e9;

// Names to look for in a PMU's events/ directory, per role, first match wins.
struct PmuFamily {
  std::string_view prefix;
  std::vector<std::string_view> read, write, occupancy, inserts, clock;
  bool has_builtin_read_queue = false;  // the built-in table (uncore_events) covers its CPUs
  std::string_view no_read_queue;       // why the family cannot give queue latency, if it cannot
};

const std::vector<PmuFamily>& families() {
  static const std::vector<PmuFamily> kFamilies = {
      {"uncore_imc_",
       {"cas_count_read"},
       {"cas_count_write"},
       {"unc_m_rpq_occupancy", "rpq_occupancy"},
       {"unc_m_rpq_inserts", "rpq_inserts"},
       {"clockticks"},
       true,
       {}},
      {"amd_umc_",
       {"umc_cas_cmd.rd"},
       {"umc_cas_cmd.wr"},
       {},
       {},
       {"umc_mem_clk"},
       false,
       "AMD's UMC memory-controller PMU counts no read-queue occupancy"},
  };
  return kFamilies;
}

// A counter's advance between two reads, scaled up when perf multiplexed it.
struct Advance {
  double count = 0;
  double seconds = 0;
};

std::optional<Advance> advance(const PerfCount& before, const PerfCount& after) {
  if (after.time_enabled_ns <= before.time_enabled_ns || after.time_running_ns == 0 ||
      after.value < before.value) {
    return std::nullopt;
  }
  auto scaled = [](const PerfCount& c) {
    if (c.time_running_ns == 0) {
      return 0.0;
    }
    return static_cast<double>(c.value) * static_cast<double>(c.time_enabled_ns) /
           static_cast<double>(c.time_running_ns);
  };
  double count = scaled(after) - scaled(before);
  if (count < 0) {
    return std::nullopt;
  }
  return Advance{count, static_cast<double>(after.time_enabled_ns - before.time_enabled_ns) / 1e9};
}

// The first family with a PMU on this host, and that family's PMU names.
std::pair<const PmuFamily*, std::vector<std::string>> find_family(const fs::path& devices) {
  for (const auto& family : families()) {
    if (auto pmus = find_pmus(devices, family.prefix); !pmus.empty()) {
      return {&family, std::move(pmus)};
    }
  }
  return {nullptr, {}};
}

struct Event {
  std::string name;  // empty when a configured or built-in encoding is used
  std::string encoding;
};

// What to look for in one role: the configured encoding wins, then the first known name sysfs
// lists, then the built-in table's encoding for this CPU.
struct EventChoice {
  std::string_view what;
  const std::vector<std::string_view>* names;
  const std::string* configured;
  std::string_view builtin;
  std::string_view option;
  bool read_queue = false;  // occupancy or inserts, which some PMU families lack
};

// The CPU in words for messages, and the built-in read-queue events for it, if any.
struct CpuFacts {
  std::string described;
  const ReadQueueEvents* builtin = nullptr;
};

CpuFacts cpu_facts(const Result<CpuId>& cpu, const PmuFamily& family) {
  if (!cpu) {
    return {"an unknown CPU (" + cpu.error().message() + ")", nullptr};
  }
  return {to_string(*cpu),
          family.has_builtin_read_queue ? builtin_read_queue_events(*cpu) : nullptr};
}

Result<Event> resolve_event(const Pmu& pmu, const PmuFamily& family, const EventChoice& choice,
                            const CpuFacts& cpu) {
  if (!choice.configured->empty()) {
    return Event{"", *choice.configured};
  }
  std::string looked_for;
  for (auto name : *choice.names) {
    if (auto found = pmu.events.find(std::string(name)); found != pmu.events.end()) {
      return Event{found->first, found->second};
    }
    looked_for += (looked_for.empty() ? "" : ", ") + std::string(name);
  }
  if (!choice.builtin.empty()) {
    return Event{"", std::string(choice.builtin)};
  }
  std::string option = "[metrics.perf] " + std::string(choice.option);
  if (choice.read_queue && !family.no_read_queue.empty()) {
    return make_error(0, pmu.name + ": " + std::string(family.no_read_queue) + " (" +
                             cpu.described + "), so the memory-controller queue latency cannot " +
                             "be measured here; " + option + " is not set");
  }
  std::string why =
      looked_for.empty() ? "none is known for this PMU" : "sysfs lists none of " + looked_for;
  if (choice.read_queue && family.has_builtin_read_queue) {
    why += "; no built-in encoding for " + cpu.described + ", the table covers " +
           std::string(builtin_read_queue_cpus());
  }
  return make_error(0, pmu.name + ": no " + std::string(choice.what) + " event (" + why + ") and " +
                           option + " is not set");
}

}  // namespace

PerfProvider::PerfProvider(Metric metric, const std::filesystem::path& host_root,
                           std::vector<core::Node> topology, config::PerfProviderConfig config,
                           std::unique_ptr<PerfEvents> events, Clock& clock)
    : metric_(metric),
      host_root_(host_root),
      devices_(host_root / "sys/bus/event_source/devices"),
      topology_(std::move(topology)),
      config_(std::move(config)),
      events_(std::move(events)),
      clock_(clock) {}

PerfProvider::~PerfProvider() {
  close_counters();
}

std::optional<LatencyKind> PerfProvider::latency_kind() const {
  if (metric_ != Metric::read_latency) {
    return std::nullopt;
  }
  return LatencyKind::memory_controller_queue;
}

const Result<CpuId>& PerfProvider::cpu_id() {
  if (!cpu_id_) {
    cpu_id_ = read_cpu_id(host_root_);  // the CPU does not change: read once, not every retry
  }
  return *cpu_id_;
}

void PerfProvider::close_counters() {
  for (const auto& counter : counters_) {
    events_->close(counter.handle);
  }
  counters_.clear();
  last_read_.reset();
}

Status PerfProvider::open_counters() {
  auto [family, pmus] = find_family(devices_);
  if (family == nullptr) {
    std::string why = "no memory-controller PMU (uncore_imc_*, amd_umc_*) under " +
                      devices_.string() + ": the counters are not exposed here";
    if (metric_ == Metric::read_latency && cpu_id() && cpu_id()->vendor == "AuthenticAMD") {
      why += "; on AMD (" + to_string(*cpu_id()) + ") the UMC PMU counts no read-queue occupancy";
    }
    return make_error(0, why);
  }
  struct RoleSpec {
    Role role;
    EventChoice choice;
  };
  std::vector<RoleSpec> roles;
  CpuFacts cpu;
  if (metric_ == Metric::bandwidth) {
    roles = {
        {Role::read, {"memory read", &family->read, &config_.read_event, {}, "read_event"}},
        {Role::write, {"memory write", &family->write, &config_.write_event, {}, "write_event"}}};
  } else {
    cpu = cpu_facts(cpu_id(), *family);
    const ReadQueueEvents none{};
    const ReadQueueEvents& builtin = cpu.builtin ? *cpu.builtin : none;
    roles = {
        {Role::occupancy,
         {"read-queue occupancy", &family->occupancy, &config_.queue_occupancy_event,
          builtin.occupancy, "queue_occupancy_event", true}},
        {Role::inserts,
         {"read-queue inserts", &family->inserts, &config_.queue_inserts_event, builtin.inserts,
          "queue_inserts_event", true}},
        {Role::clock,
         {"controller clock", &family->clock, &config_.clock_event, builtin.clock, "clock_event"}}};
  }
  auto owner = node_of_cpu(topology_);
  if (!owner) {
    return owner.error();
  }
  for (const auto& pmu_name : pmus) {
    auto pmu = read_pmu(devices_ / pmu_name);
    if (!pmu) {
      return pmu.error();
    }
    for (const auto& spec : roles) {
      auto event = resolve_event(*pmu, *family, spec.choice, cpu);
      if (!event) {
        return event.error();
      }
      const auto& [event_name, encoding] = *event;
      auto config = pmu->encode(encoding);
      if (!config) {
        return config.error();
      }
      double bytes = pmu->bytes_per_count(event_name, kBytesPerCacheLine);
      for (int cpu : pmu->cpus) {
        auto node = owner->find(cpu);
        if (node == owner->end()) {
          return make_error(0, "cpu " + std::to_string(cpu) + " in " + pmu_name +
                                   "/cpumask is on no node of the topology");
        }
        auto handle = events_->open(PerfEventSpec{pmu->type, *config, cpu});
        if (!handle) {
          return make_error(handle.error().code, pmu_name + "/" +
                                                     (event_name.empty() ? encoding : event_name) +
                                                     ": " + handle.error().context);
        }
        counters_.push_back(Counter{pmu_name, cpu, node->second, spec.role, *handle, bytes, {}});
      }
    }
  }
  if (counters_.empty()) {
    return make_error(
        0, "the memory-controller PMUs under " + devices_.string() + " have empty cpumasks");
  }
  return Ok{};
}

Result<std::vector<PerfCount>> PerfProvider::read_counters() {
  std::vector<PerfCount> counts;
  counts.reserve(counters_.size());
  for (const auto& counter : counters_) {
    auto count = events_->read(counter.handle);
    if (!count) {
      return make_error(count.error().code, counter.pmu + " on cpu " + std::to_string(counter.cpu) +
                                                ": " + count.error().context);
    }
    counts.push_back(*count);
  }
  return counts;
}

Result<NodeValues> PerfProvider::bandwidth(const std::vector<PerfCount>& now) const {
  std::map<NodeId, double> bytes_per_second;
  std::set<NodeId> broken;
  for (std::size_t i = 0; i < counters_.size(); ++i) {
    const auto& counter = counters_[i];
    auto step = advance(*counter.last, now[i]);
    if (!step) {
      broken.insert(counter.node);
      continue;
    }
    bytes_per_second[counter.node] += step->count * counter.bytes_per_count / step->seconds;
  }
  NodeValues values;
  for (const auto& [node, rate] : bytes_per_second) {
    if (!broken.contains(node)) {
      values[node] = rate / kBytesPerGigabyte;
    }
  }
  if (values.empty()) {
    return make_error(0, "no memory-controller counter advanced over the window");
  }
  return values;
}

Result<NodeValues> PerfProvider::latency(const std::vector<PerfCount>& now) const {
  // Per controller instance (PMU on one CPU): its three counters' advances.
  struct Controller {
    NodeId node = 0;
    std::optional<Advance> occupancy, inserts, clock;
  };
  std::map<std::pair<std::string, int>, Controller> controllers;
  for (std::size_t i = 0; i < counters_.size(); ++i) {
    const auto& counter = counters_[i];
    auto& controller = controllers[{counter.pmu, counter.cpu}];
    controller.node = counter.node;
    auto step = advance(*counter.last, now[i]);
    if (counter.role == Role::occupancy) {
      controller.occupancy = step;
    } else if (counter.role == Role::inserts) {
      controller.inserts = step;
    } else {
      controller.clock = step;
    }
  }
  std::map<NodeId, double> waited_ns;  // Σ occupancy in ns: each insert's wait, added up
  std::map<NodeId, double> inserts;
  std::set<NodeId> broken;
  for (const auto& [key, controller] : controllers) {
    if (!controller.occupancy || !controller.inserts || !controller.clock ||
        controller.clock->count <= 0) {
      broken.insert(controller.node);
      continue;
    }
    double cycles_per_ns = controller.clock->count / (controller.clock->seconds * 1e9);
    waited_ns[controller.node] += controller.occupancy->count / cycles_per_ns;
    inserts[controller.node] += controller.inserts->count;
  }
  NodeValues values;
  for (const auto& [node, count] : inserts) {
    if (!broken.contains(node) && count > 0) {
      values[node] = waited_ns[node] / count;
    }
  }
  if (values.empty()) {
    return make_error(0, "no memory-controller read queue saw a read over the window");
  }
  return values;
}

Result<NodeValues> PerfProvider::read(TimePoint) {
  if (counters_.empty()) {
    if (auto opened = open_counters(); !opened) {
      close_counters();
      return opened.error();
    }
  }
  if (!last_read_) {
    auto baseline = read_counters();
    if (!baseline) {
      close_counters();
      return baseline.error();
    }
    for (std::size_t i = 0; i < counters_.size(); ++i) {
      counters_[i].last = (*baseline)[i];
    }
    last_read_ = clock_.now();
    clock_.sleep_for(config_.window);
  } else if (auto since = clock_.now() - *last_read_; since < config_.window) {
    clock_.sleep_for(config_.window - since);
  }
  auto counts = read_counters();
  if (!counts) {
    close_counters();
    return counts.error();
  }
  auto values = metric_ == Metric::bandwidth ? bandwidth(*counts) : latency(*counts);
  for (std::size_t i = 0; i < counters_.size(); ++i) {
    counters_[i].last = (*counts)[i];
  }
  last_read_ = clock_.now();
  return values;
}

}  // namespace nb::metrics
