#include "daemon/host/numa_stat.hpp"

#include <charconv>
#include <optional>
#include <string>

#include "daemon/host/small_file.hpp"

namespace nb::host {
namespace {

// The rest of the line that starts with `key`, or nullopt.
std::optional<std::string_view> line_after(std::string_view text, std::string_view key) {
  std::size_t at = 0;
  while (at < text.size()) {
    const auto newline = text.find('\n', at);
    const std::size_t end = newline == std::string_view::npos ? text.size() : newline;
    const std::string_view line = text.substr(at, end - at);
    if (line.starts_with(key)) {
      return line.substr(key.size());
    }
    at = end + 1;
  }
  return std::nullopt;
}

// " N0=123 N1=456" (v2 after "anon"; v1 after "anon=<total>") → per-node values × unit.
bool parse_node_fields(std::string_view fields, Bytes unit, AnonBytes& out) {
  const char* cursor = fields.data();
  const char* end = fields.data() + fields.size();
  while (cursor != end) {
    if (*cursor == ' ') {
      ++cursor;
      continue;
    }
    if (*cursor != 'N') {
      return false;
    }
    NodeId node = 0;
    auto [after_node, node_ec] = std::from_chars(cursor + 1, end, node);
    if (node_ec != std::errc() || after_node == end || *after_node != '=' || node < 0) {
      return false;
    }
    Bytes value = 0;
    auto [after_value, value_ec] = std::from_chars(after_node + 1, end, value);
    if (value_ec != std::errc() || value < 0 || (after_value != end && *after_value != ' ')) {
      return false;
    }
    Bytes bytes = 0;
    if (__builtin_mul_overflow(value, unit, &bytes)) {
      return false;
    }
    out[node] = bytes;
    cursor = after_value;
  }
  return !out.empty();
}

// v1 lines begin with "<total> " before the node fields.
std::optional<std::string_view> skip_v1_total(std::string_view rest) {
  Bytes total = 0;
  auto [ptr, ec] = std::from_chars(rest.data(), rest.data() + rest.size(), total);
  if (ec != std::errc()) {
    return std::nullopt;
  }
  return rest.substr(static_cast<std::size_t>(ptr - rest.data()));
}

}  // namespace

Result<AnonBytes> parse_numa_stat(std::string_view text, NumaStatFormat format, Bytes page_size,
                                  std::string_view context) {
  std::optional<std::string_view> fields;
  Bytes unit = 1;
  if (format == NumaStatFormat::v2) {
    fields = line_after(text, "anon ");
  } else {
    unit = page_size;
    auto rest = line_after(text, "hierarchical_anon=");
    if (!rest) {
      rest = line_after(text, "anon=");
    }
    if (rest) {
      fields = skip_v1_total(*rest);
    }
  }
  AnonBytes anon;
  if (!fields || !parse_node_fields(*fields, unit, anon)) {
    return make_error(0, std::string(context) + ": no well-formed anon line");
  }
  return anon;
}

Result<AnonBytes> read_numa_stat(const std::filesystem::path& cgroup_dir, NumaStatFormat format,
                                 Bytes page_size) {
  const auto path = cgroup_dir / "memory.numa_stat";
  std::string text;
  if (Status read = read_small_file(path, text); !read) {
    return read.error();
  }
  return parse_numa_stat(text, format, page_size, path.native());
}

}  // namespace nb::host
