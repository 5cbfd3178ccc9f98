// nb_vm_workload: the guest rig's stand-in for a container's memory. It allocates memory bound
// to one node, fills it with a pattern derived from each word's index, says "ready", and then
// answers commands (stdin lines) and signals until told to exit:
//   (start)                    -> "ready pid=… bytes=… node=… base=0x…"
//   verify  | SIGUSR1          -> "verify ok=1 mismatched_pages=0 checksum=0x…"
//   where   | SIGUSR2          -> "where N0=<bytes> N1=<bytes> … unknown=<bytes>", then with
//                                 --hot-tail-mib "hot N0=<bytes> … unknown=<bytes>" for the tail
//   move N                     -> move_pages of its own memory to node N, then "move …" and "where
//   …" exit    | SIGTERM, SIGINT  -> verify, then exit (status 0 only when the data is intact)
// Every reply is one line on stdout, flushed, so a shell script can wait for it in a file.

#include <numa.h>
#include <numaif.h>
#include <poll.h>
#include <sys/mman.h>
#include <sys/signalfd.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "tests/vm/workload_options.hpp"

namespace {

using nb::vm::Options;

constexpr std::size_t kPageSize = 4096;
constexpr std::size_t kMiB = 1024 * 1024;
// move_pages takes arrays; chunking keeps them small and lets one call's stall stay short.
constexpr std::size_t kPagesPerCall = 4096;

// splitmix64: every word gets a value that depends on its index, so a page that was lost,
// duplicated or swapped with another during a migration shows up as a mismatch.
std::uint64_t pattern(std::uint64_t index, std::uint64_t seed) {
  std::uint64_t z = index + seed * 0x9e3779b97f4a7c15ULL;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

// Empties this CPU's TLB the way a hardware TLB's evictions would. DAMON sees a page accessed only
// when the CPU sets its PTE's accessed bit, which it does when it loads the translation into the
// TLB; a hardware TLB holds a few thousand entries and so reloads a 32 MiB set all the time, but
// QEMU's TCG TLB grows to hold all of it, and a thread that only alternates with the idle task
// (which keeps the address space) never has it flushed: DAMON would then see the set never
// accessed. Changing the protection of more pages than the kernel flushes one at a time
// (tlb_single_page_flush_ceiling, 33) makes it flush the whole TLB of this CPU.
class TlbFlusher {
 public:
  TlbFlusher() {
    void* mapped =
        mmap(nullptr, kBytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (mapped == MAP_FAILED) {
      return;
    }
    pages_ = static_cast<char*>(mapped);
    for (std::size_t offset = 0; offset < kBytes; offset += kPageSize) {
      pages_[offset] = 1;
    }
  }
  ~TlbFlusher() {
    if (pages_ != nullptr) {
      munmap(pages_, kBytes);
    }
  }
  TlbFlusher(const TlbFlusher&) = delete;
  TlbFlusher& operator=(const TlbFlusher&) = delete;

  void flush() {
    if (pages_ != nullptr) {
      mprotect(pages_, kBytes, PROT_READ);
      mprotect(pages_, kBytes, PROT_READ | PROT_WRITE);
    }
  }

 private:
  static constexpr std::size_t kBytes = 256 * kPageSize;
  char* pages_ = nullptr;
};

class Region {
 public:
  Region(std::size_t bytes, int node, const Options& options) : bytes_(bytes), seed_(options.seed) {
    // numa_alloc_onnode binds the range to the node (MPOL_BIND), as `numactl --membind` would,
    // or only prefers it: a hog that fills a node then stops at the kernel's watermark and
    // spills over instead of being OOM-killed.
    numa_set_bind_policy(options.preferred ? 0 : 1);
    base_ = static_cast<std::uint64_t*>(numa_alloc_onnode(bytes_, node));
    if (base_ == nullptr) {
      std::fprintf(stderr, "nb_vm_workload: cannot allocate %zu bytes on node %d\n", bytes_, node);
      std::exit(1);
    }
    if (options.huge_pages != "default") {
      int advice = options.huge_pages == "on" ? MADV_HUGEPAGE : MADV_NOHUGEPAGE;
      if (madvise(base_, bytes_, advice) != 0) {
        std::perror("nb_vm_workload: madvise");
      }
    }
    std::size_t words = bytes_ / sizeof(std::uint64_t);
    for (std::size_t i = 0; i < words; ++i) {
      base_[i] = pattern(i, seed_);
    }
  }

  // Reads one word per page of the last `mib` MiB until stopped, with a short pause between
  // sweeps, so DAMON sees those pages accessed in every sample and the rest never.
  void start_hot_tail(long mib, bool tlb_flush) {
    hot_pages_ = std::min(pages(), static_cast<std::size_t>(mib) * kMiB / kPageSize);
    if (hot_pages_ == 0) {
      return;
    }
    toucher_ = std::thread([this, tlb_flush] {
      TlbFlusher flusher;
      std::size_t words_per_page = kPageSize / sizeof(std::uint64_t);
      std::size_t first = (pages() - hot_pages_) * words_per_page;
      std::uint64_t sum = 0;
      while (!stop_.load(std::memory_order_relaxed)) {
        for (std::size_t i = first; i < pages() * words_per_page; i += words_per_page) {
          sum += static_cast<volatile std::uint64_t*>(base_)[i];
        }
        if (tlb_flush) {
          flusher.flush();
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
      }
      sink_ = sum;
    });
  }

  void stop_hot_tail() {
    stop_ = true;
    if (toucher_.joinable()) {
      toucher_.join();
    }
  }

  std::size_t bytes() const { return bytes_; }
  const void* base() const { return base_; }
  std::size_t pages() const { return bytes_ / kPageSize; }

  void* page(std::size_t index) const { return reinterpret_cast<char*>(base_) + index * kPageSize; }

  // Returns whether every word still holds its pattern value.
  bool verify(std::FILE* out) const {
    std::size_t words_per_page = kPageSize / sizeof(std::uint64_t);
    std::size_t mismatched_pages = 0;
    std::uint64_t checksum = 0;
    for (std::size_t p = 0; p < pages(); ++p) {
      bool page_ok = true;
      for (std::size_t w = 0; w < words_per_page; ++w) {
        std::size_t i = p * words_per_page + w;
        std::uint64_t value = base_[i];
        checksum = (checksum ^ value) * 0x100000001b3ULL;
        page_ok = page_ok && value == pattern(i, seed_);
      }
      mismatched_pages += page_ok ? 0 : 1;
    }
    std::fprintf(out, "verify ok=%d mismatched_pages=%zu pages=%zu checksum=0x%016llx\n",
                 mismatched_pages == 0 ? 1 : 0, mismatched_pages, pages(),
                 static_cast<unsigned long long>(checksum));
    return mismatched_pages == 0;
  }

  // Where the kernel says each 4 KiB page lives (move_pages with no target nodes only asks), for
  // the whole region and then for its hot tail.
  void where(std::FILE* out) const {
    where_pages(out, "where", 0, pages());
    if (hot_pages_ > 0) {
      where_pages(out, "hot", pages() - hot_pages_, pages());
    }
  }

  void where_pages(std::FILE* out, const char* label, std::size_t begin, std::size_t end) const {
    std::map<int, std::size_t> pages_per_node;
    std::size_t unknown = 0;
    std::vector<void*> addresses;
    std::vector<int> status;
    for (std::size_t first = begin; first < end; first += kPagesPerCall) {
      std::size_t count = std::min(kPagesPerCall, end - first);
      addresses.resize(count);
      status.assign(count, -1);
      for (std::size_t i = 0; i < count; ++i) {
        addresses[i] = page(first + i);
      }
      if (numa_move_pages(0, count, addresses.data(), nullptr, status.data(), 0) != 0) {
        unknown += count;
        continue;
      }
      for (int s : status) {
        if (s >= 0) {
          ++pages_per_node[s];
        } else {
          ++unknown;
        }
      }
    }
    std::fprintf(out, "%s", label);
    for (const auto& [node, count] : pages_per_node) {
      std::fprintf(out, " N%d=%zu", node, count * kPageSize);
    }
    std::fprintf(out, " unknown=%zu\n", unknown * kPageSize);
  }

  // The raw move_pages path, independent of numabalancer's actuator: proves the kernel can move
  // this memory across the guest's nodes at all.
  void move_to(int node, std::FILE* out) const {
    std::size_t already_or_moved = 0;
    std::map<int, std::size_t> errors;  // -errno per page -> count
    int call_errno = 0;
    std::vector<void*> addresses;
    std::vector<int> nodes;
    std::vector<int> status;
    for (std::size_t first = 0; first < pages(); first += kPagesPerCall) {
      std::size_t count = std::min(kPagesPerCall, pages() - first);
      addresses.resize(count);
      nodes.assign(count, node);
      status.assign(count, 0);
      for (std::size_t i = 0; i < count; ++i) {
        addresses[i] = page(first + i);
      }
      if (numa_move_pages(0, count, addresses.data(), nodes.data(), status.data(), MPOL_MF_MOVE) <
          0) {
        call_errno = errno;
      }
      for (int s : status) {
        if (s == node) {
          ++already_or_moved;
        } else if (s < 0) {
          ++errors[-s];
        }
      }
    }
    std::fprintf(out, "move node=%d pages_on_target=%zu call_errno=%d", node, already_or_moved,
                 call_errno);
    for (const auto& [error, count] : errors) {
      std::fprintf(out, " errno%d=%zu", error, count);
    }
    std::fprintf(out, "\n");
  }

 private:
  std::size_t bytes_;
  std::uint64_t seed_;
  std::uint64_t* base_ = nullptr;
  std::size_t hot_pages_ = 0;
  std::thread toucher_;
  std::atomic<bool> stop_{false};
  std::uint64_t sink_ = 0;
};

std::size_t size_to_allocate(const Options& options) {
  if (!options.fill_leaving_mib) {
    return static_cast<std::size_t>(options.mib) * kMiB;
  }
  long long free_bytes = 0;
  numa_node_size64(options.node, &free_bytes);
  long long leave = static_cast<long long>(*options.fill_leaving_mib) * kMiB;
  if (free_bytes <= leave) {
    return 0;
  }
  return static_cast<std::size_t>(free_bytes - leave) / kMiB * kMiB;
}

// Returns false when the workload should exit.
bool run_command(std::string_view line, const Region& region, bool& intact) {
  if (line == "verify") {
    intact = region.verify(stdout);
  } else if (line == "where") {
    region.where(stdout);
  } else if (line.starts_with("move ")) {
    std::string node_text(line.substr(5));
    char* end = nullptr;
    long node = std::strtol(node_text.c_str(), &end, 10);
    if (end == node_text.c_str() || *end != '\0' || node < 0) {
      std::printf("error bad node '%s'\n", node_text.c_str());
    } else {
      region.move_to(static_cast<int>(node), stdout);
      region.where(stdout);
    }
  } else if (line == "exit") {
    return false;
  } else if (!line.empty()) {
    std::printf("error unknown command '%.*s'\n", static_cast<int>(line.size()), line.data());
  }
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  Options options = nb::vm::parse_options(argc, argv);
  if (numa_available() < 0) {
    std::fprintf(stderr, "nb_vm_workload: NUMA is not available\n");
    return 1;
  }
  if (options.node > numa_max_node()) {
    std::fprintf(stderr, "nb_vm_workload: node %d does not exist\n", options.node);
    return 2;
  }
  std::size_t bytes = size_to_allocate(options);
  if (bytes == 0) {
    std::fprintf(stderr, "nb_vm_workload: nothing to allocate on node %d\n", options.node);
    return 1;
  }

  sigset_t signals;
  sigemptyset(&signals);
  for (int s : {SIGUSR1, SIGUSR2, SIGTERM, SIGINT}) {
    sigaddset(&signals, s);
  }
  sigprocmask(SIG_BLOCK, &signals, nullptr);
  int signal_fd = signalfd(-1, &signals, SFD_CLOEXEC);

  Region region(bytes, options.node, options);
  std::setvbuf(stdout, nullptr, _IOLBF, 0);
  region.start_hot_tail(options.hot_tail_mib, options.tlb_flush);
  // The base address lets a test corrupt a word through /proc/PID/mem and see verify catch it.
  std::printf("ready pid=%d bytes=%zu node=%d base=%p\n", getpid(), region.bytes(), options.node,
              region.base());

  bool intact = true;
  bool running = true;
  bool stdin_open = true;
  std::string pending;
  while (running) {
    pollfd fds[2] = {{signal_fd, POLLIN, 0}, {stdin_open ? STDIN_FILENO : -1, POLLIN, 0}};
    if (poll(fds, 2, -1) < 0) {
      continue;
    }
    if (fds[0].revents & POLLIN) {
      signalfd_siginfo info{};
      if (read(signal_fd, &info, sizeof info) == sizeof info) {
        if (info.ssi_signo == SIGUSR1) {
          intact = region.verify(stdout);
        } else if (info.ssi_signo == SIGUSR2) {
          region.where(stdout);
        } else {
          running = false;
        }
      }
    }
    if (fds[1].revents & (POLLIN | POLLHUP)) {
      char buffer[256];
      ssize_t n = read(STDIN_FILENO, buffer, sizeof buffer);
      if (n <= 0) {
        // A workload started in the background has stdin at EOF: signals still drive it.
        stdin_open = false;
        continue;
      }
      pending.append(buffer, static_cast<std::size_t>(n));
      for (auto newline = pending.find('\n'); running && newline != std::string::npos;
           newline = pending.find('\n')) {
        running = run_command(std::string_view(pending).substr(0, newline), region, intact);
        pending.erase(0, newline + 1);
      }
    }
  }
  region.stop_hot_tail();
  intact = region.verify(stdout);
  std::printf("exit intact=%d\n", intact ? 1 : 0);
  return intact ? 0 : 1;
}
