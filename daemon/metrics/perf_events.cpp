#include "daemon/metrics/perf_events.hpp"

#include <linux/perf_event.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>

namespace nb::metrics {
namespace {

class SystemPerfEvents final : public PerfEvents {
 public:
  Result<int> open(const PerfEventSpec& spec) override {
    perf_event_attr attr;
    std::memset(&attr, 0, sizeof attr);
    attr.size = sizeof attr;
    attr.type = spec.type;
    attr.config = spec.config.config;
    attr.config1 = spec.config.config1;
    attr.config2 = spec.config.config2;
    attr.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
    long fd = ::syscall(SYS_perf_event_open, &attr, -1, spec.cpu, -1, PERF_FLAG_FD_CLOEXEC);
    if (fd < 0) {
      return make_error(errno, "perf_event_open type " + std::to_string(spec.type) + " config 0x" +
                                   hex(spec.config.config) + " on cpu " + std::to_string(spec.cpu));
    }
    return static_cast<int>(fd);
  }

  Result<PerfCount> read(int handle) override {
    std::uint64_t fields[3] = {};
    ssize_t got = ::read(handle, fields, sizeof fields);
    if (got < 0) {
      return make_error(errno, "read perf counter");
    }
    if (got != static_cast<ssize_t>(sizeof fields)) {
      return make_error(EIO, "short read of a perf counter");
    }
    return PerfCount{fields[0], fields[1], fields[2]};
  }

  void close(int handle) override { ::close(handle); }

 private:
  static std::string hex(std::uint64_t value) {
    char buffer[20];
    std::snprintf(buffer, sizeof buffer, "%llx", static_cast<unsigned long long>(value));
    return buffer;
  }
};

}  // namespace

std::unique_ptr<PerfEvents> make_system_perf_events() {
  return std::make_unique<SystemPerfEvents>();
}

}  // namespace nb::metrics
