// Reads back what to_json(rounds::KeptReport) wrote, for the state file's newest rounds. Every key
// is optional (a missing one keeps its default) so that a report an older version wrote loads; a
// key of the wrong type or range is an error naming its path.

#include <chrono>
#include <cmath>
#include <limits>
#include <string>

#include "daemon/codec/json_reader.hpp"
#include "daemon/codec/report_json.hpp"

namespace nb::codec {
namespace {

using nlohmann::json;
namespace jr = json_reader;

template <typename Read>
void read_if_present(const json& object, std::string_view path, std::string_view key, Read&& read) {
  if (const json* value = jr::optional_field(object, key)) {
    read(*value, jr::child(path, key));
  }
}

std::int64_t read_count(const json& object, std::string_view path, std::string_view key) {
  std::int64_t count = 0;
  read_if_present(object, path, key, [&](const json& value, const std::string& at) {
    count = jr::read_integer(value, at);
  });
  return count;
}

Bytes read_bytes_at(const json& object, std::string_view path, std::string_view key) {
  Bytes bytes = 0;
  read_if_present(object, path, key, [&](const json& value, const std::string& at) {
    bytes = jr::read_bytes(value, at);
  });
  return bytes;
}

bool read_flag(const json& object, std::string_view path, std::string_view key) {
  bool flag = false;
  read_if_present(object, path, key, [&](const json& value, const std::string& at) {
    flag = jr::read_bool(value, at);
  });
  return flag;
}

std::string read_text(const json& object, std::string_view path, std::string_view key) {
  std::string text;
  read_if_present(object, path, key, [&](const json& value, const std::string& at) {
    text = jr::read_string(value, at);
  });
  return text;
}

// A pid or an errno: an int, checked so that no value is cut short on the way in.
int read_int(const json& value, const std::string& path) {
  const std::int64_t number = jr::read_integer(value, path);
  if (number < std::numeric_limits<int>::min() || number > std::numeric_limits<int>::max()) {
    jr::fail(path, "must fit in an int");
  }
  return static_cast<int>(number);
}

// Milliseconds as to_json wrote them, back to the nanoseconds they came from.
actuator::Nanoseconds read_milliseconds(const json& object, std::string_view path,
                                        std::string_view key) {
  double ms = 0;
  read_if_present(object, path, key, [&](const json& value, const std::string& at) {
    ms = jr::read_number(value, at);
  });
  // Below 2^53 ns (about 104 days) a duration reads back to the same milliseconds it was
  // written as; no job runs that long.
  const double ns = std::round(ms * 1e6);
  if (!(ns >= 0 && ns < 9e15)) {
    jr::fail(jr::child(path, key), "must be a duration from 0 to 104 days");
  }
  return actuator::Nanoseconds(static_cast<std::int64_t>(ns));
}

std::map<NodeId, Bytes> read_bytes_by_node(const json& object, std::string_view path,
                                           std::string_view key) {
  std::map<NodeId, Bytes> bytes;
  read_if_present(object, path, key, [&](const json& value, const std::string& at) {
    jr::require_object(value, at);
    for (const auto& [node, amount] : value.items()) {
      const std::string item = jr::child(at, node);
      bytes[jr::parse_node_key(node, item)] = jr::read_bytes(amount, item);
    }
  });
  return bytes;
}

std::vector<NodeId> read_nodes(const json& object, std::string_view path, std::string_view key) {
  std::vector<NodeId> nodes;
  read_if_present(object, path, key, [&](const json& value, const std::string& at) {
    jr::require_array(value, at);
    for (std::size_t i = 0; i < value.size(); ++i) {
      nodes.push_back(jr::read_node_id(value[i], jr::item(at, i)));
    }
  });
  return nodes;
}

actuator::OutcomeCounts read_outcomes(const json& object, std::string_view path) {
  actuator::OutcomeCounts counts;
  read_if_present(object, path, "outcomes", [&](const json& value, const std::string& at) {
    jr::require_object(value, at);
    counts.moved = read_count(value, at, "moved");
    counts.already_on_destination = read_count(value, at, "already_on_destination");
    counts.busy = read_count(value, at, "busy");
    counts.no_memory = read_count(value, at, "no_memory");
    counts.access_denied = read_count(value, at, "access_denied");
    counts.unmapped = read_count(value, at, "unmapped");
    counts.other = read_count(value, at, "other");
  });
  return counts;
}

rounds::MoveTotals read_totals(const json& object, std::string_view path) {
  return rounds::MoveTotals{
      .pages_scanned = read_count(object, path, "pages_scanned"),
      .bytes_on_source = read_bytes_at(object, path, "bytes_on_source"),
      .bytes_moved_to = read_bytes_by_node(object, path, "bytes_moved_to"),
      .bytes_already_on_destination = read_bytes_at(object, path, "bytes_already_on_destination"),
      .outcomes = read_outcomes(object, path),
      .syscalls = read_count(object, path, "syscalls"),
      .longest_call = read_milliseconds(object, path, "longest_call_ms"),
      .elapsed = read_milliseconds(object, path, "elapsed_ms")};
}

actuator::ProcessReport read_process(const json& object, const std::string& path) {
  jr::require_object(object, path);
  actuator::ProcessReport process;
  process.pid = read_int(jr::required_field(object, path, "pid"), jr::child(path, "pid"));
  process.fast_path = read_flag(object, path, "fast_path");
  process.vanished = read_flag(object, path, "vanished");
  process.pages_scanned = read_count(object, path, "pages_scanned");
  process.bytes_on_source = read_bytes_at(object, path, "bytes_on_source");
  process.bytes_moved_to = read_bytes_by_node(object, path, "bytes_moved_to");
  process.bytes_already_on_destination =
      read_bytes_at(object, path, "bytes_already_on_destination");
  process.outcomes = read_outcomes(object, path);
  process.syscalls = read_count(object, path, "syscalls");
  process.longest_call = read_milliseconds(object, path, "longest_call_ms");
  process.elapsed = read_milliseconds(object, path, "elapsed_ms");
  process.hot_first = read_text(object, path, "page_order") == "hot_first";
  process.bytes_moved_accessed = read_bytes_at(object, path, "bytes_moved_accessed");
  return process;
}

rounds::KeptContainer read_container(const json& object, const std::string& path) {
  jr::require_object(object, path);
  rounds::KeptContainer container;
  container.id = read_text(object, path, "id");
  container.cgroup_dir = read_text(object, path, "cgroup");
  if (const json* budget = jr::optional_field(object, "budget")) {
    container.budget = jr::read_bytes(*budget, jr::child(path, "budget"));
  }
  container.totals = read_totals(object, path);
  read_if_present(object, path, "processes", [&](const json& value, const std::string& at) {
    jr::require_array(value, at);
    for (std::size_t i = 0; i < value.size(); ++i) {
      container.processes.push_back(read_process(value[i], jr::item(at, i)));
    }
  });
  container.processes_omitted =
      static_cast<std::size_t>(read_bytes_at(object, path, "processes_omitted"));
  return container;
}

rounds::KeptReport read_report(const json& object) {
  const std::string path = "full_report";
  jr::require_object(object, path);
  rounds::KeptReport report;
  read_if_present(object, path, "source_node", [&](const json& value, const std::string& at) {
    report.source_node = jr::read_node_id(value, at);
  });
  report.dest_nodes = read_nodes(object, path, "dest_nodes");
  report.dry_run = read_flag(object, path, "dry_run");
  report.move_shared = read_flag(object, path, "move_shared");
  report.budget = actuator::kUnlimitedBudget;
  if (const json* budget = jr::optional_field(object, "budget")) {
    report.budget = jr::read_bytes(*budget, jr::child(path, "budget"));
  }
  report.goal = read_bytes_at(object, path, "goal");
  read_if_present(object, path, "threshold", [&](const json& value, const std::string& at) {
    report.threshold = jr::read_number(value, at);
  });
  report.threshold_met = read_flag(object, path, "threshold_met");
  if (const std::string stop = read_text(object, path, "stop_reason"); !stop.empty()) {
    auto reason = actuator::parse_stop_reason(stop);
    if (!reason) {
      jr::fail(jr::child(path, "stop_reason"), "unknown stop reason \"" + stop + "\"");
    }
    report.stop_reason = *reason;
  }
  read_if_present(object, path, "vanished_pids", [&](const json& value, const std::string& at) {
    jr::require_array(value, at);
    for (std::size_t i = 0; i < value.size(); ++i) {
      report.vanished_pids.push_back(read_int(value[i], jr::item(at, i)));
    }
  });
  read_if_present(
      object, path, "dropped_destinations", [&](const json& value, const std::string& at) {
        jr::require_array(value, at);
        for (std::size_t i = 0; i < value.size(); ++i) {
          const std::string item = jr::item(at, i);
          jr::require_object(value[i], item);
          report.dropped_destinations.push_back(actuator::DroppedDestination{
              jr::read_node_id(jr::required_field(value[i], item, "node"), jr::child(item, "node")),
              read_text(value[i], item, "reason")});
        }
      });
  read_if_present(object, path, "errors", [&](const json& value, const std::string& at) {
    jr::require_array(value, at);
    for (std::size_t i = 0; i < value.size(); ++i) {
      const std::string item = jr::item(at, i);
      jr::require_object(value[i], item);
      actuator::ReportError error;
      if (const json* pid = jr::optional_field(value[i], "pid")) {
        error.pid = read_int(*pid, jr::child(item, "pid"));
      }
      error.container_id = read_text(value[i], item, "container_id");
      if (const json* code = jr::optional_field(value[i], "errno")) {
        error.code = read_int(*code, jr::child(item, "errno"));
      }
      error.message = read_text(value[i], item, "message");
      error.hint = read_text(value[i], item, "hint");
      report.errors.push_back(std::move(error));
    }
  });
  if (const std::string order = read_text(object, path, "page_order"); !order.empty()) {
    auto parsed = actuator::parse_page_order(order);
    if (!parsed) {
      jr::fail(jr::child(path, "page_order"), "unknown page order \"" + order + "\"");
    }
    report.page_order = *parsed;
  }
  report.page_order_fallback = read_text(object, path, "page_order_fallback");
  report.hotness_cost = read_milliseconds(object, path, "hotness_window_ms");
  report.totals = read_totals(object, path);
  // The report's own bytes already on a destination are written only inside bytes_placed.
  const Bytes placed = read_bytes_at(object, path, "bytes_placed");
  if (placed > 0 && placed < report.totals.bytes_moved()) {
    jr::fail(jr::child(path, "bytes_placed"), "must not be less than bytes_moved");
  }
  report.totals.bytes_already_on_destination =
      placed > 0 ? placed - report.totals.bytes_moved() : 0;
  report.bytes_moved_accessed = read_bytes_at(object, path, "bytes_moved_accessed");
  report.bytes_moved_not_accessed = read_bytes_at(object, path, "bytes_moved_not_accessed");
  read_if_present(object, path, "containers", [&](const json& value, const std::string& at) {
    jr::require_array(value, at);
    for (std::size_t i = 0; i < value.size(); ++i) {
      report.containers.push_back(read_container(value[i], jr::item(at, i)));
    }
  });
  return report;
}

}  // namespace

Result<rounds::KeptReport> kept_report_from_json(const json& object) {
  return jr::catching([&] { return read_report(object); });
}

}  // namespace nb::codec
