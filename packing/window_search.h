// Window search: lowers a packing's peak by re-packing one window of time at
// a time around the items at the peak, the other items staying where they
// are (a large-neighbourhood search; Shaw, CP 1998, with time windows as the
// neighbourhoods). It is kAuto's improvement step on inputs too large for
// the skyline local search (local_search.h), whose every step re-packs all
// of them: a window holds a few thousand items at most, whatever n.
//
// While the peak P is above `target`: take an item whose top is P (the
// first by index not yet tried at this P); its window is its live range,
// widened on both sides by 0, 1, 2, 4 and 8 times its length. The items
// live only inside the window are re-packed (at most 2,048: those that
// reach highest, a band at the top of a wide window), and every other item
// live during it is a fixed obstacle at its offset (PackItem::fixed_offset), by
// best fit in spatial, temporal and busiest order, each counting its work,
// until one puts every re-packed item below P; that packing is kept. A window that no packer improves is widened; an
// item that no window improves is passed over at this P. When no item is at
// P any more the peak has dropped, and the search goes on at the new peak;
// it ends when every item at the peak was passed over, the target is
// reached, or its work is used up.
//
// Example: a [0,1] 10 B @10 leaves a 10 B hole below it, so h [1,1] 20 B
// sits on it at 20 (peak 40, max-live 30). h's own window [1,1] keeps a as
// an obstacle and cannot lower h; widened by h's length to [0,2] it holds
// both: best fit puts h at 0 and a at 20, peak 30.
//
// Cost: per window O(m log m + q) to find its m items (an interval index
// over all n items, built once in O(n log n)) plus the packers on them
// (O(m^2) at worst); O(n) per drop of the peak to find the items at it.
// Deterministic: work is counted, never timed, unless `deadline` stops it.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "ir/units.h"
#include "packing/deadline.h"
#include "packing/member_cost.h"
#include "packing/packer.h"

namespace memplan {

// The packer and the portfolio's name for a skyline packing improved by
// the window search.
inline constexpr std::string_view kSkylineWindowSearchName = "skyline-window-search";

struct WindowSearchOutcome {
  // Offsets with a peak below the start's, or nullopt when none was found.
  std::optional<std::vector<Bytes>> offsets;
  Bytes peak = 0;              // their peak (the start's when nullopt)
  double work = 0;             // work units counted (member_cost.h)
  std::int64_t windows = 0;    // windows re-packed
  std::int64_t improved = 0;   // windows whose re-packing was kept
  bool time_limited = false;   // `deadline` stopped it
};

// Improves `offsets` (a valid packing of `items`, every offset a multiple of
// max(item alignment, `alignment`)) towards `target` (the max-live bound)
// within `work_limit` work units. Items with a fixed offset never move.
WindowSearchOutcome SearchWindows(const std::vector<PackItem>& items, std::vector<Bytes> offsets,
                                  Bytes target, Bytes alignment, double work_limit,
                                  const PackDeadline& deadline = {});

// The window search's work at an effort: a quarter of its search work (the
// local search's two threads share all of it). Half, the local search's
// wall time on one thread, lowered no peak of the generated families or
// shared traces more than a quarter did (bench/families_table.sh) and cost
// up to 0.6 s more on dense-5000 at 10^5 buffers, where one window of 6,000
// buffers takes about 0.3 s.
double WindowSearchWork(const EffortBudget& budget);

// The skyline-window-search packer: the lowest of the three skyline packings
// (BestSkylineStart, local_search.h), then SearchWindows down to the
// max-live bound with WindowSearchWork of the effort. Named
// "skyline-window-search" even when the search finds nothing lower; when
// kAuto at the same effort reports this name, this packer gives the same
// offsets (unless a --time-limit cut either). Cost: three skyline runs plus
// the search.
PackResult SkylineWindowSearchPack(const std::vector<PackItem>& items, const PackOptions& options);

}  // namespace memplan
