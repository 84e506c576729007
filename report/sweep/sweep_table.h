// `memplan sweep`'s table (stdout) and CSV (--csv): one line per grid point.
#pragma once

#include <string>
#include <vector>

#include "report/sweep/sweep_row.h"

namespace memplan {

// The table printed by `memplan sweep` for `rows` of `input`: a heading line
// ("sweep of INPUT: N plans, all verified" or "..., K do not fit"), then one
// column per swept dim, the fast-memory size when any row has one, the
// transient extent (the default-memory activations' pool), its lower bound
// and the gap in percent, the default memory used (highest byte, weights
// included) and, with fast memory, the fast memory used, the estimated time
// and the time bound (msa/time_bound.h; memmap::FormatSeconds) and the captured share of the possible speed-up
// (docs/formats.md#glossary). When a point is over capacity, a last column
// "capacity" reads "fits" or "does not fit: REASON" (SweepCapacityReason),
// and that row's figures are what the point needs. Columns are padded to
// their widest cell. With --algorithm exact a last line says whether every
// point's search completed or how many stopped at the (default) time limit,
// and that --time-limit S searches longer.
//
// Example (two batch sizes, --capacity 3MiB):
//   sweep of m.onnx: 2 plans, 1 verified, 1 do not fit
//   batch  transient extent  lower bound  over bound  default used  capacity
//   1      1.00 MiB          1.00 MiB     0.0 %       3.00 MiB      fits
//   2      2.00 MiB          2.00 MiB     0.0 %       4.00 MiB      does not fit: default memory needs ...
std::string FormatSweepTable(const std::string& input, const std::vector<SweepRow>& rows);

// The reason in a planner's capacity message: what follows "plan does not
// fit: " (e.g. "transient pool needs 97.25 KiB (99584 bytes), 57.25 KiB
// (58624 bytes) over --capacity transient=40KiB"), or the whole message.
std::string SweepCapacityReason(const std::string& message);

// The rows as CSV (RFC 4180; a header line, then one line per row, '\n'
// line ends): one column per swept dim (named by the dim), then
// fast_memory_bytes, peak_bytes, lower_bound_bytes, default_bytes,
// alternate_bytes, estimated_time_s, time_bound_s, time_all_default_s, time_all_fast_s,
// captured_speedup, prefetches, evictions, time_steps, buffers, verified,
// over_capacity. A row over capacity has the figures of the point planned
// without the limits (the bytes it needs) and the planner's message in
// over_capacity. Figures a row lacks (no fast memory; a point that does not
// plan without the limits either) are empty fields; times have 9
// significant digits.
std::string FormatSweepCsv(const std::vector<SweepRow>& rows);

}  // namespace memplan
