// Static orders of the buffers that break ties between the exact search's
// choices at one offset (MiniMalloc's preordering heuristics, ASPLOS 2023):
// buffers in the most crowded sections first, longer ones first, larger
// size x length first, in three priorities. The search tries them in turn
// with growing node limits (parallel_decide.h): an order that suits an
// instance usually finds a packing within a few thousand nodes.
// RankBuffers ranks the buffers of one part of a decomposition again, with
// the crowd measured on the bytes still unplaced.
#pragma once

#include <cstdint>
#include <vector>

#include "ir/units.h"
#include "packing/exact/exact_problem.h"

namespace memplan::exact {

// rank[b]: buffer b's position in the order (0 = first).
using SearchOrder = std::vector<std::int32_t>;

// The number of orders (priorities) there are: 3.
inline constexpr int kSearchOrderCount = 3;

// Ranks `buffers` (numbers in `problem`) by order `priority` (0 ..
// kSearchOrderCount - 1), keys descending, then buffer number:
// 0: length, area, crowd; 1: crowd, area, length; 2: crowd, length, area;
// crowd = max over the buffer's sections s of section_bytes[s]. Writes
// rank[b] = 0 .. buffers.size() - 1 for those buffers only.
// O(k log k + their spans) for k buffers.
void RankBuffers(const Subproblem& problem, const std::vector<std::int32_t>& buffers,
                 const std::vector<Bytes>& section_bytes, int priority, SearchOrder& rank);

// The kSearchOrderCount orders of every buffer, crowd = the bytes of all
// buffers in a section. O(n log n + sum of spans).
std::vector<SearchOrder> SearchOrders(const Subproblem& problem);

}  // namespace memplan::exact
