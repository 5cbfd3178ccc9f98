#include "daemon/metrics/uncore_events.hpp"

#include <array>

namespace nb::metrics {
namespace {

constexpr std::string_view kIntel = "GenuineIntel";
constexpr unsigned kIntelFamily = 6;

// From Ice Lake-SP on, each controller PMU serves two pseudo-channels (Granite Rapids: two
// sub-channels of two) with a read queue each. The entries pair the first queue's occupancy with
// the same queue's inserts: that queue's latency, which the channel's interleaving keeps
// representative, at two counters instead of four or eight.

// tools/perf/pmu-events/arch/x86/skylakex/uncore-memory.json: UNC_M_RPQ_OCCUPANCY,
// UNC_M_RPQ_INSERTS, UNC_M_CLOCKTICKS (no EventCode: 0). Cascade Lake shares model 0x55 (perf
// tells them apart by stepping) and the same iMC PMU; cascadelakex/uncore-memory.json gives
// UNC_M_CLOCKTICKS event 0x0 as well.
constexpr ReadQueueEvents kSkylakeServer{"Skylake-SP/Cascade Lake", "event=0x80", "event=0x10",
                                         "event=0x00"};

// tools/perf/pmu-events/arch/x86/icelakex/uncore-memory.json: UNC_M_RPQ_OCCUPANCY_PCH0,
// UNC_M_RPQ_INSERTS.PCH0, UNC_M_CLOCKTICKS (no EventCode: 0).
constexpr ReadQueueEvents kIceLakeServer{"Ice Lake-SP", "event=0x80", "event=0x10,umask=0x01",
                                         "event=0x00"};

// tools/perf/pmu-events/arch/x86/sapphirerapids/uncore-memory.json: UNC_M_RPQ_OCCUPANCY_PCH0,
// UNC_M_RPQ_INSERTS.PCH0, UNC_M_CLOCKTICKS (DCLK).
constexpr ReadQueueEvents kSapphireRapids{"Sapphire Rapids", "event=0x80", "event=0x10,umask=0x01",
                                          "event=0x01,umask=0x01"};

// tools/perf/pmu-events/arch/x86/emeraldrapids/uncore-memory.json: the same three codes as
// Sapphire Rapids.
constexpr ReadQueueEvents kEmeraldRapids{"Emerald Rapids", "event=0x80", "event=0x10,umask=0x01",
                                         "event=0x01,umask=0x01"};

// tools/perf/pmu-events/arch/x86/graniterapids/uncore-memory.json:
// UNC_M_RPQ_OCCUPANCY_SCH0_PCH0, UNC_M_RPQ_INSERTS.SCH0_PCH0, UNC_M_CLOCKTICKS (DCLK).
constexpr ReadQueueEvents kGraniteRapids{"Granite Rapids", "event=0x80", "event=0x10,umask=0x10",
                                         "event=0x01,umask=0x01"};

struct Entry {
  unsigned model;
  const ReadQueueEvents* events;
};

constexpr std::array kIntelServers = {
    Entry{0x55, &kSkylakeServer},  Entry{0x6a, &kIceLakeServer}, Entry{0x6c, &kIceLakeServer},
    Entry{0x8f, &kSapphireRapids}, Entry{0xcf, &kEmeraldRapids}, Entry{0xad, &kGraniteRapids},
    Entry{0xae, &kGraniteRapids},
};

}  // namespace

const ReadQueueEvents* builtin_read_queue_events(const CpuId& cpu) {
  if (cpu.vendor != kIntel || cpu.family != kIntelFamily) {
    return nullptr;
  }
  for (const auto& entry : kIntelServers) {
    if (entry.model == cpu.model) {
      return entry.events;
    }
  }
  return nullptr;
}

std::string_view builtin_read_queue_cpus() {
  return "Intel Skylake-SP/Cascade Lake, Ice Lake-SP, Sapphire Rapids, Emerald Rapids and "
         "Granite Rapids";
}

}  // namespace nb::metrics
