// A state file as the version before typed rounds wrote it: it loads, and saving what was loaded
// writes the same text, so that neither a restart nor a downgrade loses anything.

#include <gtest/gtest.h>

#include "daemon/codec/state_file.hpp"
#include "tests/support/temp_tree.hpp"

namespace nb::codec {
namespace {

constexpr const char* kPreviousVersionFile = R"({
  "rounds": [
    {
      "containers": [
        "pods/a"
      ],
      "dest_nodes": [
        0
      ],
      "evicted": [],
      "full_report": {
        "bytes_moved": 4194304,
        "containers": [
          {
            "id": "pods/a",
            "processes": [
              {
                "pid": 41
              }
            ],
            "processes_omitted": 3
          }
        ]
      },
      "migrated": true,
      "moved_bytes": 4194304,
      "number": 7,
      "outcome": "partial",
      "planned_bytes": 8388608,
      "reason": "node 1 under force pressure",
      "report": {
        "budget": 8388608,
        "bytes_moved": 4194304,
        "bytes_moved_to": {
          "0": 4194304
        },
        "bytes_on_source": 8388608,
        "bytes_placed": 4194304,
        "containers": 1,
        "dest_nodes": [
          0
        ],
        "dry_run": false,
        "elapsed_ms": 250.5,
        "errors": [
          {
            "code": 13,
            "container": "pods/a",
            "hint": "run as root",
            "message": "move_pages 41: Permission denied",
            "pid": 41
          },
          {
            "code": 0,
            "container": "pods/a",
            "message": "cgroup vanished"
          }
        ],
        "goal": 8388608,
        "longest_call_ms": 1.5,
        "outcomes": {
          "access_denied": 2,
          "already_on_destination": 0,
          "busy": 1,
          "moved": 1024,
          "no_memory": 0,
          "other": 0,
          "unmapped": 0
        },
        "rate_mib_per_s": 15.968063872255488,
        "source_node": 1,
        "stop_reason": "deadline",
        "syscalls": 4,
        "threshold": 0.7,
        "threshold_met": false,
        "vanished_pids": 0
      },
      "source_node": 1,
      "status": "ready",
      "time": "2026-12-02T10:00:00Z",
      "trigger": "timer"
    },
    {
      "containers": [],
      "dest_nodes": [],
      "evicted": [],
      "migrated": false,
      "moved_bytes": 0,
      "number": 8,
      "outcome": "none",
      "planned_bytes": 0,
      "reason": "no node is under pressure",
      "source_node": null,
      "status": "idle",
      "time": "2026-12-02T10:01:00Z",
      "trigger": "reconcile"
    },
    {
      "containers": [],
      "dest_nodes": [],
      "evicted": [],
      "migrated": false,
      "moved_bytes": 0,
      "number": 9,
      "outcome": "failed",
      "planned_bytes": 0,
      "reason": "reading the host failed: read /sys/devices/system/node",
      "source_node": null,
      "status": "failed",
      "time": "2026-12-02T10:02:00Z",
      "trigger": "timer"
    }
  ],
  "version": 1
}
)";

TEST(StateFileCompat, APreviousVersionsFileLoadsAndSavesBackAsAJournalOfTheSameRounds) {
  testing::TempTree tree;
  auto file = tree.make_file("state.json", kPreviousVersionFile);
  auto loaded = read_state(file);
  ASSERT_TRUE(loaded.ok()) << loaded.error().message();
  ASSERT_EQ(loaded->size(), 3u);
  const rounds::RoundRecord& partial = (*loaded)[0];
  EXPECT_EQ(partial.status, rounds::RoundStatus::ready);
  EXPECT_EQ(partial.outcome, rounds::RoundOutcome::partial);
  ASSERT_TRUE(partial.report.has_value());
  EXPECT_EQ(partial.report->stop_reason, actuator::StopReason::deadline);
  EXPECT_EQ(partial.report->errors.size(), 2u);
  EXPECT_EQ((*loaded)[1].outcome, rounds::RoundOutcome::none);
  EXPECT_FALSE((*loaded)[1].report.has_value());

  auto saved = tree.path("saved.json");
  ASSERT_TRUE(save_state(saved, *loaded).ok());
  EXPECT_TRUE(testing::read_file(saved).starts_with("{\"version\":2}\n"));
  auto again = read_state(saved);
  ASSERT_TRUE(again.ok()) << again.error().message();
  ASSERT_EQ(again->size(), loaded->size());
  for (std::size_t i = 0; i < loaded->size(); ++i) {
    EXPECT_EQ(to_json((*again)[i]), to_json((*loaded)[i])) << "round " << i;
  }
}

TEST(StateFileCompat, AnUnknownOutcomeIsAnUnreadableRound) {
  auto round = nlohmann::json::parse(R"({"number": 3, "time": "2026-12-02T10:00:00Z",
      "status": "ready", "outcome": "exploded"})");
  auto record = record_from_json(round);
  ASSERT_FALSE(record.ok());
  EXPECT_EQ(record.error().message(), "round 3: unknown outcome \"exploded\"");
}

}  // namespace
}  // namespace nb::codec
