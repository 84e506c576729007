// Per-op cost model for memory space assignment (XLA MSA's cost analysis,
// msa.md §4): an op's elapsed time is max(compute time, memory time), where
//   compute = max(flops / flops_per_second,
//                 transcendentals / transcendentals_per_second)
//   memory  = bytes served by alternate memory / alternate_bandwidth
//           + remaining bytes accessed / default_bandwidth
// and an async copy of n bytes takes n / copy_bandwidth. Ops inside while
// loops run trip_count times per enclosing loop (Op::trip_count, else
// `default_trip_count` per nest level).
//
// Bytes accessed per operand/result: each operand and result accounts for its
// value's size (timepoints 0); when Op::cost.bytes_accessed is given, those
// shares are scaled so that they sum to it (all of it counts as default-memory
// traffic when the sizes sum to 0). Only compute ops (OpKind::kCompute) cost
// anything: control-flow ops (while, conditional, call, execute), async
// start/done ops and constants take 0 s and access 0 bytes. A while's trip
// count applies to both its condition and its body; conditional branches and
// calls run once per execution of their caller. Ops unreachable from the
// entry run 0 times.
//
// Example: add(a: 4 MiB, b: 4 MiB) -> c: 4 MiB, 1M flops, target 1e12 flop/s,
// default 1e10 B/s, alternate 1e11 B/s: compute 1 us, memory all-default
// 12 MiB / 1e10 = 1.258 ms; with a in alternate memory 0.042 + 0.839 ms.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "analysis/analyze.h"
#include "ir/program.h"
#include "msa/target.h"

namespace memplan {

struct CostModelOptions {
  std::int64_t default_trip_count = 5;  // per while nest level without trip_count
};

class CostModel {
 public:
  // `program` and `analysis` must outlive the model. O(ops + operands).
  CostModel(const Program& program, const ProgramAnalysis& analysis, const Target& target,
            CostModelOptions options = {});

  const Target& target() const;

  // Seconds for one execution of `op`, with the listed operand / result
  // positions (indices into Op::operands / Op::results) read or written in
  // alternate memory and everything else in default memory. List each
  // position once; positions out of range are ignored.
  double OpElapsed(OpId op, std::span<const int> operands_in_alternate,
                   std::span<const int> results_in_alternate) const;
  // Seconds for one execution of `op` when `alternate_bytes` of the bytes it
  // accesses (OperandBytesAccessed / ResultBytesAccessed summed; clamped to
  // its total) are served from alternate memory and the rest from default
  // memory: OpElapsed for positions whose bytes sum to `alternate_bytes`,
  // also for a fractional amount (msa/time_bound.h). Never increases with
  // `alternate_bytes` >= 0.
  double OpElapsedWithAlternateBytes(OpId op, double alternate_bytes) const;
  double OpElapsedAllDefault(OpId op) const;
  double OpElapsedAllAlternate(OpId op) const;
  double ComputeSeconds(OpId op) const;

  // Bytes `op` reads through operand `i` / writes through result `i` (0 for a
  // position out of range).
  double OperandBytesAccessed(OpId op, int i) const;
  double ResultBytesAccessed(OpId op, int i) const;
  // Every byte `op` accesses: its operand and result shares, or all of
  // Op::cost.bytes_accessed when its values have size 0.
  double TotalBytesAccessed(OpId op) const;

  // How many times `op` runs per program execution (product of the trip
  // counts of the enclosing while loops).
  double ExecutionCount(OpId op) const;
  // While-loop nesting depth at time step `t`.
  int LoopDepthAt(TimeStep t) const;

  // Seconds an async copy of `bytes` takes.
  double CopySeconds(Bytes bytes) const;

  // Execution-weighted all-default elapsed seconds of the ops at time steps
  // strictly between `start` and `end` (what a copy issued after `start` and
  // awaited before `end` can overlap), normalised by the execution count of
  // the shallowest loop level in [start, end] as the reference does (0 when
  // that count is 0). Ops sharing a time step (waves) run concurrently: the
  // step costs its longest op. `start` may be -1 (before the first op); 0
  // when end - start < 2. O(1) after O(T log T) precomputation.
  double ElapsedBetween(TimeStep start, TimeStep end) const;

  // XLA's alternate-memory benefit of one use (operand) or definition
  // (result): if the op is memory bound, the seconds saved by serving that
  // operand/result from alternate memory times the execution count; if
  // compute bound, the (negative) distance to being memory bound.
  double UseBenefit(OpId op, int operand) const;
  double DefinitionBenefit(OpId op, int result) const;

  // The sort key of a buffer (bigger = allocated first): the definition's
  // benefit combined with every use's (positive benefits add, otherwise the
  // max is kept), divided by sqrt(size); 0 for a zero-size buffer. The
  // definition is the earliest op writing the buffer (none for parameters);
  // uses are reads by compute ops only, since the reference looks through
  // control flow into the called computations.
  double MemoryBoundedness(BufferId buffer) const;

 private:
  struct Impl;
  std::shared_ptr<const Impl> impl_;
};

}  // namespace memplan
