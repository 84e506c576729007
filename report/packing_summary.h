// The summary lines that say how `auto` packed the transient pool
// (Plan::packing, packing/portfolio.h): the effort, the gap to the lower
// bound, and one line per member that ran (its peak and % over the bound)
// or was skipped (why), e.g.
//   auto (effort default): gap 0 bytes to the lower bound; 8 members ran, 1 skipped
//     ran      online-best-fit           1120 bytes   (1.82% over)
//     ran      best-fit-spatial          1100 bytes   (0.00% over)  <- chosen
//     skipped  skyline-local-search      the best peak is at the lower bound
// With `with_seconds` each member that ran and the header also show their
// wall-clock seconds (not deterministic, hence optional: `--timings`).
#pragma once

#include <string>

#include "ir/plan.h"

namespace memplan {

// The lines above for `plan` ("" when plan.packing is unset).
std::string PackingLines(const Plan& plan, bool with_seconds);

}  // namespace memplan
