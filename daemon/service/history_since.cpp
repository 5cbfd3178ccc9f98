#include "daemon/service/history_since.hpp"

#include "base/time.hpp"
#include "daemon/codec/audit_log.hpp"
#include "daemon/codec/snapshot_json.hpp"
#include "daemon/service/admin/command_args.hpp"
#include "daemon/wire/audit_log_reader.hpp"

namespace nb::service {

namespace {

using nlohmann::json;

// The newest `limit` of `items`, as a JSON array.
template <typename T, typename ToJson>
json newest(std::vector<T>& items, std::size_t limit, ToJson to_json) {
  std::size_t first = items.size() > limit ? items.size() - limit : 0;
  json list = json::array();
  for (std::size_t i = first; i < items.size(); ++i) {
    list.push_back(to_json(items[i]));
  }
  return list;
}

}  // namespace

json history_round_json(const rounds::RoundRecord& record) {
  json round = codec::to_json(record);
  round["acted"] = record.acted();
  return round;
}

CommandOutcome history_since(const json& args, const config::ExportConfig& config,
                             const std::vector<rounds::RoundRecord>& rounds, TimePoint now) {
  auto text = args.find("since");
  if (text == args.end() || !text->is_string()) {
    return bad_request("\"since\" must be a duration (\"2h\") or an RFC 3339 time");
  }
  auto since = wire::parse_since(text->get<std::string>(), now);
  if (!since) {
    return bad_request(since.error().message());
  }
  auto read_limit = limit_arg(args);
  if (!read_limit) {
    return bad_request(read_limit.error());
  }
  std::size_t limit = read_limit->value_or(SIZE_MAX);
  json result{{"since", format_rfc3339(*since)}};
  if (config.audit_log.empty()) {
    std::vector<const rounds::RoundRecord*> kept;
    for (const auto& record : rounds) {
      if (record.time >= *since) {
        kept.push_back(&record);
      }
    }
    json list =
        newest(kept, limit, [](const rounds::RoundRecord* r) { return history_round_json(*r); });
    result["rounds"] = std::move(list);
    return result;
  }
  auto read = wire::read_audit_log_tail(config.audit_log, *since, limit, kHistoryReadBytes);
  if (!read) {
    return command_failed("reading the audit log: " + read.error().message());
  }
  result["audit_log"] = config.audit_log;
  result["entries"] = std::move(read->entries);
  result["skipped_lines"] = read->skipped_lines;
  result["truncated"] = read->truncated;
  return result;
}

}  // namespace nb::service
