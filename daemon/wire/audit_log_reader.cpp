#include "daemon/wire/audit_log_reader.hpp"

#include <cerrno>
#include <fstream>
#include <string>

#include "base/parse_units.hpp"
#include "base/time.hpp"

namespace nb::wire {

namespace {

using nlohmann::json;

// The writer puts "time" first, exactly so (codec::to_audit_line).
constexpr std::string_view kTimePrefix = "{\"time\":\"";

// The time of an audit line, read without parsing the rest.
std::optional<TimePoint> line_time(std::string_view line) {
  if (line.substr(0, kTimePrefix.size()) != kTimePrefix) {
    return std::nullopt;
  }
  line.remove_prefix(kTimePrefix.size());
  auto quote = line.find('"');
  if (quote == std::string_view::npos) {
    return std::nullopt;
  }
  auto time = parse_rfc3339(line.substr(0, quote));
  if (!time) {
    return std::nullopt;
  }
  return time.value();
}

Status read_file(const std::filesystem::path& file, std::optional<TimePoint> since,
                 AuditEntries& out) {
  std::error_code missing;
  if (!std::filesystem::exists(file, missing)) {
    return Ok{};
  }
  std::ifstream in(file);
  if (!in) {
    return make_error(errno, "open " + file.string());
  }
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty()) {
      continue;  // the newline that isolates a torn line at start-up
    }
    auto time = line_time(line);
    if (!time) {
      ++out.skipped_lines;
      continue;
    }
    if (since && *time < *since) {
      continue;
    }
    json entry = json::parse(line, nullptr, false);
    if (entry.is_discarded() || !entry.is_object() || !entry.contains("kind")) {
      ++out.skipped_lines;
      continue;
    }
    out.entries.push_back(std::move(entry));
  }
  if (in.bad()) {
    return make_error(errno, "read " + file.string());
  }
  return Ok{};
}

}  // namespace

std::filesystem::path rotated_audit_log(const std::filesystem::path& file) {
  auto rotated = file;
  rotated += ".1";
  return rotated;
}

Result<AuditEntries> read_audit_log(const std::filesystem::path& file,
                                    std::optional<TimePoint> since) {
  AuditEntries out;
  for (const auto& part : {rotated_audit_log(file), file}) {
    if (auto read = read_file(part, since, out); !read) {
      return read.error();
    }
  }
  return out;
}

Result<TimePoint> parse_since(std::string_view text, TimePoint now) {
  if (auto duration = parse_duration(text)) {
    return now - duration.value();
  }
  if (auto time = parse_rfc3339(text)) {
    return time.value();
  }
  return make_error(0, "since \"" + std::string(text) +
                           "\" is neither a duration (90s, 15m, 2h) nor an RFC 3339 time "
                           "(2026-12-02T10:00:00Z)");
}

}  // namespace nb::wire
