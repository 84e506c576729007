// `memplan sweep`'s table (stdout) and CSV (--csv): one line per grid point.
#pragma once

#include <string>
#include <vector>

#include "report/sweep/sweep_row.h"

namespace memplan {

// The table printed by `memplan sweep` for `rows` of `input`: a heading line
// ("sweep of INPUT: N plans, all verified" or "..., K do not fit"), then one
// column per swept dim, the fast-memory size when any row has one, the
// default-memory transient peak, its lower bound and the gap in percent, the
// default memory in all (weights included) and, with fast memory, the bytes
// used there, the estimated time (memmap::FormatSeconds) and the captured share of the possible
// speed-up. A point over capacity prints "does not fit: MESSAGE". Columns are
// padded to their widest cell.
//
// Example (two batch sizes, no fast memory):
//   sweep of m.onnx: 2 plans, all verified
//   batch  peak      lower bound  over bound  default total
//   1      1.00 MiB  1.00 MiB     0.0 %       3.00 MiB
//   2      2.00 MiB  2.00 MiB     0.0 %       4.00 MiB
std::string FormatSweepTable(const std::string& input, const std::vector<SweepRow>& rows);

// The rows as CSV (RFC 4180; a header line, then one line per row, '\n'
// line ends): one column per swept dim (named by the dim), then
// fast_memory_bytes, peak_bytes, lower_bound_bytes, default_bytes,
// alternate_bytes, estimated_time_s, time_all_default_s, time_all_fast_s,
// captured_speedup, prefetches, evictions, time_steps, buffers, verified,
// over_capacity. Figures a row lacks (no fast memory, over capacity) are
// empty fields; times have 9 significant digits.
std::string FormatSweepCsv(const std::vector<SweepRow>& rows);

}  // namespace memplan
