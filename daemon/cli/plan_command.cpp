// `numabalancerd plan`: the decision for a snapshot file, offline. It calls exactly the
// core::decide the daemon calls each round and plans it as the daemon's round does (a container
// [eviction] evicts is not also migrated), so a snapshot captured on a host replays that host's
// decision.

#include <fstream>
#include <iostream>
#include <iterator>
#include <memory>
#include <sstream>
#include <string>

#include "core/decide.hpp"
#include "daemon/cli/commands.hpp"
#include "daemon/cli/global_config.hpp"
#include "daemon/codec/decision_json.hpp"
#include "daemon/codec/explain.hpp"
#include "daemon/codec/scan_report_json.hpp"
#include "daemon/codec/snapshot_json.hpp"
#include "daemon/service/round_job.hpp"

namespace nb::cli {

namespace {

struct PlanOptions {
  std::string snapshot_path;
  bool explain = false;
};

constexpr int kBadInput = 2;

int fail(const std::string& message) {
  std::cerr << "numabalancerd plan: " << message << '\n';
  return kBadInput;
}

bool read_all(const std::string& path, std::string& text) {
  if (path == "-") {
    text.assign(std::istreambuf_iterator<char>(std::cin), std::istreambuf_iterator<char>());
    return !std::cin.bad();
  }
  std::ifstream file(path, std::ios::binary);
  if (!file) {
    return false;
  }
  std::ostringstream buffer;
  buffer << file.rdbuf();
  text = buffer.str();
  return !file.bad();
}

int run_plan(const PlanOptions& options, const GlobalOptions& global) {
  auto settings = load_global_config(global, "plan");
  if (!settings) {
    std::cerr << settings.error();
    return kBadInput;
  }
  core::PolicyConfig policy = settings->policy;

  std::string text;
  const std::string name = options.snapshot_path == "-" ? "stdin" : options.snapshot_path;
  if (!read_all(options.snapshot_path, text)) {
    return fail("cannot read " + name);
  }
  auto document = codec::parse_snapshot(text, std::chrono::system_clock::now());
  if (!document.ok()) {
    return fail(name + ": " + document.error().message());
  }
  // The snapshot's own overrides win over the file's [policy], so a snapshot file is a
  // self-contained test case whatever config it is replayed with.
  auto effective = codec::apply_policy_overrides(policy, document->policy_overrides);
  if (!effective.ok()) {
    return fail(name + ": " + effective.error().message());
  }

  core::Decision decision =
      core::decide(document->snapshot, *effective, document->history, document->snapshot.time,
                   core::DecideOptions{.explain = options.explain});
  codec::explain_unavailable_metrics(decision, codec::provider_reports(document->meta));
  // As the daemon's round plans it: what [eviction] evicts is not also migrated.
  service::leave_evicted_out(decision, settings->eviction);
  std::cout << codec::format_decision(decision) << '\n';
  if (options.explain) {
    std::cout << '\n' << codec::format_explanation(decision);
  }
  std::cout.flush();
  return 0;
}

}  // namespace

void add_plan_command(CLI::App& app, const GlobalOptions& global, int& exit_code) {
  auto options = std::make_shared<PlanOptions>();
  auto* command = app.add_subcommand(
      "plan",
      "Print the decision the daemon would take for a snapshot, as JSON (exit 0), or the bad "
      "field's JSON path (exit 2). Uses --config's [policy], then the snapshot's config.policy.");
  command->add_option("--snapshot", options->snapshot_path, "Snapshot file (JSON); - for stdin")
      ->required();
  command->add_flag("--explain", options->explain,
                    "After the JSON, print a blank line and a report: the verdict, each rule with "
                    "its numbers, each candidate node kept or dropped, each container taken or "
                    "skipped, and the plan in the order the actuator follows");
  command->callback([options, &global, &exit_code] { exit_code = run_plan(*options, global); });
}

}  // namespace nb::cli
