#include "packing/local_search.h"

#include <utility>

#include "packing/pack_support.h"

namespace memplan {

std::optional<LocalSearchResult> ImproveSkylinePriority(const SkylinePacker& packer,
                                                        std::vector<std::int32_t> priority,
                                                        Bytes peak, Bytes target,
                                                        std::int64_t steps, std::uint64_t seed) {
  const std::uint64_t n = priority.size();
  if (n < 2) return std::nullopt;
  std::uint64_t state = seed;
  auto next = [&] { return Mix64(state++); };
  std::optional<LocalSearchResult> best;
  Bytes current_peak = peak;  // peak of `priority`; never rises
  std::vector<std::int32_t> candidate;
  for (std::int64_t step = 0; step < steps && current_peak > target; ++step) {
    candidate = priority;
    const std::uint64_t swaps = 1 + next() % 3;
    for (std::uint64_t k = 0; k < swaps; ++k) {
      std::swap(candidate[next() % n], candidate[next() % n]);
    }
    std::optional<std::vector<Bytes>> offsets = packer.Run(candidate, current_peak + 1);
    if (!offsets) continue;  // higher peak: rejected
    priority.swap(candidate);
    current_peak = PeakOf(packer.items(), *offsets);
    if (current_peak < peak) best = LocalSearchResult{std::move(*offsets), current_peak};
  }
  return best;
}

}  // namespace memplan
