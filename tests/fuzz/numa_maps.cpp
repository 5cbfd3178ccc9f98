// /proc/PID/numa_maps and /proc/PID/maps as the kernel might print them, or not: the parsers must
// turn anything into VMAs or an error, and the join must hold for whatever they accept.

#include <cstddef>
#include <cstdint>

#include "actuator/numa_maps.hpp"
#include "tests/fuzz/fuzz_input.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  auto text = nb::fuzz::as_text(data, size);
  auto vmas = nb::actuator::parse_numa_maps(text, "fuzz numa_maps");
  if (vmas.ok()) {
    for (const auto& vma : *vmas) {
      (void)vma.resident_pages();
      for (const auto& [node, pages] : vma.pages_on_node) {
        (void)vma.bytes_on(node);
        (void)pages;
      }
    }
    (void)nb::actuator::bytes_on_node(*vmas, 0);
  }
  auto ranges = nb::actuator::parse_maps(text, "fuzz maps");
  (void)ranges;
  return 0;
}
