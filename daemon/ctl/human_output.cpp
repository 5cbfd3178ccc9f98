#include "daemon/ctl/human_output.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace nb::ctl {

namespace {

using nlohmann::json;

std::string text(const json& value) {
  if (value.is_null()) {
    return "-";
  }
  if (value.is_string()) {
    return value.get<std::string>();
  }
  return value.dump();
}

std::string nodes(const json& list) {
  if (!list.is_array() || list.empty()) {
    return "-";
  }
  std::string out;
  for (const auto& node : list) {
    out += (out.empty() ? "" : ",") + text(node);
  }
  return out;
}

std::string bytes_or_dash(const json& value) {
  return value.is_number() ? format_bytes(value.get<double>()) : "-";
}

std::string round_line(const json& round) {
  if (!round.is_object()) {
    return "-";
  }
  std::string line =
      fmt::format("#{} {} {}", text(round.value("number", json())),
                  text(round.value("time", json())), text(round.value("status", json())));
  std::string outcome = round.value("outcome", std::string());
  if (!outcome.empty() && outcome != "none") {
    line += " (" + outcome + ")";
  }
  if (round.contains("source_node") && !round["source_node"].is_null()) {
    line += fmt::format(", node {} -> {}", text(round["source_node"]),
                        nodes(round.value("dest_nodes", json::array())));
  }
  std::string reason = round.value("reason", std::string());
  if (!reason.empty()) {
    line += ": " + reason;
  }
  return line;
}

std::string job_line(const json& job) {
  if (!job.is_object()) {
    return "none";
  }
  const json& progress = job.value("progress", json::object());
  std::string goal = progress.value("goal", 0LL) > 0 ? bytes_or_dash(progress["goal"]) : "?";
  return fmt::format("job {} ({}{}), node {} -> {}: {} of {} at {:.0f} MiB/s{}", text(job["id"]),
                     text(job["kind"]), job.value("dry_run", false) ? ", dry-run" : "",
                     text(job["source_node"]), nodes(job["dest_nodes"]),
                     bytes_or_dash(progress.value("moved", json(0))), goal,
                     progress.value("rate_mib_per_s", 0.0),
                     job.value("cancel_requested", false) ? " (cancelling)" : "");
}

std::string format_status(const json& r) {
  std::string out;
  out += fmt::format("state:      {}{}\n", text(r["state"]),
                     r.value("dry_run", false) ? " (dry-run)" : "");
  out += fmt::format("pid:        {}, up {:.0f} s, interval {} ms, {} rounds\n", text(r["pid"]),
                     r.value("uptime_s", 0.0), text(r["interval_ms"]), text(r["rounds"]));
  out += "last round: " + round_line(r.value("last_round", json())) + "\n";
  out += "job:        " + job_line(r.value("job", json())) + "\n";
  if (r.contains("deferred") && !r["deferred"].is_null()) {
    out += "deferred:   " + round_line(r["deferred"]) + "\n";
  }
  for (const auto& provider : r.value("providers", json::array())) {
    std::string name = provider.value("provider", std::string());
    std::string reason = provider.value("unavailable_reason", std::string());
    out += fmt::format("provider:   {} {} {}{}\n", text(provider["metric"]),
                       name.empty() ? "-" : name, provider.value("up", false) ? "up" : "down",
                       reason.empty() ? "" : " (" + reason + ")");
  }
  if (r.contains("scan_error") && !r["scan_error"].is_null()) {
    out += "scan error: " + text(r["scan_error"]) + "\n";
  }
  return out;
}

std::string format_decision(const json& d) {
  std::string out = fmt::format("status: {} ({}), level {}\n", text(d["status"]),
                                text(d.value("reason", json())), text(d.value("level", json())));
  if (d.contains("source_node") && !d["source_node"].is_null()) {
    out += fmt::format("move:   node {} -> {}, {} in total, threshold {}\n", text(d["source_node"]),
                       nodes(d.value("dest_nodes", json::array())),
                       bytes_or_dash(d.value("total_bytes", json())),
                       text(d.value("threshold", json())));
  }
  std::vector<std::vector<std::string>> rows{{"CONTAINER", "ON SOURCE", "TO"}};
  for (const auto& move : d.value("migrate", json::array())) {
    rows.push_back({text(move.value("id", json())),
                    bytes_or_dash(move.value("bytes_on_source", json())),
                    nodes(move.value("dest_nodes", json::array()))});
  }
  if (rows.size() > 1) {
    out += format_table(rows);
  }
  for (const auto& evict : d.value("evict", json::array())) {
    out += "evict:  " + text(evict.value("id", json())) + "\n";
  }
  return out;
}

std::string format_history(const json& r) {
  std::vector<std::vector<std::string>> rows{{"#", "TIME", "TRIGGER", "STATUS", "OUTCOME", "FROM",
                                              "TO", "PLANNED", "MOVED", "CONTAINERS"}};
  for (const auto& round : r.value("rounds", json::array())) {
    std::string containers;
    for (const auto& id : round.value("containers", json::array())) {
      containers += (containers.empty() ? "" : ",") + text(id);
    }
    rows.push_back({text(round["number"]), text(round["time"]), text(round["trigger"]),
                    text(round["status"]), text(round["outcome"]), text(round["source_node"]),
                    nodes(round["dest_nodes"]), bytes_or_dash(round["planned_bytes"]),
                    bytes_or_dash(round["moved_bytes"]), containers.empty() ? "-" : containers});
  }
  return format_table(rows);
}

std::string format_containers(const json& r) {
  std::vector<int> node_ids;
  for (const auto& container : r.value("containers", json::array())) {
    const json anon = container.value("anon_bytes", json::object());
    for (const auto& [node, bytes] : anon.items()) {
      int id = std::stoi(node);
      if (std::find(node_ids.begin(), node_ids.end(), id) == node_ids.end()) {
        node_ids.push_back(id);
      }
    }
  }
  std::sort(node_ids.begin(), node_ids.end());
  std::vector<std::string> header{"CONTAINER", "POOL", "ANON"};
  for (int id : node_ids) {
    header.push_back("N" + std::to_string(id));
  }
  std::vector<std::vector<std::string>> rows{header};
  for (const auto& container : r.value("containers", json::array())) {
    std::vector<std::string> row{text(container["id"]), text(container["pool"]),
                                 bytes_or_dash(container["total_anon_bytes"])};
    const json& anon = container.value("anon_bytes", json::object());
    for (int id : node_ids) {
      row.push_back(bytes_or_dash(anon.value(std::to_string(id), json())));
    }
    rows.push_back(std::move(row));
  }
  return format_table(rows);
}

std::string format_topology(const json& r) {
  std::vector<std::vector<std::string>> rows{
      {"NODE", "CPUS", "FREE", "TOTAL", "LATENCY", "BANDWIDTH", "DISTANCE"}};
  for (const auto& node : r.value("nodes", json::array())) {
    std::string distance;
    const json distances = node.value("distance", json::object());
    for (const auto& [other, value] : distances.items()) {
      distance += (distance.empty() ? "" : " ") + other + ":" + text(value);
    }
    const json& latency = node["read_latency_ns"];
    const json& bandwidth = node["bandwidth_gbps"];
    rows.push_back(
        {text(node["id"]),
         node.value("cpus", std::string()).empty() ? "(none)" : text(node["cpus"]),
         bytes_or_dash(node["free_bytes"]), bytes_or_dash(node["total_bytes"]),
         latency.is_number() ? fmt::format("{:.1f} ns", latency.get<double>()) : "-",
         bandwidth.is_number() ? fmt::format("{:.2f} GB/s", bandwidth.get<double>()) : "-",
         distance});
  }
  std::string out = format_table(rows);
  for (const auto& pool : r.value("pools", json::array())) {
    out += fmt::format("pool {}: nodes {}\n", text(pool["name"]), nodes(pool["nodes"]));
  }
  return out;
}

void format_config_section(const json& section, const std::string& prefix, std::string& out) {
  std::string nested;
  for (const auto& [key, value] : section.items()) {
    if (value.is_object()) {
      format_config_section(value, prefix.empty() ? key : prefix + "." + key, nested);
    } else {
      out += key + " = " + value.dump() + "\n";
    }
  }
  out += nested;
}

std::string format_config(const json& r) {
  std::string out;
  if (r.contains("file")) {
    out += "# " + text(r["file"]) + "\n";
  }
  for (const auto& [name, section] : r.items()) {
    if (name == "file") {
      continue;
    }
    if (section.is_array()) {
      for (const auto& item : section) {
        out += "\n[[" + name + "]]\n";
        format_config_section(item, "", out);
      }
      continue;
    }
    out += "\n[" + name + "]\n";
    std::string body;
    std::string nested;
    for (const auto& [key, value] : section.items()) {
      if (value.is_object()) {
        nested += "\n[" + name + "." + key + "]\n";
        format_config_section(value, "", nested);
      } else {
        body += key + " = " + value.dump() + "\n";
      }
    }
    out += body + nested;
  }
  return out;
}

}  // namespace

