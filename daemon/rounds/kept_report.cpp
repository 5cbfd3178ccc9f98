#include "daemon/rounds/kept_report.hpp"

#include <algorithm>

namespace nb::rounds {
namespace {

MoveTotals totals_of(const actuator::ContainerReport& container) {
  return MoveTotals{.pages_scanned = container.pages_scanned(),
                    .bytes_on_source = container.bytes_on_source(),
                    .bytes_moved_to = container.bytes_moved_to(),
                    .bytes_already_on_destination = container.bytes_already_on_destination(),
                    .outcomes = container.outcomes(),
                    .syscalls = container.syscalls(),
                    .longest_call = container.longest_call(),
                    .elapsed = container.elapsed};
}

MoveTotals totals_of(const actuator::MigrationReport& report) {
  std::map<NodeId, Bytes> moved_to = report.bytes_moved_to();
  Bytes already_there = 0;
  for (const auto& container : report.containers) {
    already_there += container.bytes_already_on_destination();
  }
  return MoveTotals{.pages_scanned = report.pages_scanned(),
                    .bytes_on_source = report.bytes_on_source(),
                    .bytes_moved_to = std::move(moved_to),
                    .bytes_already_on_destination = already_there,
                    .outcomes = report.outcomes(),
                    .syscalls = report.syscalls(),
                    .longest_call = report.longest_call(),
                    .elapsed = report.elapsed};
}

std::vector<actuator::ProcessReport> busiest(std::vector<actuator::ProcessReport> processes,
                                             std::size_t limit) {
  if (processes.size() > limit) {
    std::stable_sort(processes.begin(), processes.end(), [](const auto& a, const auto& b) {
      return a.bytes_on_source > b.bytes_on_source;
    });
    processes.resize(limit);
  }
  return processes;
}

}  // namespace

Bytes MoveTotals::bytes_moved() const {
  Bytes total = 0;
  for (const auto& [node, bytes] : bytes_moved_to) {
    total += bytes;
  }
  return total;
}

double MoveTotals::rate_mib_per_s() const {
  return actuator::rate_mib_per_s(bytes_moved(), elapsed);
}

Bytes KeptReport::bytes_placed() const {
  return totals.bytes_moved() + totals.bytes_already_on_destination;
}

KeptReport keep_busiest(const actuator::MigrationReport& report,
                        std::size_t processes_per_container) {
  KeptReport kept{.source_node = report.source_node,
                  .dest_nodes = report.dest_nodes,
                  .dry_run = report.dry_run,
                  .move_shared = report.move_shared,
                  .budget = report.budget,
                  .goal = report.goal,
                  .threshold = report.threshold,
                  .threshold_met = report.threshold_met,
                  .stop_reason = report.stop_reason,
                  .vanished_pids = report.vanished_pids,
                  .dropped_destinations = report.dropped_destinations,
                  .errors = report.errors,
                  .page_order = report.page_order,
                  .page_order_fallback = report.page_order_fallback,
                  .hotness_cost = report.hotness_cost,
                  .totals = totals_of(report),
                  .bytes_moved_accessed = report.bytes_moved_accessed(),
                  .bytes_moved_not_accessed = report.bytes_moved_not_accessed(),
                  .containers = {}};
  for (const auto& container : report.containers) {
    const std::size_t count = container.processes.size();
    kept.containers.push_back(
        KeptContainer{.id = container.id,
                      .cgroup_dir = container.cgroup_dir,
                      .budget = container.budget,
                      .totals = totals_of(container),
                      .processes = busiest(container.processes, processes_per_container),
                      .processes_omitted =
                          count > processes_per_container ? count - processes_per_container : 0});
  }
  return kept;
}

}  // namespace nb::rounds
