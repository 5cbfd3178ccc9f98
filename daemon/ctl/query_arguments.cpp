// The arguments of the commands that only read: `plan`, `history` and `containers`.

#include <memory>
#include <optional>

#include "base/option_checks.hpp"
#include "daemon/ctl/audit_view.hpp"
#include "daemon/ctl/commands.hpp"

namespace nb::ctl {

using nlohmann::json;

std::function<Action()> plan_arguments(CLI::App& subcommand) {
  auto explain = std::make_shared<bool>(false);
  subcommand.add_flag("--explain", *explain, "Show the reasoning");
  return [explain] { return request({{"explain", *explain}}); };
}

namespace {

struct HistoryArguments {
  long long limit = 20;
  std::string since;
  std::string audit_log;
};

// Without --since the daemon's kept rounds (the last `limit`); with it the audit log's entries,
// all of them unless --limit was given.
json history_request(const HistoryArguments& given, std::optional<long long> limit) {
  if (given.since.empty()) {
    return {{"limit", given.limit}};
  }
  json args{{"since", given.since}};
  if (limit) {
    args["limit"] = *limit;
  }
  return args;
}

}  // namespace

std::function<Action()> history_arguments(CLI::App& subcommand) {
  auto given = std::make_shared<HistoryArguments>();
  auto* limit = subcommand
                    .add_option("-n,--limit", given->limit,
                                "How many rounds (with --since: all unless given)")
                    ->check(positive_whole_number());
  subcommand.add_option("--since", given->since,
                        "Rounds and jobs since DURATION ago (90s, 15m, 2h) or since an RFC 3339 "
                        "TIMESTAMP, from the daemon's audit log");
  subcommand.add_option("--audit-log", given->audit_log,
                        "Read this audit log file directly instead of asking the daemon");
  return [given, limit]() -> Action {
    std::optional<long long> limit_given;
    if (limit->count() > 0) {
      limit_given = given->limit;
    }
    if (given->audit_log.empty()) {
      return request(history_request(*given, limit_given));
    }
    return [given, limit_given](const Options& options, const Command&) {
      return print_audit_log(given->audit_log, given->since, limit_given, options.json_output);
    };
  };
}

std::function<Action()> containers_arguments(CLI::App& subcommand) {
  auto limit = std::make_shared<long long>(0);
  subcommand.add_option("-n,--limit", *limit, "How many containers")
      ->check(positive_whole_number());
  return [limit] {
    json args = json::object();
    if (*limit > 0) {
      args["limit"] = *limit;
    }
    return request(std::move(args));
  };
}

}  // namespace nb::ctl
