// The user's overrides of memory space assignment (MsaOptions::assign_first
// and MsaOptions::pins), applied to a built MsaProblem before allocation:
//  * assign_first: MsaBuffer::assign_first marks the buffers with a value
//    whose whole name matches the regular expression; they are allocated
//    before all others (msa/allocator.h).
//  * a whole-value pin to default memory makes the buffer kDefaultOnly; to
//    alternate memory, kPinnedAlternate (one chunk for the whole live range,
//    or ResourceExhausted from the allocator).
//  * a use pin to default memory clears alternate_ok at that op's access; to
//    alternate memory, it marks the buffer assign_first and is returned so
//    that CheckPinnedUses can refuse a result that does not serve that read
//    from an alternate segment.
// Errors (InvalidArgument, naming the pin): an invalid regular expression;
// an unknown value or op; an op that does not read the value; a pin that
// cannot be honoured whatever the allocator does (a buffer pinned to another
// space in the IR, too large for the fast memory, zero-size, touching
// control flow; an entry parameter/result, constant or variable pinned
// wholly to alternate memory — its home is default memory, pin its uses
// instead; a use pin to alternate memory at a write of such a buffer);
// contradictory pins of one buffer.
// Example: pins {"x", "", 0} and {"x", "y", 1} contradict each other.
#pragma once

#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "analysis/analyze.h"
#include "ir/program.h"
#include "msa/assignment.h"
#include "msa/problem.h"

namespace memplan {

// Reads that a pin requires in alternate memory: (buffer, time step).
using PinnedUses = std::vector<std::pair<BufferId, TimeStep>>;

// Applies `options.assign_first` and `options.pins` to `problem` (built for
// `program` and `analysis`). O(values + ops + buffers x regex match).
absl::StatusOr<PinnedUses> ApplyUserOverrides(const Program& program,
                                              const ProgramAnalysis& analysis,
                                              const MsaOptions& options, MsaProblem& problem);

// OK if every pinned use is covered by an alternate segment of its buffer in
// `result`, else ResourceExhausted naming the first that is not.
absl::Status CheckPinnedUses(const MsaProblem& problem, const PinnedUses& uses,
                             const MsaResult& result);

}  // namespace memplan
