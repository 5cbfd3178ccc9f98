#include "tests/actuator/fake_memory.hpp"

#include <cerrno>
#include <sstream>

namespace nb::actuator::testing {

FakeMemory::FakeMemory(const nb::testing::TempTree& tree) : tree_(tree) {}

void FakeMemory::add_node(NodeId node, Bytes total, Bytes free) {
  nodes_[node] = NodeMemory{total, free};
}

FakeVma& FakeMemory::add_vma(int pid, std::uintptr_t start, std::uintptr_t end, Bytes page_size) {
  auto& vma = processes_[pid].vmas.emplace_back();
  vma.start = start;
  vma.end = end;
  vma.page_size = page_size;
  vma.hugetlb = page_size > 4 * kKiB;
  return vma;
}

void FakeMemory::add_pages(int pid, std::uintptr_t start, std::int64_t count, NodeId node,
                           Bytes size) {
  auto& process = processes_[pid];
  for (std::int64_t i = 0; i < count; ++i) {
    FakePage page;
    page.node = node;
    page.size = size;
    process.pages[start + static_cast<std::uintptr_t>(i * size)] = page;
    nodes_[node].free_bytes -= size;
  }
  sync_proc_files();
}

FakePage& FakeMemory::page(int pid, std::uintptr_t address) {
  return processes_.at(pid).pages.at(address);
}

void FakeMemory::exit_process(int pid) {
  processes_[pid].exited = true;
  tree_.remove("proc/" + std::to_string(pid));
}

void FakeMemory::make_zombie(int pid) {
  processes_[pid].zombie = true;
  sync_proc_files();
}

void FakeMemory::set_start_time(int pid, std::uint64_t start_time) {
  processes_[pid].start_time = start_time;
  sync_proc_files();
}

void FakeMemory::set_cgroup(int pid, std::string lines) {
  processes_[pid].cgroup = std::move(lines);
  sync_proc_files();
}

void FakeMemory::reuse_pid(int pid) {
  auto& process = processes_[pid];
  ++process.generation;
  process.start_time += 1000;
  sync_proc_files();
}

Bytes FakeMemory::bytes_on(int pid, NodeId node) const {
  Bytes total = 0;
  for (const auto& [address, page] : processes_.at(pid).pages) {
    if (page.node == node) {
      total += page.size;
    }
  }
  return total;
}

void FakeMemory::sync_proc_files() {
  for (const auto& [pid, process] : processes_) {
    if (process.exited) {
      continue;
    }
    std::ostringstream maps;
    std::ostringstream numa_maps;
    // state ppid pgrp session tty_nr tpgid flags, twelve counters, then field 22: start time.
    tree_.make_file("proc/" + std::to_string(pid) + "/stat",
                    std::to_string(pid) + " (fake worker) " + (process.zombie ? "Z" : "S") +
                        " 1 1 1 0 -1 0 0 0 0 0 0 0 0 0 20 0 1 0 " +
                        std::to_string(process.start_time) + " 0 0\n");
    tree_.make_file("proc/" + std::to_string(pid) + "/cgroup", process.cgroup);
    if (process.zombie) {
      tree_.make_file("proc/" + std::to_string(pid) + "/maps", "");
      tree_.make_file("proc/" + std::to_string(pid) + "/numa_maps", "");
      continue;
    }
    for (const auto& vma : process.vmas) {
      maps << std::hex << vma.start << '-' << vma.end << std::dec << " rw-p 00000000 00:00 0\n";
      std::map<NodeId, std::int64_t> per_node;
      std::int64_t pages = 0;
      for (auto it = process.pages.lower_bound(vma.start);
           it != process.pages.end() && it->first < vma.end; ++it) {
        // numa_maps counts THPs in base pages and hugetlb pages in huge pages.
        std::int64_t units = vma.hugetlb ? 1 : it->second.size / (4 * kKiB);
        per_node[it->second.node] += units;
        pages += units;
      }
      numa_maps << std::hex << vma.start << std::dec << " default";
      if (vma.hugetlb) {
        numa_maps << " file=/anon_hugepage\\040(deleted) huge";
      }
      if (pages > 0) {
        numa_maps << " anon=" << pages << " dirty=" << pages;
        if (vma.map_max > 1) {
          numa_maps << " mapmax=" << vma.map_max;
        }
        for (const auto& [node, count] : per_node) {
          if (count > 0) {
            numa_maps << " N" << node << '=' << count;
          }
        }
        numa_maps << " kernelpagesize_kB=" << vma.page_size / kKiB;
      }
      numa_maps << '\n';
    }
    tree_.make_file("proc/" + std::to_string(pid) + "/maps", maps.str());
    tree_.make_file("proc/" + std::to_string(pid) + "/numa_maps", numa_maps.str());
  }
}

FakePage* FakeMemory::find_page(FakeProcess& process, std::uintptr_t address,
                                std::uintptr_t* head) {
  auto it = process.pages.upper_bound(address);
  if (it == process.pages.begin()) {
    return nullptr;
  }
  --it;
  if (address >= it->first + static_cast<std::uintptr_t>(it->second.size)) {
    return nullptr;
  }
  *head = it->first;
  return &it->second;
}

bool FakeMemory::move_one(FakePage& page, NodeId to) {
  auto node = nodes_.find(to);
  if (node == nodes_.end() || node->second.free_bytes < page.size || enomem_nodes.count(to) > 0) {
    return false;
  }
  node->second.free_bytes -= page.size;
  nodes_[page.node].free_bytes += page.size;
  page.node = to;
  clock_ += cost_per_page * (page.size / (4 * kKiB));
  return true;
}

SyscallResult FakeMemory::move_pages(int pid, std::span<const std::uintptr_t> pages,
                                     std::span<const int> nodes, std::span<int> status,
                                     bool move_all) {
  bool query = nodes.empty();
  touched_pids.push_back(pid);
  calls.push_back(
      {pid, query, {pages.begin(), pages.end()}, {nodes.begin(), nodes.end()}, move_all});
  clock_ += cost_per_call;
  auto process = processes_.find(pid);
  if (process == processes_.end() || process->second.exited) {
    return {-1, ESRCH};
  }
  if (process->second.zombie) {
    return {-1, EINVAL};
  }
  if (query) {
    answer_query(process->second, pages, status);
    if (after_call) {
      after_call(pid);
    }
    return {0, 0};
  }
  ++move_calls;
  for (auto address : unmap_before_move) {
    process->second.pages.erase(address);
  }
  unmap_before_move.clear();
  std::optional<InjectedFailure> failure;
  if (!move_failures.empty()) {
    failure = move_failures.front();
    move_failures.pop_front();
  }
  std::size_t limit = failure ? std::min(failure->processed, pages.size()) : pages.size();
  long not_moved = 0;
  std::set<std::uintptr_t> moved_heads;
  for (std::size_t i = 0; i < limit; ++i) {
    std::uintptr_t head = 0;
    FakePage* page = find_page(process->second, pages[i], &head);
    if (page == nullptr) {
      status[i] = -ENOENT;
    } else if (page->shared && !move_all) {
      status[i] = -EACCES;
    } else if (moved_heads.count(head) > 0) {
      // Another entry of a huge page that already moved with this call.
      bool last_entry_of_page = i + 1 == limit || pages[i + 1] >= head + page->size;
      status[i] = huge_page_quirk && last_entry_of_page ? -EBUSY : page->node;
    } else if (page->busy_answers > 0) {
      --page->busy_answers;
      status[i] = -EBUSY;
    } else if (auto silent = silent_failures.find(head);
               silent != silent_failures.end() && silent->second > 0) {
      --silent->second;
      status[i] = nodes[i];
      ++not_moved;
    } else if (page->node == nodes[i]) {
      status[i] = nodes[i];
    } else if (move_one(*page, nodes[i])) {
      status[i] = nodes[i];
      if (page->size > 4 * kKiB) {
        moved_heads.insert(head);
      }
    } else {
      status[i] = -ENOMEM;
      ++not_moved;
    }
  }
  after_move_call(pid);
  if (failure) {
    return {-1, failure->error};
  }
  return {not_moved, 0};
}

void FakeMemory::answer_query(FakeProcess& process, std::span<const std::uintptr_t> pages,
                              std::span<int> status) {
  for (std::size_t i = 0; i < pages.size(); ++i) {
    std::uintptr_t head = 0;
    FakePage* page = find_page(process, pages[i], &head);
    status[i] = page == nullptr ? -ENOENT : page->node;
  }
}

void FakeMemory::after_move_call(int pid) {
  sync_proc_files();
  if (move_calls == exit_after_moves) {
    exit_process(pid);
  }
  if (move_calls == zombie_after_moves) {
    make_zombie(pid);
  }
  if (cancel_after_moves && move_calls >= *cancel_after_moves && cancel_flag != nullptr) {
    cancel_flag->store(true);
  }
  if (after_call) {
    after_call(pid);
  }
}

SyscallResult FakeMemory::migrate_pages(int pid, NodeId from, NodeId to) {
  ++migrate_calls;
  touched_pids.push_back(pid);
  clock_ += cost_per_call;
  auto process = processes_.find(pid);
  if (process == processes_.end() || process->second.exited) {
    return {-1, ESRCH};
  }
  if (migrate_failure) {
    return {-1, *migrate_failure};
  }
  long left = 0;
  for (auto& [address, page] : process->second.pages) {
    if (page.node == from && !move_one(page, to)) {
      ++left;
    }
  }
  sync_proc_files();
  if (after_call) {
    after_call(pid);
  }
  return {left, 0};
}

Result<std::vector<ResidentRange>> FakeMemory::resident_ranges(int pid, std::uintptr_t start,
                                                               std::uintptr_t end) {
  touched_pids.push_back(pid);
  auto process = processes_.find(pid);
  if (process == processes_.end() || process->second.exited) {
    return make_error(ENOENT, "pagemap");
  }
  resident_reads.emplace_back(start, end);
  if (resident_failure) {
    return make_error(*resident_failure, "pagemap");
  }
  std::vector<ResidentRange> ranges;
  for (auto it = process->second.pages.lower_bound(start);
       it != process->second.pages.end() && it->first < end; ++it) {
    ResidentRange range{it->first, it->first + static_cast<std::uintptr_t>(it->second.size),
                        it->second.size > 4 * kKiB, it->second.shared, std::nullopt};
    if (pages_placed) {
      range.node = it->second.node;
    }
    if (!ranges.empty() && ranges.back().end == range.start && ranges.back().huge == range.huge &&
        ranges.back().maybe_shared == range.maybe_shared && ranges.back().node == range.node) {
      ranges.back().end = range.end;
    } else {
      ranges.push_back(range);
    }
  }
  return ranges;
}

Result<NodeMemory> FakeMemory::node_memory(NodeId node) {
  ++node_memory_calls;
  auto it = nodes_.find(node);
  if (it == nodes_.end()) {
    return make_error(ENODEV, "node " + std::to_string(node));
  }
  return it->second;
}

Result<int> FakeMemory::open_pidfd(int pid) {
  ++pidfd_opens;
  if (pidfd_failure) {
    return make_error(*pidfd_failure, "pidfd_open");
  }
  auto process = processes_.find(pid);
  if (process == processes_.end() || process->second.exited) {
    return make_error(ESRCH, "pidfd_open");
  }
  pidfds_[next_pidfd_] = {pid, process->second.generation};
  return next_pidfd_++;
}

bool FakeMemory::pidfd_exited(int pidfd) {
  auto fd = pidfds_.find(pidfd);
  if (fd == pidfds_.end()) {
    return true;
  }
  auto process = processes_.find(fd->second.first);
  return process == processes_.end() || process->second.exited || process->second.zombie ||
         process->second.generation != fd->second.second;
}

void FakeMemory::close_pidfd(int pidfd) {
  if (pidfds_.erase(pidfd) == 0) {
    ++bad_pidfd_closes;
  }
}

void FakeMemory::sleep_for(Clock::duration duration) {
  clock_ += duration;
  slept += duration;
}

}  // namespace nb::actuator::testing
