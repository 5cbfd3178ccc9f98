#include "daemon/service/report_summary.hpp"

#include <algorithm>
#include <chrono>
#include <string>

#include "daemon/codec/report_json.hpp"

namespace nb::service {

namespace {

double milliseconds(std::chrono::nanoseconds value) {
  return std::chrono::duration<double, std::milli>(value).count();
}

}  // namespace

nlohmann::json report_summary(const actuator::MigrationReport& report) {
  nlohmann::json moved_to = nlohmann::json::object();
  for (const auto& [node, bytes] : report.bytes_moved_to()) {
    moved_to[std::to_string(node)] = bytes;
  }
  auto outcomes = report.outcomes();
  nlohmann::json errors = nlohmann::json::array();
  for (const auto& error : report.errors) {
    nlohmann::json item{
        {"container", error.container_id}, {"code", error.code}, {"message", error.message}};
    if (error.pid) {
      item["pid"] = *error.pid;
    }
    if (!error.hint.empty()) {
      item["hint"] = error.hint;
    }
    errors.push_back(std::move(item));
  }
  return {
      {"source_node", report.source_node},
      {"dest_nodes", report.dest_nodes},
      {"dry_run", report.dry_run},
      {"budget", report.budget},
      {"goal", report.goal},
      {"threshold", report.threshold},
      {"threshold_met", report.threshold_met},
      {"stop_reason", actuator::to_string(report.stop_reason)},
      {"bytes_moved", report.bytes_moved()},
      {"bytes_placed", report.bytes_placed()},
      {"bytes_on_source", report.bytes_on_source()},
      {"bytes_moved_to", moved_to},
      {"outcomes",
       {{"moved", outcomes.moved},
        {"already_on_destination", outcomes.already_on_destination},
        {"busy", outcomes.busy},
        {"no_memory", outcomes.no_memory},
        {"access_denied", outcomes.access_denied},
        {"unmapped", outcomes.unmapped},
        {"other", outcomes.other}}},
      {"containers", report.containers.size()},
      {"vanished_pids", report.vanished_pids.size()},
      {"syscalls", report.syscalls()},
      {"longest_call_ms", milliseconds(report.longest_call())},
      {"elapsed_ms", milliseconds(report.elapsed)},
      {"rate_mib_per_s", report.rate_mib_per_s()},
      {"errors", errors},
  };
}

nlohmann::json full_report(const actuator::MigrationReport& report,
                           std::size_t processes_per_container) {
  nlohmann::json json = codec::to_json(report);
  for (auto& container : json["containers"]) {
    auto& processes = container["processes"];
    if (processes.size() <= processes_per_container) {
      continue;
    }
    auto on_source = [](const nlohmann::json& process) {
      return process.value("bytes_on_source", Bytes{0});
    };
    std::stable_sort(processes.begin(), processes.end(),
                     [&](const auto& a, const auto& b) { return on_source(a) > on_source(b); });
    container["processes_omitted"] = processes.size() - processes_per_container;
    processes.erase(processes.begin() + static_cast<std::ptrdiff_t>(processes_per_container),
                    processes.end());
  }
  return json;
}

nlohmann::json progress_json(const actuator::JobProgress& progress) {
  return {
      {"moved", progress.moved},
      {"placed", progress.placed},
      {"goal", progress.goal},
      {"rate_mib_per_s", progress.rate_mib_per_s},
      {"elapsed_ms", milliseconds(progress.elapsed)},
      {"container", progress.container_id},
      {"pid", progress.pid},
  };
}

}  // namespace nb::service
