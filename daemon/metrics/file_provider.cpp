#include "daemon/metrics/file_provider.hpp"

#include <sys/stat.h>

#include <cerrno>
#include <charconv>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <set>

#include "base/time.hpp"
#include "daemon/metrics/input_names.hpp"
#include "daemon/metrics/prometheus_text.hpp"
#include "daemon/metrics/text_file.hpp"
#include "daemon/wire/bounded_json.hpp"

namespace nb::metrics {
namespace {

constexpr double kBytesPerGigabyte = 1e9;
constexpr long long kMaxNodeId = 4095;  // the kernel's largest MAX_NUMNODES

std::string seconds_text(std::chrono::duration<double> span) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.1fs", span.count());
  return buffer;
}

std::optional<NodeId> parse_node_label(const std::string& text) {
  int id = -1;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), id);
  if (text.empty() || ec != std::errc{} || end != text.data() + text.size() || id < 0 ||
      id > kMaxNodeId) {
    return std::nullopt;
  }
  return id;
}

bool looks_like_json(const std::string& content) {
  auto first = content.find_first_not_of(" \t\r\n");
  return first != std::string::npos && content[first] == '{';
}

}  // namespace

FileProvider::FileProvider(Metric metric, config::FileProviderConfig config)
    : metric_(metric), config_(std::move(config)) {}

std::optional<LatencyKind> FileProvider::latency_kind() const {
  if (metric_ != Metric::read_latency) {
    return std::nullopt;
  }
  return LatencyKind::external;
}

Error FileProvider::problem(const std::string& what) const {
  return make_error(0, config_.path + ": " + what);
}

Result<NodeValues> FileProvider::read(TimePoint now) {
  if (config_.path.empty()) {
    return make_error(0, "no [metrics.file] path configured");
  }
  auto content = read_text_file(config_.path);
  if (!content) {
    return content.error();
  }
  bool json = config_.format == "json" || (config_.format == "auto" && looks_like_json(*content));
  if (json) {
    return read_json(*content, now);
  }
  if (config_.format != "auto" && config_.format != "prometheus") {
    return problem("unknown format \"" + config_.format + "\" (auto, json or prometheus)");
  }
  struct stat status {};
  if (::stat(config_.path.c_str(), &status) != 0) {
    return make_error(errno, "stat " + config_.path);
  }
  auto mtime = TimePoint(std::chrono::duration_cast<TimePoint::duration>(
      std::chrono::seconds(status.st_mtim.tv_sec) +
      std::chrono::nanoseconds(status.st_mtim.tv_nsec)));
  return read_prometheus(*content, mtime, now);
}

Result<NodeValues> FileProvider::read_json(const std::string& content, TimePoint now) {
  wire::BoundedJson bounded = wire::parse_bounded_json(content);
  if (bounded.problem != wire::JsonProblem::none) {
    return problem(wire::describe(bounded.problem, "the document"));
  }
  const nlohmann::json& document = bounded.value;
  if (!document.is_object()) {
    return problem("expected a JSON object with \"time\" and \"nodes\"");
  }
  auto time_field = document.find("time");
  if (time_field == document.end()) {
    return problem("no \"time\" field, so the data's age is unknown");
  }
  std::optional<TimePoint> time;
  if (time_field->is_string()) {
    if (auto parsed = parse_rfc3339(time_field->get<std::string>())) {
      time = *parsed;
    }
  } else if (time_field->is_number()) {
    time = TimePoint(std::chrono::duration_cast<TimePoint::duration>(
        std::chrono::duration<double>(time_field->get<double>())));
  }
  if (!time) {
    return problem("\"time\" is neither an RFC 3339 time nor Unix seconds: " + time_field->dump());
  }
  if (now - *time > config_.max_age) {
    return problem("stale: data from " + format_rfc3339_millis(*time) + " is " +
                   seconds_text(now - *time) + " old (max_age " + seconds_text(config_.max_age) +
                   ")");
  }
  if (*time - now > config_.max_age) {
    return problem("\"time\" " + format_rfc3339_millis(*time) + " is " + seconds_text(*time - now) +
                   " in the future");
  }
  auto nodes = document.find("nodes");
  if (nodes == document.end() || !nodes->is_array()) {
    return problem("\"nodes\" is missing or not an array");
  }
  const char* field = metric_ == Metric::read_latency ? "read_latency_ns" : "bandwidth_gbps";
  NodeValues values;
  std::set<NodeId> seen;
  for (const auto& node : *nodes) {
    if (!node.is_object()) {
      return problem("an entry of \"nodes\" is not an object: " + node.dump());
    }
    auto id = node.find("id");
    if (id == node.end() || !id->is_number_integer() || id->get<long long>() < 0 ||
        id->get<long long>() > kMaxNodeId) {
      return problem("a node has no \"id\" from 0 to 4095: " + node.dump());
    }
    NodeId node_id = static_cast<NodeId>(id->get<long long>());
    if (!seen.insert(node_id).second) {
      return problem("node " + std::to_string(node_id) + " appears twice");
    }
    auto value = node.find(field);
    if (value == node.end() || value->is_null()) {
      continue;
    }
    if (!value->is_number()) {
      return problem(std::string("node ") + std::to_string(node_id) + ": \"" + field +
                     "\" is not a number: " + value->dump());
    }
    values[node_id] = value->get<double>();
  }
  return values;
}

