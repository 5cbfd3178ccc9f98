#pragma once
// Sizes and durations as operators write them in the config file and on the command line.
//
// Sizes: a whole number followed by B, KiB, MiB, GiB or TiB ("512MiB", "4096B"), or plain digits
// meaning bytes. Decimal and single-letter units (k, K, M, G, kB, MB, GB, ...) are rejected, not
// guessed: "12GB" would be 7% smaller than "12GiB", and a budget off by that much moves the wrong
// amount of memory without anyone noticing. Fractions ("1.5GiB") are rejected too; write
// "1536MiB".
//
// Durations: a whole number followed by ms, s, m or h ("500ms", "30s", "15m", "1h"). A unit is
// required: a bare "30" could mean seconds or milliseconds.

#include <string>
#include <string_view>

#include "base/result.hpp"
#include "base/units.hpp"

namespace nb {

// Both refuse values beyond kMaxSize / kMaxDuration (base/units.hpp).
// Errors name the text, e.g. `invalid size "12GB": ...`.
Result<Bytes> parse_size(std::string_view text);
Result<Duration> parse_duration(std::string_view text);
// A size given as a plain integer of bytes (TOML, JSON), held to the same bound as parse_size.
Result<Bytes> checked_size(std::string_view text, Bytes bytes);

// The largest unit that divides the value exactly ("512MiB", "1536MiB"), else bytes ("1000B").
std::string exact_size_text(Bytes bytes);
// The largest unit that divides the value exactly ("15m", "1500ms").
std::string exact_duration_text(Duration duration);

}  // namespace nb
