// The file provider reading a JSON document another program wrote, for both metrics.

#include <chrono>
#include <cstddef>
#include <cstdint>

#include "daemon/metrics/file_provider.hpp"
#include "tests/fuzz/fuzz_input.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  auto path = nb::fuzz::scratch_dir() / "metrics.json";
  nb::fuzz::write_file(path, nb::fuzz::as_text(data, size));
  nb::config::FileProviderConfig config;
  config.path = path.string();
  config.format = "json";
  // Data from any year counts as fresh, so the inputs reach past the staleness check.
  config.max_age = std::chrono::hours(24 * 365 * 100);
  const nb::TimePoint now{std::chrono::seconds(1796205600)};
  for (auto metric : {nb::metrics::Metric::read_latency, nb::metrics::Metric::bandwidth}) {
    nb::metrics::FileProvider provider(metric, config);
    (void)provider.read(now);
  }
  return 0;
}
