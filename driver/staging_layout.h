// The staging chunks of a hierarchy plan's staged copies (AsyncCopy::via,
// msa/hierarchy.h): where they sit in their intermediate spaces once the
// spaces' pools are laid out (driver/hierarchy_job.h).
#pragma once

#include "ir/plan.h"

namespace memplan {

// Places the chunk of every staged copy of `plan` and raises its space's
// SpaceInfo::peak to cover it. With `keep_offsets` the offsets the home
// choice found stay (the layout kept the home offsets too, so they fit by
// construction); otherwise each space's chunks are packed best-fit by their
// reservations (StagingSteps) above the space's current peak, in copy
// order, at the space's and the plan's alignment. Returns false (plan
// partly updated: discard it) when a chunk ends past its space's capacity
// or names a space the plan lacks. Example: sram peaks at 2048 with
// alignment 16 and two staged copies of 512 bytes reserved over [0, 2] and
// [3, 4]: both chunks at offset 2048, sram's peak 2560. O(c log c) for c
// staged copies.
bool PlaceStagingChunks(Plan& plan, bool keep_offsets);

}  // namespace memplan
