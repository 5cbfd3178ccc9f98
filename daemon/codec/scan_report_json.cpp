#include "daemon/codec/scan_report_json.hpp"

namespace nb::codec {
namespace {

using host::CgroupReport;
using host::ProviderReport;
using host::ScanCounts;

using nlohmann::json;

json path_or_null(const std::optional<std::filesystem::path>& path) {
  return path ? json(path->string()) : json(nullptr);
}

json cgroup_json(const CgroupReport& cgroup) {
  return {{"mode", to_string(cgroup.mode)},
          {"discovery", cgroup.discovery},
          {"memory_root", cgroup.memory_root.string()},
          {"cpuset_root", path_or_null(cgroup.cpuset_root)},
          {"unified_root", path_or_null(cgroup.unified_root)}};
}

json provider_json(const ProviderReport& report) {
  json out = {{"available", report.available},
              {"provider", report.provider.empty() ? json(nullptr) : json(report.provider)}};
  if (report.kind) {
    out["kind"] = metrics::to_string(*report.kind);
  }
  if (!report.reason.empty()) {
    out[report.available ? "skipped_providers" : "unavailable_reason"] = report.reason;
  }
  return out;
}

json counts_json(const ScanCounts& counts) {
  return {{"cgroups_seen", counts.cgroups_seen},
          {"containers", counts.containers},
          {"vanished", counts.vanished},
          {"without_numa_stat", counts.without_numa_stat},
          {"unreadable", counts.unreadable},
          {"errors", counts.errors},
          {"pool_conflicts", counts.pool_conflicts},
          {"pool_errors", counts.pool_errors}};
}

}  // namespace

json to_json(const host::ScanReport& report) {
  json meta = json::object();
  if (report.host) {
    meta["host"] = *report.host;
  }
  meta["host_root"] = report.host_root.string();
  meta["cgroup"] = cgroup_json(report.cgroup);
  json metrics = json::object();
  for (const host::ProviderReport& provider : report.providers) {
    metrics[std::string(metrics::to_string(provider.metric))] = provider_json(provider);
  }
  meta["metrics"] = std::move(metrics);
  meta["scan"] = counts_json(report.counts);
  return meta;
}

std::vector<ProviderReport> provider_reports(const json& meta) {
  std::vector<ProviderReport> reports;
  const auto metrics = meta.find("metrics");
  if (!meta.is_object() || metrics == meta.end() || !metrics->is_object()) {
    return reports;
  }
  for (metrics::Metric metric : {metrics::Metric::read_latency, metrics::Metric::bandwidth}) {
    const auto entry = metrics->find(std::string(metrics::to_string(metric)));
    if (entry == metrics->end() || !entry->is_object()) {
      continue;
    }
    ProviderReport report;
    report.metric = metric;
    const auto available = entry->find("available");
    report.available =
        available != entry->end() && available->is_boolean() && available->get<bool>();
    if (auto provider = entry->find("provider");
        provider != entry->end() && provider->is_string()) {
      report.provider = provider->get<std::string>();
    }
    const char* reason_key = report.available ? "skipped_providers" : "unavailable_reason";
    if (auto reason = entry->find(reason_key); reason != entry->end() && reason->is_string()) {
      report.reason = reason->get<std::string>();
    }
    reports.push_back(std::move(report));
  }
  return reports;
}

}  // namespace nb::codec
