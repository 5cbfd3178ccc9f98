#pragma once
// What the actuator benchmarks share: arguments, a workload child holding memory on the source
// node, a syscall wrapper that records each move_pages call's duration, and the RESULT line the
// guest rig parses ("RESULT bench=dense key=value ...").

#include <numa.h>
#include <numaif.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <string>
#include <vector>

#include "actuator/linux_memory_syscalls.hpp"

namespace nb::bench {

// --key value pairs; every value has a default so the programs run with no arguments.
class Args {
 public:
  Args(int argc, char** argv) {
    for (int i = 1; i + 1 < argc; i += 2) {
      if (std::strncmp(argv[i], "--", 2) != 0) {
        std::fprintf(stderr, "expected --key value, got %s\n", argv[i]);
        std::exit(2);
      }
      values_[argv[i] + 2] = argv[i + 1];
    }
  }
  long number(const std::string& key, long fallback) const {
    auto it = values_.find(key);
    return it == values_.end() ? fallback : std::strtol(it->second.c_str(), nullptr, 10);
  }
  std::string text(const std::string& key, const std::string& fallback) const {
    auto it = values_.find(key);
    return it == values_.end() ? fallback : it->second;
  }

 private:
  std::map<std::string, std::string> values_;
};

inline NodeId default_destination() {
  return numa_available() >= 0 && numa_max_node() > 0 ? 1 : 0;
}

struct WorkloadSpec {
  NodeId node = 0;
  Bytes reserved = 256 * kMiB;  // the mapping's size
  Bytes touched = 256 * kMiB;   // how much of it is faulted in
  bool spread = false;          // touched pages spread evenly over the mapping, else at its front
  bool huge_pages = false;
};

// A child whose memory sits on spec.node; killed when the Workload goes.
class Workload {
 public:
  explicit Workload(const WorkloadSpec& spec) {
    int ready[2];
    if (::pipe(ready) != 0) {
      std::perror("pipe");
      std::exit(1);
    }
    pid_ = ::fork();
    if (pid_ == 0) {
      ::close(ready[0]);
      run_child(spec);
      char byte = 1;
      if (::write(ready[1], &byte, 1) != 1) {
        ::_exit(1);
      }
      for (;;) {
        ::pause();
      }
    }
    ::close(ready[1]);
    char byte = 0;
    if (::read(ready[0], &byte, 1) != 1) {
      std::fprintf(stderr, "workload failed to start\n");
      std::exit(1);
    }
    ::close(ready[0]);
  }
  ~Workload() {
    ::kill(pid_, SIGKILL);
    ::waitpid(pid_, nullptr, 0);
  }
  int pid() const { return pid_; }

 private:
  static void run_child(const WorkloadSpec& spec) {
    auto size = static_cast<std::size_t>(spec.reserved);
    auto* memory = static_cast<char*>(::mmap(nullptr, size, PROT_READ | PROT_WRITE,
                                             MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0));
    if (memory == MAP_FAILED) {
      ::_exit(1);
    }
    ::madvise(memory, size, spec.huge_pages ? MADV_HUGEPAGE : MADV_NOHUGEPAGE);
    unsigned long mask = 1UL << spec.node;
    // Bound while touching so the pages start on the source, then back to the default policy
    // so nothing fights the moves.
    ::mbind(memory, size, MPOL_BIND, &mask, sizeof(mask) * 8, 0);
    std::size_t pages = static_cast<std::size_t>(spec.touched / (4 * kKiB));
    std::size_t stride = spec.spread ? size / pages : 4 * kKiB;
    stride -= stride % (4 * kKiB);
    for (std::size_t i = 0; i < pages; ++i) {
      memory[i * stride] = 1;
    }
    ::mbind(memory, size, MPOL_DEFAULT, nullptr, 0, 0);
  }

