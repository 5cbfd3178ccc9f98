// `numabalancerd snapshot`: the live host as the snapshot document `plan --snapshot` reads, from
// the same HostScanner the daemon runs each round. With --host-root every host path is read
// under another directory: a captured host, or a test's fake one.

#include <chrono>
#include <iostream>
#include <memory>
#include <optional>
#include <string>

#include "daemon/cli/commands.hpp"
#include "daemon/cli/global_config.hpp"
#include "daemon/codec/scan_document.hpp"
#include "daemon/codec/snapshot_json.hpp"
#include "daemon/codec/state_file.hpp"
#include "daemon/host/host_scanner.hpp"
#include "daemon/service/node_baselines.hpp"

namespace nb::cli {
namespace {

constexpr int kFailed = 2;

struct SnapshotOptions {
  std::string host_root = "/";
};

int run_snapshot(const SnapshotOptions& options, const GlobalOptions& global) {
  auto settings = load_global_config(global, "snapshot");
  if (!settings) {
    std::cerr << settings.error();
    return kFailed;
  }
  const config::Config& config = *settings;

  host::HostScanner scanner(options.host_root, config);
  auto scan = scanner.scan(std::chrono::system_clock::now());
  if (!scan) {
    std::cerr << "numabalancerd snapshot: " << scan.error().message() << '\n';
    return kFailed;
  }
  core::History history;
  // The daemon's persisted rounds, so that `plan` on this document applies the same cooldown and
  // ping-pong bans the daemon would, and its learned baselines, so that it sees the same ones.
  auto state_file = std::filesystem::path(config.daemon.state_dir) / codec::kStateFileName;
  auto contents = codec::read_state_contents(state_file);
  std::optional<codec::SavedBaselines> learned;
  if (contents) {
    history = rounds::to_history(contents->rounds);
    learned = std::move(contents->baselines);
    if (contents->baselines_dropped) {
      std::cerr << "numabalancerd snapshot: ignoring the learned baselines in "
                << state_file.string() << ": " << contents->baselines_dropped->message() << '\n';
    }
  } else {
    std::cerr << "numabalancerd snapshot: ignoring " << state_file.string() << ": "
              << contents.error().message() << " (the daemon will start with no history)\n";
  }
  service::fill_baselines(scan->snapshot,
                          service::tracker_from(learned, service::latency_source(*scan),
                                                config.metrics.baseline, scan->snapshot.time));
  const codec::SnapshotDocument document =
      codec::scan_document(*scan, config.policy, std::move(history));
  std::cout << codec::to_json(document).dump(2) << '\n';
  std::cout.flush();
  if (!std::cout) {
    std::cerr << "numabalancerd snapshot: cannot write the document to stdout\n";
    return kFailed;
  }
  return 0;
}

}  // namespace

void add_snapshot_command(CLI::App& app, const GlobalOptions& global, int& exit_code) {
  auto options = std::make_shared<SnapshotOptions>();
  auto* command = app.add_subcommand(
      "snapshot", "Print the live host (topology, pools, containers, metrics) as snapshot JSON");
  command
      ->add_option("--host-root", options->host_root,
                   "Read /sys, /proc and the cgroup mounts under this directory")
      ->capture_default_str();
  command->callback([options, &global, &exit_code] { exit_code = run_snapshot(*options, global); });
}

}  // namespace nb::cli
