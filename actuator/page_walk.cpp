#include "actuator/page_walk.hpp"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "actuator/process_exit.hpp"

namespace nb::actuator {
namespace {

constexpr Bytes kPmdBytes = 2 * kMiB;
// 256 MiB of address space: 512 KiB of page-map entries, one read.
constexpr std::uintptr_t kFirstResidentWindow = 256 * 1024 * 1024;
// The kernel never writes this into a status entry: it marks entries a failed call did not reach.
constexpr int kUntouched = std::numeric_limits<int>::min();

// One VMA's walk: the addresses waiting for a query, and how much of numa_maps' count of pages
// on the source has been found.
class VmaWalk {
 public:
  VmaWalk(MemorySyscalls& syscalls, const std::filesystem::path& proc_root, JobLedger& ledger,
          NodeId source, const Vma& vma, const WalkSpan& span, std::int64_t& found,
          ProcessMove& process, ProcessReport& report, const std::function<bool()>& drain)
      : syscalls_(syscalls),
        proc_root_(proc_root),
        ledger_(ledger),
        source_(source),
        vma_(vma),
        span_(span),
        process_(process),
        report_(report),
        drain_(drain),
        expected_(vma.pages_on(source) *
                  (std::max<Bytes>(vma.page_size, kBasePageBytes) / kBasePageBytes)),
        found_(found) {}

  bool run();

 private:
  enum class Step { go_on, found_all, stop };

  Step visit(const ResidentRange& range, std::uintptr_t window);
  Step settle_and_check();
  bool settle();
  void on_source(std::uintptr_t address, std::size_t count, std::uintptr_t stride,
                 std::int64_t base_pages);

