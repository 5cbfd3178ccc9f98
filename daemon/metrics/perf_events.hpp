#pragma once
// The seam between the perf provider and perf_event_open(2): production opens real counters,
// tests script counter values per event.

#include <cstdint>
#include <memory>

#include "base/result.hpp"
#include "daemon/metrics/pmu.hpp"

namespace nb::metrics {

struct PerfEventSpec {
  std::uint32_t type = 0;  // the PMU's sysfs `type`
  PerfEventConfig config;
  int cpu = -1;  // uncore events count the whole socket or die from one CPU of the PMU's cpumask
};

// One read of a counter, with the times perf reports so that multiplexed counts can be scaled
// and rates need no clock of their own.
struct PerfCount {
  std::uint64_t value = 0;
  std::uint64_t time_enabled_ns = 0;
  std::uint64_t time_running_ns = 0;
};

class PerfEvents {
 public:
  virtual ~PerfEvents() = default;
  // A handle for read() and close(); the error carries errno (EACCES: no CAP_PERFMON).
  virtual Result<int> open(const PerfEventSpec& spec) = 0;
  virtual Result<PerfCount> read(int handle) = 0;
  virtual void close(int handle) = 0;
};

// perf_event_open(2), system-wide on one CPU, counting from the moment it is opened.
std::unique_ptr<PerfEvents> make_system_perf_events();

}  // namespace nb::metrics