  int pid_ = -1;
};

// Real syscalls, with the duration of every moving move_pages call kept and the addresses of
// query calls counted.
class RecordingSyscalls final : public actuator::MemorySyscalls {
 public:
  actuator::SyscallResult move_pages(int pid, std::span<const std::uintptr_t> pages,
                                     std::span<const int> nodes, std::span<int> status,
                                     bool move_all) override {
    auto before = std::chrono::steady_clock::now();
    auto result = real.move_pages(pid, pages, nodes, status, move_all);
    if (nodes.empty()) {
      pages_queried += static_cast<std::int64_t>(pages.size());
    } else {
      move_call_ms.push_back(
          std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - before)
              .count());
      move_call_pages.push_back(static_cast<double>(pages.size()));
    }
    return result;
  }
  actuator::SyscallResult migrate_pages(int pid, NodeId from, NodeId to) override {
    return real.migrate_pages(pid, from, to);
  }
  Result<std::vector<actuator::ResidentRange>> resident_ranges(int pid, std::uintptr_t start,
                                                               std::uintptr_t end) override {
    return real.resident_ranges(pid, start, end);
  }
  Result<actuator::NodeMemory> node_memory(NodeId node) override { return real.node_memory(node); }
  Result<int> open_pidfd(int pid) override { return real.open_pidfd(pid); }
  bool pidfd_exited(int pidfd) override { return real.pidfd_exited(pidfd); }
  void close_pidfd(int pidfd) override { real.close_pidfd(pidfd); }
  actuator::Clock::time_point now() override { return real.now(); }
  void sleep_for(actuator::Clock::duration duration) override { real.sleep_for(duration); }

  actuator::LinuxMemorySyscalls real;
  std::vector<double> move_call_ms;
  std::vector<double> move_call_pages;  // addresses in each of those calls
  std::int64_t pages_queried = 0;       // addresses asked about without moving
};

inline double percentile(std::vector<double> values, double fraction) {
  if (values.empty()) {
    return 0;
  }
  std::sort(values.begin(), values.end());
  auto index = static_cast<std::size_t>(fraction * static_cast<double>(values.size() - 1) + 0.5);
  return values[std::min(index, values.size() - 1)];
}

inline double median(std::vector<double> values) {
  return percentile(std::move(values), 0.5);
}

inline double cpu_now_ms() {
  timespec now{};
  ::clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now);
  return static_cast<double>(now.tv_sec) * 1e3 + static_cast<double>(now.tv_nsec) / 1e6;
}

// CPU time (user + system) of this process: the kernel's work in move_pages and in reading
// numa_maps counts here, and unlike wall time it does not grow when the machine is busy.
template <typename Function>
double cpu_ms(Function&& function) {
  double before = cpu_now_ms();
  function();
  return cpu_now_ms() - before;
}

// Minor page faults this process took: fresh memory costs one per 4 KiB touched, and on an
// emulated or virtualised machine each is dear.
inline long page_faults_now() {
  rusage usage{};
  ::getrusage(RUSAGE_SELF, &usage);
  return usage.ru_minflt;
}

template <typename Function>
double time_ms(Function&& function) {
  auto before = std::chrono::steady_clock::now();
  function();
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - before)
      .count();
}

// A fixed amount of CPU work taking about `ms` on an idle CPU, timed `count` times: the spread of
// these durations is what the machine adds to any call of that length.
inline std::vector<double> busy_loop_durations(double ms, std::size_t count) {
  auto spin = [](std::uint64_t iterations) {
    volatile std::uint64_t sink = 0;
    for (std::uint64_t i = 0; i < iterations; ++i) {
      sink = sink + i;
    }
  };
  constexpr std::uint64_t kProbe = 1'000'000;
  double fastest = 1e18;
  for (int i = 0; i < 5; ++i) {
    fastest = std::min(fastest, time_ms([&] { spin(kProbe); }));
  }
  auto iterations = static_cast<std::uint64_t>(static_cast<double>(kProbe) * ms / fastest);
  std::vector<double> durations;
  for (std::size_t i = 0; i < count; ++i) {
    durations.push_back(time_ms([&] { spin(iterations); }));
  }
  return durations;
}

// Puts everything of the workload back on the source between runs (not timed).
inline void move_back(actuator::MemorySyscalls& syscalls, int pid, NodeId from, NodeId to) {
  if (from != to) {
    syscalls.migrate_pages(pid, to, from);
  }
}

}  // namespace nb::bench
