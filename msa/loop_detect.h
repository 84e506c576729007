// Detection of an unrolled loop in the flat schedule, the first half of
// XLA's memory-bound loop optimizer (msa/loop_optimizer.h): a run of time
// steps whose ops repeat with period L — the same *fingerprint* at step t
// and t + L — for at least `min_iterations` whole iterations.
//
// A step's fingerprint is what the op there does, not which buffers it
// touches: opcode, kind, the sizes of its operands and results, its cost
// (flops, transcendentals, bytes accessed) and scratch bytes. Only steps of
// the entry computation's own straight-line code take part: a step with
// several ops, a callee's step, or a control-flow, execute or async op
// never matches any other step, so a loop never spans one.
//
// Example: fingerprints A B C B C B C D (A, D unique) with min_iterations 3
// give the loop start 1, period 2, iterations 3 (steps 1..6).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "analysis/analyze.h"
#include "ir/program.h"
#include "ir/units.h"

namespace memplan {

// A repeating run: `iterations` copies of `period` steps from step `start`.
struct DetectedLoop {
  TimeStep start = 0;
  TimeStep period = 0;
  std::int64_t iterations = 0;
  TimeStep end() const { return start + period * iterations; }  // first step after the loop
  bool operator==(const DetectedLoop&) const = default;
};

// The loop of `keys` (one per time step; equal keys = equal fingerprints, a
// negative key matches nothing) covering the most steps (period x
// iterations) among runs of at least `min_iterations` (>= 2) iterations;
// ties go to the smaller period, then the earlier start. Candidate periods
// are the distances from a step to the next step with the same key that
// occur at least min_iterations - 1 times, at most kMaxCandidatePeriods of
// them (the most frequent; ties: the smaller); each is checked in one O(T)
// scan, so the whole search is O(T log T + kMaxCandidatePeriods x T) for T
// steps. A loop in which every op of the period recurs inside the period
// (e.g. A B B A A B B A) is found only when its period is such a distance.
// nullopt: no such run.
inline constexpr std::size_t kMaxCandidatePeriods = 64;
std::optional<DetectedLoop> FindRepeatingRun(std::span<const std::int64_t> keys,
                                             std::int64_t min_iterations);

// The keys FindRepeatingRun reads for `program`'s flat schedule: equal for
// steps with equal fingerprints (top of this file), -1 for steps that take
// no part. O(ops + operands) expected (hashing).
std::vector<std::int64_t> StepFingerprints(const Program& program, const ProgramAnalysis& analysis);

// FindRepeatingRun over StepFingerprints.
std::optional<DetectedLoop> DetectLoop(const Program& program, const ProgramAnalysis& analysis,
                                       std::int64_t min_iterations);

}  // namespace memplan
