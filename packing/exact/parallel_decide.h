// The capacity decision for one subproblem: restarts over the search orders
// with growing node limits, run on several threads, with the same answer
// whatever the thread count.
//
// The runs form one fixed sequence: for limits L = 4n, 5n, 6.25n, ... (n
// buffers, a quarter more per round) each of the three SearchOrders with
// limit L, each twice: keeping
// its ranks in the parts of a decomposition, then ranking the parts again
// (CanonicalSearch's rerank_parts; the two of one priority share a memo of
// dead states and so run one after the other). A run ends with a
// packing, a proof (its tree exhausted: no packing exists), or its limit.
// The answer is that of the first run in the sequence that ends with a
// packing or a proof — what one thread running them in turn reports. Threads
// take runs in sequence order; a run after a conclusive one is abandoned,
// and every run is finite, so the earlier ones always finish.
// (MiniMalloc restarts its orders round-robin the same way.)
//
// A node budget cuts the sequence: each run's limit is its round's limit or
// what is left of the budget after the limits of the runs before it,
// whichever is less, and no run starts with nothing left. The cut depends on
// the limits only, never on the nodes a run happened to visit, so a
// budgeted decision is as deterministic as an unbudgeted one.
#pragma once

#include <atomic>
#include <cstdint>
#include <vector>

#include "ir/units.h"
#include "packing/exact/canonical_search.h"
#include "packing/exact/exact_packer.h"
#include "packing/exact/exact_problem.h"

namespace memplan::exact {

struct Decision {
  // kFound, kExhausted, kStopped (a flag), or kNodeLimit (the node budget
  // ended the sequence before any run concluded).
  RunOutcome outcome = RunOutcome::kExhausted;
  std::vector<Bytes> offsets;  // per buffer when kFound
  // Nodes of the budget spent: the limits of the runs up to the conclusive
  // one, or of every run that started when none concluded (deterministic;
  // the nodes actually visited are at most this).
  std::int64_t budget_spent = 0;
};

// Is there a packing of `problem` with peak <= capacity? Stops early
// (kStopped) when `stop` or `abandon` becomes true (either may be null), or
// (kNodeLimit) when the runs that fit `node_budget` nodes (above) all end
// at their limits. Adds the nodes visited to `*node_counter`.
Decision DecideCapacity(const Subproblem& problem, Bytes capacity, int threads,
                        const std::atomic<bool>* stop, const std::atomic<bool>* abandon,
                        std::atomic<std::int64_t>* node_counter,
                        std::int64_t node_budget = kExactNoNodeBudget);

// The node limits of the first round of runs for `buffers` buffers
// (ExactFirstRoundNodes, exact_packer.h).
std::int64_t FirstRoundNodes(std::size_t buffers);

}  // namespace memplan::exact
