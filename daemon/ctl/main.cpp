// numabalancerctl: the admin client.

#include <CLI/CLI.hpp>

#include "numabalancer_version.hpp"

int main(int argc, char** argv) {
  CLI::App app{"numabalancerctl - controls numabalancerd over its admin socket"};
  app.set_version_flag("--version", std::string("numabalancerctl ") + NUMABALANCER_VERSION);
  CLI11_PARSE(app, argc, argv);
  return 0;
}
