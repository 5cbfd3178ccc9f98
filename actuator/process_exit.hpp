#pragma once
// Whether a process that a move or query failed on has exited, so that the failure counts as a
// vanished process rather than an error.

#include <filesystem>

namespace nb::actuator {

// ESRCH once the process is reaped; EINVAL from the moment its mm is released, first while it
// is still exiting (PF_EXITING in its stat flags), then as a zombie. A stat that cannot be read
// means it is gone.
bool process_exited(const std::filesystem::path& proc_root, int pid, int error);

}  // namespace nb::actuator
