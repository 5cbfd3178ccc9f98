#include "daemon/ctl/requests.hpp"

#include <iostream>
#include <optional>

#include "daemon/ctl/connection.hpp"
#include "daemon/ctl/conversation.hpp"
#include "daemon/ctl/human_output.hpp"

namespace nb::ctl {

namespace {

using nlohmann::json;

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

// The round's event, by the conversation's deadline: a scan that hangs in the daemon must not
// hold `reconcile` past --timeout.
int wait_for_round(const Options& options, Conversation& talk, long long number) {
  while (true) {
    auto line = talk.client.next(talk.deadline);
    if (!line) {
      return report_failure(line.error(), "waiting for round " + std::to_string(number),
                            talk.timeout, kFailed);
    }
    auto* event = std::get_if<wire::Event>(&line.value());
    if (event == nullptr || event->kind != "round" || event->data.value("number", 0LL) != number) {
      continue;
    }
    return print_round(options, finished_round(event->data), event->data);
  }
}

}  // namespace

int ask(const Options& options, const std::string& cmd, const json& args, Formatter human) {
  int exit_code = kUsage;
  auto talk = open_conversation(options, exit_code);
  if (!talk) {
    return exit_code;
  }
  auto response = talk->call(cmd, args);
  if (!response) {
    return talk->failed(response.error(), "waiting for the reply to " + cmd);
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

// Events are not replies: once subscribed, `watch` waits for them as long as it takes.
int stream_events(const Options& options, long long count) {
  int exit_code = kUsage;
  auto talk = open_subscribed(options, exit_code);
  if (!talk) {
    return exit_code;
  }
  for (long long seen = 0; count <= 0 || seen < count;) {
    auto line = talk->client.next(Deadline::max());
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
  int exit_code = kUsage;
  auto talk = open_subscribed(options, exit_code);
  if (!talk) {
    return exit_code;
  }
  auto started = talk->start("reconcile", json::object(), exit_code);
  if (!started) {
    return exit_code;
  }
  const json round = started->value("round", json::object());
  if (!started->value("pending", false)) {
    return print_round(options, *started, round);
  }
  return wait_for_round(options, *talk, round.value("number", 0LL));
}

}  // namespace nb::ctl
