#pragma once
// Built-in encodings of the memory controller's read-queue events for Intel server CPUs, so that
// the perf provider measures queue latency on a stock kernel: its uncore_imc sysfs lists
// cas_count_* and clockticks but not the read pending queue's occupancy and inserts. Keyed by the
// CPU in proc/cpuinfo; the encodings are facts from Linux's tools/perf/pmu-events tables, each
// entry naming its file. Covered: Skylake-SP/Cascade Lake, Ice Lake-SP, Sapphire Rapids, Emerald
// Rapids, Granite Rapids. AMD's UMC PMU has no read-queue occupancy, so AMD has no entry.

#include <string_view>

#include "daemon/metrics/cpu_id.hpp"

namespace nb::metrics {

// Encodings in the sysfs events/ syntax ("event=0x10,umask=0x01"), turned into config words by
// the PMU's own format/ files.
struct ReadQueueEvents {
  std::string_view cpu;        // "Sapphire Rapids", for messages
  std::string_view occupancy;  // read pending queue entries, summed each controller cycle
  std::string_view inserts;    // reads allocated into that queue
  std::string_view clock;      // the controller clock the occupancy is sampled on
};

// The entry for this CPU, or nullptr when the table has none.
const ReadQueueEvents* builtin_read_queue_events(const CpuId& cpu);

// "Skylake-SP/Cascade Lake, Ice Lake-SP, ...": what the table covers, for messages.
std::string_view builtin_read_queue_cpus();

}  // namespace nb::metrics
