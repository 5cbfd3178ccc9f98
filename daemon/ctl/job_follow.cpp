// `migrate`: starts the job, then follows it to its end. A job may rightly run for minutes
// (the daemon bounds it by [actuator] job_deadline), so --timeout bounds each silence instead of
// the whole job: progress is news, and when the daemon has been quiet for half of --timeout it
// is asked for its status; a daemon that says nothing for all of --timeout has stopped answering.

#include <unistd.h>

#include <iostream>

#include "daemon/ctl/cells.hpp"
#include "daemon/ctl/connection.hpp"
#include "daemon/ctl/conversation.hpp"
#include "daemon/ctl/human_output.hpp"

namespace nb::ctl {

namespace {

using nlohmann::json;

// A dry run claims no threshold: it succeeds when it could tell what would move.
int job_exit_code(const json& done) {
  const json& report = field(done, "report");
  if (field(report, "dry_run") == true) {
    return field(done, "outcome") == "failed" ? kFailed : kOk;
  }
  return field(report, "threshold_met") == true ? kOk : kFailed;
}

int job_done(const Options& options, long long job_id, const json& done, bool tty) {
  if (tty) {
    std::cerr << "\n";
  }
  std::cout << (options.json_output ? done.dump(2) + "\n" : job_done_text(job_id, done));
  return job_exit_code(done);
}

class JobFollower {
 public:
  JobFollower(const Options& options, Conversation& talk, long long job_id)
      : options_(options), talk_(talk), job_id_(job_id), tty_(::isatty(STDERR_FILENO) == 1) {}

  int run();

 private:
  // The status reply to our probe: the job still running is news; no job means its end was
  // missed.
  std::optional<int> on_probe_answer(const wire::Response& response);
  std::optional<int> on_event(const wire::Event& event);
  int failed(const Error& error) const {
    return report_failure(error, "waiting for job " + std::to_string(job_id_) + " to finish",
                          talk_.timeout, kFailed);
  }

  const Options& options_;
  Conversation& talk_;
  long long job_id_;
  bool tty_;
  Deadline last_news_ = std::chrono::steady_clock::now();
  std::optional<long long> probe_;
};

int JobFollower::run() {
  while (true) {
    const Deadline silence_ends = last_news_ + talk_.timeout;
    const Deadline wake = probe_ ? silence_ends : last_news_ + talk_.timeout / 2;
    auto line = talk_.client.next(wake);
    if (!line && line.error().code == ETIMEDOUT && !probe_) {
      auto sent = talk_.client.send("status", json::object(), silence_ends);
      if (!sent) {
        return failed(sent.error());
      }
      probe_ = sent.value();
      continue;
    }
    if (!line) {
      return failed(line.error());
    }
    std::optional<int> done;
    if (auto* response = std::get_if<wire::Response>(&line.value())) {
      if (probe_ && response->id == *probe_) {
        done = on_probe_answer(*response);
      }
    } else {
      done = on_event(std::get<wire::Event>(line.value()));
    }
    if (done) {
      return *done;
    }
  }
}

std::optional<int> JobFollower::on_probe_answer(const wire::Response& response) {
  probe_.reset();
  if (response.ok() && field(field(response.result, "job"), "id") == job_id_) {
    last_news_ = std::chrono::steady_clock::now();
    return std::nullopt;
  }
  std::cerr << "numabalancerctl: job " << job_id_
            << " is no longer running, but its end did not reach this client; "
               "`numabalancerctl history` shows what it did\n";
  return kFailed;
}

std::optional<int> JobFollower::on_event(const wire::Event& event) {
  if (event.kind == "job_progress" && event.data.value("id", 0LL) == job_id_) {
    last_news_ = std::chrono::steady_clock::now();
    if (tty_) {
      std::cerr << job_progress_line(event.data.value("progress", json::object())) << std::flush;
    }
  }
  if (event.kind == "job_done" && event.data.value("job", 0LL) == job_id_) {
    return job_done(options_, job_id_, event.data, tty_);
  }
  return std::nullopt;
}

}  // namespace

int follow_job(const Options& options, const json& args) {
  int exit_code = kUsage;
  auto talk = open_subscribed(options, exit_code);
  if (!talk) {
    return exit_code;
  }
  auto started = talk->start("migrate", args, exit_code);
  if (!started) {
    return exit_code;
  }
  return JobFollower(options, *talk, started->value("job", 0LL)).run();
}

}  // namespace nb::ctl
