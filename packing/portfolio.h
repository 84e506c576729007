// The kAuto packer: run several heuristics on the same items and keep the
// lowest peak (XLA's ChooseBestHeapAlgorithm, packing.md §2.4, with more
// orders), then try to improve on the best skyline packing by local search.
// docs/packing.md has the members' sources and measured results.
//
// Members: online-best-fit, best-fit-spatial, best-fit-temporal,
// best-fit-busiest, best-fit-start-time, in-order, skyline-longest,
// skyline-area, skyline-crowded, then skyline-local-search (or
// skyline-window-search) and exact. Ties on the peak go to the earlier of
// the tie-break order best-fit-spatial, best-fit-temporal,
// best-fit-busiest, best-fit-start-time, in-order, skyline-longest,
// skyline-area, skyline-crowded, online-best-fit, then the members started
// under a cap (2. below) in the same order (the searches count only when
// strictly lower).
//
// How much runs is set by the effort (PackOptions::effort) through a work
// budget (member_cost.h), never by a clock unless --time-limit is given:
// 1. Every member's work is estimated from n and the overlapping pairs p.
//    online-best-fit (O(n log n) whatever p) always runs first (lane 0, no
//    limit: it is the fallback; its estimate is charged to lane 0); the
//    others are taken in order of expected gain per estimated cost
//    (MemberGain in portfolio.cc over the estimate; ties by the tie-break
//    order; kFast: gain alone, among the members whose estimate is near
//    n log n or negligible, kNegligibleWork).
// 2. The lanes are planned before anything runs, and an estimate never
//    skips a member: first each member whose estimate fits the work left
//    in the lane with the most left is admitted there, charged its
//    estimate and allowed up to 2 x it (the estimates are within 0.5-2x of
//    the measured work, docs/packing.md), never more than the lane has
//    left; then each member that did not fit starts anyway in the lane
//    with the most left, capped at all that is left there and in the other
//    lane (so a member that fits the whole budget run alone gets it), and
//    charged up to its estimate, its own lane first.
//    Best fit, in-order and skyline count their work as they run and stop
//    at their allowance ("stopped when it had used the ... of work allowed
//    to it"): a stopped member costs at most its cap. A member is skipped
//    only when both lanes are used up (kFast: also when its estimate does
//    not fit; fast stays near n log n). The counts of a lane add up to
//    about its half of the effort's budget when the estimates are right,
//    never to more than twice it. Counts depend on the input alone, so the
//    members that run and the plan are the same on every machine and load.
//    The two lanes run on PackingThreads() threads (one thread: lane 0, then
//    lane 1).
// 3. As soon as one member reaches the max-live lower bound, the members of
//    a worse tie-break rank cannot win and are skipped ("lower bound reached
//    by" the best-ranked member at the bound, even one that already ran);
//    members of a better rank still run, so the outcome and the report are
//    the same for any thread count. A member of a worse rank that is
//    running stops within 16 of its steps (packing/deadline.h, MootWhen),
//    and so does a best-fit or in-order member of any rank whose own
//    packing has risen above the bound (its peak could only be higher;
//    MootWhen::RoseAbove); it is reported "not needed" whether it stopped
//    or had finished, so the report does not depend on timing either.
// 4. When the best peak is still above the bound and the three skyline
//    members ran, two local searches (local_search.h), and a third when the
//    skyline-crowded packing is the lowest start (SearchStarts), share the
//    effort's search budget; each counts its re-packs and stops at its
//    share (plus one packing of its start). Inputs too large for it get the
//    window search (window_search.h) from the lowest skyline packing.
// 5. When the best peak is still above the bound, the exact member
//    (exact_member.h) decides whether a packing at the bound exists, within
//    the effort's exact work (member_cost.h) counted in search nodes; it
//    wins when it finds one, and a proof that none exists raises the
//    result's lower bound. Inputs whose first round of restarts does not
//    fit the budget (a few thousand buffers and more) skip it.
// A --time-limit deadline skips members not yet started and stops the
// searches; the report then says time_limited (the plan may then differ
// from run to run).
#pragma once

#include "ir/units.h"
#include "packing/packer.h"

namespace memplan {

// Best of the portfolio; result.algorithm names the member that won, and
// Pack(items, that member, options) gives the same offsets (for exact:
// with options.capacity = its report's capacity);
// result.report lists every member with its peak or the reason it was
// skipped, and the wall-clock seconds. Cost: O(n log n) plus the effort's
// budget (member_cost.h).
PackResult AutoPack(const std::vector<PackItem>& items, const PackOptions& options);

}  // namespace memplan
