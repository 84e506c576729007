#include "msa/sliced_prefetch.h"

#include <algorithm>

namespace memplan {

std::vector<ByteSlice> SliceBuffer(Bytes size, std::int64_t max_slices,
                                   const SlicedPrefetchOptions& options, Bytes alignment) {
  const std::vector<ByteSlice> whole = {{0, size}};
  if (max_slices < 2 || size < options.min_bytes || size <= 0) return whole;
  const Bytes align = std::max<Bytes>(alignment, 1);
  std::int64_t count = max_slices;
  if (options.preferred_slice_bytes > 0) {
    count = std::min(count, (size + options.preferred_slice_bytes - 1) / options.preferred_slice_bytes);
  }
  if (count < 2) return whole;
  // Each slice but the last: ceil(size / count) rounded up to the alignment.
  Bytes step = (size + count - 1) / count;
  step = (step + align - 1) / align * align;
  if (step >= size) return whole;
  std::vector<ByteSlice> slices;
  for (Bytes offset = 0; offset < size; offset += step) {
    slices.push_back({offset, std::min(step, size - offset)});
  }
  if (slices.size() < 2) return whole;
  return slices;
}

std::vector<TimeStep> PickSliceStarts(std::size_t count, TimeStep first, TimeStep done,
                                      const std::vector<TimeStep>& own_steps,
                                      const std::function<double(TimeStep, TimeStep)>& elapsed) {
  std::vector<TimeStep> starts;
  if (count == 0) return starts;
  starts.push_back(first);
  const double total = elapsed(first, done);
  // Own steps in (first, done): the candidates for later slices.
  auto lo = std::upper_bound(own_steps.begin(), own_steps.end(), first);
  auto hi = std::lower_bound(own_steps.begin(), own_steps.end(), done);
  for (std::size_t k = 1; k < count; ++k) {
    const double wanted = total * static_cast<double>(count - k) / static_cast<double>(count);
    TimeStep chosen = starts.back();
    // elapsed(t, done) only shrinks as t grows: keep the last t that meets it.
    for (auto it = lo; it != hi; ++it) {
      if (*it < chosen) continue;
      if (elapsed(*it, done) + 1e-12 * total < wanted) break;
      chosen = *it;
    }
    starts.push_back(chosen);
  }
  return starts;
}

}  // namespace memplan
