#include "daemon/metrics/file_provider.hpp"

#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <set>
#include <vector>

#include "base/parse_units.hpp"
#include "base/time.hpp"
#include "core/metric_value.hpp"
#include "daemon/metrics/input_names.hpp"
#include "daemon/metrics/prometheus_text.hpp"
#include "daemon/metrics/text_file.hpp"
#include "daemon/wire/bounded_json.hpp"

namespace nb::metrics {
namespace {

constexpr double kBytesPerGigabyte = 1e9;
constexpr long long kMaxNodeId = 4095;  // the kernel's largest MAX_NUMNODES
// How far ahead of this host's clock a sample's timestamp may be: exporters on other hosts, or
// stepping their clock, are a little off; more than this is a broken clock or a bogus timestamp.
constexpr Duration kClockSkew = std::chrono::seconds(5);

// An age or offset in config units ("45s", "12m", "60691h"), rounded down to the largest unit
// under which it stays a whole number worth reading: a file years old is not "218490161.1s old".
// A bogus timestamp (int64's extremes) makes an age no count of milliseconds holds: it is shown
// clamped, at about 31,700 years.
std::string duration_text(std::chrono::duration<double> seconds_span) {
  using namespace std::chrono;
  constexpr double kLongestSeconds = 1e12;
  const auto span = duration_cast<milliseconds>(
      duration<double>(std::clamp(seconds_span.count(), -kLongestSeconds, kLongestSeconds)));
  if (span >= hours(1)) {
    return exact_duration_text(duration_cast<hours>(span));
  }
  if (span >= minutes(1)) {
    return exact_duration_text(duration_cast<minutes>(span));
  }
  if (span >= seconds(1)) {
    return exact_duration_text(duration_cast<seconds>(span));
  }
  return exact_duration_text(duration_cast<milliseconds>(span));
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

// Exporters write '{' (a JSON object) or '[' only when they mean JSON: no Prometheus line starts
// with either.
bool looks_like_json(const std::string& content) {
  auto first = content.find_first_not_of(" \t\r\n");
  return first != std::string::npos && (content[first] == '{' || content[first] == '[');
}

std::string json_failure(const wire::BoundedJson& parsed) {
  if (parsed.problem == wire::JsonProblem::invalid && !parsed.error.empty()) {
    return parsed.error;
  }
  return wire::describe(parsed.problem, "the document");
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
  if (config_.format != "auto" && config_.format != "json" && config_.format != "prometheus") {
    return problem("unknown format \"" + config_.format + "\" (auto, json or prometheus)");
  }
  auto content = read_text_file(config_.path);
  if (!content) {
    return content.error();
  }
  if (config_.format == "json") {
    wire::BoundedJson parsed = wire::parse_bounded_json(*content);
    if (parsed.problem != wire::JsonProblem::none) {
      return problem(wire::describe(parsed.problem, "the document") +
                     (parsed.error.empty() ? "" : " (" + parsed.error + ")"));
    }
    return read_json(parsed.value, now);
  }
  if (config_.format == "prometheus") {
    auto text = parse_prometheus_text(*content);
    if (!text) {
      return problem("not Prometheus text: " + text.error().context);
    }
    return read_prometheus(*text, now);
  }
  return read_either(*content, now);
}

// format = "auto": the format the content looks like is tried first, so that its error comes
// first when neither fits; both errors are given, since either may be the one to fix.
Result<NodeValues> FileProvider::read_either(const std::string& content, TimePoint now) {
  const bool json_first = looks_like_json(content);
  wire::BoundedJson json;
  if (json_first) {
    json = wire::parse_bounded_json(content);
    if (json.problem == wire::JsonProblem::none) {
      return read_json(json.value, now);
    }
  }
  auto text = parse_prometheus_text(content);
  if (text) {
    return read_prometheus(*text, now);
  }
  if (!json_first) {
    json = wire::parse_bounded_json(content);
    if (json.problem == wire::JsonProblem::none) {
      return read_json(json.value, now);
    }
  }
  const std::string not_json = "not JSON (" + json_failure(json) + ")";
  const std::string not_text = "not Prometheus text (" + text.error().context + ")";
  return problem(json_first ? not_json + " and " + not_text : not_text + " and " + not_json);
}

Result<NodeValues> FileProvider::read_json(const nlohmann::json& document, TimePoint now) {
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
                   duration_text(now - *time) + " old (max_age " +
                   exact_duration_text(config_.max_age) + ")");
  }
  if (*time - now > config_.max_age) {
    return problem("\"time\" " + format_rfc3339_millis(*time) + " is " +
                   duration_text(*time - now) + " in the future");
  }
  auto nodes = document.find("nodes");
  if (nodes == document.end() || !nodes->is_array()) {
    return problem("\"nodes\" is missing or not an array");
  }
  const std::string field(field_name(metric_));
  NodeValues values;
  std::set<NodeId> seen;
  // Every mistake is listed, not only the first, so that one edit can fix them all; a key the
  // format does not know is one (a misspelt "read_latency" would otherwise read as no value).
  std::vector<std::string> mistakes;
  for (std::size_t i = 0; i < nodes->size(); ++i) {
    const auto& node = (*nodes)[i];
    if (!node.is_object()) {
      mistakes.push_back("nodes[" + std::to_string(i) + "] is not an object: " + node.dump());
      continue;
    }
    auto id = node.find("id");
    if (id == node.end() || !id->is_number_integer() || id->get<long long>() < 0 ||
        id->get<long long>() > kMaxNodeId) {
      mistakes.push_back("nodes[" + std::to_string(i) +
                         "] has no \"id\" from 0 to 4095: " + node.dump());
      continue;
    }
    NodeId node_id = static_cast<NodeId>(id->get<long long>());
    const std::string name = "node " + std::to_string(node_id);
    if (!seen.insert(node_id).second) {
      mistakes.push_back(name + " appears twice");
      continue;
    }
    for (const auto& [key, unused] : node.items()) {
      if (key != "id" && key != field_name(Metric::read_latency) &&
          key != field_name(Metric::bandwidth)) {
        mistakes.push_back(name + ": unknown key \"" + key + "\" (the keys are id, " +
                           std::string(field_name(Metric::read_latency)) + " and " +
                           std::string(field_name(Metric::bandwidth)) + ")");
      }
    }
    auto value = node.find(field);
    if (value == node.end() || value->is_null()) {
      continue;
    }
    if (!value->is_number()) {
      mistakes.push_back(name + ": \"" + field + "\" is not a number: " + value->dump());
      continue;
    }
    values[node_id] = value->get<double>();
  }
  if (!mistakes.empty()) {
    std::string all;
    for (const std::string& mistake : mistakes) {
      all += (all.empty() ? "" : "; ") + mistake;
    }
    return problem(all);
  }
  return values;
}

Result<TimePoint> FileProvider::modified_time() const {
  struct stat status {};
  if (::stat(config_.path.c_str(), &status) != 0) {
    return make_error(errno, "stat " + config_.path);
  }
  return TimePoint(std::chrono::duration_cast<TimePoint::duration>(
      std::chrono::seconds(status.st_mtim.tv_sec) +
      std::chrono::nanoseconds(status.st_mtim.tv_nsec)));
}

// A sample's own timestamp (ms since the epoch) says how old its value is, whatever the file's
// mtime: an exporter may rewrite the file with values it read long ago. Compared in milliseconds
// against bounds near `now`, so that no timestamp, however wild, overflows a TimePoint.
Status FileProvider::check_sample(const PrometheusSample& sample, TimePoint now) const {
  if (auto bad = core::metric_value_problem(sample.value)) {
    return problem(series_name(sample) + ": " + *bad);
  }
  if (!sample.timestamp_ms) {
    return Ok{};
  }
  const std::int64_t stamp = *sample.timestamp_ms;
  const std::int64_t now_ms =
      std::chrono::duration_cast<std::chrono::milliseconds>(now.time_since_epoch()).count();
  const std::chrono::duration<double> age(
      (static_cast<double>(now_ms) - static_cast<double>(stamp)) / 1000);
  if (stamp < now_ms - config_.max_age.count()) {
    return problem("stale sample " + series_name(sample) + ": its timestamp is " +
                   duration_text(age) + " old (max_age " + exact_duration_text(config_.max_age) +
                   ")");
  }
  if (stamp > now_ms + kClockSkew.count()) {
    return problem("sample " + series_name(sample) + " has a timestamp " + duration_text(-age) +
                   " in the future (more than the " + exact_duration_text(kClockSkew) +
                   " allowed for clock skew)");
  }
  return Ok{};
}

Result<NodeValues> FileProvider::read_prometheus(const PrometheusText& text, TimePoint now) {
  auto mtime = modified_time();
  if (!mtime) {
    return mtime.error();
  }
  if (now - *mtime > config_.max_age) {
    return problem("stale: last written " + format_rfc3339_millis(*mtime) + ", " +
                   duration_text(now - *mtime) + " ago (max_age " +
                   exact_duration_text(config_.max_age) + ")");
  }
  InputName input = choose_input_name(
      text, metric_,
      metric_ == Metric::read_latency ? config_.latency_metric : config_.bandwidth_metric);
  const std::string& metric_name = input.name;
  std::string type = text.type_of(metric_name);
  if (type == "untyped" && metric_name.ends_with("_total")) {
    type = text.type_of(metric_name.substr(0, metric_name.size() - 6));
  }
  bool counter = type == "counter";
  if (counter && metric_ == Metric::read_latency) {
    return problem(metric_name + " is a counter; a latency must be a gauge");
  }
  std::map<NodeId, CounterPoint> points;
  bool any_series = false;
  for (const auto& sample : text.samples) {
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
    if (auto checked = check_sample(sample, now); !checked) {
      return checked.error();
    }
    auto [it, inserted] = points.try_emplace(*node);
    if (!inserted && metric_ == Metric::read_latency) {
      return problem(metric_name + " has several series for node " + std::to_string(*node));
    }
    it->second.value += sample.value;
    it->second.time =
        sample.timestamp_ms ? TimePoint(std::chrono::milliseconds(*sample.timestamp_ms)) : *mtime;
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
