// The summary lines that say how `auto` packed the transient pool
// (Plan::packing, packing/portfolio.h): the effort, the gap to the lower
// bound, and one line per member that ran (its peak and % over the bound),
// was stopped part way (MemberStopped: its allowance or --time-limit ran
// out; why), in the order auto tried them, then one per member skipped
// before it started (why; a reason may name a member listed above), e.g.
//   auto (effort default): 2 members ran, 1 stopped, 1 skipped; the lowest peak is chosen, 0 bytes over the lower bound
//     members in the order auto tried them (most expected gain per estimated cost first), then those it skipped
//     ran      online-best-fit       1120 bytes (1.82% over)
//     ran      best-fit-spatial      1100 bytes (0.00% over)  <- chosen
//     stopped  skyline-longest       stopped by --time-limit before it finished (raise --time-limit)
//     skipped  skyline-local-search  it starts from both skyline packings, and not both ran
// The "stopped" count is left out when no member stopped. The second line
// ends with "; work is in estimated seconds of one core, not measured time"
// only when a line below gives work in seconds (a reason with
// PackMemberReport::quotes_work, or the counts `with_seconds` adds).
// With `with_seconds` each member that ran and the header also show their
// wall-clock seconds (not deterministic, hence optional: `--timings`), and
// a member that counts its work what it counted and was allowed.
#pragma once

#include <string>

#include "ir/plan.h"

namespace memplan {

// The lines above for `plan` ("" when plan.packing is unset).
std::string PackingLines(const Plan& plan, bool with_seconds);

}  // namespace memplan
