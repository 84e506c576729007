// The machine a saved plan says it was made for (its "msa" block), which
// `memplan verify` resolves again instead of trusting the plan's numbers.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "ir/plan.h"
#include "ir/program.h"
#include "ir/units.h"

namespace memplan {

struct RecordedMachine {
  std::string target;                          // "msa"/"target": a preset name or target file
  std::optional<Bytes> fast_memory_bytes;      // --fast-memory, when it overrode the target's
  std::optional<Bytes> fast_memory_alignment;  // --fast-memory-alignment, when given
  // Where the numbers stand in the plan file, for located errors.
  std::string plan_path;
  SourceLocation target_at;                  // "/msa/target"
  std::string alternate_pointer;             // "/spaces/1" (the alternate space's entry)
};

// The recorded machine of the plan document `text`, nullopt when it has no
// "msa" block or no "target" (plans without fast memory, or written before
// the key existed). The overrides are "msa"/"options"/"fast_memory_override"
// and "fast_memory_alignment_override" (null or absent: the target's).
// Errors: InvalidArgument `path: error: /msa/...: ...` for a target that is
// not a string or an override that is not null or an integer in range.
absl::StatusOr<std::optional<RecordedMachine>> ReadRecordedMachine(std::string_view text,
                                                                  std::string_view path);

// `plan` with its alternate space's capacity and alignment re-derived from
// `machine`: the target resolved again (msa/target.h ResolveTarget, from the
// current directory like the input), its fast-memory size unless overridden,
// and the least common multiple of its alignment (unless overridden) and the
// plan's alignment. Errors: InvalidArgument (exit 2) located in the plan file
// when the target does not resolve ("plan.json:5:15: error: /msa/target:
// unknown target ..."); FailedPrecondition naming both when the plan's
// recorded alternate capacity or alignment differs from the machine's
// ("/spaces/1/capacity_bytes: the plan records 4194304 bytes of alternate
// memory, but target 'edge-npu' has 2097152").
absl::StatusOr<Plan> WithResolvedMachine(const Plan& plan, const RecordedMachine& machine);

}  // namespace memplan
