#include "daemon/ctl/requests.hpp"

#include <unistd.h>

#include <iostream>
#include <optional>

#include "daemon/ctl/admin_client.hpp"
#include "daemon/ctl/human_output.hpp"

namespace nb::ctl {

namespace {

using nlohmann::json;

std::chrono::milliseconds timeout_of(const Options& options) {
  return std::chrono::milliseconds(static_cast<long long>(options.timeout_s * 1000));
}

std::optional<AdminClient> connect(const Options& options) {
  auto client = AdminClient::connect(options.socket, timeout_of(options));
  if (!client) {
    std::cerr << "numabalancerctl: cannot connect to numabalancerd at " << options.socket << ": "
              << client.error().message() << "\n";
    return std::nullopt;
  }
  return std::move(client.value());
}

int report_error(const wire::Response& response) {
  std::cerr << "numabalancerctl: " << wire::to_string(response.error->code) << ": "
            << response.error->message << "\n";
  return kFailed;
}

// Subscribes to events first, so that none of those the next request causes is missed.
// The exit code when that fails.
std::optional<int> watch_failed(AdminClient& client) {
  if (auto watching = client.call("watch"); !watching || !watching->ok()) {
    return watching ? report_error(*watching) : kUsage;
  }
  return std::nullopt;
}

// The finished round as `reconcile` shows it: the decision beside the round, not inside it.
json finished_round(const json& event_data) {
  json result{{"round", event_data}};
  if (event_data.contains("decision")) {
    result["decision"] = event_data["decision"];
    result["round"].erase("decision");
  }
  return result;
}

int print_round(const Options& options, const json& result, const json& round) {
  std::cout << (options.json_output ? result.dump(2) + "\n" : format_reconcile(result));
  return round.value("outcome", std::string()) == "failed" ? kFailed : kOk;
}

int wait_for_round(const Options& options, AdminClient& client, long long number) {
  while (true) {
    auto line = client.next(std::chrono::hours(1));
    if (!line) {
      std::cerr << "numabalancerctl: waiting for round " << number << ": " << line.error().message()
                << "\n";
      return kFailed;
    }
    auto* event = std::get_if<wire::Event>(&line.value());
    if (event == nullptr || event->kind != "round" || event->data.value("number", 0LL) != number) {
      continue;
    }
    return print_round(options, finished_round(event->data), event->data);
  }
}

int job_done(const Options& options, long long job_id, const json& done, bool tty) {
  if (tty) {
    std::cerr << "\n";
  }
  std::cout << (options.json_output ? done.dump(2) + "\n" : job_done_text(job_id, done));
  return done.value("report", json::object()).value("threshold_met", false) ? kOk : kFailed;
}

int wait_for_job(const Options& options, AdminClient& client, long long job_id) {
  bool tty = ::isatty(STDERR_FILENO);
  while (true) {
    auto line = client.next(std::chrono::hours(24));
    if (!line) {
      std::cerr << "numabalancerctl: " << line.error().message() << "\n";
      return kFailed;
    }
    auto* event = std::get_if<wire::Event>(&line.value());
    if (event == nullptr) {
      continue;
    }
    if (event->kind == "job_progress" && tty && event->data.value("id", 0LL) == job_id) {
      std::cerr << job_progress_line(event->data.value("progress", json::object())) << std::flush;
    }
    if (event->kind == "job_done" && event->data.value("job", 0LL) == job_id) {
      return job_done(options, job_id, event->data, tty);
    }
  }
}

}  // namespace

int ask(const Options& options, const std::string& cmd, const json& args, Formatter human) {
  auto client = connect(options);
  if (!client) {
    return kUsage;
  }
  auto response = client->call(cmd, args);
  if (!response) {
    std::cerr << "numabalancerctl: " << options.socket << ": " << response.error().message()
              << "\n";
    return kUsage;
  }
  if (!response->ok()) {
    return report_error(*response);
  }
  if (options.json_output || human == nullptr) {
    std::cout << response->result.dump(2) << "\n";
    return kOk;
  }
  try {
    std::cout << human(response->result);
  } catch (const json::exception& e) {
    // A daemon of another version may answer in a shape this view does not know.
    std::cerr << "numabalancerctl: cannot show the reply to " << cmd << " (" << e.what()
              << "); --json prints it as the daemon sent it\n";
    return kFailed;
  }
  return kOk;
}

int stream_events(const Options& options, long long count) {
  auto client = connect(options);
  if (!client) {
    return kUsage;
  }
  if (auto failed = watch_failed(*client)) {
    return *failed;
  }
  for (long long seen = 0; count <= 0 || seen < count;) {
    auto line = client->next(std::chrono::hours(24));
    if (!line) {
      std::cerr << "numabalancerctl: " << line.error().message() << "\n";
      return kFailed;
    }
    if (auto* event = std::get_if<wire::Event>(&line.value())) {
      if (options.json_output) {
        std::cout << wire::to_line(*event) << std::flush;
      } else {
        std::cout << format_event(event->kind, event->time, event->data) << std::endl;
      }
      ++seen;
    }
  }
  return kOk;
}

int run_round(const Options& options) {
  auto client = connect(options);
  if (!client) {
    return kUsage;
  }
  if (auto failed = watch_failed(*client)) {
    return *failed;
  }
  auto started = client->call("reconcile");
  if (!started) {
    std::cerr << "numabalancerctl: " << options.socket << ": " << started.error().message() << "\n";
    return kUsage;
  }
  if (!started->ok()) {
    return report_error(*started);
  }
  const json round = started->result.value("round", json::object());
  if (!started->result.value("pending", false)) {
    return print_round(options, started->result, round);
  }
  return wait_for_round(options, *client, round.value("number", 0LL));
}

int follow_job(const Options& options, const json& args) {
  auto client = connect(options);
  if (!client) {
    return kUsage;
  }
  if (auto failed = watch_failed(*client)) {
    return *failed;
  }
  auto started = client->call("migrate", args);
  if (!started) {
    std::cerr << "numabalancerctl: " << started.error().message() << "\n";
    return kUsage;
  }
  if (!started->ok()) {
    return report_error(*started);
  }
  return wait_for_job(options, *client, started->result.value("job", 0LL));
}

}  // namespace nb::ctl
