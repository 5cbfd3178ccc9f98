// Each rule of validation, through the loader: the one problem it raises, with its exact key,
// message and place.

#include "daemon/config/validate.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "daemon/config/load.hpp"
#include "tests/daemon/config/registered_names.hpp"

namespace nb::config {
namespace {

std::string describe(const std::vector<ConfigProblem>& problems) {
  std::string all;
  for (const ConfigProblem& problem : problems) {
    all += "\n  " + problem.to_string();
  }
  return all;
}

struct RuleCase {
  std::string name;
  std::string toml;
  std::string key;
  std::string message;
  int line = 0;
  int column = 0;
};

void PrintTo(const RuleCase& rule, std::ostream* out) {
  *out << rule.name;
}

class ConfigRule : public ::testing::TestWithParam<RuleCase> {};

TEST_P(ConfigRule, ReportsExactlyOneProblemWithKeyMessageAndPlace) {
  const RuleCase& rule = GetParam();
  ConfigLoad load = load_config_string(rule.toml, "rule.toml", registered_names());
  ASSERT_EQ(load.problems.size(), 1u) << describe(load.problems);
  const ConfigProblem& problem = load.problems.front();
  EXPECT_EQ(problem.key, rule.key);
  EXPECT_EQ(problem.message, rule.message);
  EXPECT_EQ(problem.line, rule.line);
  EXPECT_EQ(problem.column, rule.column);
}

std::string case_name(const ::testing::TestParamInfo<RuleCase>& info) {
  return info.param.name;
}

INSTANTIATE_TEST_SUITE_P(
    Sizes, ConfigRule,
    ::testing::Values(
        RuleCase{"NegativeIntegerSize", "[policy]\nround_max_bytes = -1\n",
                 "policy.round_max_bytes", "must not be negative", 2, 1},
        RuleCase{"NegativeSizeString", "[policy]\ncontainer_max_bytes = \"-1GiB\"\n",
                 "policy.container_max_bytes", R"(invalid size "-1GiB": must not be negative)", 2,
                 1},
        RuleCase{
            "AmbiguousSizeUnit", "[admin]\nmax_request_bytes = \"64KB\"\n",
            "admin.max_request_bytes",
            R"(invalid size "64KB": ambiguous unit "KB"; write KiB (decimal units are not accepted))",
            2, 1},
        RuleCase{"SizeOfWrongType", "[admin]\nmax_request_bytes = 1.5\n", "admin.max_request_bytes",
                 R"(must be a size such as "512MiB" or an integer of bytes, not a float)", 2, 1},
        RuleCase{"NegativeMinFreeBytes", "[actuator]\nmin_free_bytes = -4096\n",
                 "actuator.min_free_bytes", "must not be negative", 2, 1},
        RuleCase{"ZeroProbeBuffer", "[metrics.probe]\nbuffer_bytes = 0\n",
                 "metrics.probe.buffer_bytes", "must be positive", 2, 1},
        RuleCase{"ZeroAuditLogLimit", "[export]\naudit_log_max_bytes = \"0MiB\"\n",
                 "export.audit_log_max_bytes", "must be positive", 2, 1},
        RuleCase{"RequestLimitBelowOneKiB", "[admin]\nmax_request_bytes = 1023\n",
                 "admin.max_request_bytes", "must be from 1KiB to 1MiB", 2, 1},
        RuleCase{"RequestLimitAboveOneMiB", "[admin]\nmax_request_bytes = \"2MiB\"\n",
                 "admin.max_request_bytes", "must be from 1KiB to 1MiB", 2, 1}),
    case_name);

// A rule between two keys is reported on the key the user wrote, with the other's default and the
// fix; with both written, on the lower one. Each rule in both directions.
INSTANTIATE_TEST_SUITE_P(
    CrossKeyRules, ConfigRule,
    ::testing::Values(
        RuleCase{"ContainerMinBytesSetAlone", "[policy]\ncontainer_min_bytes = \"11GiB\"\n",
                 "policy.container_min_bytes",
                 "must not exceed container_max_bytes (its default, 10GiB); lower it, or raise "
                 "container_max_bytes",
                 2, 1},
        RuleCase{"ContainerMaxBytesSetAlone", "[policy]\ncontainer_max_bytes = \"64MiB\"\n",
                 "policy.container_max_bytes",
                 "must be at least container_min_bytes (its default, 128MiB); raise it, or set "
                 "container_min_bytes at or below 64MiB",
                 2, 1},
        RuleCase{
            "ContainerMinBytesAndContainerMaxBytesBothSet",
            "[policy]\ncontainer_max_bytes = \"1GiB\"\ncontainer_min_bytes = \"2GiB\"\n",
            "policy.container_min_bytes",
            "must not exceed container_max_bytes (1GiB); lower it, or raise container_max_bytes", 3,
            1},
        RuleCase{"ReclaimContainerMinBytesSetAlone",
                 "[policy]\nreclaim_container_min_bytes = \"16GiB\"\n",
                 "policy.reclaim_container_min_bytes",
                 "must not exceed reclaim_container_max_bytes (its default, 15GiB); lower it, or "
                 "raise reclaim_container_max_bytes",
                 2, 1},
        RuleCase{"ReclaimContainerMaxBytesSetAlone",
                 "[policy]\nreclaim_container_max_bytes = \"64MiB\"\n",
                 "policy.reclaim_container_max_bytes",
                 "must be at least reclaim_container_min_bytes (its default, 128MiB); raise it, or "
                 "set reclaim_container_min_bytes at or below 64MiB",
                 2, 1},
        RuleCase{"ReclaimContainerMinBytesAndReclaimContainerMaxBytesBothSet",
                 "[policy]\nreclaim_container_max_bytes = \"1GiB\"\nreclaim_container_min_bytes = "
                 "\"2GiB\"\n",
                 "policy.reclaim_container_min_bytes",
                 "must not exceed reclaim_container_max_bytes (1GiB); lower it, or raise "
                 "reclaim_container_max_bytes",
                 3, 1},
        RuleCase{"ReclaimRoundEnoughBytesSetAlone",
                 "[policy]\nreclaim_round_enough_bytes = \"16GiB\"\n",
                 "policy.reclaim_round_enough_bytes",
                 "must not exceed reclaim_round_max_bytes (its default, 15GiB); lower it, or raise "
                 "reclaim_round_max_bytes",
                 2, 1},
        RuleCase{"ReclaimRoundMaxBytesSetAlone", "[policy]\nreclaim_round_max_bytes = \"2GiB\"\n",
                 "policy.reclaim_round_max_bytes",
                 "must be at least reclaim_round_enough_bytes (its default, 3GiB); raise it, or "
                 "set reclaim_round_enough_bytes at or below 2GiB",
                 2, 1},
        RuleCase{
            "ReclaimRoundEnoughBytesAndReclaimRoundMaxBytesBothSet",
            "[policy]\nreclaim_round_max_bytes = \"4GiB\"\nreclaim_round_enough_bytes = \"5GiB\"\n",
            "policy.reclaim_round_enough_bytes",
            "must not exceed reclaim_round_max_bytes (4GiB); lower it, or raise "
            "reclaim_round_max_bytes",
            3, 1},
        RuleCase{"GraceReadLatencyNsSetAlone", "[policy]\ngrace_read_latency_ns = 90\n",
                 "policy.grace_read_latency_ns",
                 "must not exceed force_read_latency_ns (its default, 80); lower it, or raise "
                 "force_read_latency_ns",
                 2, 1},
        RuleCase{"ForceReadLatencyNsSetAlone", "[policy]\nforce_read_latency_ns = 60\n",
                 "policy.force_read_latency_ns",
                 "must be at least grace_read_latency_ns (its default, 70); raise it, or set "
                 "grace_read_latency_ns at or below 60",
                 2, 1},
        RuleCase{
            "GraceReadLatencyNsAndForceReadLatencyNsBothSet",
            "[policy]\nforce_read_latency_ns = 72\ngrace_read_latency_ns = 75\n",
            "policy.grace_read_latency_ns",
            "must not exceed force_read_latency_ns (72); lower it, or raise force_read_latency_ns",
            3, 1},
        RuleCase{"GraceLatencyRatioSetAlone", "[policy]\ngrace_latency_ratio = 1.6\n",
                 "policy.grace_latency_ratio",
                 "must not exceed force_latency_ratio (its default, 1.5); lower it, or raise "
                 "force_latency_ratio",
                 2, 1},
        RuleCase{"ForceLatencyRatioSetAlone", "[policy]\nforce_latency_ratio = 1.2\n",
                 "policy.force_latency_ratio",
                 "must be at least grace_latency_ratio (its default, 1.3); raise it, or set "
                 "grace_latency_ratio at or below 1.2",
                 2, 1},
        RuleCase{
            "GraceLatencyRatioAndForceLatencyRatioBothSet",
            "[policy]\nforce_latency_ratio = 1.35\ngrace_latency_ratio = 1.4\n",
            "policy.grace_latency_ratio",
            "must not exceed force_latency_ratio (1.35); lower it, or raise force_latency_ratio", 3,
            1},
        RuleCase{"BandwidthMediumRatioSetAlone", "[policy]\nbandwidth_medium_ratio = 0.8\n",
                 "policy.bandwidth_medium_ratio",
                 "must be below bandwidth_high_ratio (its default, 0.8); lower it, or raise "
                 "bandwidth_high_ratio",
                 2, 1},
        RuleCase{"BandwidthHighRatioSetAlone", "[policy]\nbandwidth_high_ratio = 0.4\n",
                 "policy.bandwidth_high_ratio",
                 "must be above bandwidth_medium_ratio (its default, 0.5); raise it, or set "
                 "bandwidth_medium_ratio below 0.4",
                 2, 1},
        RuleCase{
            "BandwidthMediumRatioAndBandwidthHighRatioBothSet",
            "[policy]\nbandwidth_high_ratio = 0.6\nbandwidth_medium_ratio = 0.6\n",
            "policy.bandwidth_medium_ratio",
            "must be below bandwidth_high_ratio (0.6); lower it, or raise bandwidth_high_ratio", 3,
            1}),
    case_name);

INSTANTIATE_TEST_SUITE_P(
    Ratios, ConfigRule,
    ::testing::Values(RuleCase{"GraceGapRatioZero", "[policy]\ngrace_gap_ratio = 0\n",
                               "policy.grace_gap_ratio", "must be in (0, 1]", 2, 1},
                      RuleCase{"ForceGapRatioAboveOne", "[policy]\nforce_gap_ratio = 1.5\n",
                               "policy.force_gap_ratio", "must be in (0, 1]", 2, 1},
                      RuleCase{"HighRatioNotANumber", "[policy]\nbandwidth_high_ratio = nan\n",
                               "policy.bandwidth_high_ratio", "must be in (0, 1]", 2, 1},
                      RuleCase{"MediumRatioNegative", "[policy]\nbandwidth_medium_ratio = -0.5\n",
                               "policy.bandwidth_medium_ratio", "must be in (0, 1]", 2, 1},
                      RuleCase{"MigrateThresholdInfinite", "[policy]\nmigrate_threshold = inf\n",
                               "policy.migrate_threshold", "must be in (0, 1]", 2, 1},
                      RuleCase{"ProbeCpuBudgetAboveOne", "[metrics.probe]\ncpu_budget = 2\n",
                               "metrics.probe.cpu_budget", "must be in (0, 1]", 2, 1}),
    case_name);

INSTANTIATE_TEST_SUITE_P(
    Latencies, ConfigRule,
    ::testing::Values(RuleCase{"ForceZero",
                               "[policy]\ngrace_read_latency_ns = 1\nforce_read_latency_ns = 0\n",
                               "policy.force_read_latency_ns", "must be positive", 3, 1},
                      RuleCase{"NegativeLatencyGap", "[policy]\ngrace_latency_gap_ns = -1\n",
                               "policy.grace_latency_gap_ns", "must not be negative", 2, 1},
                      RuleCase{"NegativeGraceDistance", "[policy]\ngrace_max_distance = -1\n",
                               "policy.grace_max_distance", "must not be negative", 2, 1}),
    case_name);

INSTANTIATE_TEST_SUITE_P(
    RelativeThresholds, ConfigRule,
    ::testing::Values(RuleCase{"GraceRatioAtOne", "[policy]\ngrace_latency_ratio = 1.0\n",
                               "policy.grace_latency_ratio", "must be above 1, got 1", 2, 1},
                      RuleCase{"GraceRatioBelowOne", "[policy]\ngrace_latency_ratio = 0.9\n",
                               "policy.grace_latency_ratio", "must be above 1, got 0.9", 2, 1},
                      RuleCase{"GraceRatioNegative", "[policy]\ngrace_latency_ratio = -1.3\n",
                               "policy.grace_latency_ratio", "must be positive", 2, 1},
                      RuleCase{"ForceRatioZero", "[policy]\nforce_latency_ratio = 0\n",
                               "policy.force_latency_ratio", "must be positive", 2, 1},
                      RuleCase{"ForceRatioNotANumber", "[policy]\nforce_latency_ratio = nan\n",
                               "policy.force_latency_ratio", "must be positive", 2, 1},
                      RuleCase{"NegativeGapRatio", "[policy]\ngrace_latency_gap_ratio = -0.1\n",
                               "policy.grace_latency_gap_ratio", "must not be negative", 2, 1},
                      RuleCase{"UnknownThresholdMode", "[policy]\nthreshold_mode = \"ratio\"\n",
                               "policy.threshold_mode",
                               "must be one of auto, absolute, relative, not \"ratio\"", 2, 1},
                      RuleCase{"ThresholdModeOfWrongType", "[policy]\nthreshold_mode = 1\n",
                               "policy.threshold_mode",
                               "must be one of auto, absolute, relative, not an integer", 2, 1}),
    case_name);

INSTANTIATE_TEST_SUITE_P(
    Durations, ConfigRule,
    ::testing::Values(
        RuleCase{"ZeroInterval", "[daemon]\ninterval = \"0s\"\n", "daemon.interval",
                 "must be positive", 2, 1},
        RuleCase{"ZeroIdleTimeout", "[admin]\nidle_timeout = \"0ms\"\n", "admin.idle_timeout",
                 "must be positive", 2, 1},
        RuleCase{"ZeroFileMaxAge", "[metrics.file]\nmax_age = \"0s\"\n", "metrics.file.max_age",
                 "must be positive", 2, 1},
        RuleCase{"ZeroProbeInterval", "[metrics.probe]\nsample_interval = \"0s\"\n",
                 "metrics.probe.sample_interval", "must be positive", 2, 1},
        RuleCase{"ZeroPerfWindow", "[metrics.perf]\nwindow = \"0s\"\n", "metrics.perf.window",
                 "must be positive", 2, 1},
        RuleCase{"ZeroResctrlWindow", "[metrics.resctrl]\nwindow = \"0s\"\n",
                 "metrics.resctrl.window", "must be positive", 2, 1},
        RuleCase{"ZeroCallTarget", "[actuator]\ncall_target = \"0ms\"\n", "actuator.call_target",
                 "must be positive", 2, 1},
        RuleCase{"ZeroJobDeadline", "[actuator]\njob_deadline = \"0s\"\n", "actuator.job_deadline",
                 "must be positive", 2, 1},
        RuleCase{"UnknownPageOrder", "[actuator]\npage_order = \"hottest\"\n",
                 "actuator.page_order", "must be one of auto, hot_first, address", 2, 1},
        RuleCase{"HotnessWindowTooShortForTwentyAggregations",
                 "[actuator]\nhotness_window = \"50ms\"\n", "actuator.hotness_window",
                 "must be at least 100ms", 2, 1},
        RuleCase{"ZeroEvictionTimeout", "[eviction]\ntimeout = \"0s\"\n", "eviction.timeout",
                 "must be positive", 2, 1},
        RuleCase{"DurationAsInteger", "[daemon]\ninterval = 10\n", "daemon.interval",
                 R"(must be a duration such as "500ms", "30s", "15m" or "1h", not an integer)", 2,
                 1},
        RuleCase{"DurationWithoutUnit", "[policy]\nmin_interval = \"30\"\n", "policy.min_interval",
                 R"(invalid duration "30": needs a unit: ms, s, m or h)", 2, 1}),
    case_name);

INSTANTIATE_TEST_SUITE_P(
    Names, ConfigRule,
    ::testing::Values(
        RuleCase{"UnknownLatencyProvider", "[metrics]\nlatency = \"resctrl\"\n", "metrics.latency",
                 "must be one of auto, perf, probe, file, none", 2, 1},
        RuleCase{"UnknownBandwidthProvider", "[metrics]\nbandwidth = \"probe\"\n",
                 "metrics.bandwidth", "must be one of auto, perf, resctrl, file, none", 2, 1},
        RuleCase{"FileLatencyWithoutPath", "[metrics]\nlatency = \"file\"\n", "metrics.file.path",
                 R"(required when metrics.latency = "file")", 1, 1},
        RuleCase{"FileBandwidthWithoutPath",
                 "[metrics]\nbandwidth = \"file\"\n[metrics.file]\nformat = \"json\"\n",
                 "metrics.file.path", R"(required when metrics.bandwidth = "file")", 3, 1},
        RuleCase{"RelativeFilePath", "[metrics.file]\npath = \"metrics.json\"\n",
                 "metrics.file.path", "must be an absolute path", 2, 1},
        RuleCase{"UnknownFileFormat", "[metrics.file]\nformat = \"xml\"\n", "metrics.file.format",
                 "must be one of auto, json, prometheus", 2, 1},
        RuleCase{"EmptyLatencyMetric", "[metrics.file]\nlatency_metric = \"\"\n",
                 "metrics.file.latency_metric", "must not be empty", 2, 1},
        RuleCase{"UnknownEvictionAction", "[eviction]\naction = \"evict\"\n", "eviction.action",
                 "must be one of none, freeze, kill, exec", 2, 1},
        RuleCase{"ExecWithoutArgv", "[eviction]\naction = \"exec\"\n", "eviction.exec",
                 R"(required when eviction.action = "exec": the program's argv)", 1, 1},
        RuleCase{"ExecProgramNotAbsolute", "[eviction]\naction = \"exec\"\nexec = [\"evict\"]\n",
                 "eviction.exec[0]", "must be an absolute path", 3, 9},
        RuleCase{"UnknownLogLevel", "[daemon]\nlog_level = \"verbose\"\n", "daemon.log_level",
                 "must be one of trace, debug, info, warn, error, critical, off", 2, 1},
        RuleCase{"SupportedPoolsNamesReclaimPool",
                 "[policy]\nsupported_pools = [\"share\", \"reclaim\"]\n",
                 "policy.supported_pools[1]", R"(must not name the reclaim pool "reclaim")", 2, 29},
        RuleCase{"EmptySupportedPool", "[policy]\nsupported_pools = [\"\"]\n",
                 "policy.supported_pools[0]", "must not be empty", 2, 20}),
    case_name);

INSTANTIATE_TEST_SUITE_P(
    Pools, ConfigRule,
    ::testing::Values(
        RuleCase{"PoolWithoutCgroups", "[[pool]]\nname = \"share\"\n", "pool[0].cgroups",
                 "must list at least one cgroup glob", 1, 1},
        RuleCase{"PoolWithEmptyCgroups", "[[pool]]\nname = \"share\"\ncgroups = []\n",
                 "pool[0].cgroups", "must list at least one cgroup glob", 3, 1},
        RuleCase{"EmptyPoolName", "[[pool]]\nname = \"\"\ncgroups = [\"a\"]\n", "pool[0].name",
                 "must not be empty", 2, 1},
        RuleCase{"MissingPoolName", "[[pool]]\ncgroups = [\"a\"]\n", "pool[0].name",
                 "must not be empty", 1, 1},
        RuleCase{"DuplicatePoolName",
                 "[[pool]]\nname = \"a\"\ncgroups = [\"x\"]\n\n[[pool]]\nname = \"a\"\ncgroups = "
                 "[\"y\"]\n",
                 "pool[1].name", R"(duplicate pool name "a" (first at pool[0]))", 6, 1},
        RuleCase{"NegativeNodeId", "[[pool]]\nname = \"a\"\ncgroups = [\"x\"]\nnodes = [0, -1]\n",
                 "pool[0].nodes[1]", "must not be negative", 4, 13},
        RuleCase{"DuplicateNodeId", "[[pool]]\nname = \"a\"\ncgroups = [\"x\"]\nnodes = [1, 1]\n",
                 "pool[0].nodes[1]", "duplicate node 1", 4, 13},
        RuleCase{"EmptyNodeList", "[[pool]]\nname = \"a\"\ncgroups = [\"x\"]\nnodes = []\n",
                 "pool[0].nodes", R"(must list at least one node, or be "auto")", 4, 1},
        RuleCase{"NodesNeitherAutoNorArray",
                 "[[pool]]\nname = \"a\"\ncgroups = [\"x\"]\nnodes = \"all\"\n", "pool[0].nodes",
                 R"(must be "auto" or an array of node ids, not "all")", 4, 1},
        RuleCase{"NodesAsInteger", "[[pool]]\nname = \"a\"\ncgroups = [\"x\"]\nnodes = 1\n",
                 "pool[0].nodes", R"(must be "auto" or an array of node ids, not an integer)", 4,
                 1},
        RuleCase{"NodeIdAsString",
                 "[[pool]]\nname = \"a\"\ncgroups = [\"x\"]\nnodes = [0, \"1\"]\n",
                 "pool[0].nodes[1]", "must be an integer node id, not a string", 4, 13},
        RuleCase{"CgroupGlobNotAString", "[[pool]]\nname = \"a\"\ncgroups = [\"x\", 2]\n",
                 "pool[0].cgroups[1]", "must be a string, not an integer", 3, 17},
        RuleCase{"AbsoluteCgroupGlob", "[[pool]]\nname = \"a\"\ncgroups = [\"/system.slice\"]\n",
                 "pool[0].cgroups[0]", "must be relative to the cgroup root (no leading /)", 3, 12},
        RuleCase{"PoolAsPlainTable", "[pool]\nname = \"a\"\n", "pool",
                 "must be an array of tables ([[pool]]), not a table", 1, 1},
        RuleCase{"PoolEntryNotATable", "pool = [1]\n", "pool[0]", "must be a table, not an integer",
                 1, 9}),
    case_name);

INSTANTIATE_TEST_SUITE_P(
    Admin, ConfigRule,
    ::testing::Values(
        RuleCase{"SocketModeNotOctal", "[admin]\nsocket_mode = \"0999\"\n", "admin.socket_mode",
                 R"(must be a string of octal digits such as "0660", not "0999")", 2, 1},
        RuleCase{"SocketModeAbove0777", "[admin]\nsocket_mode = \"1777\"\n", "admin.socket_mode",
                 R"(must be at most "0777")", 2, 1},
        RuleCase{"SocketModeAsInteger", "[admin]\nsocket_mode = 660\n", "admin.socket_mode",
                 R"(must be a string of octal digits such as "0660", not an integer)", 2, 1},
        RuleCase{"ZeroMaxClients", "[admin]\nmax_clients = 0\n", "admin.max_clients",
                 "must be at least 1", 2, 1},
        RuleCase{"MaxClientsOutOfRange", "[admin]\nmax_clients = 3000000000\n", "admin.max_clients",
                 "is out of range", 2, 1},
        RuleCase{"ZeroMaxWatchers", "[admin]\nmax_watchers = 0\n", "admin.max_watchers",
                 "must be from 1 to 1024", 2, 1},
        RuleCase{"TooManyWatchers", "[admin]\nmax_watchers = 1025\n", "admin.max_watchers",
                 "must be from 1 to 1024", 2, 1},
        RuleCase{"RelativeSocket", "[admin]\nsocket = \"admin.sock\"\n", "admin.socket",
                 "must be an absolute path", 2, 1},
        RuleCase{"SocketPathTooLong", "[admin]\nsocket = \"/" + std::string(110, 's') + "\"\n",
                 "admin.socket",
                 "must be at most 107 bytes long (the limit of a Unix socket address)", 2, 1},
        RuleCase{"RelativeStateDir", "[daemon]\nstate_dir = \"state\"\n", "daemon.state_dir",
                 "must be an absolute path", 2, 1},
        RuleCase{"EmptyLockFile", "[daemon]\nlock_file = \"\"\n", "daemon.lock_file",
                 "must be an absolute path", 2, 1},
        RuleCase{"RelativeTextfile", "[export]\ntextfile = \"nb.prom\"\n", "export.textfile",
                 "must be an absolute path", 2, 1},
        RuleCase{"NegativeRateLimit", "[actuator]\nrate_limit = -1\n", "actuator.rate_limit",
                 "must be 0 (unlimited) or from 1 to 1048576", 2, 1},
        RuleCase{"TinyRateLimit", "[actuator]\nrate_limit = 1e-12\n", "actuator.rate_limit",
                 "must be 0 (unlimited) or from 1 to 1048576", 2, 1},
        RuleCase{"NanRateLimit", "[actuator]\nrate_limit = nan\n", "actuator.rate_limit",
                 "must be 0 (unlimited) or from 1 to 1048576", 2, 1},
        RuleCase{"ZeroLoadsPerSample", "[metrics.probe]\nloads_per_sample = 0\n",
                 "metrics.probe.loads_per_sample", "must be at least 1", 2, 1}),
    case_name);

INSTANTIATE_TEST_SUITE_P(
    Baselines, ConfigRule,
    ::testing::Values(
        RuleCase{"BaselineNodeNotAnInteger",
                 "[metrics.baseline]\nread_latency_ns = { node0 = 92 }\n",
                 "metrics.baseline.read_latency_ns.\"node0\"",
                 R"(must be a node id (a non-negative integer such as "0"))", 2, 21},
        RuleCase{"BaselineNodeNegative", "[metrics.baseline]\nread_latency_ns = { \"-1\" = 92 }\n",
                 "metrics.baseline.read_latency_ns.\"-1\"",
                 R"(must be a node id (a non-negative integer such as "0"))", 2, 21},
        RuleCase{"BaselineNodeWithSpace", "[metrics.baseline]\nread_latency_ns = { \" 1\" = 92 }\n",
                 "metrics.baseline.read_latency_ns.\" 1\"",
                 R"(must be a node id (a non-negative integer such as "0"))", 2, 21},
        RuleCase{"BaselineValueAsString",
                 "[metrics.baseline]\nread_latency_ns = { \"0\" = \"92ns\" }\n",
                 "metrics.baseline.read_latency_ns.\"0\"",
                 "must be a number of nanoseconds, not a string", 2, 21},
        RuleCase{"BaselineZero",
                 "[metrics.baseline]\nread_latency_ns = { \"0\" = 92, \"1\" = 0 }\n",
                 "metrics.baseline.read_latency_ns.\"1\"", "must be positive", 2, 31},
        RuleCase{"BaselineNegative", "[metrics.baseline]\nread_latency_ns = { \"3\" = -5.5 }\n",
                 "metrics.baseline.read_latency_ns.\"3\"", "must be positive", 2, 21},
        RuleCase{"BaselinesNotATable", "[metrics.baseline]\nread_latency_ns = [92, 141]\n",
                 "metrics.baseline.read_latency_ns",
                 R"(must be a table of node id -> number, such as { "0" = 92.0 }, not an array)", 2,
                 1},
        RuleCase{"QuantileZero", "[metrics.baseline]\nquantile = 0\n", "metrics.baseline.quantile",
                 "must be in (0, 1)", 2, 1},
        RuleCase{"QuantileOne", "[metrics.baseline]\nquantile = 1\n", "metrics.baseline.quantile",
                 "must be in (0, 1)", 2, 1},
        RuleCase{"QuantileNaN", "[metrics.baseline]\nquantile = nan\n", "metrics.baseline.quantile",
                 "must be in (0, 1)", 2, 1},
        RuleCase{"QuantileAsString", "[metrics.baseline]\nquantile = \"5%\"\n",
                 "metrics.baseline.quantile", "must be a number, not a string", 2, 1},
        RuleCase{"BaselineWindowZero", "[metrics.baseline]\nwindow = \"0s\"\n",
                 "metrics.baseline.window", "must be positive", 2, 1},
        RuleCase{"BaselineWindowAsInteger", "[metrics.baseline]\nwindow = 86400\n",
                 "metrics.baseline.window",
                 R"(must be a duration such as "500ms", "30s", "15m" or "1h", not an integer)", 2,
                 1},
        RuleCase{"MinSamplesZero", "[metrics.baseline]\nmin_samples = 0\n",
                 "metrics.baseline.min_samples", "must be at least 1", 2, 1},
        RuleCase{"MinSamplesAsFloat", "[metrics.baseline]\nmin_samples = 1.5\n",
                 "metrics.baseline.min_samples", "must be an integer, not a float", 2, 1},
        RuleCase{"BaselineSectionNotATable", "[metrics]\nbaseline = 3\n", "metrics.baseline",
                 "must be a table ([metrics.baseline]), not an integer", 2, 1}),
    case_name);

INSTANTIATE_TEST_SUITE_P(
    WrongTypes, ConfigRule,
    ::testing::Values(
        RuleCase{"BooleanAsString", "[daemon]\ndry_run = \"yes\"\n", "daemon.dry_run",
                 "must be true or false, not a string", 2, 1},
        RuleCase{"IntegerAsFloat", "[admin]\nmax_clients = 1.5\n", "admin.max_clients",
                 "must be an integer, not a float", 2, 1},
        RuleCase{"NumberAsString", "[policy]\ngrace_read_latency_ns = \"70\"\n",
                 "policy.grace_read_latency_ns", "must be a number, not a string", 2, 1},
        RuleCase{"StringAsInteger", "[daemon]\nstate_dir = 5\n", "daemon.state_dir",
                 "must be a string, not an integer", 2, 1},
        RuleCase{"StringAsArray", "[policy]\nreclaim_pool = [\"reclaim\"]\n", "policy.reclaim_pool",
                 "must be a string, not an array", 2, 1},
        RuleCase{"StringArrayAsString", "[policy]\nsupported_pools = \"share\"\n",
                 "policy.supported_pools", "must be an array of strings, not a string", 2, 1},
        RuleCase{"StringArrayElementAsInteger", "[policy]\nsupported_pools = [\"share\", 3]\n",
                 "policy.supported_pools[1]", "must be a string, not an integer", 2, 29},
        RuleCase{"RateLimitAsString", "[actuator]\nrate_limit = \"512MiB\"\n",
                 "actuator.rate_limit", "must be a number, not a string", 2, 1},
        RuleCase{"SectionAsValue", "daemon = 5\n", "daemon",
                 "must be a table ([daemon]), not an integer", 1, 1},
        RuleCase{"SubSectionAsValue", "[metrics]\nfile = \"/x\"\n", "metrics.file",
                 "must be a table ([metrics.file]), not a string", 2, 1},
        RuleCase{"DateAsDuration", "[eviction]\ntimeout = 1979-05-27\n", "eviction.timeout",
                 R"(must be a duration such as "500ms", "30s", "15m" or "1h", not a date)", 2, 1}),
    case_name);

// A baseline that can never calibrate leaves relative thresholds judging nothing, for good; the
// problem goes on the key the user wrote.
INSTANTIATE_TEST_SUITE_P(
    BaselineCalibrates, ConfigRule,
    ::testing::Values(
        RuleCase{"WindowTooShortForMinSamples",
                 "[daemon]\ninterval = \"1s\"\n[metrics.baseline]\nwindow = \"20s\"\n"
                 "min_samples = 60\n",
                 "metrics.baseline.window",
                 "window 20s at [daemon] interval 1s holds 20 readings, fewer than min_samples "
                 "60: the baseline would never calibrate; make it at least 1m",
                 4, 1},
        RuleCase{"WindowAloneTooShortAtTheDefaultInterval", "[metrics.baseline]\nwindow = \"1m\"\n",
                 "metrics.baseline.window",
                 "window 1m at [daemon] interval 10s holds 6 readings, fewer than min_samples 60: "
                 "the baseline would never calibrate; make it at least 10m",
                 2, 1},
        RuleCase{"MinSamplesAboveTheReadingsANodeKeeps", "[metrics.baseline]\nmin_samples = 9000\n",
                 "metrics.baseline.min_samples",
                 "must not exceed 8640, the readings a node keeps: the baseline would never "
                 "calibrate",
                 2, 1},
        RuleCase{"MinSamplesAloneAboveWhatTheWindowHolds",
                 "[daemon]\ninterval = \"20m\"\n[metrics.baseline]\nmin_samples = 100\n",
                 "metrics.baseline.min_samples",
                 "window 24h at [daemon] interval 20m holds 72 readings, fewer than min_samples "
                 "100: the baseline would never calibrate; lower it to 72 or lengthen the window",
                 4, 1},
        RuleCase{"IntervalAloneTooLongForTheDefaultWindowUnderRelativeThresholds",
                 "[policy]\nthreshold_mode = \"relative\"\n[daemon]\ninterval = \"30m\"\n",
                 "daemon.interval",
                 "window 24h at [daemon] interval 30m holds 48 readings, fewer than min_samples "
                 "60: the baseline would never calibrate; shorten the interval or lengthen the "
                 "window",
                 4, 1}),
    case_name);

TEST(BaselineWindowNote, SaysWhatTheReadingsCapShortensTheWindowTo) {
  Config config;
  config.daemon.interval = std::chrono::seconds(1);
  EXPECT_EQ(baseline_window_note(config),
            "[metrics.baseline] window 24h at [daemon] interval 1s would hold 86400 readings; a "
            "node keeps 8640, so the baseline is learned over the last 144m");
  config.daemon.interval = std::chrono::seconds(10);
  EXPECT_EQ(baseline_window_note(config), std::nullopt) << "the default window fits exactly";
}

TEST(ValidatePolicy, NamesKeysUnderPolicyWithoutPlaces) {
  core::PolicyConfig policy;
  policy.grace_gap_ratio = 2;
  policy.round_max_bytes = -1;
  std::vector<ConfigProblem> problems = validate_policy(policy);
  ASSERT_EQ(problems.size(), 2u) << describe(problems);
  EXPECT_EQ(problems[0].to_string(), "policy.grace_gap_ratio: must be in (0, 1]");
  EXPECT_EQ(problems[1].to_string(), "policy.round_max_bytes: must not be negative");
}

TEST(ValidatePolicy, DefaultsHaveNoProblems) {
  EXPECT_TRUE(validate_policy(core::PolicyConfig{}).empty());
}

TEST(ValidatePolicy, ReportsEveryProblemAtOnce) {
  core::PolicyConfig policy;
  policy.grace_read_latency_ns = 100;
  policy.bandwidth_medium_ratio = 0.9;
  policy.container_min_bytes = 20 * kGiB;
  policy.min_interval = Duration(-1);
  policy.supported_pools = {"reclaim"};
  std::vector<std::string> keys;
  for (const ConfigProblem& problem : validate_policy(policy)) {
    keys.push_back(problem.key);
    EXPECT_EQ(problem.line, 0);
  }
  EXPECT_EQ(keys,
            (std::vector<std::string>{"policy.grace_read_latency_ns",
                                      "policy.bandwidth_medium_ratio", "policy.container_min_bytes",
                                      "policy.supported_pools[0]", "policy.min_interval"}));
}

TEST(ValidateConfig, EqualMinAndMaxAreAllowed) {
  Config config;
  config.policy.container_min_bytes = config.policy.container_max_bytes;
  config.policy.reclaim_round_enough_bytes = config.policy.reclaim_round_max_bytes;
  config.policy.grace_read_latency_ns = config.policy.force_read_latency_ns;
  config.policy.grace_gap_ratio = 1;
  EXPECT_EQ(describe(validate_config(config, registered_names())), "");
}

TEST(ValidateConfig, ExecActionWithAbsoluteArgvIsValid) {
  Config config;
  config.eviction.action = "exec";
  config.eviction.exec = {"/usr/local/sbin/evict", "--now"};
  EXPECT_EQ(describe(validate_config(config, registered_names())), "");
}

struct LogLevelCase {
  std::string level;
  bool valid;
};

class LogLevel : public ::testing::TestWithParam<LogLevelCase> {};

TEST_P(LogLevel, IsKnownOnlyWhenDocumented) {
  EXPECT_EQ(is_valid_log_level(GetParam().level), GetParam().valid) << GetParam().level;
}

INSTANTIATE_TEST_SUITE_P(Table, LogLevel,
                         ::testing::Values(LogLevelCase{"trace", true}, LogLevelCase{"debug", true},
                                           LogLevelCase{"info", true}, LogLevelCase{"warn", true},
                                           LogLevelCase{"error", true},
                                           LogLevelCase{"critical", true},
                                           LogLevelCase{"off", true},
                                           LogLevelCase{"warning", false},
                                           LogLevelCase{"INFO", false}, LogLevelCase{"", false},
                                           LogLevelCase{"verbose", false}));

}  // namespace
}  // namespace nb::config
