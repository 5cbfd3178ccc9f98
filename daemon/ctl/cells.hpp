#pragma once
// The pieces every human view is made of: table cells from JSON values and aligned tables.

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

namespace nb::ctl {

std::string format_bytes(double bytes);  // "1.5 GiB": one digit, so that columns line up

// The member `key` of `object`, or null when the object lacks it or is not an object: replies
// from another version of the daemon may omit any field, and a const json's operator[] on a
// missing key is undefined behaviour.
const nlohmann::json& field(const nlohmann::json& object, std::string_view key);

// Table cells from JSON values; "-" stands for a missing value.
std::string cell_text(const nlohmann::json& value);   // strings bare, the rest as JSON
std::string cell_nodes(const nlohmann::json& list);   // [1,2] → "1,2"
std::string cell_bytes(const nlohmann::json& value);  // a number of bytes → "1.5 GiB"
// A node's baseline object → "92.0 ns (learned, 61 readings)", "141.5 ns (configured)" or
// "learning: 55 more"; "-" when absent.
std::string cell_baseline(const nlohmann::json& baseline);

// A round's effect → "improved 95→70 ns", "not improved 95→94 ns", "pending", "unknown" (the
// reason is in --json) or "-" for a round that had none to measure.
std::string cell_effect(const nlohmann::json& round);

// Columns padded to their widest cell; the header first.
std::string format_table(const std::vector<std::vector<std::string>>& rows);

}  // namespace nb::ctl
