#include "daemon/host/topology.hpp"

#include <charconv>
#include <string>

#include "base/range_list.hpp"
#include "daemon/host/small_file.hpp"

namespace nb::host {
namespace {

std::filesystem::path node_dir(const std::filesystem::path& host_root) {
  return host_root / "sys/devices/system/node";
}

Error garbage(std::string_view context, std::string_view what) {
  return make_error(0, std::string(context) + ": " + std::string(what));
}

// "Node 0 MemTotal:  5072632 kB" → 5072632 * 1024, or nullopt when the line is not that key.
std::optional<Bytes> meminfo_value(std::string_view line, std::string_view key, bool& malformed) {
  const auto at = line.find(key);
  if (at == std::string_view::npos) {
    return std::nullopt;
  }
  std::string_view rest = line.substr(at + key.size());
  const auto digits = rest.find_first_not_of(' ');
  if (digits == std::string_view::npos) {
    malformed = true;
    return std::nullopt;
  }
  rest = rest.substr(digits);
  Bytes kib = 0;
  auto [ptr, ec] = std::from_chars(rest.data(), rest.data() + rest.size(), kib);
  std::string_view unit(ptr, static_cast<std::size_t>(rest.data() + rest.size() - ptr));
  if (ec != std::errc() || kib < 0 || unit.find("kB") == std::string_view::npos) {
    malformed = true;
    return std::nullopt;
  }
  return kib * kKiB;
}

}  // namespace

Result<std::vector<NodeId>> read_online_nodes(const std::filesystem::path& host_root) {
  const auto path = node_dir(host_root) / "online";
  auto text = read_small_file(path);
  if (!text) {
    return text.error();
  }
  auto ids = parse_cpu_list(*text);
  if (!ids) {
    return garbage(path.string(), ids.error().context);
  }
  if (ids->empty()) {
    return garbage(path.string(), "no online node");
  }
  return std::vector<NodeId>(ids->begin(), ids->end());
}

Result<std::map<NodeId, int>> parse_distance_row(std::string_view text,
                                                 const std::vector<NodeId>& online,
                                                 std::string_view context) {
  // The kernel prints one distance per online node, in node id order.
  std::map<NodeId, int> row;
  std::size_t index = 0;
  const char* cursor = text.data();
  const char* end = text.data() + text.size();
  for (;;) {
    while (cursor != end && (*cursor == ' ' || *cursor == '\n' || *cursor == '\t')) {
      ++cursor;
    }
    if (cursor == end) {
      break;
    }
    int distance = 0;
    auto [ptr, ec] = std::from_chars(cursor, end, distance);
    if (ec != std::errc() || distance <= 0 ||
        (ptr != end && *ptr != ' ' && *ptr != '\n' && *ptr != '\t')) {
      return garbage(context, "not a distance row");
    }
    if (index >= online.size()) {
      return garbage(context, "more distances than online nodes");
    }
    row[online[index++]] = distance;
    cursor = ptr;
  }
  if (index != online.size()) {
    return garbage(context, "fewer distances than online nodes");
  }
  return row;
}

Result<NodeMemory> parse_node_meminfo(std::string_view text, std::string_view context) {
  std::optional<Bytes> total;
  std::optional<Bytes> free;
  bool malformed = false;
  while (!text.empty() && !malformed) {
    const auto newline = text.find('\n');
    const std::string_view line = text.substr(0, newline);
    text = newline == std::string_view::npos ? std::string_view{} : text.substr(newline + 1);
    if (auto value = meminfo_value(line, " MemTotal:", malformed)) {
      total = value;
    } else if (auto value = meminfo_value(line, " MemFree:", malformed)) {
      free = value;
    }
  }
  if (malformed || !total || !free) {
    return garbage(context, "no MemTotal and MemFree in kB");
  }
  return NodeMemory{.total_bytes = *total, .free_bytes = *free};
}

Result<std::vector<core::Node>> read_topology(const std::filesystem::path& host_root) {
  auto online = read_online_nodes(host_root);
  if (!online) {
    return online.error();
  }
  std::vector<core::Node> nodes;
  nodes.reserve(online->size());
  std::string buffer;
  for (NodeId id : *online) {
    const auto dir = node_dir(host_root) / ("node" + std::to_string(id));
    core::Node node;
    node.id = id;

    const auto distance_path = dir / "distance";
    if (Status read = read_small_file(distance_path, buffer); !read) {
      return read.error();
    }
    auto row = parse_distance_row(buffer, *online, distance_path.string());
    if (!row) {
      return row.error();
    }
    node.distance = std::move(row).value();

    const auto cpulist_path = dir / "cpulist";
    if (Status read = read_small_file(cpulist_path, buffer); !read) {
      return read.error();
    }
    if (auto cpus = parse_cpu_list(buffer); !cpus) {
      return garbage(cpulist_path.string(), cpus.error().context);
    }
    const auto last = buffer.find_last_not_of(" \n\t");
    node.cpus = last == std::string::npos ? std::string{} : buffer.substr(0, last + 1);

    const auto meminfo_path = dir / "meminfo";
    if (Status read = read_small_file(meminfo_path, buffer); !read) {
      return read.error();
    }
    auto memory = parse_node_meminfo(buffer, meminfo_path.string());
    if (!memory) {
      return memory.error();
    }
    node.total_bytes = memory->total_bytes;
    node.free_bytes = memory->free_bytes;
    nodes.push_back(std::move(node));
  }
  return nodes;
}

std::optional<std::string> one_node_note(const std::vector<NodeId>& online) {
  if (online.size() != 1) {
    return std::nullopt;
  }
  return "this host has one NUMA node (node " + std::to_string(online.front()) +
         "): there is nowhere to move memory, so numabalancerd watches and reports but never "
         "migrates";
}

}  // namespace nb::host
