#pragma once
// numabalancerctl's conversations with the daemon: one request and its result, or a request
// followed by the events that tell how it ended. Each returns the process exit code; a daemon
// that does not answer within --timeout ends any of them with kTimedOut.

#include <nlohmann/json.hpp>
#include <string>

#include "daemon/ctl/exit_codes.hpp"
#include "daemon/ctl/result_views.hpp"

namespace nb::ctl {

// The options every command shares.
struct Options {
  std::string socket = "/run/numabalancer/admin.sock";
  bool json_output = false;
  double timeout_s = 10;  // bounds every wait for an answer (see each conversation)
};

// Sends `cmd` and prints its result: as JSON with --json or without a `human` view.
int ask(const Options& options, const std::string& cmd, const nlohmann::json& args,
        Formatter human);

// `watch`: prints events until `count` of them (0: forever). --timeout bounds connecting and the
// subscription, not the wait for events.
int stream_events(const Options& options, long long count);

// `reconcile`: asks for a round and waits for its "round" event, so the operator sees what it
// decided rather than that it started. 1 when the round failed (the host could not be read).
// The whole conversation, the round included, ends by --timeout.
int run_round(const Options& options);

// `migrate`: starts the job, then follows its events to the end: a progress line on a terminal,
// the report at the end. 0 when the threshold was met (a dry run: when it ran), 1 otherwise.
// --timeout bounds each silence of the daemon, not the job (daemon/ctl/job_follow.cpp).
int follow_job(const Options& options, const nlohmann::json& args);

}  // namespace nb::ctl
