#include "actuator/linux_memory_syscalls.hpp"

#include <fcntl.h>
#include <numa.h>
#include <numaif.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <algorithm>
#include <limits>
#include <thread>

#include "actuator/pidfd.hpp"
#include "base/file_descriptor.hpp"

namespace nb::actuator {
namespace {

// The PAGEMAP_SCAN ABI (include/uapi/linux/fs.h, Linux 6.7); Debian 12's headers predate it.
struct PageRegion {
  std::uint64_t start;
  std::uint64_t end;
  std::uint64_t categories;
};
struct PageMapScanArgument {
  std::uint64_t size;
  std::uint64_t flags;
  std::uint64_t start;
  std::uint64_t end;
  std::uint64_t walk_end;
  std::uint64_t vec;
  std::uint64_t vec_len;
  std::uint64_t max_pages;
  std::uint64_t category_inverted;
  std::uint64_t category_mask;
  std::uint64_t category_anyof_mask;
  std::uint64_t return_mask;
};
constexpr unsigned long kPageMapScan = _IOWR('f', 16, PageMapScanArgument);
constexpr std::uint64_t kPageIsPresent = 1 << 3;
constexpr std::uint64_t kPageIsZeroPfn = 1 << 5;
constexpr std::uint64_t kPageIsHuge = 1 << 6;
constexpr std::size_t kRegionsPerScan = 4096;

constexpr std::uintptr_t kBasePage = 4096;
constexpr std::uintptr_t kPmdSize = 2 * 1024 * 1024;
constexpr std::uint64_t kPagemapPresent = 1ULL << 63;
constexpr std::uint64_t kPagemapExclusive = 1ULL << 56;
constexpr std::size_t kEntriesPerRead = 64 * 1024;
constexpr std::uint64_t kPagemapPfnMask = (1ULL << 55) - 1;
constexpr std::uint64_t kPageFlagCompoundHead = 1ULL << 15;
constexpr std::uint64_t kPageFlagThp = 1ULL << 22;
// PAGEMAP_SCAN finds resident pages but not their node. Scanned ranges closer than this are read
// back from the page map together; a group is read back only when it holds enough pages, since
// for scattered single pages one pread each costs about what move_pages' batched query does.
constexpr std::uintptr_t kPlacementGap = 32 * kBasePage;
constexpr std::uintptr_t kPlacementMinimum = 16 * kBasePage;

void append_range(std::vector<ResidentRange>& ranges, ResidentRange range) {
  if (!ranges.empty() && ranges.back().end == range.start && ranges.back().huge == range.huge &&
      ranges.back().maybe_shared == range.maybe_shared && ranges.back().node == range.node) {
    ranges.back().end = range.end;
    return;
  }
  ranges.push_back(range);
}

SyscallResult result_of(long rc) {
  return rc < 0 ? SyscallResult{rc, errno} : SyscallResult{rc, 0};
}

// A transparent huge page's head, by its kpageflags entry; only an aligned frame at an aligned
// address can be one, so the others cost no read.
bool is_huge_page_head(int page_flags, std::uintptr_t address, std::uint64_t pfn) {
  if (page_flags < 0 || address % kPmdSize != 0 || pfn == 0 || pfn % (kPmdSize / kBasePage) != 0) {
    return false;
  }
  std::uint64_t flags = 0;
  if (::pread(page_flags, &flags, sizeof(flags), static_cast<off_t>(pfn * sizeof(flags))) !=
      sizeof(flags)) {
    return false;
  }
  return (flags & kPageFlagThp) != 0 && (flags & kPageFlagCompoundHead) != 0;
}

}  // namespace

LinuxMemorySyscalls::LinuxMemorySyscalls(std::filesystem::path proc_root,
                                         std::filesystem::path sys_root)
    : proc_root_(std::move(proc_root)), sys_root_(std::move(sys_root)) {}

LinuxMemorySyscalls::~LinuxMemorySyscalls() {
  if (page_flags_ >= 0) {
    ::close(page_flags_);
  }
}

SyscallResult LinuxMemorySyscalls::move_pages(int pid, std::span<const std::uintptr_t> pages,
                                              std::span<const int> nodes, std::span<int> status,
                                              bool move_all) {
  // The kernel reads an array of pointers; uintptr_t has the same size and representation.
  static_assert(sizeof(std::uintptr_t) == sizeof(void*));
  auto** addresses = reinterpret_cast<void**>(const_cast<std::uintptr_t*>(pages.data()));
  const int* node_array = nodes.empty() ? nullptr : nodes.data();
  int flags = move_all ? MPOL_MF_MOVE_ALL : MPOL_MF_MOVE;
  return result_of(::move_pages(pid, pages.size(), addresses, node_array, status.data(),
                                nodes.empty() ? 0 : flags));
}

SyscallResult LinuxMemorySyscalls::migrate_pages(int pid, NodeId from, NodeId to) {
  bitmask* from_mask = numa_allocate_nodemask();
  bitmask* to_mask = numa_allocate_nodemask();
  numa_bitmask_setbit(from_mask, static_cast<unsigned>(from));
  numa_bitmask_setbit(to_mask, static_cast<unsigned>(to));
  long rc = ::migrate_pages(pid, from_mask->size + 1, from_mask->maskp, to_mask->maskp);
  SyscallResult result = result_of(rc);
  numa_free_nodemask(from_mask);
  numa_free_nodemask(to_mask);
  return result;
}

Result<std::vector<ResidentRange>> LinuxMemorySyscalls::resident_ranges(int pid,
                                                                        std::uintptr_t start,
                                                                        std::uintptr_t end) {
  auto path = proc_root_ / std::to_string(pid) / "pagemap";
  FileDescriptor fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
  if (fd.get() < 0) {
    return make_error(errno, "open " + path.string());
  }
  if (scan_ioctl_supported_) {
    auto scanned = scan_ioctl(fd.get(), start, end);
    if (scanned.ok()) {
      return place(fd.get(), std::move(*scanned));
    }
    if (scanned.error().code != ENOTTY && scanned.error().code != EINVAL) {
      return scanned;
    }
    scan_ioctl_supported_ = false;
  }
  return read_entries(fd.get(), start, end);
}

Result<std::vector<ResidentRange>> LinuxMemorySyscalls::scan_ioctl(int fd, std::uintptr_t start,
                                                                   std::uintptr_t end) {
  std::vector<ResidentRange> ranges;
  // One buffer for the whole job: fresh memory for every call costs a page fault per 4 KiB.
  static_assert(sizeof(PageRegion) == 3 * sizeof(std::uint64_t));
  buffer_.resize(std::max(buffer_.size(), kRegionsPerScan * 3));
  auto* regions = reinterpret_cast<PageRegion*>(buffer_.data());
  std::uintptr_t cursor = start;
  while (cursor < end) {
    PageMapScanArgument argument{};
    argument.size = sizeof(argument);
    argument.start = cursor;
    argument.end = end;
    argument.vec = reinterpret_cast<std::uint64_t>(regions);
    argument.vec_len = kRegionsPerScan;
    // Present and not the zero page: numa_maps never counts the zero page and it cannot move.
    argument.category_inverted = kPageIsZeroPfn;
    argument.category_mask = kPageIsPresent | kPageIsZeroPfn;
    argument.return_mask = kPageIsPresent | kPageIsHuge;
    long count = ::ioctl(fd, kPageMapScan, &argument);
    if (count < 0) {
      return make_error(errno, "PAGEMAP_SCAN");
    }
    for (long i = 0; i < count; ++i) {
      // A range may repeat the tail of the previous call's last one; never report a page twice.
      std::uintptr_t region_start = std::max<std::uintptr_t>(regions[i].start, cursor);
      if (!ranges.empty()) {
        region_start = std::max(region_start, ranges.back().end);
      }
      if (region_start < regions[i].end) {
        bool huge = (regions[i].categories & kPageIsHuge) != 0;
        append_range(ranges, {region_start, regions[i].end, huge, false, std::nullopt});
      }
    }
    if (argument.walk_end <= cursor) {
      break;
    }
    cursor = argument.walk_end;
  }
  return ranges;
}

Result<std::vector<ResidentRange>> LinuxMemorySyscalls::place(int fd,
                                                              std::vector<ResidentRange> scanned) {
  if (frames_unreadable()) {
    return scanned;
  }
  std::vector<ResidentRange> placed;
  for (std::size_t first = 0; first < scanned.size();) {
    std::size_t last = first + 1;
    std::uintptr_t resident = scanned[first].end - scanned[first].start;
    while (last < scanned.size() && scanned[last].start - scanned[last - 1].end <= kPlacementGap) {
      resident += scanned[last].end - scanned[last].start;
      ++last;
    }
    auto group_start = scanned.begin() + static_cast<std::ptrdiff_t>(first);
    auto group_end = scanned.begin() + static_cast<std::ptrdiff_t>(last);
    first = last;
    std::optional<std::vector<ResidentRange>> entries;
    if (resident >= kPlacementMinimum && !frames_unreadable()) {
      auto read = read_entries(fd, group_start->start, std::prev(group_end)->end);
      if (read.ok()) {
        entries = std::move(*read);
      }
    }
    if (!entries) {
      placed.insert(placed.end(), group_start, group_end);
      continue;
    }
    // Only what the scan found counts: the gaps may hold the zero page, which it leaves out.
    auto range = group_start;
    for (const auto& entry : *entries) {
      while (range != group_end && range->end <= entry.start) {
        ++range;
      }
      for (auto overlap = range; overlap != group_end && overlap->start < entry.end; ++overlap) {
        ResidentRange piece = entry;
        piece.start = std::max(entry.start, overlap->start);
        piece.end = std::min(entry.end, overlap->end);
        append_range(placed, piece);
      }
    }
  }
  return placed;
}

bool LinuxMemorySyscalls::frames_unreadable() const {
  return frames_hidden_ || (frame_nodes_tried_ && !frame_nodes_);
}

Result<std::vector<ResidentRange>> LinuxMemorySyscalls::read_entries(int fd, std::uintptr_t start,
                                                                     std::uintptr_t end) {
  // Without kpageflags (no CAP_SYS_ADMIN: PFNs read as zero) huge pages go unrecognised and the
  // caller moves them 4 KiB at a time, which the kernel still handles. Opened once per job: the
  // page map is read once per window, and with PAGEMAP_SCAN once per run of resident pages.
  if (!page_flags_tried_) {
    page_flags_tried_ = true;
    page_flags_ = ::open((proc_root_ / "kpageflags").c_str(), O_RDONLY | O_CLOEXEC);
  }
  std::vector<ResidentRange> ranges;
  buffer_.resize(std::max(buffer_.size(), kEntriesPerRead));
  std::uint64_t* entries = buffer_.data();
  // Nodes hold long runs of frames, so the span of the last frame looked up usually holds the next.
  FrameNodes::Span known;
  for (std::uintptr_t chunk = start; chunk < end;) {
    // Reads end on huge-page boundaries, so that a huge page is never split between two reads
    // (its head is recognised only with all of its entries in the buffer).
    std::uintptr_t chunk_end = end;
    if ((end - chunk) / kBasePage > kEntriesPerRead) {
      chunk_end = chunk + kEntriesPerRead * kBasePage;
      chunk_end -= chunk_end % kPmdSize;
    }
    std::size_t count = (chunk_end - chunk) / kBasePage;
    ssize_t got = ::pread(fd, entries, count * sizeof(std::uint64_t),
                          static_cast<off_t>(chunk / kBasePage * sizeof(std::uint64_t)));
    if (got < 0) {
      return make_error(errno, "read pagemap");
    }
    std::size_t read_count = static_cast<std::size_t>(got) / sizeof(std::uint64_t);
    if (read_count == 0) {
      break;
    }
    for (std::size_t i = 0; i < read_count;) {
      std::uintptr_t address = chunk + i * kBasePage;
      std::uint64_t entry = entries[i];
      if ((entry & kPagemapPresent) == 0) {
        ++i;
        continue;
      }
      std::uint64_t pfn = entry & kPagemapPfnMask;
      frames_hidden_ = frames_hidden_ || pfn == 0;
      const bool huge_head =
          i + kPmdSize / kBasePage <= read_count && is_huge_page_head(page_flags_, address, pfn);
      // Not mapped by this process alone: shared with another process, or the zero page.
      bool maybe_shared = (entry & kPagemapExclusive) == 0;
      if (pfn != 0 && !known.contains(pfn)) {
        known = span_of_frame(pfn);
      }
      std::optional<NodeId> node = pfn != 0 ? known.node : std::nullopt;
      if (huge_head) {
        append_range(ranges, {address, address + kPmdSize, true, maybe_shared, node});
        i += kPmdSize / kBasePage;
      } else {
        append_range(ranges, {address, address + kBasePage, false, maybe_shared, node});
        ++i;
        // Most pages continue the range just appended to: small, shared alike, frames in the
        // same span (or all hidden). They need no lookup; only a huge-page boundary needs flags.
        constexpr std::uint64_t kShape = kPagemapPresent | kPagemapExclusive;
        while (i < read_count && (entries[i] & kShape) == (entry & kShape)) {
          std::uint64_t next = entries[i] & kPagemapPfnMask;
          bool same_frames = pfn == 0
                                 ? next == 0
                                 : next != 0 && known.contains(next) &&
                                       (page_flags_ < 0 || (chunk + i * kBasePage) % kPmdSize != 0);
          if (!same_frames) {
            break;
          }
          ranges.back().end += kBasePage;
          ++i;
        }
      }
    }
    chunk += read_count * kBasePage;
  }
  return ranges;
}

// Frame numbers read as zero without CAP_SYS_ADMIN (the caller never asks about frame 0): then,
// and when sysfs lists no memory blocks, every page's node is unknown and the engine asks
// move_pages.
FrameNodes::Span LinuxMemorySyscalls::span_of_frame(std::uint64_t frame) {
  if (!frame_nodes_tried_) {
    frame_nodes_tried_ = true;
    auto read = FrameNodes::read(sys_root_);
    if (read.ok()) {
      frame_nodes_ = std::move(*read);
    }
  }
  if (!frame_nodes_) {
    return {0, std::numeric_limits<std::uint64_t>::max(), std::nullopt};
  }
  return frame_nodes_->span_of(frame);
}

Result<NodeMemory> LinuxMemorySyscalls::node_memory(NodeId node) {
  if (numa_available() < 0 || node < 0 || node > numa_max_node()) {
    return make_error(ENODEV, "node " + std::to_string(node));
  }
  long long free_bytes = 0;
  long long total = numa_node_size64(node, &free_bytes);
  if (total <= 0) {
    return make_error(ENODEV, "node " + std::to_string(node) + " has no memory");
  }
  return NodeMemory{total, free_bytes};
}

Result<int> LinuxMemorySyscalls::open_pidfd(int pid) {
  return actuator::open_pidfd(pid);
}

bool LinuxMemorySyscalls::pidfd_exited(int pidfd) {
  return actuator::pidfd_exited(pidfd);
}

void LinuxMemorySyscalls::close_pidfd(int pidfd) {
  ::close(pidfd);
}

Clock::time_point LinuxMemorySyscalls::now() {
  return Clock::now();
}

void LinuxMemorySyscalls::sleep_for(Clock::duration duration) {
  std::this_thread::sleep_for(duration);
}

}  // namespace nb::actuator
