// The admin socket's view of baselines, evictions and jobs.

#include "daemon/service/admin/event_json.hpp"

#include <gtest/gtest.h>

namespace nb::service {
namespace {

TEST(EventJson, BaselinesHaveNullsWhereThereIsNoBaseline) {
  metrics::NodeBaseline learning{.node = 1, .samples = 5, .samples_needed = 55};
  metrics::NodeBaseline configured{
      .node = 0, .read_latency_ns = 92.0, .source = metrics::BaselineSource::configured};
  EXPECT_EQ(baselines_json({learning, configured}), nlohmann::json::parse(R"([
      {"node": 1, "read_latency_ns": null, "source": null, "samples": 5, "samples_needed": 55},
      {"node": 0, "read_latency_ns": 92.0, "source": "configured", "samples": 0,
       "samples_needed": 0}])"));
}

TEST(EventJson, AFailedEvictionCarriesItsErrorAndAnActedOneItsDetail) {
  EvictionOutcome failed;
  failed.container = "batch/a";
  failed.cgroup = "/sys/fs/cgroup/batch/a";
  failed.action = "freeze";
  failed.node = 1;
  failed.detail = "cgroup.freeze: Permission denied";
  EXPECT_EQ(eviction_json(failed), nlohmann::json::parse(R"({"container": "batch/a",
      "cgroup": "/sys/fs/cgroup/batch/a", "action": "freeze", "node": 1, "ok": false,
      "error": "cgroup.freeze: Permission denied"})"));
  EvictionOutcome acted = failed;
  acted.acted = true;
  acted.detail = "frozen";
  EXPECT_EQ(eviction_json(acted)["detail"], "frozen");
  EXPECT_FALSE(eviction_json(acted).contains("error"));
}

}  // namespace
}  // namespace nb::service
