#include <iostream>

#include "daemon/cli/commands.hpp"
#include "daemon/config/load.hpp"
#include "daemon/config/validate.hpp"
#include "daemon/host/cgroup_layout.hpp"
#include "daemon/host/container_walk.hpp"
#include "daemon/host/topology.hpp"
#include "daemon/service/extension_names.hpp"
#include "daemon/service/threshold_note.hpp"

namespace nb::cli {

// The same loader start-up and reload use, so OK here means the daemon will accept the file.
// Pools are also checked against this host's cgroup tree: a cgroup two pools match belongs to
// neither, which the file alone cannot show. Absolute thresholds with a provider of another
// latency kind get a note (threshold_note.hpp).
int run_check_config(const GlobalOptions& global) {
  config::ConfigLoad load =
      config::load_config_file(global.check_config_path, service::extension_names());
  if (!load.ok()) {
    bool about_a_key = false;
    for (const config::ConfigProblem& problem : load.problems) {
      std::cout << problem.to_string() << '\n';
      about_a_key = about_a_key || !problem.key.empty();
    }
    // stdout stays one line per problem, for scripts; the pointer is for the person reading.
    if (about_a_key) {
      std::cerr << "numabalancerd --check-config: numabalancer.toml(5) describes every key, "
                   "the values it accepts and its default\n";
    }
    return 2;
  }
  auto layout = host::detect_cgroup_layout("/");
  if (!layout) {
    std::cerr << "numabalancerd --check-config: pools not checked against this host's cgroups: "
              << layout.error().message() << '\n';
  } else {
    auto conflicts = host::find_pool_conflicts(layout->memory_root, load.config.pools);
    if (!conflicts) {
      std::cerr << "numabalancerd --check-config: pools not checked against this host's cgroups: "
                << conflicts.error().message() << '\n';
    } else if (!conflicts->empty()) {
      for (const std::string& conflict : *conflicts) {
        std::cout << "pool: " << conflict << '\n';
      }
      return 2;
    }
  }
  // Notes, not problems: the file is valid and the exit code says so.
  if (auto note = service::configured_threshold_note(load.config)) {
    std::cout << "note: " << *note << '\n';
  }
  if (auto note = config::baseline_window_note(load.config)) {
    std::cout << "note: " << *note << '\n';
  }
  // This host's shape is not the file's: on stderr, like the pools' check above, so that stdout
  // says the same of one file on every host.
  if (auto online = host::read_online_nodes("/")) {
    if (auto note = host::one_node_note(*online)) {
      std::cerr << "numabalancerd --check-config: " << *note << '\n';
    }
  }
  std::cout << "OK\n";
  return 0;
}

}  // namespace nb::cli
