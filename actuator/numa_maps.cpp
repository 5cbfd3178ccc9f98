#include "actuator/numa_maps.hpp"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <fstream>
#include <sstream>
#include <unordered_map>

namespace nb::actuator {
namespace {

template <typename T>
bool parse_number(std::string_view text, T& value, int base = 10) {
  if (text.empty()) {
    return false;
  }
  auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value, base);
  return error == std::errc() && end == text.data() + text.size();
}

// Every piece between separators, empty ones included; a final separator ends the text rather
// than starting an empty piece, so a missing final newline is not an error.
std::vector<std::string_view> split(std::string_view text, std::string_view separators) {
  std::vector<std::string_view> pieces;
  std::size_t position = 0;
  while (position < text.size()) {
    const std::size_t end = std::min(text.find_first_of(separators, position), text.size());
    pieces.push_back(text.substr(position, end - position));
    position = end + 1;
  }
  return pieces;
}

// Both /proc files are line-oriented: the words of each line that has any, with its number
// (from 1, blank lines counted) for the error that names it.
struct WordedLine {
  int number = 0;
  std::vector<std::string_view> words;
};

std::vector<WordedLine> worded_lines(std::string_view text) {
  std::vector<WordedLine> lines;
  int number = 0;
  for (std::string_view line : split(text, "\n")) {
    ++number;
    std::vector<std::string_view> words = split(line, " \t");
    std::erase(words, std::string_view{});
    if (!words.empty()) {
      lines.push_back({number, std::move(words)});
    }
  }
  return lines;
}

Error line_error(std::string_view context, int line_number, std::string_view what,
                 std::string_view word) {
  return make_error(EINVAL, std::string(context) + " line " + std::to_string(line_number) + ": " +
                                std::string(what) + " \"" + std::string(word) + "\"");
}

// 57 bits: x86-64's five-level page tables. Counts beyond it are corrupt, and their byte values
// would overflow.
constexpr Bytes kLargestAddressSpace = Bytes{1} << 57;

bool fits_an_address_space(const Vma& vma) {
  if (vma.page_size > kLargestAddressSpace) {
    return false;
  }
  const std::int64_t most_pages = kLargestAddressSpace / vma.page_size;
  std::int64_t pages = 0;
  for (const auto& [node, count] : vma.pages_on_node) {
    if (count > most_pages - pages) {
      return false;
    }
    pages += count;
  }
  return vma.anon_pages <= most_pages;
}

// Applies one key=value or keyword of a numa_maps line to the VMA; false on garbage.
bool apply_word(std::string_view word, Vma& vma) {
  auto equals = word.find('=');
  if (equals == std::string_view::npos) {
    if (word == "huge") {
      vma.hugetlb = true;
    } else if (word == "heap" || word == "stack") {
      vma.kind = std::string(word);
    }
    return true;  // other keywords (policies) carry nothing the mover needs
  }
  std::string_view key = word.substr(0, equals);
  std::string_view value = word.substr(equals + 1);
  if (key == "file") {
    vma.file = std::string(value);
    return true;
  }
  if (key.size() > 1 && key[0] == 'N') {
    NodeId node = 0;
    std::int64_t pages = 0;
    if (!parse_number(key.substr(1), node) || !parse_number(value, pages) || pages < 0) {
      return false;
    }
    vma.pages_on_node[node] = pages;
    return true;
  }
  if (key == "kernelpagesize_kB") {
    std::int64_t kib = 0;
    // 1 GiB is the largest page Linux maps.
    if (!parse_number(value, kib) || kib <= 0 || kib > 1024 * 1024) {
      return false;
    }
    vma.page_size = kib * kKiB;
    return true;
  }
  if (key == "anon") {
    return parse_number(value, vma.anon_pages);
  }
  if (key == "mapmax") {
    return parse_number(value, vma.max_mappers);
  }
  // dirty=, mapped=, active=, writeback=, swapcache= and policies such as bind:0-1 are counts
  // or descriptions the mover does not use.
  return true;
}

Result<std::string> read_text(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    return make_error(errno == 0 ? ENOENT : errno, "open " + path.string());
  }
  std::stringstream buffer;
  buffer << in.rdbuf();
  if (in.bad()) {
    return make_error(errno == 0 ? EIO : errno, "read " + path.string());
  }
  return buffer.str();
}

}  // namespace

