#pragma once
// One round's job on the modelled host: the targets plan_round_job made of the decision, moved
// off the source at [actuator] rate_limit and within the round's budget, each batch to the
// destination the actuator's own DestinationPicker chooses (weighted by free memory above
// min_free_bytes). Moving bytes moves their traffic, since a container's traffic follows its
// memory (host_model.hpp).

#include <functional>
#include <map>
#include <utility>
#include <vector>

#include "actuator/destination_picker.hpp"
#include "actuator/job_options.hpp"
#include "actuator/migration_report.hpp"
#include "daemon/config/config.hpp"
#include "daemon/sim/host_model.hpp"
#include "daemon/sim/simulated_memory.hpp"

namespace nb::sim {

// The mover hands batches of at most this much to a destination, as the real one hands
// move_pages a batch at a time; the picker re-weighs between them.
inline constexpr Bytes kBatchBytes = 32 * kMiB;

// A batch moved: which container, from and to which node index, how much.
struct Batch {
  std::size_t container = 0;
  std::size_t from = 0;
  std::size_t to = 0;
  Bytes bytes = 0;
};

class Mover {
 public:
  Mover(HostModel& host, NodeId source, std::vector<actuator::MigrationTarget> targets,
        Bytes budget, const config::ActuatorConfig& settings);

  // What one simulated second allows; each batch goes to `on_batch`.
  void run_second(const std::function<void(const Batch&)>& on_batch);

  bool done() const { return done_; }
  NodeId source() const { return source_; }
  Bytes budget() const { return budget_; }
  Bytes moved() const { return moved_; }
  std::vector<NodeId> destinations() const;
  // The job's report as the actuator writes one: what moved of each container to each
  // destination, against the budget and the success threshold.
  actuator::MigrationReport report(double threshold) const;

 private:
  // The next batch of the current target, or none when the target (or the job) is over.
  std::optional<Batch> next_batch(Bytes tokens);
  void next_target();

  HostModel& host_;
  NodeId source_;
  std::vector<actuator::MigrationTarget> targets_;
  Bytes budget_;
  double rate_mib_per_s_;
  Duration deadline_;
  SimulatedMemory memory_;
  actuator::DestinationPicker picker_;
  std::size_t target_ = 0;
  Bytes target_moved_ = 0;
  Bytes moved_ = 0;
  std::map<std::pair<std::size_t, std::size_t>, Bytes> moved_by_;  // (container, to) -> bytes
  Duration elapsed_{};
  bool done_ = false;
};

}  // namespace nb::sim
