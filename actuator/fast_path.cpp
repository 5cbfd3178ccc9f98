// The mover's fast path: a process whose whole footprint on the source is small hands it to
// migrate_pages in one call, and the kernel walks it without our per-page queries.

#include <algorithm>
#include <cerrno>
#include <string>

#include "actuator/page_mover.hpp"
#include "actuator/process_exit.hpp"

namespace nb::actuator {
namespace {

bool has_shared_pages_on(const std::vector<Vma>& vmas, NodeId node) {
  return std::any_of(vmas.begin(), vmas.end(), [node](const Vma& vma) {
    return vma.pages_on(node) > 0 && vma.max_mappers > 1;
  });
}

}  // namespace

bool PageMover::move_whole_process(const TargetPlan& plan, ProcessMove& process,
                                   std::vector<Vma>& vmas, ProcessReport& report) {
  NodeId source = options_.source_node;
  Bytes footprint = bytes_on_node(vmas, source);
  // migrate_pages moves shared pages too whenever we hold CAP_SYS_NICE, whatever the flags, so
  // it is only a faithful shortcut when nothing shared sits on the source or sharing is allowed.
  if (options_.dry_run || footprint <= 0 || footprint > options_.fast_path_max_bytes ||
      footprint > ledger_.remaining(plan.cap) || plan.allows(source) ||
      (!options_.move_shared && has_shared_pages_on(vmas, source)) || pacer_.should_stop()) {
    return false;
  }
  refresh_destinations(true);
  auto pick = picker_.pick(excluded_for(plan, process));
  if (!pick || pick->allowance < footprint) {
    return false;
  }
  if (!pacer_.wait_for_tokens(footprint) || !process.confirm(report)) {
    return true;
  }
  auto before = syscalls_.now();
  SyscallResult result = syscalls_.migrate_pages(process.pid, source, pick->node);
  ledger_.record_call(syscalls_.now() - before, report);
  // Nothing proves the call moved this process's pages rather than another's: none count.
  if (!process.confirm(report)) {
    return true;
  }
  if (!result.ok()) {
    if (process_exited(proc_root_, process.pid, result.error)) {
      report.vanished = true;
      process.done = true;
      return true;
    }
    ledger_.add_error(result.error, "migrate_pages " + std::to_string(process.pid), process.pid);
    if (result.error == EPERM) {
      process.done = true;
      return true;
    }
    return false;  // the walk may still manage page by page
  }
  auto after = read_process_vmas(proc_root_, process.pid);
  if (!after.ok() || !process.confirm(report)) {
    // The process exited (or the maps read are no longer its own) right after the move, which
    // its pidfd proved was on it: what left the source is what the call moved.
    if (!after.ok()) {
      report.vanished = after.error().vanished();
    }
    report.bytes_on_source = footprint;
    credit_moved(pick->node, footprint, footprint / kBasePageBytes, report);
    report.fast_path = true;
    process.done = true;
    return true;
  }
  Bytes left = bytes_on_node(*after, source);
  Bytes moved = std::max<Bytes>(0, footprint - left);
  report.bytes_on_source = footprint;
  report.fast_path = true;
  credit_moved(pick->node, moved, moved / kBasePageBytes, report);
  on_batch_();
  if (left <= 0 || result.rc == 0) {
    return true;
  }
  // Pages the kernel could not move (pinned, shared): let the walk count what happens to them.
  report.bytes_on_source -= left;
  vmas = std::move(*after);
  return false;
}

}  // namespace nb::actuator
