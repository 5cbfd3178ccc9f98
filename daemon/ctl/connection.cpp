#include "daemon/ctl/connection.hpp"

#include <cstring>
#include <iostream>

#include "base/human_format.hpp"
#include "daemon/ctl/exit_codes.hpp"

namespace nb::ctl {

std::string timeout_text(std::chrono::milliseconds timeout) {
  return format_number(std::chrono::duration<double>(timeout).count()) + " s";
}

int report_failure(const Error& error, const std::string& waiting_for,
                   std::chrono::milliseconds timeout, int otherwise) {
  if (error.code == ETIMEDOUT) {
    std::cerr << "numabalancerctl: " << waiting_for << ": no answer from numabalancerd within "
              << timeout_text(timeout) << " (--timeout)\n";
    return kTimedOut;
  }
  std::cerr << "numabalancerctl: " << waiting_for << ": " << error.message() << "\n";
  return otherwise;
}

std::optional<AdminClient> connect_to_daemon(const std::string& socket,
                                             std::chrono::milliseconds timeout, int& exit_code) {
  auto client = AdminClient::connect(socket, timeout);
  if (client) {
    return std::move(client.value());
  }
  const Error& error = client.error();
  std::cerr << "numabalancerctl: cannot connect to numabalancerd at " << socket << ": "
            << (error.code == ETIMEDOUT
                    ? "it did not take the connection within " + timeout_text(timeout) +
                          " (--timeout)"
                    : std::string(error.code != 0 ? std::strerror(error.code) : error.context))
            << "\n  (choose the socket with --socket PATH or $NUMABALANCER_SOCKET)\n";
  exit_code = error.code == ETIMEDOUT ? kTimedOut : kUsage;
  return std::nullopt;
}

}  // namespace nb::ctl
