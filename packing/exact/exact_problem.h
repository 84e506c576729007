// The exact solver's view of a packing problem: items reduced to what the
// search needs, time compressed into sections and split at cut points into
// independent subproblems.
//
// Reduction (docs/packing.md, "exact"):
// * Empty items (size <= 0) go to offset 0 and leave the problem.
// * Gaps are ignored: an item is live over its whole range [start, end]
//   (conservative, every packing found is valid; the optimum may be higher
//   than with gaps).
// * Time is compressed into sections: the sets of items live at the last
//   step of some item, i.e. the maximal sets of items live together
//   (MiniMalloc's cross sections; a set live at other steps is a subset of
//   one of these, so the sums per section still give max-live, and two items
//   overlap in time iff they share a section). Item i covers the sections
//   first_section .. last_section.
// * A cut point is a section boundary no item crosses; the items on either
//   side never conflict, so each run of sections between cut points is a
//   subproblem solved on its own (the peak is the max of theirs). With only
//   the maximal sets as sections, an item that starts and ends between two
//   of them crosses no boundary: cut points (here and during the search,
//   canonical_search.h) appear where finer sections would hide them.
//
// Example: a(10)[0,3] b(20)[2,5] c(5)[7,8] -> section times 3 5 8 (sets
// {a, b}, {b}, {c}), two subproblems: {a, b} over sections 0..1 and {c}.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "ir/units.h"
#include "packing/exact/alignment_waste.h"
#include "packing/packer.h"

namespace memplan::exact {

// One buffer of a subproblem, numbered 0..n-1 within it.
struct SearchBuffer {
  Bytes size = 0;        // > 0
  Bytes alignment = 1;   // effective alignment, >= 1
  std::int32_t first_section = 0;
  std::int32_t last_section = 0;  // inclusive
  TimeStep length = 1;            // steps of its live range
  std::optional<Bytes> fixed_offset;
  // The previous buffer (lower number) of the same size, alignment and
  // sections, not fixed: interchangeable with this one, so the search places
  // them in number order (symmetry breaking). -1 if none.
  std::int32_t equal_previous = -1;
  std::vector<std::int32_t> overlaps;        // buffers sharing a section, ascending
  std::vector<std::int32_t> fixed_overlaps;  // the fixed ones among them, by offset
};

// An independent subproblem.
struct Subproblem {
  std::vector<SearchBuffer> buffers;
  std::int32_t sections = 0;
  std::vector<std::int32_t> item_index;  // buffer -> index in the original items
};

struct ReducedProblem {
  std::vector<Subproblem> subproblems;
  std::size_t item_count = 0;
};

// Builds the subproblems of `items` with every offset a multiple of
// max(item alignment, alignment). O(n log n + p) for p overlapping pairs.
ReducedProblem ReduceProblem(const std::vector<PackItem>& items, Bytes alignment);

// Max over sections of the bytes of the buffers covering it: the max-live
// lower bound of the subproblem. O(n + sections).
Bytes SubproblemMaxLive(const Subproblem& problem);

// A lower bound at least max-live: the max over sections of the lowest top
// a stack of the buffers covering the section can have (alignment_waste.h:
// MinStackTop, and ExactStackTop around the fixed ones when at most
// kExactStackLimit are movable, within a total budget of about 2^26 steps),
// which adds the bytes alignments force to stay empty. Equals
// SubproblemMaxLive when no alignment exceeds 1 or when the buffers span more
// than 2^24 sections in total (the per-section lists would cost too much).
// Example: sizes 5, 3, 1 at alignment 2 all live at one step: 11 (max-live 9).
Bytes SubproblemLowerBound(const Subproblem& problem);

// The gcd of every size, alignment above 1 and fixed offset: every offset
// and every peak of a canonical packing of `problem` (each buffer as low as
// it goes, which is how a lowest peak can always be packed) is a multiple of
// it, since offsets are 0, a fixed offset or another buffer's top rounded up
// to an alignment (alignment 1 rounds nothing, so it does not count). So a
// capacity proven infeasible raises the lower bound to the next multiple.
// >= 1. Example: sizes 2048 and 3072, alignment 1 -> 1024.
Bytes PeakGranularity(const Subproblem& problem);

// One buffer's share of PeakGranularity: gcd(g, size, alignment when above
// 1, fixed offset when there is one), starting from g = 0. auto's exact
// member applies it to its items.
Bytes AddToPeakGranularity(Bytes g, Bytes size, Bytes alignment,
                           const std::optional<Bytes>& fixed_offset);

}  // namespace memplan::exact
