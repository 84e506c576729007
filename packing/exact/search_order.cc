#include "packing/exact/search_order.h"

#include <algorithm>
#include <array>
#include <numeric>

namespace memplan::exact {

void RankBuffers(const Subproblem& problem, const std::vector<std::int32_t>& buffers,
                 const std::vector<Bytes>& section_bytes, int priority, SearchOrder& rank) {
  // keys[k] = {crowd, length, area} of buffers[k]
  std::vector<std::array<Bytes, 3>> keys(buffers.size());
  for (std::size_t k = 0; k < buffers.size(); ++k) {
    const SearchBuffer& b = problem.buffers[static_cast<std::size_t>(buffers[k])];
    Bytes crowd = 0;
    for (std::int32_t s = b.first_section; s <= b.last_section; ++s) {
      crowd = std::max(crowd, section_bytes[static_cast<std::size_t>(s)]);
    }
    keys[k] = {crowd, b.length, b.size * b.length};
  }
  constexpr std::array<std::array<int, 3>, kSearchOrderCount> kPriorities = {
      {{1, 2, 0}, {0, 2, 1}, {0, 1, 2}}};
  const std::array<int, 3>& keys_in_turn = kPriorities[static_cast<std::size_t>(priority)];
  std::vector<std::size_t> sorted(buffers.size());
  std::iota(sorted.begin(), sorted.end(), 0);
  std::sort(sorted.begin(), sorted.end(), [&](std::size_t x, std::size_t y) {
    for (int key : keys_in_turn) {
      const Bytes kx = keys[x][static_cast<std::size_t>(key)];
      const Bytes ky = keys[y][static_cast<std::size_t>(key)];
      if (kx != ky) return kx > ky;
    }
    return buffers[x] < buffers[y];
  });
  for (std::size_t r = 0; r < sorted.size(); ++r) {
    rank[static_cast<std::size_t>(buffers[sorted[r]])] = static_cast<std::int32_t>(r);
  }
}

std::vector<SearchOrder> SearchOrders(const Subproblem& problem) {
  std::vector<Bytes> section_bytes(static_cast<std::size_t>(problem.sections), 0);
  for (const SearchBuffer& b : problem.buffers) {
    for (std::int32_t s = b.first_section; s <= b.last_section; ++s) {
      section_bytes[static_cast<std::size_t>(s)] += b.size;
    }
  }
  std::vector<std::int32_t> all(problem.buffers.size());
  std::iota(all.begin(), all.end(), 0);
  std::vector<SearchOrder> orders;
  for (int priority = 0; priority < kSearchOrderCount; ++priority) {
    SearchOrder rank(problem.buffers.size(), 0);
    RankBuffers(problem, all, section_bytes, priority, rank);
    orders.push_back(std::move(rank));
  }
  return orders;
}

}  // namespace memplan::exact
