#include "daemon/sim/series.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <sstream>

namespace nb::sim {

namespace {

std::string cell(const std::optional<double>& value) {
  return value ? fmt::format("{:.3f}", *value) : std::string();
}

// gnuplot reads its script from a pipe; a quote in a title or path would end the string.
std::string quoted(const std::string& text) {
  std::string out = "'";
  for (char c : text) {
    out += c == '\'' ? std::string("''") : std::string(1, c);
  }
  return out + "'";
}

}  // namespace

std::string series_csv(const std::vector<ModeSeries>& runs, const std::vector<NodeId>& nodes) {
  std::string out = "mode,second,sensitive_latency_ns,traffic_latency_ns";
  for (NodeId node : nodes) {
    out += fmt::format(",node{}_latency_ns,node{}_traffic_gbps", node, node);
  }
  out += '\n';
  for (const ModeSeries& run : runs) {
    for (const SecondSample& sample : run.seconds) {
      out += fmt::format("{},{},{},{}", run.mode, sample.second, cell(sample.sensitive_latency_ns),
                         cell(sample.traffic_latency_ns));
      for (const NodeLoad& load : sample.nodes) {
        out += fmt::format(",{:.3f},{:.3f}", load.loaded_latency_ns, load.traffic_gbps);
      }
      out += '\n';
    }
  }
  return out;
}

bool gnuplot_installed() {
  const char* path = std::getenv("PATH");
  std::istringstream dirs(path == nullptr ? "/usr/bin:/bin" : path);
  for (std::string dir; std::getline(dirs, dir, ':');) {
    if (!dir.empty() && ::access((dir + "/gnuplot").c_str(), X_OK) == 0) {
      return true;
    }
  }
  return false;
}

Status plot_series(const std::vector<ModeSeries>& runs, const std::string& scenario,
                   const std::filesystem::path& svg) {
  if (!gnuplot_installed()) {
    return make_error(ENOENT,
                      "--plot needs gnuplot, which is not installed (Debian: apt-get "
                      "install gnuplot-nox)");
  }
  std::string script = "set terminal svg size 1100,550 dynamic background '#ffffff'\n";
  script += "set output " + quoted(svg.string()) + "\n";
  script += "set title " + quoted("scenario " + scenario + ": access latency over time") + "\n";
  script += "set xlabel 'minutes'\nset ylabel 'ns'\nset key outside right\nset grid\n";
  std::vector<std::string> lines;
  for (std::size_t m = 0; m < runs.size(); ++m) {
    script += fmt::format("$sensitive{} << EOD\n", m);
    for (const SecondSample& sample : runs[m].seconds) {
      if (sample.sensitive_latency_ns) {
        script +=
            fmt::format("{:.4f} {:.3f}\n", sample.second / 60.0, *sample.sensitive_latency_ns);
      }
    }
    script += fmt::format("EOD\n$traffic{} << EOD\n", m);
    for (const SecondSample& sample : runs[m].seconds) {
      if (sample.traffic_latency_ns) {
        script += fmt::format("{:.4f} {:.3f}\n", sample.second / 60.0, *sample.traffic_latency_ns);
      }
    }
    script += "EOD\n";
    lines.push_back(fmt::format("$sensitive{} with lines lw 2 lc {} title {}", m, m + 1,
                                quoted(runs[m].mode + ": sensitive")));
    lines.push_back(fmt::format("$traffic{} with lines dt 2 lc {} title {}", m, m + 1,
                                quoted(runs[m].mode + ": all traffic")));
  }
  script += "plot " + fmt::format("{}", fmt::join(lines, ", ")) + "\n";
  FILE* pipe = ::popen("gnuplot", "w");
  if (pipe == nullptr) {
    return make_error(errno, "--plot: starting gnuplot");
  }
  const bool written = std::fwrite(script.data(), 1, script.size(), pipe) == script.size();
  const int status = ::pclose(pipe);
  if (!written || status == -1 || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    return make_error(EIO, "--plot: gnuplot failed drawing " + svg.string() + " (exit status " +
                               std::to_string(WIFEXITED(status) ? WEXITSTATUS(status) : -1) + ")");
  }
  return Ok{};
}

}  // namespace nb::sim
