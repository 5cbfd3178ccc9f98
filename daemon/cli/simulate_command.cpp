// `numabalancerd simulate`: the daemon's logic against a modelled host in simulated time
// (daemon/sim). Deterministic and offline: it reads its scenario and config and writes stdout.

#include <cerrno>
#include <cstring>
#include <fstream>
#include <iostream>
#include <memory>
#include <string>

#include "daemon/cli/commands.hpp"
#include "daemon/cli/global_config.hpp"
#include "daemon/sim/output.hpp"
#include "daemon/sim/scenario_load.hpp"
#include "daemon/sim/simulation.hpp"

namespace nb::cli {
namespace {

struct SimulateOptions {
  std::string scenario_path;
  std::string compare;
  bool no_backoff = false;
  bool json = false;
  std::string csv_path;
  std::string plot_path;
};

constexpr int kBadInput = 2;
constexpr int kFailed = 1;

// --csv and --plot, after the runs; 0, or the exit code of a file that could not be written.
int write_series(const SimulateOptions& options, const sim::Scenario& scenario,
                 const std::vector<sim::ModeSeries>& runs) {
  if (!options.csv_path.empty()) {
    std::vector<NodeId> nodes;
    for (const sim::ScenarioNode& node : scenario.nodes) {
      nodes.push_back(node.id);
    }
    std::ofstream out(options.csv_path, std::ios::binary | std::ios::trunc);
    out << sim::series_csv(runs, nodes);
    out.close();
    if (!out) {
      std::cerr << "numabalancerd simulate: --csv: cannot write " << options.csv_path << ": "
                << std::strerror(errno) << '\n';
      return kFailed;
    }
  }
  if (!options.plot_path.empty()) {
    if (auto plotted = sim::plot_series(runs, scenario.name, options.plot_path); !plotted) {
      std::cerr << "numabalancerd simulate: " << plotted.error().context << '\n';
      return kFailed;
    }
  }
  return 0;
}

int run_simulate(const SimulateOptions& options, const GlobalOptions& global) {
  auto base = load_global_config(global, "simulate");
  if (!base) {
    std::cerr << base.error();
    return kBadInput;
  }
  sim::ScenarioLoad load = sim::load_scenario_file(options.scenario_path, *base);
  if (!load.ok()) {
    std::cerr << problem_lines("simulate", options.scenario_path, load.problems);
    return kBadInput;
  }
  const sim::Scenario& scenario = load.scenario;
  std::vector<sim::Mode> modes;
  if (options.compare.empty()) {
    const core::PolicyConfig& policy = scenario.config.policy;
    const std::string name = policy.strategy == core::Strategy::katalyst
                                 ? std::string(core::to_string(policy.threshold_mode))
                                 : std::string(core::to_string(policy.strategy));
    modes.push_back(sim::Mode{name, true, std::nullopt, std::nullopt});
  } else {
    auto parsed = sim::parse_modes(options.compare);
    if (!parsed) {
      std::cerr << "numabalancerd simulate: --compare: " << parsed.error().context << '\n';
      return kBadInput;
    }
    modes = std::move(*parsed);
  }

  if (!options.plot_path.empty() && !sim::gnuplot_installed()) {
    std::cerr << "numabalancerd simulate: --plot needs gnuplot, which is not installed (Debian: "
                 "apt-get install gnuplot-nox)\n";
    return kBadInput;
  }
  const bool series = !options.csv_path.empty() || !options.plot_path.empty();
  std::vector<sim::ModeSeries> runs;
  sim::ModeSummaries summaries;
  for (const sim::Mode& mode : modes) {
    sim::RoundSink sink;
    if (options.json) {
      sink = [&mode](const sim::RoundReport& round) {
        std::cout << sim::round_json(mode.name, round).dump() << '\n';
      };
    }
    sim::SecondSink per_second;
    if (series) {
      runs.push_back(sim::ModeSeries{mode.name, {}});
      per_second = [&runs](const sim::SecondSample& sample) {
        runs.back().seconds.push_back(sample);
      };
    }
    summaries.emplace_back(mode.name,
                           sim::run_mode(scenario, mode, !options.no_backoff, sink, per_second));
  }
  if (int written = write_series(options, scenario, runs); written != 0) {
    return written;
  }
  if (options.json) {
    std::cout << sim::summary_json(scenario.name, summaries).dump() << '\n';
  } else {
    std::cout << sim::summary_table(scenario.name, summaries);
  }
  std::cout.flush();
  return 0;
}

}  // namespace

void add_simulate_command(CLI::App& app, const GlobalOptions& global, int& exit_code) {
  auto options = std::make_shared<SimulateOptions>();
  auto* command = app.add_subcommand(
      "simulate",
      "Run the daemon's policy against a modelled host (a scenario file) in simulated time, and "
      "print what it did: a table, or with --json a line per round and the summary last.");
  command->add_option("--scenario", options->scenario_path, "Scenario file (TOML)")->required();
  command->add_option(
      "--compare", options->compare,
      "Run once per mode and print them side by side: a comma-separated list of "
      "off, absolute, relative, auto (the seed's strategy with that threshold mode), equalize");
  command->add_flag("--no-backoff", options->no_backoff,
                    "Turn the back-off rule off ([policy] backoff_after = 0)");
  command->add_flag("--json", options->json,
                    "One JSON line per round, then the summary object as the last line");
  command->add_option("--csv", options->csv_path,
                      "Write every simulated second of every mode to this CSV file: the "
                      "sensitive and all-traffic latency, each node's latency and traffic");
  command->add_option("--plot", options->plot_path,
                      "Draw latency over time per mode into this SVG file (needs gnuplot)");
  command->callback([options, &global, &exit_code] { exit_code = run_simulate(*options, global); });
}

}  // namespace nb::cli
