// Ordering strategies for one computation's OrderProblem: the peers' list,
// DFS and post-order schedulers, and a local search. Each returns a
// topological order of the problem's units (a fixed problem's is its input
// order); all are deterministic, ties going to the lower input index.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "schedule/order_problem.h"

namespace memplan {

using UnitOrder = std::vector<std::int32_t>;

// XLA's ListMemoryScheduler (xla/service/hlo_memory_scheduler.cc): forward
// list scheduling; of the ready units, the one with the most bytes freed
// minus bytes defined, then the most users. O(units * ready * degree).
UnitOrder XlaListOrder(const OrderProblem& problem);

// XLA's DFSMemoryScheduler: post-order DFS from the sinks, visiting operands
// with more extra users first, then with larger cumulative bytes (the bytes
// defined by the unit and, capped, by all it depends on). O(edges log).
UnitOrder XlaDfsOrder(const OrderProblem& problem);

// XLA's PostOrderMemoryScheduler (HloComputation::MakeInstructionPostOrder):
// post-order DFS from the sinks in input order, operands in input order.
// O(units + edges).
UnitOrder XlaPostOrder(const OrderProblem& problem);

// PyTorch Inductor's topological_sort_lpmf (torch/_inductor/memory.py),
// "least peak memory first": of the ready units, if some keep the memory
// during their run (mem1) at or below the peak so far, the one leaving the
// least memory after it (mem2); else the one with the least mem1.
// O(units * ready * degree).
UnitOrder InductorLpmfOrder(const OrderProblem& problem);

// Inductor's topological_sort_bfs: the ready unit whose predecessors ran
// earliest (their sorted positions compared lexicographically), FIFO-like.
UnitOrder InductorBfsOrder(const OrderProblem& problem);

// Inductor's topological_sort_dfs: DFS post-order visiting units, and each
// unit's predecessors, in ascending order of the bytes of the sets it touches.
UnitOrder InductorDfsOrder(const OrderProblem& problem);

// Local search from `start` (topological): moves one unit to another
// position between its last predecessor and first successor (at most
// kLocalSearchReach positions away), keeping the move that lowers ModelPeak
// most, pass after pass until no move helps or `work_budget` (units plus
// touches per evaluated order, about a nanosecond each) is spent.
inline constexpr std::int32_t kLocalSearchReach = 32;
UnitOrder LocalSearchOrder(const OrderProblem& problem, UnitOrder start, std::int64_t work_budget);

// A peer strategy: its name as printed (e.g. "xla-list") and its function.
struct PeerStrategy {
  std::string_view name;
  UnitOrder (*order)(const OrderProblem&);
};

// The six peer strategies above, in the order reported.
const std::vector<PeerStrategy>& PeerStrategies();

}  // namespace memplan
