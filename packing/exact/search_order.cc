#include "packing/exact/search_order.h"

#include <algorithm>
#include <array>
#include <numeric>

namespace memplan::exact {

std::vector<SearchOrder> SearchOrders(const Subproblem& problem) {
  const std::vector<SearchBuffer>& buffers = problem.buffers;
  const std::size_t n = buffers.size();
  std::vector<Bytes> section_bytes(static_cast<std::size_t>(problem.sections), 0);
  for (const SearchBuffer& b : buffers) {
    for (std::int32_t s = b.first_section; s <= b.last_section; ++s) {
      section_bytes[static_cast<std::size_t>(s)] += b.size;
    }
  }
  // keys[b] = {crowd, length, area}
  std::vector<std::array<Bytes, 3>> keys(n);
  for (std::size_t b = 0; b < n; ++b) {
    Bytes crowd = 0;
    for (std::int32_t s = buffers[b].first_section; s <= buffers[b].last_section; ++s) {
      crowd = std::max(crowd, section_bytes[static_cast<std::size_t>(s)]);
    }
    keys[b] = {crowd, buffers[b].length, buffers[b].size * buffers[b].length};
  }
  constexpr std::array<std::array<int, 3>, 3> kPriorities = {{{1, 2, 0}, {0, 2, 1}, {0, 1, 2}}};
  std::vector<SearchOrder> orders;
  for (const auto& priority : kPriorities) {
    std::vector<std::int32_t> sorted(n);
    std::iota(sorted.begin(), sorted.end(), 0);
    std::stable_sort(sorted.begin(), sorted.end(), [&](std::int32_t x, std::int32_t y) {
      for (int k : priority) {
        const Bytes kx = keys[static_cast<std::size_t>(x)][static_cast<std::size_t>(k)];
        const Bytes ky = keys[static_cast<std::size_t>(y)][static_cast<std::size_t>(k)];
        if (kx != ky) return kx > ky;
      }
      return false;
    });
    SearchOrder rank(n);
    for (std::size_t r = 0; r < n; ++r) rank[static_cast<std::size_t>(sorted[r])] = static_cast<std::int32_t>(r);
    orders.push_back(std::move(rank));
  }
  return orders;
}

}  // namespace memplan::exact
