#include "daemon/codec/state_file.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <fstream>
#include <sstream>

#include "base/time.hpp"
#include "daemon/codec/effect_json.hpp"
#include "daemon/codec/json_reader.hpp"
#include "daemon/codec/report_json.hpp"
#include "daemon/codec/report_summary.hpp"
#include "daemon/codec/snapshot_json.hpp"
#include "daemon/codec/state_journal.hpp"

namespace nb::codec {

using rounds::RoundRecord;

namespace {

std::string compact_time(TimePoint now) {
  std::string text = format_rfc3339(std::chrono::floor<std::chrono::seconds>(now));
  std::string out;
  for (char c : text) {
    if (c != ':' && c != '-') {
      out += c;
    }
  }
  return out;
}

// {"0": 95.5, "1": 60} under `key`, when present.
void read_node_numbers(const nlohmann::json& json, const std::string& path, std::string_view key,
                       std::map<NodeId, double>& out) {
  if (const auto* numbers = json_reader::optional_field(json, key)) {
    const std::string at = path + "." + std::string(key);
    json_reader::require_object(*numbers, at);
    for (const auto& [node, value] : numbers->items()) {
      const std::string item = json_reader::child(at, node);
      out[json_reader::parse_node_key(node, item)] = json_reader::read_number(value, item);
    }
  }
}

// {"0": 95.5, "1": 60} for each node's number.
nlohmann::json node_numbers(const std::map<NodeId, double>& numbers) {
  nlohmann::json out = nlohmann::json::object();
  for (const auto& [node, value] : numbers) {
    out[std::to_string(node)] = value;
  }
  return out;
}

void write_effect(const rounds::RoundRecord& record, nlohmann::json& out) {
  if (!record.latencies_before.empty()) {
    out["latencies_before"] = node_numbers(record.latencies_before);
  }
  if (!record.bandwidths_before.empty()) {
    out["bandwidths_before"] = node_numbers(record.bandwidths_before);
  }
  if (record.job_finished) {
    out["job_finished"] = format_rfc3339(*record.job_finished);
  }
  if (record.effect) {
    out["effect"] = to_json(*record.effect, record.effect_measured);
  } else if (!record.effect_reason.empty()) {
    out["effect"] = nullptr;
    out["effect_reason"] = record.effect_reason;
  } else if (record.effect_pending()) {
    out["effect_pending"] = true;
  }
}

// The effect's fields of a round, written by write_effect; "effect_pending" is derived, not read.
Result<bool> read_effect(const nlohmann::json& json, rounds::RoundRecord& record) {
  const std::string path = "round " + std::to_string(record.number);
  return json_reader::catching([&] {
    read_node_numbers(json, path, "latencies_before", record.latencies_before);
    read_node_numbers(json, path, "bandwidths_before", record.bandwidths_before);
    if (const auto* finished = json_reader::optional_field(json, "job_finished")) {
      record.job_finished = json_reader::read_time(*finished, path + ".job_finished");
    }
    if (const auto* effect = json_reader::optional_field(json, "effect")) {
      auto read = read_measured_effect(*effect, path + ".effect");
      record.effect = read.measured;
      record.effect_measured = read.when;
    }
    record.effect_reason = json.value("effect_reason", std::string());
    return true;
  });
}

}  // namespace

nlohmann::json to_json(const rounds::RoundRecord& record, RoundView view) {
  nlohmann::json out{
      {"number", record.number},
      {"time", format_rfc3339(record.time)},
      {"trigger", record.trigger},
      {"status", to_string(record.status)},
      {"outcome", to_string(record.outcome)},
      {"reason", record.reason},
      {"source_node", record.source_node ? nlohmann::json(*record.source_node) : nullptr},
      {"dest_nodes", record.dest_nodes},
      {"containers", record.containers},
      {"evicted", record.evicted},
      {"planned_bytes", record.planned_bytes},
      {"moved_bytes", record.moved_bytes},
      {"migrated", record.migrated},
  };
  if (!record.moved_shares.empty()) {
    nlohmann::json shares = nlohmann::json::array();
    for (const core::MovedShare& share : record.moved_shares) {
      shares.push_back({{"id", share.container}, {"to", share.to}, {"bytes", share.bytes}});
    }
    out["moved_by_container"] = std::move(shares);
  }
  if (record.report) {
    out["report"] = to_json(*record.report);
  }
  if (record.full_report && view == RoundView::whole) {
    out["full_report"] = to_json(*record.full_report);
  }
  write_effect(record, out);
  return out;
}

nlohmann::json round_fields(const rounds::RoundRecord& record,
                            std::initializer_list<const char*> names) {
  const nlohmann::json whole = to_json(record, RoundView::without_full_report);
  nlohmann::json fields = nlohmann::json::object();
  for (const char* name : names) {
    if (auto found = whole.find(name); found != whole.end()) {
      fields[name] = *found;
    }
  }
  return fields;
}

Result<rounds::RoundRecord> record_from_json(const nlohmann::json& json) try {
  if (!json.is_object()) {
    return make_error(0, "a round is not a JSON object");
  }
  rounds::RoundRecord record;
  // Numbers go through json_reader, which checks their type and range: a float out of an
  // integer's range (1e35 bytes) is an error naming the field, never a conversion's UB.
  auto numbers = json_reader::catching([&] {
    using namespace json_reader;
    record.number =
        static_cast<std::uint64_t>(read_bytes(required_field(json, "", "number"), "number"));
    const std::string at = "round " + std::to_string(record.number);
    if (const auto* source = optional_field(json, "source_node"); source && !source->is_null()) {
      record.source_node = read_node_id(*source, at + ".source_node");
    }
    if (const auto* nodes = optional_field(json, "dest_nodes")) {
      require_array(*nodes, at + ".dest_nodes");
      for (std::size_t i = 0; i < nodes->size(); ++i) {
        record.dest_nodes.push_back(read_node_id((*nodes)[i], item(at + ".dest_nodes", i)));
      }
    }
    for (const char* key : {"planned_bytes", "moved_bytes"}) {
      if (const auto* bytes = optional_field(json, key)) {
        (key == std::string_view("planned_bytes") ? record.planned_bytes : record.moved_bytes) =
            read_bytes(*bytes, child(at, key));
      }
    }
    if (const auto* shares = optional_field(json, "moved_by_container");
        shares && !shares->is_null()) {
      require_array(*shares, at + ".moved_by_container");
      for (std::size_t i = 0; i < shares->size(); ++i) {
        const std::string share_at = item(at + ".moved_by_container", i);
        const auto& share = (*shares)[i];
        require_object(share, share_at);
        record.moved_shares.push_back(core::MovedShare{
            read_string(required_field(share, share_at, "id"), child(share_at, "id")),
            read_node_id(required_field(share, share_at, "to"), child(share_at, "to")),
            read_bytes(required_field(share, share_at, "bytes"), child(share_at, "bytes"))});
      }
    }
    return true;
  });
  if (!numbers) {
    return numbers.error();
  }
  auto time = parse_rfc3339(json.at("time").get<std::string>());
  if (!time) {
    return make_error(0, "round " + std::to_string(record.number) + ": " + time.error().message());
  }
  record.time = time.value();
  record.trigger = json.value("trigger", std::string());
  const std::string status = json.value("status", std::string());
  const std::string outcome = json.value("outcome", std::string());
  auto known_status = rounds::round_status_named(status);
  auto known_outcome = rounds::round_outcome_named(outcome);
  if (!known_status || !known_outcome) {
    return make_error(0, "round " + std::to_string(record.number) + ": unknown " +
                             (known_status ? "outcome \"" + outcome : "status \"" + status) + "\"");
  }
  record.status = *known_status;
  record.outcome = *known_outcome;
  record.reason = json.value("reason", std::string());
  record.containers = json.value("containers", std::vector<std::string>{});
  record.evicted = json.value("evicted", std::vector<std::string>{});
  record.migrated = json.value("migrated", false);
  if (auto report = json.find("report"); report != json.end() && !report->is_null()) {
    auto summary = summary_from_json(*report);
    if (!summary) {
      return make_error(
          0, "round " + std::to_string(record.number) + ": " + summary.error().message());
    }
    record.report = std::move(summary).value();
  }
  if (auto full = json.find("full_report"); full != json.end() && !full->is_null()) {
    auto kept = kept_report_from_json(*full);
    if (!kept) {
      return make_error(0,
                        "round " + std::to_string(record.number) + ": " + kept.error().message());
    }
    record.full_report = std::move(kept).value();
  }
  if (auto effect = read_effect(json, record); !effect) {
    return effect.error();
  }
  return record;
} catch (const nlohmann::json::exception& e) {
  return make_error(0, std::string("a round is malformed: ") + e.what());
}

Result<std::vector<rounds::RoundRecord>> read_state(const std::filesystem::path& file) {
  auto contents = read_state_contents(file);
  if (!contents) {
    return contents.error();
  }
  return std::move(contents->rounds);
}

Result<StateContents> read_state_contents(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) {
    return StateContents{};
  }
  std::stringstream buffer;
  buffer << in.rdbuf();
  const std::string text = buffer.str();
  if (text.empty()) {
    return StateContents{};
  }
  if (is_journal(text)) {
    return read_journal(text);
  }
  return read_whole_document(text);
}

LoadedState load_state(const std::filesystem::path& file, TimePoint now) {
  auto contents = read_state_contents(file);
  if (contents) {
    return {.contents = std::move(contents).value(), .set_aside = std::nullopt};
  }
  auto aside = file;
  aside += ".corrupt-" + compact_time(now);
  std::error_code error;
  std::filesystem::rename(file, aside, error);
  SetAside set_aside{.unreadable = contents.error(), .moved_to = aside};
  if (error) {
    set_aside.moved_to = make_error(error.value(), "rename to " + aside.string());
  }
  return {.contents = {}, .set_aside = std::move(set_aside)};
}

Status save_state(const std::filesystem::path& file, const std::vector<rounds::RoundRecord>& rounds,
                  const SavedBaselines* baselines) {
  return StateJournal(file).compact(rounds, baselines);
}

}  // namespace nb::codec
