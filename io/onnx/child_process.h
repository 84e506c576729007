// Runs untrusted third-party work in a forked child process, so that a crash
// in it becomes an error instead of taking the caller down.
//
// Why: libonnx 1.12's shape inference functions do not check every input
// they read; a malformed model (e.g. a Conv whose input has rank 2) makes
// them dereference null. memplan must never crash on bad input.
#pragma once

#include <functional>
#include <string>

#include "absl/status/statusor.h"

namespace memplan {

// Forks; the child runs `work` and sends the returned bytes back through a
// pipe, then exits without running destructors or atexit handlers. Returns
// those bytes, or Internal "... terminated by signal N" / "... exited with
// status N" when the child dies before finishing (sanitizer reports in the
// child also count as dying), or Internal on fork/pipe failure. Call it from
// a single-threaded program (the CLI and the tests are).
absl::StatusOr<std::string> RunInChildProcess(const std::function<std::string()>& work);

}  // namespace memplan
