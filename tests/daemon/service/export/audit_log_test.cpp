#include "daemon/service/export/audit_log.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fstream>

#include "base/time.hpp"
#include "daemon/codec/audit_log.hpp"
#include "daemon/codec/snapshot_json.hpp"
#include "daemon/wire/audit_log_reader.hpp"
#include "tests/support/temp_tree.hpp"

namespace nb::service {
namespace {

using nb::testing::TempTree;
using nlohmann::json;
using ::testing::HasSubstr;
using ::testing::SizeIs;
using ::testing::StartsWith;

TimePoint at(int seconds) {
  return parse_rfc3339("2026-12-02T10:00:00Z").value() + std::chrono::seconds(seconds);
}

json entry(int seconds, int number) {
  rounds::RoundRecord record;
  record.number = static_cast<std::uint64_t>(number);
  record.time = at(seconds);
  record.trigger = "timer";
  record.outcome = rounds::RoundOutcome::started;
  core::Decision decision;
  decision.status = core::DecisionStatus::ready;
  decision.source_node = 1;
  decision.dest_nodes = {0};
  return codec::audit_round_entry(record, &decision);
}

std::vector<std::string> lines_of(const std::filesystem::path& file) {
  std::ifstream in(file);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) {
    lines.push_back(line);
  }
  return lines;
}

std::vector<std::uint64_t> rounds_read(const std::filesystem::path& file,
                                       std::optional<TimePoint> since = std::nullopt) {
  auto read = wire::read_audit_log(file, since);
  EXPECT_TRUE(read.ok());
  std::vector<std::uint64_t> rounds;
  for (const auto& e : read->entries) {
    rounds.push_back(e["round"].get<std::uint64_t>());
  }
  return rounds;
}

class AuditLogTest : public ::testing::Test {
 protected:
  TempTree tree;
  config::ExportConfig config{"", tree.path("audit.jsonl").string(), 16 * kMiB};
  std::filesystem::path file() const { return config.audit_log; }
};

TEST_F(AuditLogTest, OneLinePerEntryWithTimeAndKindFirst) {
  AuditLog log;
  log.append(config, entry(0, 1));
  log.append(config, entry(10, 2));
  auto lines = lines_of(file());
  ASSERT_THAT(lines, SizeIs(2));
  EXPECT_THAT(lines[0], StartsWith(R"({"time":"2026-12-02T10:00:00Z","kind":"round",)"));
  auto parsed = json::parse(lines[1]);
  EXPECT_EQ(parsed["round"], 2);
  EXPECT_EQ(parsed["decision"]["source_node"], 1);
  EXPECT_FALSE(log.current_error().has_value());
}

TEST_F(AuditLogTest, AppendsAcrossRestarts) {
  {
    AuditLog first;
    first.append(config, entry(0, 1));
  }
  AuditLog second;
  second.append(config, entry(10, 2));
  EXPECT_EQ(rounds_read(file()), (std::vector<std::uint64_t>{1, 2}));
}

TEST_F(AuditLogTest, TornLastLineOfACrashIsSkippedNotFatal) {
  {
    AuditLog before_crash;
    before_crash.append(config, entry(0, 1));
  }
  std::ofstream(file(), std::ios::app) << R"({"time":"2026-12-02T10:00:05Z","kind":"rou)";
  auto torn = wire::read_audit_log(file(), std::nullopt);
  ASSERT_TRUE(torn.ok());
  EXPECT_THAT(torn->entries, SizeIs(1));
  EXPECT_EQ(torn->skipped_lines, 1u);

  AuditLog after_restart;
  after_restart.append(config, entry(10, 2));
  auto read = wire::read_audit_log(file(), std::nullopt);
  ASSERT_TRUE(read.ok());
  EXPECT_EQ(read->skipped_lines, 1u) << "the next entry starts on a line of its own";
  EXPECT_EQ(rounds_read(file()), (std::vector<std::uint64_t>{1, 2}));
}

TEST_F(AuditLogTest, RotatesToOneOlderGenerationWhenFull) {
  auto line_size = codec::to_audit_line(entry(0, 1)).size();
  config.audit_log_max_bytes = static_cast<Bytes>(line_size * 3);
  AuditLog log;
  for (int i = 1; i <= 8; ++i) {
    log.append(config, entry(i, i));
  }
  auto rotated = wire::rotated_audit_log(file());
  EXPECT_EQ(rotated.filename(), "audit.jsonl.1");
  EXPECT_LE(std::filesystem::file_size(file()), config.audit_log_max_bytes);
  EXPECT_LE(std::filesystem::file_size(rotated), config.audit_log_max_bytes);
  // 8 entries, 3 per file: 1-3 and 4-6 rotated away in turn, the oldest generation dropped.
  EXPECT_EQ(rounds_read(file()), (std::vector<std::uint64_t>{4, 5, 6, 7, 8}));
  EXPECT_FALSE(std::filesystem::exists(tree.path("audit.jsonl.2")));
}

TEST_F(AuditLogTest, FileRenamedAwayIsReopened) {
  AuditLog log;
  log.append(config, entry(0, 1));
  std::filesystem::rename(file(), tree.path("audit.jsonl.old"));
  log.append(config, entry(10, 2));
  EXPECT_EQ(rounds_read(file()), (std::vector<std::uint64_t>{2}));
}

