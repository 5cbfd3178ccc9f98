// The results that are tables: `containers`, `topology` and `list_commands` (`history` is
// history_view.cpp).

#include <fmt/format.h>

#include <vector>

#include "daemon/ctl/cells.hpp"
#include "daemon/ctl/commands.hpp"
#include "daemon/ctl/host_tables.hpp"
#include "daemon/ctl/result_views.hpp"

namespace nb::ctl {

using nlohmann::json;

std::string format_containers(const json& r) {
  const json& containers = field(r, "containers");
  return format_container_table(containers, nodes_with_memory(containers));
}

std::string format_topology(const json& r) {
  std::string out = format_node_table(field(r, "nodes"), NodeColumns::detailed);
  const json& pools = field(r, "pools");
  if (!pools.is_array() || pools.empty()) {
    return out + "no pools: none configured; see `[[pool]]`\n";
  }
  for (const auto& pool : pools) {
    out += fmt::format("pool {}: nodes {}\n", cell_text(field(pool, "name")),
                       cell_nodes(field(pool, "nodes")));
  }
  return out;
}

// The daemon's commands as numabalancerctl types them; one it does not know keeps the daemon's
// name and help.
std::string format_list_commands(const json& result) {
  std::vector<std::vector<std::string>> rows{{"COMMAND", "CHANGES STATE", "WHAT IT DOES"}};
  for (const auto& command : result.is_array() ? result : json::array()) {
    const json& name = field(command, "name");
    const Command* known = name.is_string() ? find_command(name.get<std::string>()) : nullptr;
    rows.push_back(
        {known != nullptr ? std::string(known->syntax()) : cell_text(name),
         command.value("mutating", false) ? "yes" : "no",
         known != nullptr ? std::string(known->help) : cell_text(field(command, "help"))});
  }
  if (rows.size() == 1) {
    return "no commands: the daemon listed none\n";
  }
  return format_table(rows);
}

}  // namespace nb::ctl
