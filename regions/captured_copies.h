// Copies between memory spaces as region commands: a captured value (a
// region parameter: an external input, a weight, an earlier region's result,
// held in default memory) that the region only reads and reads enough is
// copied once into the region's fast slab by a `copy` command (IREE's
// stream.cmd.copy, regions/lowering.h) placed before its first reader; the
// region's later reads of it name the fast copy.
//
// Rule: the driver rates the candidates per level (CopyCandidate, net
// benefit = the reads' gain in the level minus the copy's cost,
// driver/captured_copy_rating.h). Per region and level, a candidate not
// taken by a faster level becomes an item of the fast slab's choice
// (regions/fast_slab.h ChooseFastSlices) beside the slab slices: its bytes,
// live from its first reader's step (where the copy runs) to its last
// reader's, and its net benefit, so copies and slices compete by benefit
// per byte for the same bytes. A level the region's device may not access
// is skipped, as for slices.
//
// Lowering: the copy command comes before the wave holding the first
// command reading the value (a command of its own, concurrent -1, at that
// wave's step); it reads the value's home range (resolved later like every
// captured range) and writes [offset, offset + bytes) of the fast slab; the
// region's await/signal timepoints cover it as they cover its other
// commands. Every later read range of the value is moved into the fast
// copy: resource = the fast slab, offset = copy offset + the range's offset
// in the value. Cost: O(commands) per copy.
//
// Example (tests/data/regions/captured_copy.mpir): weight %w, 4096 bytes,
// read by 4 dispatches at steps 0-3, with --fast-memory 8192: item
// {4096 bytes, steps 0..3, net 1.28e-6 s}; a copy command at step 0 writes
// r.fast [0, 4096) and the 4 dispatches read %w there.
#pragma once

#include <utility>
#include <vector>

#include "analysis/analyze.h"
#include "ir/program.h"
#include "ir/region_plan.h"

namespace memplan {

// The first and last steps at which an op of `region` reads `value`
// (op_time); {0, -1} when none does.
std::pair<TimeStep, TimeStep> ReaderSteps(const Program& program, const ProgramAnalysis& analysis,
                                          ComputationId region, ValueId value);

// Inserts a copy command per copy of `copies` into `commands` (a region's
// lowered, value-relative commands, in order) and moves the later reads of
// each copied value into its fast copy (above).
void InsertCopyCommands(const std::vector<RegionCopy>& copies, std::vector<Command>& commands);

}  // namespace memplan
