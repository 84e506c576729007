// Runs a plan for a lifetime CSV (no program): each buffer is written when a
// live piece of it begins and checked when it ends (execute/executor.h).
#pragma once

#include "absl/status/status.h"
#include "execute/machine.h"

namespace memplan {

// Dead gaps (Buffer::gaps) free the buffer's bytes; during an occupancy
// window (Buffer::windows, `@LO:HI`) it keeps only bytes [LO, HI) (the rest
// is written anew after the window). At one step, writes come before checks,
// so two buffers live at a common step that share a byte fail.
absl::Status RunLifetimeCsv(ExecutionMachine& machine);

}  // namespace memplan
