#include "actuator/frame_nodes.hpp"

#include <algorithm>
#include <charconv>
#include <fstream>
#include <iterator>
#include <limits>
#include <map>
#include <string>

namespace nb::actuator {
namespace {

constexpr std::uint64_t kFrameBytes = 4096;
constexpr NodeId kAmbiguous = -1;

// "nodeN" or "memoryM" with nothing after the digits; sysfs also has memory_side_cache.
std::optional<std::uint64_t> numbered(const std::string& name, std::string_view prefix) {
  if (name.size() <= prefix.size() || name.compare(0, prefix.size(), prefix) != 0) {
    return std::nullopt;
  }
  std::uint64_t number = 0;
  const char* first = name.data() + prefix.size();
  const char* last = name.data() + name.size();
  auto [end, error] = std::from_chars(first, last, number);
  if (error != std::errc() || end != last) {
    return std::nullopt;
  }
  return number;
}

Result<std::uint64_t> read_block_size(const std::filesystem::path& path) {
  std::ifstream file(path);
  if (!file) {
    return make_error(ENOENT, "read " + path.string() + " (no memory block directories)");
  }
  std::string text((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
  if (!text.empty() && text.back() == '\n') {
    text.pop_back();
  }
  std::uint64_t bytes = 0;
  auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), bytes, 16);
  if (error != std::errc() || end != text.data() + text.size() || bytes < kFrameBytes ||
      bytes % kFrameBytes != 0) {
    return make_error(EINVAL, path.string() + ": \"" + text +
                                  "\" is not a block size (hexadecimal bytes, whole pages)");
  }
  return bytes;
}

}  // namespace

Result<FrameNodes> FrameNodes::read(const std::filesystem::path& sys_root) {
  auto system = sys_root / "devices" / "system";
  auto block_bytes = read_block_size(system / "memory" / "block_size_bytes");
  if (!block_bytes.ok()) {
    return block_bytes.error();
  }

  std::map<std::uint64_t, NodeId> block_node;
  std::error_code error;
  std::filesystem::directory_iterator nodes(system / "node", error);
  if (error) {
    return make_error(error.value(), "list " + (system / "node").string());
  }
  for (const auto& node_dir : nodes) {
    auto node = numbered(node_dir.path().filename().string(), "node");
    if (!node) {
      continue;
    }
    std::filesystem::directory_iterator blocks(node_dir.path(), error);
    if (error) {
      return make_error(error.value(), "list " + node_dir.path().string());
    }
    for (const auto& entry : blocks) {
      auto block = numbered(entry.path().filename().string(), "memory");
      if (!block) {
        continue;
      }
      auto [it, inserted] = block_node.emplace(*block, static_cast<NodeId>(*node));
      if (!inserted && it->second != static_cast<NodeId>(*node)) {
        it->second = kAmbiguous;
      }
    }
  }
  if (block_node.empty()) {
    return make_error(ENOENT, (system / "node").string() + " lists no memory blocks");
  }

  FrameNodes map;
  map.frames_per_block_ = *block_bytes / kFrameBytes;
  map.blocks_ = block_node.size();
  for (const auto& [block, node] : block_node) {
    if (node == kAmbiguous) {
      continue;
    }
    if (!map.runs_.empty() && map.runs_.back().node == node &&
        map.runs_.back().last_block + 1 == block) {
      map.runs_.back().last_block = block;
    } else {
      map.runs_.push_back({block, block, node});
    }
  }
  return map;
}

FrameNodes::Span FrameNodes::span_of(std::uint64_t frame) const {
  std::uint64_t block = frame / frames_per_block_;
  auto next = std::upper_bound(runs_.begin(), runs_.end(), block,
                               [](std::uint64_t b, const Run& run) { return b < run.first_block; });
  Span span;
  span.end = next == runs_.end() ? std::numeric_limits<std::uint64_t>::max()
                                 : next->first_block * frames_per_block_;
  if (next != runs_.begin()) {
    const Run& run = *std::prev(next);
    span.first = (run.last_block + 1) * frames_per_block_;
    if (block <= run.last_block) {
      span.first = run.first_block * frames_per_block_;
      span.end = span.first + (run.last_block - run.first_block + 1) * frames_per_block_;
      span.node = run.node;
    }
  }
  return span;
}

}  // namespace nb::actuator