std::int64_t Vma::resident_pages() const {
  std::int64_t total = 0;
  for (const auto& [node, pages] : pages_on_node) {
    total += pages;
  }
  return total;
}

Result<std::vector<Vma>> parse_numa_maps(std::string_view text, std::string_view context) {
  std::vector<Vma> vmas;
  Bytes resident_bytes = 0;
  for (const auto& [line_number, words] : worded_lines(text)) {
    Vma vma;
    if (!parse_number(words[0], vma.start, 16)) {
      return line_error(context, line_number, "bad address", words[0]);
    }
    if (words.size() < 2) {
      return line_error(context, line_number, "missing policy after", words[0]);
    }
    for (std::size_t i = 2; i < words.size(); ++i) {
      if (!apply_word(words[i], vma)) {
        return line_error(context, line_number, "bad field", words[i]);
      }
    }
    // Checked per VMA and for the whole process, so that no sum of byte counts can overflow.
    if (!fits_an_address_space(vma)) {
      return line_error(context, line_number, "page counts larger than any address space",
                        words[0]);
    }
    resident_bytes += vma.resident_pages() * vma.page_size;
    if (resident_bytes > kLargestAddressSpace) {
      return line_error(context, line_number, "more pages in all than any address space holds",
                        words[0]);
    }
    vmas.push_back(std::move(vma));
  }
  return vmas;
}

Result<std::vector<AddressRange>> parse_maps(std::string_view text, std::string_view context) {
  std::vector<AddressRange> ranges;
  for (const auto& [line_number, words] : worded_lines(text)) {
    auto dash = words[0].find('-');
    AddressRange range;
    if (dash == std::string_view::npos ||
        !parse_number(words[0].substr(0, dash), range.start, 16) ||
        !parse_number(words[0].substr(dash + 1), range.end, 16) || range.end <= range.start) {
      return line_error(context, line_number, "bad address range", words[0]);
    }
    ranges.push_back(range);
  }
  return ranges;
}

Result<std::vector<Vma>> read_process_vmas(const std::filesystem::path& proc_root, int pid) {
  auto dir = proc_root / std::to_string(pid);
  auto numa_maps_path = dir / "numa_maps";
  auto maps_path = dir / "maps";
  auto numa_text = read_text(numa_maps_path);
  if (!numa_text.ok()) {
    return numa_text.error();
  }
  auto maps_text = read_text(maps_path);
  if (!maps_text.ok()) {
    return maps_text.error();
  }
  auto vmas = parse_numa_maps(*numa_text, numa_maps_path.string());
  if (!vmas.ok()) {
    return vmas.error();
  }
  auto ranges = parse_maps(*maps_text, maps_path.string());
  if (!ranges.ok()) {
    return ranges.error();
  }
  std::unordered_map<std::uintptr_t, std::uintptr_t> end_of;
  for (const auto& range : *ranges) {
    end_of.emplace(range.start, range.end);
  }
  std::vector<Vma> joined;
  joined.reserve(vmas->size());
  for (auto& vma : *vmas) {
    auto it = end_of.find(vma.start);
    if (it == end_of.end()) {
      continue;
    }
    vma.end = it->second;
    joined.push_back(std::move(vma));
  }
  return joined;
}

Bytes bytes_on_node(const std::vector<Vma>& vmas, NodeId node) {
  Bytes total = 0;
  for (const auto& vma : vmas) {
    total += vma.bytes_on(node);
  }
  return total;
}

}  // namespace nb::actuator
