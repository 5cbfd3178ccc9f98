#include "daemon/codec/report_json.hpp"

#include <algorithm>
#include <limits>
#include <string>
#include <vector>

namespace nb::codec {
namespace {

using nlohmann::json;

double milliseconds(actuator::Nanoseconds duration) {
  return std::chrono::duration<double, std::milli>(duration).count();
}

json bytes_by_node(const std::map<NodeId, Bytes>& bytes) {
  json object = json::object();
  for (const auto& [node, amount] : bytes) {
    object[std::to_string(node)] = amount;
  }
  return object;
}

json optional_bytes(std::optional<Bytes> bytes) {
  return bytes ? json(*bytes) : json(nullptr);
}

json process_json(const actuator::ProcessReport& process) {
  return json{{"pid", process.pid},
              {"fast_path", process.fast_path},
              {"vanished", process.vanished},
              {"pages_scanned", process.pages_scanned},
              {"bytes_on_source", process.bytes_on_source},
              {"bytes_moved", process.bytes_moved()},
              {"bytes_moved_to", bytes_by_node(process.bytes_moved_to)},
              {"bytes_already_on_destination", process.bytes_already_on_destination},
              {"outcomes", to_json(process.outcomes)},
              {"syscalls", process.syscalls},
              {"longest_call_ms", milliseconds(process.longest_call)},
              {"elapsed_ms", milliseconds(process.elapsed)},
              {"rate_mib_per_s", process.rate_mib_per_s()}};
}

// Over the limit, the processes with the most bytes on the source are kept (ties in walk order).
std::vector<const actuator::ProcessReport*> kept_processes(
    const actuator::ContainerReport& container, std::size_t limit) {
  std::vector<const actuator::ProcessReport*> kept;
  for (const auto& process : container.processes) {
    kept.push_back(&process);
  }
  if (kept.size() > limit) {
    std::stable_sort(kept.begin(), kept.end(), [](const auto* a, const auto* b) {
      return a->bytes_on_source > b->bytes_on_source;
    });
    kept.resize(limit);
  }
  return kept;
}

json container_json(const actuator::ContainerReport& container, std::size_t process_limit) {
  json processes = json::array();
  for (const auto* process : kept_processes(container, process_limit)) {
    processes.push_back(process_json(*process));
  }
  json out{{"id", container.id},
           {"cgroup",
            container.cgroup_dir.empty() ? json(nullptr) : json(container.cgroup_dir.string())},
           {"budget", optional_bytes(container.budget)},
           {"pages_scanned", container.pages_scanned()},
           {"bytes_on_source", container.bytes_on_source()},
           {"bytes_moved", container.bytes_moved()},
           {"bytes_moved_to", bytes_by_node(container.bytes_moved_to())},
           {"bytes_already_on_destination", container.bytes_already_on_destination()},
           {"outcomes", to_json(container.outcomes())},
           {"syscalls", container.syscalls()},
           {"longest_call_ms", milliseconds(container.longest_call())},
           {"elapsed_ms", milliseconds(container.elapsed)},
           {"rate_mib_per_s", container.rate_mib_per_s()},
           {"processes", processes}};
  if (container.processes.size() > process_limit) {
    out["processes_omitted"] = container.processes.size() - process_limit;
  }
  return out;
}

}  // namespace

json to_json(const actuator::OutcomeCounts& counts) {
  return json{{"moved", counts.moved},
              {"already_on_destination", counts.already_on_destination},
              {"busy", counts.busy},
              {"no_memory", counts.no_memory},
              {"access_denied", counts.access_denied},
              {"unmapped", counts.unmapped},
              {"other", counts.other}};
}

json error_in_full_report(const actuator::ReportError& error) {
  return json{{"pid", error.pid ? json(*error.pid) : json(nullptr)},
              {"container_id", error.container_id},
              {"errno", error.code},
              {"message", error.message},
              {"hint", error.hint}};
}

json error_in_summary(const actuator::ReportError& error) {
  json item{{"container", error.container_id}, {"code", error.code}, {"message", error.message}};
  if (error.pid) {
    item["pid"] = *error.pid;
  }
  if (!error.hint.empty()) {
    item["hint"] = error.hint;
  }
  return item;
}

json to_json(const actuator::MigrationReport& report) {
  return to_json(report, std::numeric_limits<std::size_t>::max());
}

json to_json(const actuator::MigrationReport& report, std::size_t processes_per_container) {
  json containers = json::array();
  for (const auto& container : report.containers) {
    containers.push_back(container_json(container, processes_per_container));
  }
  json dropped = json::array();
  for (const auto& destination : report.dropped_destinations) {
    dropped.push_back(json{{"node", destination.node}, {"reason", destination.reason}});
  }
  json errors = json::array();
  for (const auto& error : report.errors) {
    errors.push_back(error_in_full_report(error));
  }
  json document{
      {"source_node", report.source_node},
      {"dest_nodes", report.dest_nodes},
      {"dry_run", report.dry_run},
      {"move_shared", report.move_shared},
      {"budget", report.budget == actuator::kUnlimitedBudget ? json(nullptr) : json(report.budget)},
      {"goal", report.goal},
      {"threshold", report.threshold},
      // A dry run moves nothing, so it claims no threshold: null, and what it would move.
      {"threshold_met", report.dry_run ? json() : json(report.threshold_met)},
      {"stop_reason", std::string(actuator::to_string(report.stop_reason))},
      {"bytes_moved", report.bytes_moved()},
      {"bytes_placed", report.bytes_placed()},
      {"bytes_on_source", report.bytes_on_source()},
      {"bytes_moved_to", bytes_by_node(report.bytes_moved_to())},
      {"outcomes", to_json(report.outcomes())},
      {"pages_scanned", report.pages_scanned()},
      {"syscalls", report.syscalls()},
      {"longest_call_ms", milliseconds(report.longest_call())},
      {"elapsed_ms", milliseconds(report.elapsed)},
      {"rate_mib_per_s", report.rate_mib_per_s()},
      {"vanished_pids", report.vanished_pids},
      {"dropped_destinations", dropped},
      {"errors", errors},
      {"containers", containers}};
  if (report.dry_run) {
    document["would_move_bytes"] = std::min(report.bytes_on_source(), report.goal);
  }
  return document;
}

json to_json(const actuator::JobProgress& progress) {
  return json{{"moved", progress.moved},
              {"placed", progress.placed},
              {"goal", progress.goal},
              {"rate_mib_per_s", progress.rate_mib_per_s},
              {"elapsed_ms", milliseconds(progress.elapsed)},
              {"container", progress.container_id},
              {"pid", progress.pid}};
}

}  // namespace nb::codec
