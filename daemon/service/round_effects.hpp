#pragma once
// Closing the loop in the daemon: a round that migrated keeps the latencies its job was planned
// from; once the job has finished and [policy] effect_delay has passed, the first snapshot after
// that measures what the round did (core/round_effect.hpp). The effect goes into the round's
// record (state file, `history`), its history entry (the back-off rule reads it), the audit log
// and numabalancer_round_effects_total.

#include <cstddef>
#include <vector>

#include "core/policy_config.hpp"
#include "core/snapshot.hpp"
#include "daemon/codec/state_file.hpp"
#include "daemon/service/daemon_state.hpp"
#include "daemon/service/export/audit_log.hpp"

namespace nb::service {

// The read latencies (and bandwidths) of the round's source and destinations in `snapshot`, for
// its effect.
void keep_readings_before(codec::RoundRecord& record, const core::Snapshot& snapshot);

// Measures, from `after`, each kept round whose effect is due at after.time; returns them.
std::vector<const codec::RoundRecord*> measure_due_effects(std::vector<codec::RoundRecord>& rounds,
                                                           const core::Snapshot& after,
                                                           const core::PolicyConfig& policy);

// The daemon's step, before each decision: measures what is due, counts, logs and audits each
// effect, and rebuilds the policy's history when any changed. Returns how many it measured.
std::size_t record_due_effects(DaemonState& state, const core::Snapshot& snapshot, AuditLog& audit);

}  // namespace nb::service
