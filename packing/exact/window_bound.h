// Lower bounds above max-live from relaxations: a subproblem restricted to a
// window of consecutive sections, decided by the exact search itself.
//
// Why it is sound (docs/packing.md, "Lower bounds above max-live"):
// * Restriction. Keep only the sections first..last of a subproblem, clip
//   every buffer to the sections of its range inside them and drop the
//   buffers with none. Two clipped buffers that share a kept section shared
//   it before, so every packing of the whole (same offsets) is a packing of
//   the window with a peak no higher: OPT(window) <= OPT(whole).
// * Whole-window buffers. A buffer live in every kept section overlaps all
//   the others there, so in any packing of the window every other buffer
//   lies wholly below or wholly above it; moving it to offset 0 and every
//   buffer below it up by its size keeps the packing valid at the same peak.
//   So such buffers are set aside (stacked at 0) and the rest decided at
//   the capacity minus their bytes: exact, not a further relaxation. Done
//   only when the window holds no fixed buffer, and for a buffer whose size
//   is a multiple of every alignment in the window (the shift keeps offsets
//   aligned); the others stay in.
// * Proof. DecideCapacity exhausting its tree on one independent part of
//   the window (exact_problem.h: cut points) proves no packing of the
//   window fits `capacity`, hence none of the whole: the whole needs the
//   next multiple of its peak granularity above it (PeakGranularity).
//
// Windows are dyadic: 4, 8, 16, ... sections long (below the whole, which
// is the main search's decision), starting at every multiple of half their
// length, so any run of L >= 2 sections lies within one window of at most
// 4L; only windows holding a hot section are kept (bytes live, or the
// alignment-aware stack of alignment_waste.h, within 1/16 of the hottest).
// That is at most about 2 s windows for s sections. They are decided
// smallest first, each within a node limit (WindowProver), so their cost
// is the nodes they are given plus O(n) per window to build it (n buffers).
//
// Where it pays: an input whose peak is forced above max-live by a few
// buffers in a short stretch of time (fixed offsets, alignments, or a tight
// run of sections), inside an input too large for the main search to prove
// it. Where it does not: MiniMalloc's D and J, whose windows around their
// max-live sections have packings at max-live up to a large part of the
// input (docs/packing.md has the figures).
//
// Example: f1 (4 B, fixed at 2) live at step 0, f2 (2 B, fixed at 6) at step
// 2, b (4 B) over steps 0-2. Max-live and every one-step stack allow 10
// (b at 6 at step 0); but b must miss [2, 6) and [6, 8), so b goes at 8: the
// window of both sections is infeasible at 10, bound 12 (= the optimum).
#pragma once

#include <atomic>
#include <cstdint>
#include <vector>

#include "ir/units.h"
#include "packing/exact/exact_problem.h"
#include "packing/packer.h"

namespace memplan::exact {

// The subproblem restricted to sections first..last (inclusive, renumbered
// from 0), as items over steps 0..last-first with their effective
// alignment and fixed offset; the buffers live in every kept section left
// out when allowed (above) and their bytes in `set_aside`. `buffers` maps
// each item to its buffer in the subproblem.
struct Window {
  std::vector<PackItem> items;
  std::vector<std::int32_t> buffers;
  Bytes set_aside = 0;
};
Window RestrictToSections(const Subproblem& problem, std::int32_t first, std::int32_t last);

// What a window decision concluded.
enum class WindowOutcome {
  kInfeasible,  // proven: no packing of the window fits the capacity
  kFeasible,    // a packing of the window fits
  kUnknown,     // the node limit or a stop flag ended it first
};

// Decides `window` at `capacity` (bytes, for the window's original items:
// its set-aside bytes included), part by part, within `node_limit` nodes
// in all; adds the nodes visited to `*node_counter` and returns the outcome
// and (via `spent`) the nodes of the limit used.
WindowOutcome DecideWindow(const Window& window, Bytes capacity, std::int64_t node_limit,
                           const std::atomic<bool>* stop, const std::atomic<bool>* abandon,
                           std::atomic<std::int64_t>* node_counter, std::int64_t* spent);

// The windows of one subproblem (above), smallest first, decided at a
// bound in rounds: what a minimizing search's bound prober interleaves with
// its decisions on the whole (exact_packer.cc).
class WindowProver {
 public:
  // `granularity` is PeakGranularity(problem). Builds the windows (above):
  // O(n + s) each.
  WindowProver(const Subproblem& problem, Bytes granularity);

  // Decides the open windows at `bound` (a proven lower bound), smallest
  // first, within `node_budget` nodes in all, each window within an equal
  // share of it but at least one first round of restarts (windows left
  // without one wait for the next call). A window proven infeasible raises
  // the bound to the next multiple of the granularity and is decided again
  // at it; one that fits is closed (it fits every higher bound too). Adds
  // the nodes visited to `*node_counter` and the nodes of the budget used
  // to `*spent`; returns the bound, raised or not.
  Bytes Raise(Bytes bound, std::int64_t node_budget, const std::atomic<bool>* stop,
              const std::atomic<bool>* abandon, std::atomic<std::int64_t>* node_counter,
              std::int64_t* spent);

  // Whether some window is still undecided.
  bool Open() const;
  std::size_t WindowCount() const { return windows_.size(); }

  // The window of the last proof (sections of the subproblem), -1 if none.
  std::int32_t proof_first() const { return proof_first_; }
  std::int32_t proof_last() const { return proof_last_; }

 private:
  struct Entry {
    Window window;
    std::int32_t first = 0;
    std::int32_t last = 0;
    bool closed = false;
  };
  Bytes granularity_ = 1;
  std::vector<Entry> windows_;
  std::int32_t proof_first_ = -1;
  std::int32_t proof_last_ = -1;
};

// The result of WindowLowerBound.
struct WindowBound {
  Bytes bound = 0;               // >= the bound given; a multiple of the granularity when raised
  std::int64_t nodes_spent = 0;  // of the budget (node limits of the decisions that ran)
  // The window of the last proof (sections of the subproblem), -1 if none.
  std::int32_t first_section = -1;
  std::int32_t last_section = -1;
};

// WindowProver's rounds on their own: Raise with budgets of two first
// rounds of the largest window, doubling, while windows stay open and the
// total stays within `node_budget` search nodes; stops early when `stop`
// or `abandon` (either may be null) become true.
WindowBound WindowLowerBound(const Subproblem& problem, Bytes bound, Bytes granularity,
                             std::int64_t node_budget, const std::atomic<bool>* stop,
                             const std::atomic<bool>* abandon,
                             std::atomic<std::int64_t>* node_counter);

// The node budget of WindowLowerBound in a minimizing exact search, per
// subproblem of `buffers` buffers: kWindowBoundNodesPerBuffer a buffer, at
// least kWindowBoundMinNodes.
inline constexpr std::int64_t kWindowBoundNodesPerBuffer = 1024;
inline constexpr std::int64_t kWindowBoundMinNodes = 400000;
std::int64_t WindowBoundBudget(std::size_t buffers);

}  // namespace memplan::exact
