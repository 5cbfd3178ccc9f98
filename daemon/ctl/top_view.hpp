#pragma once
// `numabalancerctl top`: a live terminal view per node (latency, bandwidth, pressure level, the
// top containers' anon bytes per node, the current job), redrawn every interval. q or Ctrl-C
// quits; the terminal is restored on every way out.

#include <chrono>
#include <filesystem>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

namespace nb::ctl {

struct TopOptions {
  std::filesystem::path socket;
  std::optional<std::chrono::milliseconds> interval;  // default: the daemon's round interval
  std::size_t containers = 8;
  std::chrono::milliseconds timeout{10000};  // --timeout: for each reply
};

// The screen for one refresh, without terminal control sequences.
std::string render_top(const nlohmann::json& status, const nlohmann::json& topology,
                       const nlohmann::json& containers, const nlohmann::json& plan);

// Returns the process exit code.
int run_top(const TopOptions& options);

}  // namespace nb::ctl
