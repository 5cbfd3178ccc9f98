#pragma once
// A value or an error that says what failed: the errno (0 when none applies) and the context
// (a path, a pid, a key). Expected failures travel as values, never as exceptions.

#include <cerrno>
#include <string>
#include <utility>
#include <variant>

namespace nb {

struct Error {
  int code = 0;         // errno, or 0 for a failure that is not a system call's
  std::string context;  // what was being done, e.g. "read /proc/42/numa_maps"

  std::string message() const;
  bool vanished() const { return code == ESRCH || code == ENOENT; }
};

Error make_error(int code, std::string context);

// `E` is the failure's type: `Error` at every system boundary; the policy in core/ uses its own
// refusal, which carries a decision status instead of an errno.
template <typename T, typename E = Error>
class [[nodiscard]] Result {
 public:
  Result(T value) : state_(std::move(value)) {}
  Result(E error) : state_(std::move(error)) {}

  bool ok() const { return state_.index() == 0; }
  explicit operator bool() const { return ok(); }

  T& value() & { return std::get<0>(state_); }
  const T& value() const& { return std::get<0>(state_); }
  T&& value() && { return std::get<0>(std::move(state_)); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }

  const E& error() const { return std::get<1>(state_); }

 private:
  std::variant<T, E> state_;
};

// For operations that produce nothing but can fail.
struct Ok {};
using Status = Result<Ok>;

}  // namespace nb
