// Human-readable summaries printed by `memplan plan` and `memplan stats`.
#pragma once

#include <optional>
#include <string>

#include "analysis/live_profile.h"
#include "driver/input.h"
#include "ir/plan.h"

namespace memplan {

// Per-pool table (buffers, bytes, peak, lower bound, % over the bound), the
// winning algorithm, verification status and, when given, the transient peak
// without aliasing. Exact byte counts, with a human size alongside.
std::string FormatPlanSummary(const LoadedInput& input, const Plan& plan,
                              std::optional<Bytes> peak_without_alias);

// `memplan stats`: buffers, time steps, total bytes, lower bound and the first
// time it is reached, per-lifetime totals and a coarse live-bytes profile.
std::string FormatStats(const LoadedInput& input);

// "12.50%" style percentage of `peak` over `bound` ("0.00%" when bound is 0).
std::string PercentOver(Bytes peak, Bytes bound);

}  // namespace memplan
