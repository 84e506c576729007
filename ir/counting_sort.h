// StableSortBySmallKey: a stable counting sort, for keys from a small range
// such as time steps or slots -- at 10^6-10^7 elements a comparison sort's
// O(n log n) random-looking passes take seconds where two sequential passes
// over the elements and one over the keys take a fraction of that.
//
// Cost: O(n + keys) time; n extra elements and keys + 1 counts of memory
// while it runs.
//
// Example: {(3,a), (1,b), (3,c), (0,d)} by the first member, keys = 4 ->
// {(0,d), (1,b), (3,a), (3,c)}: equal keys keep their order.
#pragma once

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace memplan {

// Sorts `elements` by key_of(element), each in [0, keys), keeping the order
// of elements with equal keys. Needs fewer than 2^32 elements.
template <typename T, typename KeyOf>
void StableSortBySmallKey(std::vector<T>& elements, std::size_t keys, KeyOf key_of) {
  std::vector<std::uint32_t> first(keys + 1, 0);
  for (const T& element : elements) ++first[static_cast<std::size_t>(key_of(element)) + 1];
  for (std::size_t k = 1; k <= keys; ++k) first[k] += first[k - 1];
  std::vector<T> sorted(elements.size());
  for (T& element : elements) {
    const auto key = static_cast<std::size_t>(key_of(element));
    sorted[first[key]++] = std::move(element);
  }
  elements.swap(sorted);
}

}  // namespace memplan
