#include "daemon/ctl/audit_view.hpp"

#include <chrono>
#include <iostream>

#include "base/time.hpp"
#include "daemon/ctl/exit_codes.hpp"
#include "daemon/wire/audit_log_reader.hpp"

namespace nb::ctl {

using nlohmann::json;

int print_audit_log(const std::string& file, const std::string& since,
                    std::optional<long long> limit, bool json_output) {
  std::optional<TimePoint> from;
  if (!since.empty()) {
    auto parsed = wire::parse_since(since, std::chrono::system_clock::now());
    if (!parsed) {
      std::cerr << "numabalancerctl: " << parsed.error().message() << "\n";
      return kUsage;
    }
    from = parsed.value();
  }
  auto read = wire::read_audit_log(file, from);
  if (!read) {
    std::cerr << "numabalancerctl: " << read.error().message() << "\n";
    return kFailed;
  }
  auto& found = read->entries;
  if (limit && found.size() > static_cast<std::size_t>(*limit)) {
    found.erase(found.begin(),
                found.begin() +
                    static_cast<std::ptrdiff_t>(found.size() - static_cast<std::size_t>(*limit)));
  }
  json entries = json::array();
  for (auto& entry : found) {
    entries.push_back(std::move(entry));
  }
  json result{{"audit_log", file},
              {"since", from ? json(format_rfc3339(*from)) : json()},
              {"entries", std::move(entries)},
              {"skipped_lines", read->skipped_lines}};
  std::cout << (json_output ? result.dump(2) + "\n" : format_audit_entries(result));
  return kOk;
}

}  // namespace nb::ctl
