// Admin request lines through the daemon's real command table: protocol decoding, argument
// checks and every handler, one line of input per request, alternately as an admin and as a
// read-only peer. The host, the policy and the page mover are fakes; the first round has run, so
// plan, containers, topology and snapshot have something to show.

#include <spdlog/spdlog.h>

#include <asio.hpp>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "core/decide.hpp"
#include "daemon/service/daemon.hpp"
#include "daemon/service/extension_names.hpp"
#include "tests/fuzz/fuzz_input.hpp"

namespace {

const nb::TimePoint kNow{std::chrono::seconds(1796205600)};

nb::host::HostScan pressured_host() {
  nb::host::HostScan document;
  document.snapshot.time = kNow;
  document.snapshot.nodes.resize(2);
  for (nb::NodeId id : {0, 1}) {
    auto& node = document.snapshot.nodes[static_cast<std::size_t>(id)];
    node.id = id;
    node.read_latency_ns = id == 0 ? 60 : 95;
    node.distance = {{id, 10}, {1 - id, 21}};
    node.cpus = std::to_string(id);
    node.total_bytes = 16 * nb::kGiB;
    node.free_bytes = 8 * nb::kGiB;
  }
  document.snapshot.pools = {nb::core::Pool{"share", {0, 1}}};
  document.snapshot.containers = {
      nb::core::Container{"pods/a", "share", {{0, 10 * nb::kMiB}, {1, 3 * nb::kGiB}}},
      nb::core::Container{"pods/b", "share", {{1, 2 * nb::kGiB}}}};
  return document;
}

nb::service::DaemonSeams fake_seams() {
  nb::service::DaemonSeams seams;
  seams.scan = [](nb::TimePoint) -> nb::Result<nb::host::HostScan> { return pressured_host(); };
  seams.decide = [](const nb::core::Snapshot& snapshot, const nb::core::PolicyConfig& policy,
                    const nb::core::History& history,
                    nb::TimePoint now) { return nb::core::decide(snapshot, policy, history, now); };
  seams.load_config = [](const std::filesystem::path& path) {
    return nb::config::load_config_file(path, nb::service::extension_names());
  };
  seams.container_dir = [](std::string_view id) { return nb::fuzz::scratch_dir() / "cg" / id; };
  seams.clock = [] { return kNow; };
  seams.migrate = [](const std::vector<nb::actuator::MigrationTarget>&,
                     const nb::actuator::JobOptions& options, const std::atomic<bool>&,
                     const std::function<void(const nb::actuator::JobProgress&)>&) {
    nb::actuator::MigrationReport report;
    report.source_node = options.source_node;
    report.budget = options.budget;
    report.stop_reason = nb::actuator::StopReason::budget_met;
    return report;
  };
  return seams;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  spdlog::set_level(spdlog::level::off);
  nb::config::Config config;
  config.daemon.state_dir = (nb::fuzz::scratch_dir() / "state").string();
  asio::io_context io;
  nb::service::Daemon daemon(io, config, {}, fake_seams());
  nb::service::CommandContext admin{.caller_is_admin = true};
  (void)daemon.commands().handle_line(R"({"id":0,"cmd":"reconcile"})", admin);

  std::string_view rest = nb::fuzz::as_text(data, size);
  bool as_admin = true;
  while (!rest.empty()) {
    auto end = rest.find('\n');
    auto line = rest.substr(0, end);
    rest = end == std::string_view::npos ? std::string_view{} : rest.substr(end + 1);
    nb::service::CommandContext context{.caller_is_admin = as_admin};
    auto response = daemon.commands().handle_line(line, context);
    (void)nb::wire::to_line(response);
    as_admin = !as_admin;
  }
  return 0;
}
