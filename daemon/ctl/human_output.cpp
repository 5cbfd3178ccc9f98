#include "daemon/ctl/human_output.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "daemon/ctl/audit_view.hpp"

namespace nb::ctl {

namespace {

using nlohmann::json;

std::string round_line(const json& round) {
  if (!round.is_object()) {
    return "-";
  }
  std::string line =
      fmt::format("#{} {} {}", cell_text(round.value("number", json())),
                  cell_text(round.value("time", json())), cell_text(round.value("status", json())));
  std::string outcome = round.value("outcome", std::string());
  if (!outcome.empty() && outcome != "none") {
    line += " (" + outcome + ")";
  }
  if (round.contains("source_node") && !round["source_node"].is_null()) {
    line += fmt::format(", node {} -> {}", cell_text(round["source_node"]),
                        cell_nodes(round.value("dest_nodes", json::array())));
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
  std::string goal = progress.value("goal", 0LL) > 0 ? cell_bytes(progress["goal"]) : "?";
  return fmt::format("job {} ({}{}), node {} -> {}: {} of {} at {:.0f} MiB/s{}",
                     cell_text(job["id"]), cell_text(job["kind"]),
                     job.value("dry_run", false) ? ", dry-run" : "", cell_text(job["source_node"]),
                     cell_nodes(job["dest_nodes"]), cell_bytes(progress.value("moved", json(0))),
                     goal, progress.value("rate_mib_per_s", 0.0),
                     job.value("cancel_requested", false) ? " (cancelling)" : "");
}

std::string bytes_by_node(const json& by_node) {
  std::string out;
  if (by_node.is_object()) {
    for (const auto& [node, bytes] : by_node.items()) {
      out += (out.empty() ? "" : " ") + node + ":" + cell_bytes(bytes);
    }
  }
  return out.empty() ? "-" : out;
}

// Pages the job asked to move that stayed where they were.
std::string not_moved(const json& outcomes) {
  long long count = 0;
  for (const char* key : {"busy", "no_memory", "access_denied", "other"}) {
    count += outcomes.value(key, 0LL);
  }
  return count == 0 ? "-" : std::to_string(count) + " pages";
}

std::vector<std::string> report_row(std::string name, const json& part) {
  return {std::move(name),
          cell_bytes(part.value("bytes_on_source", json())),
          cell_bytes(part.value("bytes_moved", json())),
          bytes_by_node(part.value("bytes_moved_to", json())),
          not_moved(part.value("outcomes", json::object())),
          cell_text(part.value("syscalls", json()))};
}

// A full migration report: one line of totals, a row per container and per process (the
// biggest few; --json lists every one the daemon kept), then the errors.
constexpr std::size_t kProcessesShown = 5;

std::string format_full_report(const json& report, const std::string& indent) {
  std::string out = fmt::format(
      "{}{}, {} moved of {} goal, threshold {}, {} syscalls in {:.0f} ms{}\n", indent,
      cell_text(report.value("stop_reason", json())),
      cell_bytes(report.value("bytes_moved", json())), cell_bytes(report.value("goal", json())),
      report.value("threshold_met", false) ? "met" : "not met",
      cell_text(report.value("syscalls", json())), report.value("elapsed_ms", 0.0),
      report.value("dry_run", false) ? " (dry-run: nothing moved)" : "");
  std::vector<std::vector<std::string>> rows{
      {"CONTAINER / PID", "ON SOURCE", "MOVED", "MOVED TO", "NOT MOVED", "SYSCALLS"}};
  for (const auto& container : report.value("containers", json::array())) {
    rows.push_back(report_row(cell_text(container.value("id", json())), container));
    const json processes = container.value("processes", json::array());
    std::size_t shown = 0;
    for (const auto& process : processes) {
      if (shown == kProcessesShown) {
        break;
      }
      std::string name = "  pid " + cell_text(process.value("pid", json()));
      if (process.value("vanished", false)) {
        name += " (exited)";
      }
      rows.push_back(report_row(std::move(name), process));
      ++shown;
    }
    auto hidden = processes.size() - shown + container.value("processes_omitted", std::size_t{0});
    if (hidden > 0) {
      rows.push_back({fmt::format("  ({} more processes)", hidden), "", "", "", "", ""});
    }
  }
  if (rows.size() > 1) {
    std::string table = format_table(rows);
    std::size_t start = 0;
    while (start < table.size()) {
      auto end = table.find('\n', start);
      out += indent + table.substr(start, end - start + 1);
      start = end + 1;
    }
  }
  for (const auto& error : report.value("errors", json::array())) {
    std::string where = cell_text(error.value("container_id", json()));
    if (error.contains("pid") && !error["pid"].is_null()) {
      where += " pid " + cell_text(error["pid"]);
    }
    std::string hint = error.value("hint", std::string());
    out += indent + "error: " + where + ": " + cell_text(error.value("message", json())) +
           (hint.empty() ? "" : " (" + hint + ")") + "\n";
  }
  return out;
}

std::string format_status(const json& r) {
  std::string out;
  out += fmt::format("state:      {}{}\n", cell_text(r["state"]),
                     r.value("dry_run", false) ? " (dry-run)" : "");
  out +=
      fmt::format("pid:        {}, up {:.0f} s, interval {} ms, {} rounds\n", cell_text(r["pid"]),
                  r.value("uptime_s", 0.0), cell_text(r["interval_ms"]), cell_text(r["rounds"]));
  out += "last round: " + round_line(r.value("last_round", json())) + "\n";
  out += "job:        " + job_line(r.value("job", json())) + "\n";
  const json in_progress = r.value("round_in_progress", json());
  if (in_progress.is_object()) {
    out += fmt::format("reading:    round #{} ({}), host scan running for {:.0f} ms\n",
                       cell_text(in_progress.value("number", json())),
                       cell_text(in_progress.value("trigger", json())),
                       in_progress.value("elapsed_ms", 0.0));
  }
  const json last_job = r.value("last_job", json());
  if (last_job.is_object()) {
    const json round = last_job.value("round", json::object());
    out += fmt::format(
        "last job:   job {} ({}), finished {}: {}, moved {}\n",
        cell_text(last_job.value("id", json())), cell_text(last_job.value("kind", json())),
        cell_text(last_job.value("finished", json())), cell_text(round.value("outcome", json())),
        cell_bytes(round.value("moved_bytes", json())));
    if (round.contains("full_report") && round["full_report"].is_object()) {
      out += format_full_report(round["full_report"], "            ");
    }
  }
  if (r.contains("deferred") && !r["deferred"].is_null()) {
    out += "deferred:   " + round_line(r["deferred"]) + "\n";
  }
  for (const auto& provider : r.value("providers", json::array())) {
    std::string name = provider.value("provider", std::string());
    std::string reason = provider.value("unavailable_reason", std::string());
    out += fmt::format("provider:   {} {} {}{}\n", cell_text(provider["metric"]),
                       name.empty() ? "-" : name, provider.value("up", false) ? "up" : "down",
                       reason.empty() ? "" : " (" + reason + ")");
  }
  if (r.contains("scan_error") && !r["scan_error"].is_null()) {
    out += "scan error: " + cell_text(r["scan_error"]) + "\n";
  }
  return out;
}

std::string format_decision(const json& d) {
  std::string out =
      fmt::format("status: {} ({}), level {}\n", cell_text(d["status"]),
                  cell_text(d.value("reason", json())), cell_text(d.value("level", json())));
  if (d.contains("source_node") && !d["source_node"].is_null()) {
    out += fmt::format(
        "move:   node {} -> {}, {} in total, threshold {}\n", cell_text(d["source_node"]),
        cell_nodes(d.value("dest_nodes", json::array())),
        cell_bytes(d.value("total_bytes", json())), cell_text(d.value("threshold", json())));
  }
  std::vector<std::vector<std::string>> rows{{"CONTAINER", "ON SOURCE", "TO"}};
  for (const auto& move : d.value("migrate", json::array())) {
    rows.push_back({cell_text(move.value("id", json())),
                    cell_bytes(move.value("bytes_on_source", json())),
                    cell_nodes(move.value("dest_nodes", json::array()))});
  }
  if (rows.size() > 1) {
    out += format_table(rows);
  }
  for (const auto& evict : d.value("evict", json::array())) {
    out += "evict:  " + cell_text(evict.value("id", json())) + "\n";
  }
  return out;
}

std::string format_history(const json& r) {
  std::vector<std::vector<std::string>> rows{{"#", "TIME", "TRIGGER", "STATUS", "OUTCOME", "FROM",
                                              "TO", "PLANNED", "MOVED", "CONTAINERS"}};
  for (const auto& round : r.value("rounds", json::array())) {
    std::string containers;
    for (const auto& id : round.value("containers", json::array())) {
      containers += (containers.empty() ? "" : ",") + cell_text(id);
    }
    rows.push_back({cell_text(round["number"]), cell_text(round["time"]),
                    cell_text(round["trigger"]), cell_text(round["status"]),
                    cell_text(round["outcome"]), cell_text(round["source_node"]),
                    cell_nodes(round["dest_nodes"]), cell_bytes(round["planned_bytes"]),
                    cell_bytes(round["moved_bytes"]), containers.empty() ? "-" : containers});
  }
  std::string out = format_table(rows);
  const json rounds = r.value("rounds", json::array());
  for (auto it = rounds.rbegin(); it != rounds.rend(); ++it) {
    if (it->contains("full_report") && (*it)["full_report"].is_object()) {
      out += fmt::format("\nround #{} report (the newest listed; --json shows every one kept):\n",
                         cell_text((*it)["number"]));
      out += format_full_report((*it)["full_report"], "  ");
      break;
    }
  }
  return out;
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
    std::vector<std::string> row{cell_text(container["id"]), cell_text(container["pool"]),
                                 cell_bytes(container["total_anon_bytes"])};
    const json& anon = container.value("anon_bytes", json::object());
    for (int id : node_ids) {
      row.push_back(cell_bytes(anon.value(std::to_string(id), json())));
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
      distance += (distance.empty() ? "" : " ") + other + ":" + cell_text(value);
    }
    const json& latency = node["read_latency_ns"];
    const json& bandwidth = node["bandwidth_gbps"];
    rows.push_back(
        {cell_text(node["id"]),
         node.value("cpus", std::string()).empty() ? "(none)" : cell_text(node["cpus"]),
         cell_bytes(node["free_bytes"]), cell_bytes(node["total_bytes"]),
         latency.is_number() ? fmt::format("{:.1f} ns", latency.get<double>()) : "-",
         bandwidth.is_number() ? fmt::format("{:.2f} GB/s", bandwidth.get<double>()) : "-",
         distance});
  }
  std::string out = format_table(rows);
  for (const auto& pool : r.value("pools", json::array())) {
    out += fmt::format("pool {}: nodes {}\n", cell_text(pool["name"]), cell_nodes(pool["nodes"]));
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
    out += "# " + cell_text(r["file"]) + "\n";
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

std::string cell_text(const json& value) {
  if (value.is_null()) {
    return "-";
  }
  if (value.is_string()) {
    return value.get<std::string>();
  }
  return value.dump();
}

std::string cell_nodes(const json& list) {
  if (!list.is_array() || list.empty()) {
    return "-";
  }
  std::string out;
  for (const auto& node : list) {
    out += (out.empty() ? "" : ",") + cell_text(node);
  }
  return out;
}

std::string cell_bytes(const json& value) {
  return value.is_number() ? format_bytes(value.get<double>()) : "-";
}

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
      return cell_text(result["text"]);
    }
    return format_decision(result.value("decision", json::object()));
  }
  if (cmd == "history") {
    return result.contains("entries") ? format_audit_entries(result) : format_history(result);
  }
  if (cmd == "containers") {
    return format_containers(result);
  }
  if (cmd == "topology") {
    return format_topology(result);
  }
  if (cmd == "metrics") {
    return cell_text(result.value("text", json("")));
  }
  if (cmd == "config") {
    return format_config(result);
  }
  if (cmd == "list_commands") {
    std::vector<std::vector<std::string>> rows{{"COMMAND", "CHANGES STATE", "WHAT IT DOES"}};
    for (const auto& command : result) {
      rows.push_back({cell_text(command["name"]), command.value("mutating", false) ? "yes" : "no",
                      cell_text(command["help"])});
    }
    return format_table(rows);
  }
  if (cmd == "reconcile" && result.value("pending", false)) {
    const json round = result.value("round", json::object());
    return fmt::format(
        "round #{} {}: reading the host; `numabalancerctl watch`, `status` or `history` show what "
        "it decides\n",
        cell_text(round.value("number", json())),
        result.value("joined", false) ? "was already running, this request joins it" : "started");
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
    return "cancelling job " + cell_text(result["job"]) + "\n";
  }
  if (cmd == "reload") {
    std::string out = "configuration reloaded\n";
    for (const auto& key : result.value("restart_needed", json::array())) {
      out += "  " + cell_text(key) + " changed: takes effect after a restart\n";
    }
    return out;
  }
  return result.dump(2) + "\n";
}

std::string format_event(const std::string& kind, const std::string& time, const json& data) {
  if (kind == "round" || kind == "job_done") {
    std::string line = time + " " + kind + " " + round_line(data);
    if (kind == "job_done") {
      line += fmt::format(", moved {}", cell_bytes(data.value("moved_bytes", json())));
    }
    return line;
  }
  if (kind == "job_started" || kind == "job_progress") {
    return time + " " + kind + " " + job_line(data);
  }
  if (kind == "eviction") {
    return fmt::format(
        "{} eviction {} ({}): {}", time, cell_text(data["container"]), cell_text(data["action"]),
        data.value("ok", false) ? cell_text(data.value("detail", json()))
                                : "failed: " + cell_text(data.value("error", json())));
  }
  return time + " " + kind + " " + data.dump();
}

}  // namespace nb::ctl