  MemorySyscalls& syscalls_;
  const std::filesystem::path& proc_root_;
  JobLedger& ledger_;
  NodeId source_;
  const Vma& vma_;
  const WalkSpan& span_;
  ProcessMove& process_;
  ProcessReport& report_;
  const std::function<bool()>& drain_;
  std::int64_t expected_;
  std::int64_t& found_;  // of the whole VMA, over all its spans
  // Addresses of unknown node waiting for the next query, and their sizes in base pages.
  std::vector<std::uintptr_t> addresses_;
  std::vector<std::int64_t> sizes_;
  std::vector<int> status_;
  std::size_t visited_ = 0;
};

// The page map is read a window at a time, so that once numa_maps' count of pages on the source
// is found, the rest of a large sparse VMA is neither read nor asked about. Each window is twice
// the last, so a VMA of terabytes (sanitizer shadow, reserved heaps) still takes a few dozen
// reads. Windows end on huge-page boundaries: a transparent huge page never straddles two.
bool VmaWalk::run() {
  if (found_ >= expected_) {
    return true;
  }
  std::uintptr_t span = kFirstResidentWindow;
  for (std::uintptr_t window = span_.start; window < span_.end;) {
    std::uintptr_t window_end = span_.end;
    if (span_.end - window > span) {
      window_end = window + span;
      window_end -= window_end % static_cast<std::uintptr_t>(kPmdBytes);
    }
    if (span < (std::uintptr_t{1} << 62)) {
      span *= 2;
    }
    if (!process_.confirm(report_)) {
      return false;
    }
    auto resident = syscalls_.resident_ranges(process_.pid, window, window_end);
    // A page map read while the pid named another process says nothing about this one.
    if (!process_.confirm(report_)) {
      return false;
    }
    std::vector<ResidentRange> ranges;
    if (resident.ok()) {
      ranges = std::move(*resident);
    } else if (resident.error().vanished()) {
      report_.vanished = true;
      return false;
    } else {
      // Without the page map every page of the window is asked about: slower, never wrong.
      ranges.push_back({window, window_end, false, false, std::nullopt});
    }
    for (const auto& range : ranges) {
      if (Step step = visit(range, window); step != Step::go_on) {
        return step == Step::found_all;
      }
    }
    if (Step step = settle_and_check(); step != Step::go_on) {
      return step == Step::found_all;
    }
    window = window_end;
  }
  return true;
}

VmaWalk::Step VmaWalk::visit(const ResidentRange& range, std::uintptr_t window) {
  Bytes step = vma_.hugetlb ? vma_.page_size : (range.huge ? kPmdBytes : kBasePageBytes);
  std::uintptr_t first = range.start - range.start % static_cast<std::uintptr_t>(step);
  first = std::max(first, window);
  // A page of this process alone whose frame the page map placed needs no query. Shared
  // pages and the zero page are still asked about: move_pages tells which it can move.
  bool node_known = range.node.has_value() && !range.maybe_shared;
  auto stride = static_cast<std::uintptr_t>(step);
  std::int64_t base_pages = step / kBasePageBytes;
  // A chunk at a time, up to the next query: a placed range's pages are counted in one go.
  for (std::uintptr_t address = first; address < range.end;) {
    std::size_t take = std::min<std::size_t>((range.end - address + stride - 1) / stride,
                                             PageWalk::kQueryChunk - visited_);
    if (!node_known) {
      for (std::size_t k = 0; k < take; ++k) {
        addresses_.push_back(address + k * stride);
        sizes_.push_back(base_pages);
      }
    } else {
      report_.pages_scanned += static_cast<std::int64_t>(take);
      if (*range.node == source_) {
        on_source(address, take, stride, base_pages);
      }
    }
    address += take * stride;
    visited_ += take;
    if (visited_ == PageWalk::kQueryChunk) {
      if (Step settled = settle_and_check(); settled != Step::go_on) {
        return settled;
      }
    }
  }
  return Step::go_on;
}

// numa_maps said how many pages sit on the source: once found, the rest of a sparse VMA need
// not be asked about.
VmaWalk::Step VmaWalk::settle_and_check() {
  if (!settle() || process_.done) {
    return Step::stop;
  }
  return found_ >= expected_ ? Step::found_all : Step::go_on;
}

// Asks move_pages where the pages of unknown node are, then lets the mover take what waits.
bool VmaWalk::settle() {
  visited_ = 0;
  if (!addresses_.empty()) {
    if (!process_.confirm(report_)) {
      return false;
    }
    status_.assign(addresses_.size(), kUntouched);
    auto before = syscalls_.now();
    SyscallResult result = syscalls_.move_pages(process_.pid, addresses_, {}, status_, false);
    ledger_.record_call(syscalls_.now() - before, report_);
    if (!process_.confirm(report_)) {
      return false;
    }
    if (!result.ok()) {
      if (process_exited(proc_root_, process_.pid, result.error)) {
        report_.vanished = true;
      } else {
        ledger_.add_error(result.error, "move_pages (query) " + std::to_string(process_.pid),
                          process_.pid);
      }
      process_.done = true;
      return false;
    }
    for (std::size_t i = 0; i < addresses_.size(); ++i) {
      ++report_.pages_scanned;
      if (status_[i] == source_) {
        on_source(addresses_[i], 1, 0, sizes_[i]);
      }
    }
    addresses_.clear();
    sizes_.clear();
  }
  return drain_();
}

// `count` pages found on the source, `stride` bytes apart from `address`.
void VmaWalk::on_source(std::uintptr_t address, std::size_t count, std::uintptr_t stride,
                        std::int64_t base_pages) {
  process_.pending.push_run(address, count, stride, base_pages, span_.accessed);
  found_ += static_cast<std::int64_t>(count) * base_pages;
  report_.bytes_on_source += static_cast<Bytes>(count) * base_pages * kBasePageBytes;
}

}  // namespace

bool PageWalk::walk(const Vma& vma, ProcessMove& process, ProcessReport& report,
                    const std::function<bool()>& drain) {
  std::int64_t found = 0;
  return walk(vma, WalkSpan{0, vma.start, vma.end, false}, found, process, report, drain);
}

bool PageWalk::walk(const Vma& vma, const WalkSpan& span, std::int64_t& found, ProcessMove& process,
                    ProcessReport& report, const std::function<bool()>& drain) {
  return VmaWalk(syscalls_, proc_root_, ledger_, source_, vma, span, found, process, report, drain)
      .run();
}

}  // namespace nb::actuator
