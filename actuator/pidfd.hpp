#pragma once
// pidfd_open(2), its exit poll and pidfd_send_signal(2) on the running kernel. A pidfd names one
// process for as long as it is open: its pid may be reused once the process is reaped, the pidfd
// never. Debian 12's glibc has no wrappers, so these go through syscall(2).

#include "base/file_descriptor.hpp"
#include "base/result.hpp"

namespace nb::actuator {

// ESRCH when no process has that pid.
Result<int> open_pidfd(int pid);
// Whether the process has exited (the pidfd polls readable); a pidfd that cannot be polled counts
// as exited, since nothing then proves the process is still there.
bool pidfd_exited(int pidfd);
// ESRCH when the process has already exited.
Status pidfd_send_signal(int pidfd, int signal);

// A pidfd is owned and closed like any other descriptor.
using Pidfd = FileDescriptor;

}  // namespace nb::actuator