TEST_F(AuditLogTest, ChangedPathIsUsedFromTheNextEntry) {
  AuditLog log;
  log.append(config, entry(0, 1));
  config.audit_log = tree.path("other.jsonl").string();
  log.append(config, entry(10, 2));
  EXPECT_EQ(rounds_read(tree.path("audit.jsonl")), (std::vector<std::uint64_t>{1}));
  EXPECT_EQ(rounds_read(file()), (std::vector<std::uint64_t>{2}));
}

TEST_F(AuditLogTest, UnwritablePathIsRecordedNotThrown) {
  config.audit_log = tree.path("no/such/dir/audit.jsonl").string();
  AuditLog log;
  log.append(config, entry(0, 1));
  ASSERT_TRUE(log.current_error().has_value());
  EXPECT_THAT(*log.current_error(), HasSubstr("no/such/dir/audit.jsonl"));
}

// A full disk is RLIMIT_FSIZE in a child: the write that crosses it is short.
TEST_F(AuditLogTest, ShortWriteLeavesNoTornLineForTheNextEntry) {
  pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    ::signal(SIGXFSZ, SIG_IGN);
    AuditLog log;
    log.append(config, entry(0, 1));
    rlimit normal{};
    ::getrlimit(RLIMIT_FSIZE, &normal);
    rlimit full{std::filesystem::file_size(file()) + 10, normal.rlim_max};
    ::setrlimit(RLIMIT_FSIZE, &full);
    log.append(config, entry(1, 2));
    bool refused = log.current_error().has_value() && log.failed_entries() == 1 &&
                   std::filesystem::file_size(file()) + 10 == full.rlim_cur;
    ::setrlimit(RLIMIT_FSIZE, &normal);
    log.append(config, entry(2, 3));
    ::_exit(refused && !log.current_error() ? 0 : 1);
  }
  int status = 0;
  ASSERT_EQ(::waitpid(child, &status, 0), child);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "the short write went unnoticed";
  auto lines = lines_of(file());
  ASSERT_THAT(lines, SizeIs(2));
  for (const auto& line : lines) {
    EXPECT_TRUE(json::accept(line)) << line;
  }
  EXPECT_EQ(rounds_read(file()), (std::vector<std::uint64_t>{1, 3}));
}

TEST_F(AuditLogTest, EmptyPathIsOff) {
  config.audit_log.clear();
  AuditLog log;
  log.append(config, entry(0, 1));
  EXPECT_FALSE(log.current_error().has_value());
  EXPECT_TRUE(std::filesystem::is_empty(tree.root()));
}

TEST_F(AuditLogTest, ReadLeavesOutEntriesBeforeSinceAndSkipsGarbage) {
  AuditLog log;
  for (int i = 1; i <= 4; ++i) {
    log.append(config, entry(i * 60, i));
  }
  std::ofstream(file(), std::ios::app) << "not json at all\n{\"time\":\"garbage\"}\n";
  auto read = wire::read_audit_log(file(), at(150));
  ASSERT_TRUE(read.ok());
  EXPECT_EQ(rounds_read(file(), at(150)), (std::vector<std::uint64_t>{3, 4}));
  EXPECT_EQ(read->skipped_lines, 2u);
}

TEST_F(AuditLogTest, MissingFileHasNoEntries) {
  auto read = wire::read_audit_log(file(), std::nullopt);
  ASSERT_TRUE(read.ok());
  EXPECT_TRUE(read->entries.empty());
  EXPECT_EQ(read->skipped_lines, 0u);
}

TEST(AuditEntries, JobEntryCarriesTheFullReport) {
  rounds::RoundRecord record;
  record.number = 7;
  record.trigger = "manual";
  record.outcome = rounds::RoundOutcome::done;
  record.source_node = 1;
  record.dest_nodes = {0};
  record.moved_bytes = 4096;
  record.evicted = {"pods/x"};
  actuator::MigrationReport report;
  report.source_node = 1;
  actuator::ContainerReport container;
  container.id = "pods/a";
  actuator::ProcessReport process;
  process.pid = 42;
  process.bytes_moved_to = {{0, 4096}};
  container.processes.push_back(process);
  report.containers.push_back(container);
  auto job = codec::audit_job_entry(at(0), 3, record, &report);
  EXPECT_EQ(job["kind"], "job");
  EXPECT_EQ(job["job"], 3);
  EXPECT_EQ(job["round"], 7);
  EXPECT_EQ(job["trigger"], "manual");
  EXPECT_EQ(job["evicted"], json::array({"pods/x"}));
  EXPECT_TRUE(job["error"].is_null());
  EXPECT_EQ(job["report"]["containers"][0]["processes"][0]["pid"], 42);

  record.outcome = rounds::RoundOutcome::failed;
  record.reason = "the job failed: boom";
  auto failed = codec::audit_job_entry(at(0), 4, record, nullptr);
  EXPECT_EQ(failed["error"], "the job failed: boom");
  EXPECT_TRUE(failed["report"].is_null());
}

TEST(AuditEntries, RoundWithoutDecisionKeepsItsReason) {
  rounds::RoundRecord record;
  record.number = 2;
  record.outcome = rounds::RoundOutcome::failed;
  record.reason = "reading the host failed";
  auto round = codec::audit_round_entry(record, nullptr);
  EXPECT_TRUE(round["decision"].is_null());
  EXPECT_EQ(round["reason"], "reading the host failed");
}

}  // namespace
}  // namespace nb::service
