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
std::string cell_text(const nlohmann::json& value);    // strings bare, the rest as JSON
std::string cell_nodes(const nlohmann::json& list);    // [1,2] → "1,2"
std::string cell_bytes(const nlohmann::json& value);   // a number of bytes → "1.5 GiB"
std::string cell_number(const nlohmann::json& value);  // 0.7, 109.25: at most 3 decimals
// A node's baseline object → "92 ns (learned, 61 readings)", "141.5 ns (configured)" or
// "learning: 55 more"; "-" when absent.
std::string cell_baseline(const nlohmann::json& baseline);

// A round's effect → "improved 95.4→70 ns", "not improved 95→94 ns", "pending", "unknown" (the
// reason is in --json) or "-" for a round that had none to measure.
std::string cell_effect(const nlohmann::json& round);

// One form per quantity, in every view:
// a time: RFC 3339 in UTC to the millisecond, "2026-12-02T10:00:01.500Z" (text that is not a time
// shows as it is);
std::string cell_time(const nlohmann::json& value);
// a duration: in the config file's units, as precise as its size needs: "2.5ms", "1500ms", "2s",
// "15m";
std::string cell_duration_ms(const nlohmann::json& milliseconds);
std::string format_duration_ms(double milliseconds);
// a read latency, "55 ns", "95.5 ns"; a bandwidth, "12.5 GB/s"; a migration rate, "512 MiB/s";
std::string cell_latency(const nlohmann::json& nanoseconds);
std::string cell_bandwidth(const nlohmann::json& gigabytes_per_second);
std::string format_rate(double mib_per_s);
// a pressure level: the decision's level, or "unknown" when the decision could not measure one
// (no metrics, or thresholds still calibrating), since "none" would claim there is none.
std::string cell_pressure(const nlohmann::json& decision);
// a migration report's verdict: "threshold met", "threshold not met", or for a dry run, which
// moves nothing and so claims no threshold, "dry run: would move 12.0 MiB".
std::string cell_verdict(const nlohmann::json& report);

// Columns padded to their widest cell; the header first.
std::string format_table(const std::vector<std::vector<std::string>>& rows);

}  // namespace nb::ctl
