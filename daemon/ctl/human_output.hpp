#pragma once
// The daemon's JSON results as an operator reads them: short summaries and aligned tables.

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace nb::ctl {

std::string format_bytes(double bytes);  // "1.5 GiB"

// Table cells from JSON values; "-" stands for a missing value.
std::string cell_text(const nlohmann::json& value);   // strings bare, the rest as JSON
std::string cell_nodes(const nlohmann::json& list);   // [1,2] → "1,2"
std::string cell_bytes(const nlohmann::json& value);  // a number of bytes → "1.5 GiB"

// Columns padded to their widest cell; the header first.
std::string format_table(const std::vector<std::vector<std::string>>& rows);

// The human form of one command's result ("status", "history", ...).
std::string format_result(const std::string& cmd, const nlohmann::json& result);

// One line per event in `watch`.
std::string format_event(const std::string& kind, const std::string& time,
                         const nlohmann::json& data);

}  // namespace nb::ctl
