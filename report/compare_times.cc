#include "report/compare_times.h"

#include <array>

#include "fmt/format.h"
#include "io/byte_size.h"
#include "report/aligned_rows.h"
#include "report/map/format.h"

namespace memplan {

std::optional<double> RatioToBound(std::optional<double> estimated_s, double bound_s) {
  if (!estimated_s) return std::nullopt;
  if (bound_s > 0) return *estimated_s / bound_s;
  if (*estimated_s == 0) return 1.0;
  return std::nullopt;
}

std::string FormatCompareTimes(const CompareTimes& times) {
  if (!times.does_not_fit.empty()) {
    return fmt::format("\nestimated time on {} (fast memory {}): none: {}\n", times.target,
                       FormatBytes(times.fast_memory_bytes), times.does_not_fit);
  }
  std::string out = fmt::format(
      "\nestimated time on {} (fast memory {}); only the kept plan is verified\n\n", times.target,
      FormatBytes(times.fast_memory_bytes));
  std::vector<std::vector<std::string>> lines = {{"strategy", "est. time", "vs bound", "rule"}};
  for (const CompareTimeRow& row : times.rows) {
    const std::optional<double> ratio = RatioToBound(row.estimated_s, times.bound_s);
    std::string time = "does not fit";
    if (row.estimated_s) {
      time = memmap::FormatSeconds(*row.estimated_s);
    } else if (!row.not_run.empty()) {
      time = "not run";
    }
    std::string rule = row.planner.empty() ? row.rule : row.planner + ": " + row.rule;
    if (!row.not_run.empty()) rule += " (not run: " + row.not_run + ")";
    if (!row.does_not_fit.empty()) rule += " (does not fit: " + row.does_not_fit + ")";
    lines.push_back({row.kept ? row.name + " (kept)" : row.name, time,
                     ratio ? fmt::format("{:.3f}", *ratio) : std::string("-"), rule});
  }
  return out + AlignedRows(lines, {false, true, true, false});
}

}  // namespace memplan
