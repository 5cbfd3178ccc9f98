// `numabalancerctl migrate`'s own lines: the progress redrawn on a terminal and the job's end.

#include <gtest/gtest.h>

#include "daemon/ctl/human_output.hpp"

namespace nb::ctl {
namespace {

using nlohmann::json;

TEST(JobProgressLine, ShowsMovedGoalRateAndEta) {
  json progress{{"moved", 512 << 20}, {"goal", 1536 << 20}, {"rate_mib_per_s", 256.7}};
  EXPECT_EQ(job_progress_line(progress), "\r512.0 MiB of 1.5 GiB, 257 MiB/s, ETA 4s   ");
}

TEST(JobProgressLine, UnknownGoalIsAQuestionMarkWithoutEta) {
  EXPECT_EQ(job_progress_line({{"moved", 4096}}), "\r4.0 KiB of ?, 0 MiB/s   ");
}

TEST(JobDoneText, OutcomeThenStopReasonAndErrors) {
  json done{{"outcome", "partial"},
            {"moved_bytes", 1 << 20},
            {"report",
             {{"stop_reason", "deadline"},
              {"syscalls", 12},
              {"longest_call_ms", 2.5},
              {"threshold_met", false},
              {"errors", {{{"message", "EPERM"}, {"hint", "run as root"}}}}}}};
  EXPECT_EQ(job_done_text(4, done),
            "job 4: partial, moved 1.0 MiB\n"
            "stop reason: deadline, 12 syscalls, longest call 2.5ms, threshold not met\n"
            "error: EPERM (run as root)\n");
}

// A dry run claims no threshold, even from a daemon that still sends one.
TEST(JobDoneText, DryRunSaysWhatWouldMoveAndNothingMoved) {
  json done{{"outcome", "done"},
            {"moved_bytes", 0},
            {"report",
             {{"dry_run", true},
              {"stop_reason", "completed"},
              {"threshold_met", true},
              {"goal", 4 << 20},
              {"bytes_on_source", 6 << 20}}}};
  EXPECT_EQ(job_done_text(5, done),
            "job 5: done, dry run: would move 4.0 MiB, nothing moved\n"
            "stop reason: completed, 6.0 MiB found on the source\n");
}

TEST(JobDoneText, NoReportIsOneLine) {
  EXPECT_EQ(job_done_text(6, {{"outcome", "failed"}, {"moved_bytes", 0}}),
            "job 6: failed, moved 0 B\n");
}

}  // namespace
}  // namespace nb::ctl
