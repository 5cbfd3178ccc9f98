#pragma once
// Descriptors of the admin server must not reach a program the daemon execs (an eviction
// action's child): Asio opens and accepts sockets without close-on-exec.

#include "base/result.hpp"

namespace nb::service {

Status set_close_on_exec(int fd);

}  // namespace nb::service
