// numabalancerctl: the admin client. Exit codes: 0 ok, 1 the command failed, 2 cannot connect or
// bad usage (the message names the socket it tried). The commands are daemon/ctl/commands.hpp's
// table; main adds the shared options and a subcommand per entry, then runs the one given.

#include <CLI/CLI.hpp>

#include <cstdlib>

#include "base/option_checks.hpp"
#include "daemon/ctl/commands.hpp"
#include "numabalancer_version.hpp"

namespace {

using nb::ctl::Options;

void add_shared_options(CLI::App& app, Options& options) {
  if (const char* env = std::getenv("NUMABALANCER_SOCKET"); env != nullptr && *env != '\0') {
    options.socket = env;
  }
  app.add_option("-s,--socket", options.socket,
                 "Admin socket of numabalancerd (default /run/numabalancer/admin.sock, or "
                 "$NUMABALANCER_SOCKET)");
  app.add_flag("--json", options.json_output, "Print the daemon's raw JSON result");
  app.add_option("--timeout", options.timeout_s, "Seconds to wait for an answer")
      ->check(nb::seconds_up_to_a_day());
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"numabalancerctl - controls numabalancerd over its admin socket"};
  app.set_version_flag("--version", std::string("numabalancerctl ") + NUMABALANCER_VERSION);
  app.fallthrough();
  app.require_subcommand(1);
  Options options;
  add_shared_options(app, options);

  const nb::ctl::Command* chosen = nullptr;
  nb::ctl::Action action;
  for (const nb::ctl::Command& command : nb::ctl::commands()) {
    auto* subcommand = app.add_subcommand(std::string(command.name), std::string(command.help));
    auto build = nb::ctl::declare_arguments(command, *subcommand);
    subcommand->callback([&, build, command = &command] {
      action = build();
      chosen = command;
    });
  }

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e) == 0 ? nb::ctl::kOk : nb::ctl::kUsage;
  }
  return action ? action(options, *chosen) : nb::ctl::kUsage;
}
