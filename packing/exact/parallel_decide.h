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
#pragma once

#include <atomic>
#include <cstdint>
#include <vector>

#include "ir/units.h"
#include "packing/exact/canonical_search.h"
#include "packing/exact/exact_problem.h"

namespace memplan::exact {

struct Decision {
  SearchOutcome outcome = SearchOutcome::kExhausted;  // kFound, kExhausted or kStopped
  std::vector<Bytes> offsets;                         // per buffer when kFound
};

// Is there a packing of `problem` with peak <= capacity? Stops early
// (kStopped) when `stop` or `abandon` becomes true (either may be null).
// Adds the nodes visited to `*node_counter`.
Decision DecideCapacity(const Subproblem& problem, Bytes capacity, int threads,
                        const std::atomic<bool>* stop, const std::atomic<bool>* abandon,
                        std::atomic<std::int64_t>* node_counter);

}  // namespace memplan::exact
