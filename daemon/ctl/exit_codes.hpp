#pragma once
// numabalancerctl's exit codes, the same for every command (scripts test them).

namespace nb::ctl {

constexpr int kOk = 0;
constexpr int kFailed = 1;    // the command failed
constexpr int kUsage = 2;     // cannot connect, or bad usage
constexpr int kTimedOut = 3;  // the daemon did not answer within --timeout

}  // namespace nb::ctl
