// Prometheus text through the parser and through the file provider, twice: the input splits into
// two versions of the exporter's file, so counters meet a previous value (and may go backwards).

#include <fuzzer/FuzzedDataProvider.h>

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <string>

#include "daemon/metrics/file_provider.hpp"
#include "daemon/metrics/prometheus_text.hpp"
#include "tests/fuzz/fuzz_input.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  (void)nb::metrics::parse_prometheus_text(nb::fuzz::as_text(data, size));

  FuzzedDataProvider input(data, size);
  std::string first = input.ConsumeRandomLengthString(size);
  std::string second = input.ConsumeRemainingBytesAsString();

  auto path = nb::fuzz::scratch_dir() / "metrics.prom";
  nb::config::FileProviderConfig config;
  config.path = path.string();
  config.format = "prometheus";
  config.max_age = std::chrono::hours(24 * 365 * 100);
  auto now = std::chrono::system_clock::now();
  nb::metrics::FileProvider latency(nb::metrics::Metric::read_latency, config);
  nb::metrics::FileProvider bandwidth(nb::metrics::Metric::bandwidth, config);
  nb::fuzz::write_file(path, first);
  (void)latency.read(now);
  (void)bandwidth.read(now);
  nb::fuzz::write_file(path, second);
  (void)latency.read(now + std::chrono::seconds(10));
  (void)bandwidth.read(now + std::chrono::seconds(10));
  return 0;
}
