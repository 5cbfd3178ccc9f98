#pragma once
// How many times slower than a plain build this one runs. A timing bound that guards a property
// (a client is not starved behind a flood) is multiplied by it, so that ASan's cost does not turn
// the property into a race, while a starved client still misses the bound by far.

namespace nb::testing {

#if defined(__SANITIZE_ADDRESS__)
inline constexpr int kSanitizerSlowdown = 3;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
inline constexpr int kSanitizerSlowdown = 3;
#else
inline constexpr int kSanitizerSlowdown = 1;
#endif
#else
inline constexpr int kSanitizerSlowdown = 1;
#endif

}  // namespace nb::testing
