// A lower bound on the estimated run time any memory space assignment can
// reach with a given alternate-memory capacity (issue 27): how much a better
// planner could still gain over a plan, in seconds, on the simulator's
// (msa/simulator.h) and the cost model's (msa/cost_model.h) terms.
//
// The relaxation. Copies are free and instantaneous and any buffer may sit
// in alternate memory at any subset of its accesses; the only constraint
// kept is that the buffers resident in alternate memory at one time step
// fit its capacity together. Every step is then independent, and per op the
// best choice is a 0/1 knapsack: items are the op's buffers, weights their
// sizes, values the bytes the op accesses through them (its operand and
// result positions, CostModel::OperandBytesAccessed / ResultBytesAccessed).
// The bound solves its fractional relaxation greedily: items by value per
// byte (zero-size items first), the last one taken in part, which is at
// least the 0/1 optimum.
//
// Why it is sound (<= SimulateMsa(...).elapsed_s of every verified plan):
//  1. The simulator's makespan is the sum over steps of the step's time
//     (its slowest op's OpElapsed times its execution count) plus the time
//     the stream waits at copy-dones (>= 0); the bound sums the same steps,
//     each step's slowest op's bound times that op's execution count, so it
//     suffices that each op's bound is <= its OpElapsed in any plan.
//  2. In a plan, an op at step t reads or writes position i in alternate
//     memory only if buffer b_i has an alternate segment covering t. Those
//     buffers' chunks lie within [0, capacity) and do not overlap (the
//     verifier's rules), except a sub-allocation inside its container
//     (Buffer::inside). So the items are the op's buffers grouped by their
//     outermost container, each group weighing its smallest member (a
//     group with any member resident occupies at least that), and worth
//     every byte the op accesses through any member. A group heavier than
//     the capacity can never be resident and is left out (unless window
//     prefetches are on: see TimeBound).
//  3. With positions P in alternate memory, OpElapsed = max(compute,
//     memory(A)) where A = the bytes accessed through P and memory(A) =
//     A / alternate_bandwidth + (total - A) / default_bandwidth (A clamped
//     to the op's total bytes), which does not increase with A since
//     alternate_bandwidth >= default_bandwidth. A plan's A is at most the
//     value of a 0/1 knapsack solution, hence at most the fractional optimum
//     A*, so max(compute, memory(A*)) = CostModel::OpElapsedWithAlternateBytes
//     (op, A*) <= OpElapsed.
// It ignores everything else that costs time: copy bandwidth, the copies'
// issue and completion order, outstanding-copy limits, fragmentation,
// alignment, memory reserved for scratch or the cross-program prefetch and
// the planner's own restrictions (buffers it keeps in default memory), so
// it can be loose — most of all on copy-bound models. It lies between
// TimeAllFast (A* never exceeds an op's total bytes) and TimeAllDefault
// (A* >= 0). With capacity 0 it equals TimeAllDefault (a zero-size buffer
// carries no bytes). With a capacity of at least the size of every op's
// buffers together it equals TimeAllFast, except on ops whose
// bytes_accessed is given while their values have size 0: TimeAllFast
// counts those bytes as fast, though no plan can serve them from alternate
// memory.
//
// Example (msa_test_util.h's round target: compute 1000 flop/s, default
// memory 100 B/s, alternate 400 B/s): one op add(x: 100 B, y: 200 B) ->
// z: 100 B, no flops, capacity 200 bytes. All default it takes 400 / 100 =
// 4 s. The items weigh 100, 200, 100 bytes and are worth as much (1 byte
// accessed per byte), so the greedy fill, ties in order of access, takes x
// and then half of y: A* = 200 bytes, and the bound is 200 / 400 + 200 /
// 100 = 2.5 s.
#pragma once

#include "analysis/analyze.h"
#include "ir/units.h"
#include "msa/cost_model.h"

namespace memplan {

// The lower bound in seconds on the estimated run time (SimulateMsa's
// elapsed_s) of any assignment whose alternate memory holds at most
// `capacity_bytes` bytes at each time step, for the program behind
// `analysis` and `cost`. Deterministic; O(steps + the sum over ops of
// k log k) for k operand and result positions per op.
// With `windows` (window prefetch, msa/window_prefetch.h, may serve part of
// an operand of any size) no item is left out for being heavier than the
// capacity: a window of W bytes of an S-byte buffer weighs W and is worth
// W / S of the bytes accessed through it, a fraction of the item the
// fractional relaxation already allows, so the bound stays sound.
double TimeBound(const ProgramAnalysis& analysis, const CostModel& cost, Bytes capacity_bytes,
                 bool windows = false);

}  // namespace memplan
