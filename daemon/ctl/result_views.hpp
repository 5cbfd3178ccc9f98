#pragma once
// The human form of each admin command's result, one function per command; the command table
// (daemon/ctl/commands.hpp) says which command uses which.

#include <nlohmann/json.hpp>
#include <string>

namespace nb::ctl {

using Formatter = std::string (*)(const nlohmann::json& result);

std::string format_status(const nlohmann::json& result);
std::string format_plan(const nlohmann::json& result);       // the decision, or --explain's text
std::string format_reconcile(const nlohmann::json& result);  // a started or finished round
std::string format_history(const nlohmann::json& result);    // kept rounds or audit entries
std::string format_containers(const nlohmann::json& result);
std::string format_topology(const nlohmann::json& result);
std::string format_config(const nlohmann::json& result);
std::string format_list_commands(const nlohmann::json& result);
std::string format_metrics(const nlohmann::json& result);  // the exposition text as it is
std::string format_paused(const nlohmann::json& result);   // pause and resume
std::string format_dry_run(const nlohmann::json& result);
std::string format_cancel(const nlohmann::json& result);
std::string format_reload(const nlohmann::json& result);

// A decision document: status, the move, a row per container, the evictions.
std::string format_decision(const nlohmann::json& decision);

}  // namespace nb::ctl
