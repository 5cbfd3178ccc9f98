#pragma once
// What the daemon keeps of a migration report with each round and shows in `status`, `history`
// and job events: a summary (totals, per-destination bytes, outcome counts, errors) for every
// round, and the full report (per container, per process) for the newest rounds.

#include <nlohmann/json.hpp>

#include "actuator/migration_job.hpp"
#include "actuator/migration_report.hpp"

namespace nb::service {

nlohmann::json report_summary(const actuator::MigrationReport& report);
// The report as codec::to_json gives it, with at most `processes_per_container` processes per
// container (those with the most bytes on the source); a container that lost some says how many
// under "processes_omitted". A job over thousands of processes must not grow the state file
// without bound.
nlohmann::json full_report(const actuator::MigrationReport& report,
                           std::size_t processes_per_container);
nlohmann::json progress_json(const actuator::JobProgress& progress);

}  // namespace nb::service
