#pragma once
// A run's second-by-second series, for `simulate --csv` (a table to load anywhere) and
// `simulate --plot` (an SVG drawn by gnuplot, where it is installed).

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "base/result.hpp"
#include "base/units.hpp"
#include "daemon/sim/host_model.hpp"

namespace nb::sim {

struct SecondSample {
  long second = 0;
  std::optional<double> sensitive_latency_ns;
  std::optional<double> traffic_latency_ns;
  std::vector<NodeLoad> nodes;  // by node index
};

struct ModeSeries {
  std::string mode;
  std::vector<SecondSample> seconds;
};

// mode,second,sensitive_latency_ns,traffic_latency_ns,node<ID>_latency_ns,node<ID>_traffic_gbps…
// (an empty cell where a figure does not exist).
std::string series_csv(const std::vector<ModeSeries>& runs, const std::vector<NodeId>& nodes);

// Latency over time, one line per mode (the sensitive containers' solid, all traffic's dashed),
// drawn by gnuplot into `svg`. An error naming what is missing when gnuplot is not installed.
Status plot_series(const std::vector<ModeSeries>& runs, const std::string& scenario,
                   const std::filesystem::path& svg);

// Whether `gnuplot` is on PATH: --plot says so before the runs rather than after them.
bool gnuplot_installed();

}  // namespace nb::sim