std::string format_bytes(double bytes) {
  const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  int unit = 0;
  double value = bytes;
  while (std::abs(value) >= 1024 && unit < 4) {
    value /= 1024;
    ++unit;
  }
  if (unit == 0) {
    return fmt::format("{:.0f} B", value);
  }
  return fmt::format("{:.1f} {}", value, units[unit]);
}

std::string format_table(const std::vector<std::vector<std::string>>& rows) {
  std::vector<std::size_t> widths;
  for (const auto& row : rows) {
    widths.resize(std::max(widths.size(), row.size()), 0);
    for (std::size_t i = 0; i < row.size(); ++i) {
      widths[i] = std::max(widths[i], row[i].size());
    }
  }
  std::string out;
  for (const auto& row : rows) {
    std::string line;
    for (std::size_t i = 0; i < row.size(); ++i) {
      line += row[i];
      if (i + 1 < row.size()) {
        line += std::string(widths[i] - row[i].size() + 2, ' ');
      }
    }
    out += line + "\n";
  }
  return out;
}

std::string format_result(const std::string& cmd, const json& result) {
  if (cmd == "status") {
    return format_status(result);
  }
  if (cmd == "plan") {
    if (result.contains("text")) {
      return text(result["text"]);
    }
    return format_decision(result.value("decision", json::object()));
  }
  if (cmd == "history") {
    return format_history(result);
  }
  if (cmd == "containers") {
    return format_containers(result);
  }
  if (cmd == "topology") {
    return format_topology(result);
  }
  if (cmd == "metrics") {
    return text(result.value("text", json("")));
  }
  if (cmd == "config") {
    return format_config(result);
  }
  if (cmd == "list_commands") {
    std::vector<std::vector<std::string>> rows{{"COMMAND", "CHANGES STATE", "WHAT IT DOES"}};
    for (const auto& command : result) {
      rows.push_back({text(command["name"]), command.value("mutating", false) ? "yes" : "no",
                      text(command["help"])});
    }
    return format_table(rows);
  }
  if (cmd == "reconcile") {
    std::string out = round_line(result.value("round", json())) + "\n";
    if (result.contains("decision")) {
      out += format_decision(result["decision"]);
    }
    return out;
  }
  if (cmd == "pause" || cmd == "resume") {
    return result.value("paused", false) ? "paused\n" : "resumed\n";
  }
  if (cmd == "dry_run") {
    return result.value("dry_run", false) ? "dry-run on\n" : "dry-run off\n";
  }
  if (cmd == "cancel") {
    return "cancelling job " + text(result["job"]) + "\n";
  }
  if (cmd == "reload") {
    std::string out = "configuration reloaded\n";
    for (const auto& key : result.value("restart_needed", json::array())) {
      out += "  " + text(key) + " changed: takes effect after a restart\n";
    }
    return out;
  }
  return result.dump(2) + "\n";
}

std::string format_event(const std::string& kind, const std::string& time, const json& data) {
  if (kind == "round" || kind == "job_done") {
    std::string line = time + " " + kind + " " + round_line(data);
    if (kind == "job_done") {
      line += fmt::format(", moved {}", bytes_or_dash(data.value("moved_bytes", json())));
    }
    return line;
  }
  if (kind == "job_started" || kind == "job_progress") {
    return time + " " + kind + " " + job_line(data);
  }
  if (kind == "eviction") {
    return fmt::format("{} eviction {} ({}): {}", time, text(data["container"]),
                       text(data["action"]),
                       data.value("ok", false) ? text(data.value("detail", json()))
                                               : "failed: " + text(data.value("error", json())));
  }
  return time + " " + kind + " " + data.dump();
}

}  // namespace nb::ctl
