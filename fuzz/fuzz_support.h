// Shared pieces of the fuzz targets (fuzz/*_fuzz.cc): scratch files for the
// importers that read paths, and the oracles every target applies to a
// status — bad input gets a located InvalidArgument error (exit code 2 in the
// CLI), a planner bug (Internal) or an unlocated message is a finding and
// aborts, so libFuzzer (or the replay driver) reports it as a crash.
#pragma once

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>

#include "absl/status/status.h"

#include "driver/plan_job.h"

namespace memplan::fuzz {

// Writes `bytes` to `name` inside this process's scratch folder
// (<tmp>/memplan-fuzz-<pid>/, made on first use) and returns the file's path.
// Aborts when the file cannot be written: the target could test nothing.
std::string WriteScratchFile(std::string_view name, std::string_view bytes);

// Whether `message` has the located-error form for `path`:
// `path:LINE:COL: error: ...` or `path: error: ...`.
bool IsLocatedError(std::string_view message, std::string_view path);

// The bad-input oracle: `status` is OK, or InvalidArgument with a message
// located at one of `paths` (empty entries are skipped). Otherwise prints
// `what` and the status on stderr and aborts.
void CheckBadInputError(const absl::Status& status, std::string_view what,
                        std::initializer_list<std::string_view> paths);

// The planning oracle for a job that may legitimately fail: OK, a located
// InvalidArgument (bad input), ResourceExhausted (does not fit) or
// FailedPrecondition (a request the input cannot meet); Internal (e.g. a
// plan the verifier refused) and every other code abort, as does a message
// not located at one of `paths` or at "memplan" (a usage error).
void CheckPlanningError(const absl::Status& status, std::string_view what,
                        std::initializer_list<std::string_view> paths);

// Prints `what` and `detail` on stderr and aborts.
[[noreturn]] void Fail(std::string_view what, std::string_view detail);

// Sets MEMPLAN_THREADS=1 unless the environment sets it: the fuzzers run
// many small inputs, where one thread is faster than starting helpers.
void PreferOneThread();

// Plans the input file at `path` with `options` (its JSON rendered, not
// written) and applies CheckPlanningError. A plan that comes back must also
// read back from its JSON, pass `memplan verify` (VerifySavedPlan, with its
// recorded machine) and execute cleanly (CheckExecutes): otherwise the
// target aborts.
void PlanAndCheck(const std::string& path, PlanJobOptions options, std::string_view what);

// Options for planning fuzz inputs: fast effort (many small inputs), no
// aliasing re-plan, the JSON rendered.
PlanJobOptions FuzzPlanOptions();

// The second oracle for a plan `verify` accepted: `memplan execute` runs it
// without a clobber (a FailedPrecondition aborts, naming `what`). Arenas are
// capped at 256 MiB, below libFuzzer's 2 GiB memory limit; a larger plan is
// refused (InvalidArgument) and not run.
void CheckExecutes(const LoadedInput& input, const Plan& plan, std::string_view what);

}  // namespace memplan::fuzz
