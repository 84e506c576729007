// Static orders of the buffers that break ties between the exact search's
// choices at one offset (MiniMalloc's preordering heuristics, ASPLOS 2023):
// buffers in the most crowded sections first, longer ones first, larger
// size x length first, in three priorities. The search tries them in turn
// with growing node limits (parallel_decide.h): an order that suits an
// instance usually finds a packing within a few thousand nodes.
#pragma once

#include <cstdint>
#include <vector>

#include "packing/exact/exact_problem.h"

namespace memplan::exact {

// rank[b]: buffer b's position in the order (0 = first).
using SearchOrder = std::vector<std::int32_t>;

// The three orders, by keys (descending, then buffer number):
// 0: length, area, crowd; 1: crowd, area, length; 2: crowd, length, area;
// crowd = max over the buffer's sections of the bytes of all buffers there.
// O(n log n + sum of spans).
std::vector<SearchOrder> SearchOrders(const Subproblem& problem);

}  // namespace memplan::exact
