#pragma once
// perf_event_open behind the seam, scripted: each (PMU type, config, cpu) has a list of counts
// that successive reads return (the last one repeats), and may instead fail to open.

#include <map>
#include <tuple>
#include <vector>

#include "daemon/metrics/perf_events.hpp"

namespace nb::metrics::testing {

struct FakeCounterKey {
  std::uint32_t type = 0;
  std::uint64_t config = 0;
  int cpu = -1;
  auto operator<=>(const FakeCounterKey&) const = default;
};

struct FakePerfScript {
  std::map<FakeCounterKey, std::vector<PerfCount>> counts;
  std::map<FakeCounterKey, int> open_errors;  // errno to fail open() with
  std::vector<PerfEventSpec> opened;
  int open_handles = 0;
};

class FakePerfEvents final : public PerfEvents {
 public:
  explicit FakePerfEvents(FakePerfScript& script) : script_(script) {}

  Result<int> open(const PerfEventSpec& spec) override {
    FakeCounterKey key{spec.type, spec.config.config, spec.cpu};
    if (auto error = script_.open_errors.find(key); error != script_.open_errors.end()) {
      return make_error(error->second, "perf_event_open");
    }
    script_.opened.push_back(spec);
    ++script_.open_handles;
    handles_.push_back(Handle{key, 0});
    return static_cast<int>(handles_.size() - 1);
  }

  Result<PerfCount> read(int handle) override {
    auto& state = handles_.at(static_cast<std::size_t>(handle));
    auto script = script_.counts.find(state.key);
    if (script == script_.counts.end() || script->second.empty()) {
      return make_error(ENODEV, "read");
    }
    const auto& counts = script->second;
    auto index = std::min(state.reads, counts.size() - 1);
    ++state.reads;
    return counts[index];
  }

  void close(int) override { --script_.open_handles; }

 private:
  struct Handle {
    FakeCounterKey key;
    std::size_t reads = 0;
  };
  FakePerfScript& script_;
  std::vector<Handle> handles_;
};

}  // namespace nb::metrics::testing
