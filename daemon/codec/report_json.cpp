#include "daemon/codec/report_json.hpp"

#include <algorithm>
#include <limits>
#include <string>

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
              {"rate_mib_per_s", process.rate_mib_per_s()},
              {"page_order", process.hot_first ? "hot_first" : "address"},
              {"bytes_moved_accessed", process.bytes_moved_accessed}};
}

// The totals of a container or of the whole report: the keys they share.
void write_totals(const rounds::MoveTotals& totals, json& out) {
  out["pages_scanned"] = totals.pages_scanned;
  out["bytes_on_source"] = totals.bytes_on_source;
  out["bytes_moved"] = totals.bytes_moved();
  out["bytes_moved_to"] = bytes_by_node(totals.bytes_moved_to);
  out["outcomes"] = to_json(totals.outcomes);
  out["syscalls"] = totals.syscalls;
  out["longest_call_ms"] = milliseconds(totals.longest_call);
  out["elapsed_ms"] = milliseconds(totals.elapsed);
  out["rate_mib_per_s"] = totals.rate_mib_per_s();
}

json container_json(const rounds::KeptContainer& container) {
  json processes = json::array();
  for (const auto& process : container.processes) {
    processes.push_back(process_json(process));
  }
  json out{{"id", container.id},
           {"cgroup",
            container.cgroup_dir.empty() ? json(nullptr) : json(container.cgroup_dir.string())},
           {"budget", optional_bytes(container.budget)},
           {"bytes_already_on_destination", container.totals.bytes_already_on_destination}};
  write_totals(container.totals, out);
  out["processes"] = std::move(processes);
  if (container.processes_omitted > 0) {
    out["processes_omitted"] = container.processes_omitted;
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
  return to_json(rounds::keep_busiest(report, std::numeric_limits<std::size_t>::max()));
}

json to_json(const actuator::MigrationReport& report, std::size_t processes_per_container) {
  return to_json(rounds::keep_busiest(report, processes_per_container));
}

json to_json(const rounds::KeptReport& report) {
  json containers = json::array();
  for (const auto& container : report.containers) {
    containers.push_back(container_json(container));
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
      {"bytes_placed", report.bytes_placed()},
      {"page_order", std::string(actuator::to_string(report.page_order))},
      {"page_order_fallback",
       report.page_order_fallback.empty() ? json(nullptr) : json(report.page_order_fallback)},
      {"hotness_window_ms", milliseconds(report.hotness_cost)},
      {"bytes_moved_accessed", report.bytes_moved_accessed},
      {"bytes_moved_not_accessed", report.bytes_moved_not_accessed},
      {"vanished_pids", report.vanished_pids},
      {"dropped_destinations", dropped},
      {"errors", errors},
      {"containers", containers}};
  write_totals(report.totals, document);
  if (report.dry_run) {
    document["would_move_bytes"] = std::min(report.totals.bytes_on_source, report.goal);
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
