// What a TFLite Micro user asks of a plan: how big the arena head must be.
// The head holds the planned non-persistent tensors (the transient pool);
// weights stay in flash and variables in the arena's tail.
#pragma once

#include <string>

#include <vector>

#include "io/tflite/micro_lifetimes.h"
#include "ir/buffer_set.h"
#include "ir/plan.h"

namespace memplan {

// TFLite Micro's buffer alignment (kBufferAlignment in its allocator).
inline constexpr Bytes kTfliteMicroAlignment = 16;

struct TfliteArenaFigures {
  Bytes memplan_head = 0;   // the plan's transient peak
  Bytes greedy_head = 0;    // TFLite Micro's GreedyMemoryPlanner on its own lifetimes
  Bytes lower_bound = 0;    // the plan's lower bound (max live transient bytes)
};

// memplan's figures from `plan`; the greedy figure from TFLite Micro's own
// view of the head (`head`: every tensor its own buffer, lifetimes by
// operator), planned by peers::TfliteMicroGreedyPack at 16-byte alignment
// (online: an offline plan's offsets are not given to it).
// O(n log n + p log p), p the pairs of tensors live together.
TfliteArenaFigures TfliteArenaFiguresOf(const std::vector<TfliteHeadTensor>& head,
                                        const Plan& plan);

// One summary line, e.g. "TFLite Micro arena head: memplan 55296 bytes
// (54.00 KiB), TFLite Micro's greedy planner 55296 bytes (54.00 KiB),
// lower bound 55296 bytes (54.00 KiB)".
std::string FormatTfliteArenaSummary(const TfliteArenaFigures& figures);

}  // namespace memplan
