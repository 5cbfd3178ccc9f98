#include "actuator/migration_report.hpp"

#include <algorithm>
#include <cerrno>

namespace nb::actuator {
namespace {

template <typename Item, typename Value>
Value sum_of(const std::vector<Item>& items, Value (Item::*member)() const) {
  Value total{};
  for (const auto& item : items) {
    total += (item.*member)();
  }
  return total;
}

void add_into(std::map<NodeId, Bytes>& total, const std::map<NodeId, Bytes>& part) {
  for (const auto& [node, bytes] : part) {
    total[node] += bytes;
  }
}

}  // namespace

double rate_mib_per_s(Bytes bytes, Nanoseconds elapsed) {
  double seconds = std::chrono::duration<double>(elapsed).count();
  return seconds > 0 ? static_cast<double>(bytes) / static_cast<double>(kMiB) / seconds : 0;
}

OutcomeCounts& OutcomeCounts::operator+=(const OutcomeCounts& o) {
  moved += o.moved;
  already_on_destination += o.already_on_destination;
  busy += o.busy;
  no_memory += o.no_memory;
  access_denied += o.access_denied;
  unmapped += o.unmapped;
  other += o.other;
  return *this;
}

std::string_view to_string(StopReason reason) {
  switch (reason) {
    case StopReason::completed:
      return "completed";
    case StopReason::budget_met:
      return "budget_met";
    case StopReason::cancelled:
      return "cancelled";
    case StopReason::deadline:
      return "deadline";
    case StopReason::no_destination:
      return "no_destination";
    case StopReason::nothing_to_move:
      return "nothing_to_move";
  }
  return "unknown";
}

std::optional<StopReason> parse_stop_reason(std::string_view name) {
  for (StopReason reason :
       {StopReason::completed, StopReason::budget_met, StopReason::cancelled, StopReason::deadline,
        StopReason::no_destination, StopReason::nothing_to_move}) {
    if (to_string(reason) == name) {
      return reason;
    }
  }
  return std::nullopt;
}

Bytes ProcessReport::bytes_moved() const {
  Bytes total = 0;
  for (const auto& [node, bytes] : bytes_moved_to) {
    total += bytes;
  }
  return total;
}

double ProcessReport::rate_mib_per_s() const {
  return actuator::rate_mib_per_s(bytes_moved(), elapsed);
}

Bytes ContainerReport::bytes_moved() const {
  return sum_of(processes, &ProcessReport::bytes_moved);
}

Bytes ContainerReport::bytes_on_source() const {
  Bytes total = 0;
  for (const auto& process : processes) {
    total += process.bytes_on_source;
  }
  return total;
}

std::map<NodeId, Bytes> ContainerReport::bytes_moved_to() const {
  std::map<NodeId, Bytes> total;
  for (const auto& process : processes) {
    add_into(total, process.bytes_moved_to);
  }
  return total;
}

Bytes ContainerReport::bytes_already_on_destination() const {
  Bytes total = 0;
  for (const auto& process : processes) {
    total += process.bytes_already_on_destination;
  }
  return total;
}

OutcomeCounts ContainerReport::outcomes() const {
  OutcomeCounts total;
  for (const auto& process : processes) {
    total += process.outcomes;
  }
  return total;
}

std::int64_t ContainerReport::pages_scanned() const {
  std::int64_t total = 0;
  for (const auto& process : processes) {
    total += process.pages_scanned;
  }
  return total;
}

std::int64_t ContainerReport::syscalls() const {
  std::int64_t total = 0;
  for (const auto& process : processes) {
    total += process.syscalls;
  }
  return total;
}

Nanoseconds ContainerReport::longest_call() const {
  Nanoseconds longest{0};
  for (const auto& process : processes) {
    longest = std::max(longest, process.longest_call);
  }
  return longest;
}

double ContainerReport::rate_mib_per_s() const {
  return actuator::rate_mib_per_s(bytes_moved(), elapsed);
}

Bytes MigrationReport::bytes_moved() const {
  return sum_of(containers, &ContainerReport::bytes_moved);
}

Bytes MigrationReport::bytes_moved_accessed() const {
  Bytes total = 0;
  for (const auto& container : containers) {
    for (const auto& process : container.processes) {
      total += process.hot_first ? process.bytes_moved_accessed : 0;
    }
  }
  return total;
}

Bytes MigrationReport::bytes_moved_not_accessed() const {
  return bytes_moved_in(PageOrder::hot_first) - bytes_moved_accessed();
}

Bytes MigrationReport::bytes_moved_in(PageOrder order) const {
  Bytes total = 0;
  for (const auto& container : containers) {
    for (const auto& process : container.processes) {
      if (process.hot_first == (order == PageOrder::hot_first)) {
        total += process.bytes_moved();
      }
    }
  }
  return total;
}

Bytes MigrationReport::bytes_placed() const {
  return bytes_moved() + sum_of(containers, &ContainerReport::bytes_already_on_destination);
}

Bytes MigrationReport::bytes_on_source() const {
  return sum_of(containers, &ContainerReport::bytes_on_source);
}

std::map<NodeId, Bytes> MigrationReport::bytes_moved_to() const {
  std::map<NodeId, Bytes> total;
  for (const auto& container : containers) {
    add_into(total, container.bytes_moved_to());
  }
  return total;
}

OutcomeCounts MigrationReport::outcomes() const {
  OutcomeCounts total;
  for (const auto& container : containers) {
    total += container.outcomes();
  }
  return total;
}

std::int64_t MigrationReport::pages_scanned() const {
  return sum_of(containers, &ContainerReport::pages_scanned);
}

std::int64_t MigrationReport::syscalls() const {
  return sum_of(containers, &ContainerReport::syscalls);
}

Nanoseconds MigrationReport::longest_call() const {
  Nanoseconds longest{0};
  for (const auto& container : containers) {
    longest = std::max(longest, container.longest_call());
  }
  return longest;
}

double MigrationReport::rate_mib_per_s() const {
  return actuator::rate_mib_per_s(bytes_moved(), elapsed);
}

std::string hint_for(int code) {
  switch (code) {
    case EPERM:
      return "moving another process's pages needs CAP_SYS_NICE, and reading its page map "
             "CAP_SYS_PTRACE; run as root or grant both capabilities to numabalancerd";
    case EACCES:
      return "the process's cpuset does not allow the destination node, or its pages are shared "
             "with other processes (set [actuator] move_shared = true, which needs CAP_SYS_NICE)";
    case ENOMEM:
      return "the destination node ran out of free memory; it was dropped for the rest of the job";
    case ENODEV:
      return "the destination node does not exist or has no memory";
    case EBUSY:
      return "pages were pinned or locked (e.g. by I/O) and could not be moved now";
    default:
      return "";
  }
}

}  // namespace nb::actuator
