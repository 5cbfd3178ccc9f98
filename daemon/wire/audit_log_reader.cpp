#include "daemon/wire/audit_log_reader.hpp"

#include <algorithm>
#include <cerrno>
#include <fstream>
#include <string>

#include "base/parse_units.hpp"
#include "base/time.hpp"
#include "daemon/wire/reverse_lines.hpp"

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

// How a backwards read of one file ended.
enum class TailEnd { start_of_file, done };

Result<TailEnd> read_backwards(const std::filesystem::path& file, std::optional<TimePoint> since,
                               std::size_t max_entries, std::size_t& budget, AuditTail& out) {
  auto lines = ReverseLines::open(file, budget);
  if (!lines) {
    return lines.error();
  }
  while (out.entries.size() < max_entries) {
    auto line = lines->previous();
    if (!line) {
      return line.error();
    }
    if (!line->has_value()) {
      budget -= lines->bytes_read();
      out.truncated = lines->capped();
      return lines->capped() ? TailEnd::done : TailEnd::start_of_file;
    }
    const std::string& text = **line;
    if (text.empty()) {
      continue;
    }
    auto time = line_time(text);
    if (!time) {
      ++out.skipped_lines;
      continue;
    }
    if (since && *time < *since) {
      return TailEnd::done;
    }
    json entry = json::parse(text, nullptr, false);
    if (entry.is_discarded() || !entry.is_object() || !entry.contains("kind")) {
      ++out.skipped_lines;
      continue;
    }
    out.entries.push_back(std::move(entry));
  }
  return TailEnd::done;
}

}  // namespace

Result<AuditTail> read_audit_log_tail(const std::filesystem::path& file,
                                      std::optional<TimePoint> since, std::size_t max_entries,
                                      std::size_t max_bytes) {
  AuditTail out;
  std::size_t budget = max_bytes;
  for (const auto& part : {file, rotated_audit_log(file)}) {
    auto end = read_backwards(part, since, max_entries, budget, out);
    if (!end) {
      return end.error();
    }
    if (*end == TailEnd::done) {
      break;
    }
  }
  std::reverse(out.entries.begin(), out.entries.end());
  return out;
}

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