Result<NodeValues> FileProvider::read_prometheus(const std::string& content, TimePoint mtime,
                                                 TimePoint now) {
  if (now - mtime > config_.max_age) {
    return problem("stale: last written " + format_rfc3339_millis(mtime) + ", " +
                   seconds_text(now - mtime) + " ago (max_age " + seconds_text(config_.max_age) +
                   ")");
  }
  auto text = parse_prometheus_text(content);
  if (!text) {
    return problem("not Prometheus text: " + text.error().context);
  }
  InputName input = choose_input_name(
      *text, metric_,
      metric_ == Metric::read_latency ? config_.latency_metric : config_.bandwidth_metric);
  const std::string& metric_name = input.name;
  std::string type = text->type_of(metric_name);
  if (type == "untyped" && metric_name.ends_with("_total")) {
    type = text->type_of(metric_name.substr(0, metric_name.size() - 6));
  }
  bool counter = type == "counter";
  if (counter && metric_ == Metric::read_latency) {
    return problem(metric_name + " is a counter; a latency must be a gauge");
  }
  std::map<NodeId, CounterPoint> points;
  bool any_series = false;
  for (const auto& sample : text->samples) {
    if (sample.name != metric_name) {
      continue;
    }
    any_series = true;
    auto label = sample.labels.find("node");
    if (label == sample.labels.end()) {
      continue;  // a host-wide series says nothing about a node
    }
    auto node = parse_node_label(label->second);
    if (!node) {
      return problem(metric_name + " has node=\"" + label->second + "\", not a node number");
    }
    auto [it, inserted] = points.try_emplace(*node);
    if (!inserted && metric_ == Metric::read_latency) {
      return problem(metric_name + " has several series for node " + std::to_string(*node));
    }
    it->second.value += sample.value;
    it->second.time =
        sample.timestamp_ms ? TimePoint(std::chrono::milliseconds(*sample.timestamp_ms)) : mtime;
  }
  if (!any_series) {
    auto others = other_spellings(metric_, metric_name);
    return problem("no " + metric_name + " series" +
                   (others.empty() ? "" : " (nor " + others + ")"));
  }
  if (counter) {
    return counter_rates(points);
  }
  NodeValues values;
  for (const auto& [node, point] : points) {
    values[node] = point.value * input.scale;
  }
  return values;
}

Result<NodeValues> FileProvider::counter_rates(const std::map<NodeId, CounterPoint>& points) {
  NodeValues rates;
  for (const auto& [node, point] : points) {
    auto& state = counters_[node];
    if (!state.last || point.time < state.last->time) {
      state.rate.reset();
    } else if (point.time > state.last->time) {
      std::chrono::duration<double> span = point.time - state.last->time;
      if (point.value >= state.last->value) {
        state.rate = (point.value - state.last->value) / span.count() / kBytesPerGigabyte;
      } else {
        state.rate.reset();  // the exporter restarted: this version is the new baseline
      }
    }
    state.last = point;
    if (state.rate) {
      rates[node] = *state.rate;
    }
  }
  if (rates.empty()) {
    return problem(config_.bandwidth_metric +
                   " is a counter and has no rate yet: one more version of the file is needed");
  }
  return rates;
}

}  // namespace nb::metrics
