// memory.numa_stat in both cgroup versions' formats, with a v1 page size the first input byte
// picks, so the pages-to-bytes multiplication meets large counts.

#include <cstddef>
#include <cstdint>

#include "daemon/host/numa_stat.hpp"
#include "tests/fuzz/fuzz_input.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) {
    return 0;
  }
  constexpr nb::Bytes kPageSizes[] = {4 * nb::kKiB, 16 * nb::kKiB, 64 * nb::kKiB, 2 * nb::kMiB};
  nb::Bytes page_size = kPageSizes[data[0] % 4];
  auto text = nb::fuzz::as_text(data + 1, size - 1);
  (void)nb::host::parse_numa_stat(text, nb::host::NumaStatFormat::v2, page_size, "fuzz v2");
  (void)nb::host::parse_numa_stat(text, nb::host::NumaStatFormat::v1, page_size, "fuzz v1");
  return 0;
}
