#pragma once
// The `perf` provider: memory-controller (uncore) counters through perf_event_open.
//
// PMUs: Intel `uncore_imc_<n>`, else AMD `amd_umc_<n>`, found under
// <root>/sys/bus/event_source/devices. Each PMU counts for the socket or die of the CPUs in its
// `cpumask`; a PMU instance opened on CPU c belongs to the node whose cpulist holds c. Event
// encodings come from the PMU's sysfs events/ and format/ files, or from [metrics.perf]
// *_event options in the same syntax for events sysfs does not list.
//
// Bandwidth (GB/s, 1 GB = 1e9 bytes): (reads + writes) x bytes per count over the window;
// Intel cas_count_read/cas_count_write, AMD umc_cas_cmd.rd/umc_cas_cmd.wr. Bytes per count come
// from the event's .scale and .unit files, else 64 (one cache line per CAS).
//
// Latency (ns), kind memory_controller_queue: by Little's law the read pending queue's
// occupancy summed each cycle, divided by its inserts, is the average cycles a read waits in the
// controller; the PMU's own clock (Intel clockticks, the DRAM clock the queue is sampled on)
// turns cycles into ns: ns = occupancy x window_ns / (inserts x clockticks), each controller
// weighted by its inserts. Events: unc_m_rpq_occupancy / unc_m_rpq_inserts (or rpq_*) from
// sysfs, which stock kernels do not list; then from the built-in table for the CPU in
// <root>/proc/cpuinfo (uncore_events.hpp: Intel Skylake-SP/Cascade Lake to Granite Rapids);
// queue_occupancy_event, queue_inserts_event and clock_event override both. AMD's UMC has no
// read-queue occupancy: the error says so and `latency = "auto"` moves on. This is the number the
// seed's 70/80 ns thresholds were tuned on (Katalyst reads it from malachite). A node with no
// reads in the window has no latency.
//
// Rates: counts are scaled by time_enabled/time_running when perf multiplexed them, and divided
// by time_enabled, so no clock is needed for the rate; reads are at least `window` apart (the
// first read waits one window). Needs CAP_PERFMON (or CAP_SYS_ADMIN, or perf_event_paranoid
// <= 0). Limitation: with sub-NUMA clustering several nodes share a socket's controllers, so
// the socket's traffic is given to the node of the cpumask CPU.

#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/snapshot.hpp"
#include "daemon/config/config.hpp"
#include "daemon/metrics/clock.hpp"
#include "daemon/metrics/cpu_id.hpp"
#include "daemon/metrics/perf_events.hpp"
#include "daemon/metrics/provider.hpp"

namespace nb::metrics {

class PerfProvider final : public Provider {
 public:
  PerfProvider(Metric metric, const std::filesystem::path& host_root,
               std::vector<core::Node> topology, config::PerfProviderConfig config,
               std::unique_ptr<PerfEvents> events, Clock& clock);
  ~PerfProvider() override;
  PerfProvider(const PerfProvider&) = delete;
  PerfProvider& operator=(const PerfProvider&) = delete;

  std::string_view name() const override { return "perf"; }
  Metric metric() const override { return metric_; }
  std::optional<LatencyKind> latency_kind() const override;
  Result<NodeValues> read(TimePoint now) override;

 private:
  enum class Role { read, write, occupancy, inserts, clock };

  struct Counter {
    std::string pmu;
    int cpu = -1;
    NodeId node = 0;
    Role role = Role::read;
    int handle = -1;
    double bytes_per_count = 0;
    std::optional<PerfCount> last;
  };

  const Result<CpuId>& cpu_id();
  Status open_counters();
  void close_counters();
  Result<std::vector<PerfCount>> read_counters();
  Result<NodeValues> bandwidth(const std::vector<PerfCount>& now) const;
  Result<NodeValues> latency(const std::vector<PerfCount>& now) const;

  Metric metric_;
  std::filesystem::path host_root_;
  std::filesystem::path devices_;
  std::vector<core::Node> topology_;
  config::PerfProviderConfig config_;
  std::unique_ptr<PerfEvents> events_;
  Clock& clock_;
  std::vector<Counter> counters_;
  std::optional<SteadyTime> last_read_;
  std::optional<Result<CpuId>> cpu_id_;  // proc/cpuinfo's CPU, read when the latency first needs it
};

}  // namespace nb::metrics
