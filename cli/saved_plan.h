// Reading a saved JSON plan with its input, for `memplan verify` and
// `memplan execute`: the input is loaded as the plan records (--no-alias,
// --dim, --regions), then the plan is read back against it.
#pragma once

#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "cli/input_flags.h"
#include "driver/input.h"
#include "driver/recorded_machine.h"
#include "ir/plan.h"

namespace memplan::cli {

struct SavedPlan {
  LoadedInput input;
  Plan plan;
  // The machine the plan records (its "msa" target and overrides), which
  // verify resolves again; nullopt without fast memory.
  std::optional<RecordedMachine> machine;
};

// Loads `input_flags.input` with the load options the plan at `plan_path`
// records (`flags`, the options given on the command line, must agree with
// them), then reads the plan (report/plan_json.h ReadPlanJson). Errors:
// InvalidArgument, located (exit 2): an unreadable or malformed plan or
// input, flags that disagree with the record, a plan made for another input
// (named: `plan.json: error: this plan is for 'a.mpir', not 'b.mpir'
// (/time_steps: 6 differs from the input, which has 5)` when the recorded
// input's file name differs from the one given). A plan file that is not
// JSON at all gets a hint of what `command` ("verify" or "execute") reads.
absl::StatusOr<SavedPlan> LoadSavedPlan(const InputFlags& input_flags, const LoadOptions& flags,
                                        const std::string& plan_path, std::string_view command);

}  // namespace memplan::cli
