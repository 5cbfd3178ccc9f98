// Any text as a config file: load (TOML into structs, unknown keys, units, validation) must
// report problems, never crash. A config the loader accepts must also pass validation on its
// own, since reload and --check-config rely on that one rule set.

#include <cstddef>
#include <cstdint>
#include <cstdlib>

#include "daemon/config/load.hpp"
#include "daemon/config/validate.hpp"
#include "daemon/service/extension_names.hpp"
#include "tests/fuzz/fuzz_input.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  auto loaded = nb::config::load_config_string(nb::fuzz::as_text(data, size), "fuzz.toml",
                                               nb::service::extension_names());
  for (const auto& problem : loaded.problems) {
    (void)problem;
  }
  if (loaded.ok() &&
      !nb::config::validate_config(loaded.config, nb::service::extension_names()).empty()) {
    std::abort();
  }
  return 0;
}
