// PackingAlgorithm::kExact: a complete, anytime branch-and-bound offset
// packer (dynamic storage allocation solved exactly).
//
// Pack(items, kExact, options):
// * options.capacity set (and not minimize): a packing with peak <= capacity,
//   or a proof that none exists (SearchStatus::kInfeasible, offsets = the
//   best heuristic packing, proven_lower_bound > capacity).
// * otherwise (options.minimize, or no capacity): the lowest peak, proven
//   (kOptimal) unless options.time_limit_seconds stops it first (kStopped:
//   the best packing found, proven_lower_bound and the gap between them).
//   With options.capacity too, a packing within the capacity is decided
//   first, as above (kInfeasible, or kStopped before one is found), and
//   the peak is lowered from there; after kInfeasible too, so that the
//   result's peak is what the input needs (the answer stays kInfeasible).
// * options.time_limit_seconds == 0 means kExactDefaultTimeLimitSeconds, so
//   that callers that pass no options (sweep, compare, regions, MSA repacks)
//   never wait without end; PackResult::search_time_limit_seconds says which
//   limit was in force, and a stopped search says it stopped.
//
// How (docs/packing.md, "exact", has the measured results):
// 1. Reduction (exact_problem.h): time compressed into sections, the input
//    split at cut points into independent subproblems.
// 2. Incumbent (incumbent.h): the constructive heuristics give the first
//    packing (minimizing, the local search too); when it already fits the
//    capacity or meets the lower bound there is nothing to search.
// 3. Decision search (canonical_search.h): MiniMalloc's canonical solutions,
//    dominance, cross-section inference, hatless pruning and dynamic
//    decomposition (Moffitt, ASPLOS 2023), symmetry breaking on
//    interchangeable buffers, a memo of dead states; restarts over three
//    search orders with growing node limits, on two threads with a
//    deterministic answer (parallel_decide.h).
// 4. Minimizing: two threads, one lowering the best peak (decisions
//    between the bound and the best with node limits, DescentLadder in
//    descent_ladder.h), one raising the lower bound from max-live (decision
//    at the bound: a proof of infeasibility lifts it to the next possible
//    peak, PeakGranularity; when its first decision at the bound ends at
//    its node limit, windows of the input first, window_bound.h, whose
//    proofs raise the bound too); they meet at the optimum. On one thread
//    they take turns, the bound's decisions with a node limit that
//    doubles whenever one is cut.
//
// Determinism: whenever the search completes, the offsets are the ones of a
// one-thread run: the heuristic packing if it is optimal, else the first
// packing in depth-first order of the decision at the final capacity (that
// decision is re-run when the packing in hand came from another capacity).
//
// Gaps (PackItem::gaps) are ignored: items are live over [start, end], so a
// proof holds for that conservative problem only. With gaps the result
// says so: proven_lower_bound is max-live (gaps honoured) and kOptimal only
// when the peak meets it (else kFeasible); kInfeasible stays a statement
// about the conservative problem (callers say so: driver/pools.cc). Fixed offsets
// (PackItem::fixed_offset) and alignments are honoured inside the search;
// with fixed items the incumbent comes from the search itself.
//
// Example: a(4)[0,1] fixed at offset 2, b(4)[1,2]. Max-live is 8, but b
// cannot go under a: capacity 9 -> kInfeasible, proven_lower_bound 10;
// minimize -> a@2 b@6, peak 10, kOptimal.
#pragma once

#include <cstdint>
#include <limits>
#include <vector>

#include "packing/packer.h"

namespace memplan {

// The wall-clock limit of an exact search given none (seconds).
inline constexpr double kExactDefaultTimeLimitSeconds = 10;

// No node budget (ExactPack).
inline constexpr std::int64_t kExactNoNodeBudget = std::numeric_limits<std::int64_t>::max();

// kExact (above). `threads` >= 1 worker threads for the decision searches
// (the answer does not depend on it when the search completes).
//
// `node_budget` (capacity mode only: options.capacity set, not minimize)
// bounds the branch-and-bound nodes of all its decisions together, by the
// node limits of their restarts (parallel_decide.h), so the answer is the
// same on every machine, load and thread count: kFeasible, kInfeasible, or
// kStopped with result.search_node_budget_ended set. With a node budget
// and options.time_limit_seconds == 0 there is no wall-clock limit at all
// (kAuto's exact member, portfolio.h, relies on it).
// Example: MiniMalloc's A at capacity 1,048,576 needs about 10^5 nodes;
// with node_budget 10^4 -> kStopped, search_node_budget_ended, the
// heuristic incumbent's offsets.
PackResult ExactPack(const std::vector<PackItem>& items, const PackOptions& options,
                     int threads = 2, std::int64_t node_budget = kExactNoNodeBudget);

// The nodes of the first round of a decision's restarts on `buffers`
// buffers (parallel_decide.h: every search order once, at 4 nodes a
// buffer): a node budget below this cannot finish one round.
// Example: 300 buffers -> 6 runs x 1,200 nodes = 7,200.
std::int64_t ExactFirstRoundNodes(std::int64_t buffers);

}  // namespace memplan
