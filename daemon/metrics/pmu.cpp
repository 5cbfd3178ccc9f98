#include "daemon/metrics/pmu.hpp"

#include <algorithm>
#include <charconv>

#include "base/range_list.hpp"
#include "daemon/metrics/text_file.hpp"

namespace nb::metrics {
namespace {

namespace fs = std::filesystem;

constexpr std::string_view kMetadataSuffixes[] = {".scale", ".unit", ".per-pkg", ".snapshot"};

std::uint64_t* word_of(PerfEventConfig& config, int word) {
  switch (word) {
    case 0:
      return &config.config;
    case 1:
      return &config.config1;
    case 2:
      return &config.config2;
  }
  return nullptr;
}

std::optional<double> parse_double(std::string_view text) {
  double value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || ec != std::errc{} || end != text.data() + text.size()) {
    return std::nullopt;
  }
  return value;
}

}  // namespace

Result<PmuFormatField> parse_format_field(std::string_view text) {
  auto colon = text.find(':');
  if (colon == std::string_view::npos) {
    return make_error(0, "format \"" + std::string(text) + "\" has no ':'");
  }
  std::string_view target = text.substr(0, colon);
  PmuFormatField field;
  if (target == "config") {
    field.word = 0;
  } else if (target == "config1") {
    field.word = 1;
  } else if (target == "config2") {
    field.word = 2;
  } else {
    return make_error(0, "format \"" + std::string(text) + "\" targets an unknown word");
  }
  // A config word has 64 bits; the list syntax is the cpulists' one.
  auto ranges = parse_range_list(text.substr(colon + 1), 63);
  if (!ranges) {
    return make_error(0, "format \"" + std::string(text) + "\" has a bad bit range");
  }
  for (const Range& range : *ranges) {
    field.bit_ranges.emplace_back(range.first, range.last);
  }
  if (field.bit_ranges.empty()) {
    return make_error(0, "format \"" + std::string(text) + "\" has no bits");
  }
  return field;
}

Result<PerfEventConfig> Pmu::encode(std::string_view encoding) const {
  PerfEventConfig config;
  std::string whole = trim(encoding);
  std::string_view terms = whole;
  if (terms.empty()) {
    return make_error(0, name + ": empty event encoding");
  }
  while (!terms.empty()) {
    auto comma = terms.find(',');
    std::string term = trim(terms.substr(0, comma));
    terms = comma == std::string_view::npos ? std::string_view{} : terms.substr(comma + 1);
    auto equals = term.find('=');
    std::string key = trim(term.substr(0, equals));
    std::uint64_t value = 1;
    if (equals != std::string::npos) {
      auto parsed = parse_unsigned(trim(term.substr(equals + 1)), name + " event term " + key);
      if (!parsed) {
        return parsed.error();
      }
      value = *parsed;
    }
    if (key == "config" || key == "config1" || key == "config2") {
      *word_of(config, key == "config" ? 0 : key == "config1" ? 1 : 2) = value;
      continue;
    }
    auto format = formats.find(key);
    if (format == formats.end()) {
      return make_error(0, name + ": event term \"" + key + "\" has no format/" + key + " file");
    }
    std::uint64_t* word = word_of(config, format->second.word);
    std::uint64_t remaining = value;
    for (auto [low, high] : format->second.bit_ranges) {
      int width = high - low + 1;
      std::uint64_t mask = width == 64 ? ~0ULL : (1ULL << width) - 1;
      *word |= (remaining & mask) << low;
      remaining = width == 64 ? 0 : remaining >> width;
    }
    if (remaining != 0) {
      return make_error(0, name + ": value of \"" + key + "\" does not fit its format bits");
    }
  }
  return config;
}

double Pmu::bytes_per_count(const std::string& event, double fallback) const {
  auto scale = scales.find(event);
  auto unit = units.find(event);
  if (scale == scales.end() || unit == units.end()) {
    return fallback;
  }
  static const std::map<std::string, double, std::less<>> kUnitBytes = {
      {"B", 1},
      {"Bytes", 1},
      {"KiB", 1024},
      {"MiB", 1024.0 * 1024},
      {"GiB", 1024.0 * 1024 * 1024},
      {"KB", 1e3},
      {"MB", 1e6},
      {"GB", 1e9}};
  auto bytes = kUnitBytes.find(unit->second);
  if (bytes == kUnitBytes.end()) {
    return fallback;
  }
  return scale->second * bytes->second;
}

Result<Pmu> read_pmu(const std::filesystem::path& directory) {
  Pmu pmu;
  pmu.name = directory.filename().string();
  auto type = read_unsigned(directory / "type");
  if (!type) {
    return type.error();
  }
  pmu.type = static_cast<std::uint32_t>(*type);
  auto cpumask = read_trimmed(directory / "cpumask");
  if (!cpumask) {
    return cpumask.error();
  }
  auto cpus = parse_cpu_list(*cpumask);
  if (!cpus) {
    return make_error(0, (directory / "cpumask").string() + ": " + cpus.error().context);
  }
  pmu.cpus = std::move(*cpus);

  std::error_code error;
  for (const auto& entry : fs::directory_iterator(directory / "format", error)) {
    auto text = read_trimmed(entry.path());
    if (!text) {
      return text.error();
    }
    auto field = parse_format_field(*text);
    if (!field) {
      return make_error(0, entry.path().string() + ": " + field.error().context);
    }
    pmu.formats[entry.path().filename().string()] = std::move(*field);
  }
  if (error) {
    return make_error(error.value(), "list " + (directory / "format").string());
  }
  // A PMU may have no events/ directory at all (AMD amd_umc): the config names the encodings.
  for (const auto& entry : fs::directory_iterator(directory / "events", error)) {
    std::string file = entry.path().filename().string();
    auto suffix = std::find_if(std::begin(kMetadataSuffixes), std::end(kMetadataSuffixes),
                               [&file](std::string_view s) { return file.ends_with(s); });
    auto text = read_trimmed(entry.path());
    if (!text) {
      return text.error();
    }
    if (suffix == std::end(kMetadataSuffixes)) {
      pmu.events[file] = *text;
      continue;
    }
    std::string event = file.substr(0, file.size() - suffix->size());
    if (*suffix == ".scale") {
      auto scale = parse_double(*text);
      if (!scale || *scale <= 0) {
        return make_error(0, entry.path().string() + ": not a positive scale: \"" + *text + "\"");
      }
      pmu.scales[event] = *scale;
    } else if (*suffix == ".unit") {
      pmu.units[event] = *text;
    }
  }
  return pmu;
}

std::vector<std::string> find_pmus(const std::filesystem::path& devices, std::string_view prefix) {
  std::vector<std::string> names;
  std::error_code error;
  for (const auto& entry : fs::directory_iterator(devices, error)) {
    std::string name = entry.path().filename().string();
    if (!name.starts_with(prefix) || name.size() == prefix.size()) {
      continue;
    }
    std::string_view number = std::string_view(name).substr(prefix.size());
    if (std::all_of(number.begin(), number.end(), [](char c) { return c >= '0' && c <= '9'; })) {
      names.push_back(name);
    }
  }
  std::sort(names.begin(), names.end());
  return names;
}

}  // namespace nb::metrics
