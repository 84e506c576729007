#include "report/sweep/sweep_table.h"

#include <algorithm>
#include <cstddef>

#include "fmt/format.h"
#include "io/byte_size.h"
#include "io/csv_field.h"
#include "ir/plural.h"
#include "report/map/format.h"

namespace memplan {
namespace {

// The dim names of the grid, in order (every row has the same ones).
std::vector<std::string> DimNames(const std::vector<SweepRow>& rows) {
  std::vector<std::string> names;
  if (rows.empty()) return names;
  for (const auto& [name, value] : rows.front().point.dims) names.push_back(name);
  return names;
}

bool AnyFastMemory(const std::vector<SweepRow>& rows) {
  return std::any_of(rows.begin(), rows.end(), [](const SweepRow& row) {
    return row.point.fast_memory.has_value() || row.msa.has_value();
  });
}

std::string Percent(double share) { return fmt::format("{:.1f} %", 100.0 * share); }

std::string PercentOver(Bytes peak, Bytes bound) {
  if (bound == 0) return peak == 0 ? "0.0 %" : "n/a";
  return Percent(static_cast<double>(peak - bound) / static_cast<double>(bound));
}

// Joins `cells` padded to `widths` with two spaces, trailing blanks trimmed.
std::string Line(const std::vector<std::string>& cells, const std::vector<size_t>& widths) {
  std::string line;
  for (size_t c = 0; c < cells.size(); ++c) {
    line += cells[c];
    if (c + 1 < cells.size()) line += std::string(widths[c] - cells[c].size() + 2, ' ');
  }
  while (!line.empty() && line.back() == ' ') line.pop_back();
  return line + "\n";
}

// The line after the table when the points ran the exact search: whether
// every search completed, or how many stopped at which limit and how to
// give them longer. "" when no point searched.
std::string ExactSearchNote(const std::vector<SweepRow>& rows) {
  std::size_t searched = 0, stopped = 0;
  const SweepRow* limited = nullptr;
  for (const SweepRow& row : rows) {
    if (row.search_status.empty()) continue;
    ++searched;
    if (row.search_status != "stopped") continue;
    ++stopped;
    if (limited == nullptr) limited = &row;
  }
  if (searched == 0) return "";
  if (stopped == 0) {
    return fmt::format("exact search: completed at {} (optimal, or proven within or over the capacity)\n",
                       searched == 1 ? std::string("the point") : fmt::format("all {} points", searched));
  }
  return fmt::format(
      "exact search: stopped at its {}time limit of {} s at {} of {} (best packing found, "
      "not proven optimal); --time-limit S searches longer\n",
      limited->search_default_time_limit ? "default " : "", limited->search_time_limit_seconds,
      stopped, CountOf(searched, "point"));
}

}  // namespace

std::string FormatSweepTable(const std::string& input, const std::vector<SweepRow>& rows) {
  const std::vector<std::string> dims = DimNames(rows);
  const bool fast = AnyFastMemory(rows);
  const size_t over = static_cast<size_t>(std::count_if(
      rows.begin(), rows.end(), [](const SweepRow& row) { return row.over_capacity.has_value(); }));
  std::string text = fmt::format("sweep of {}: {}, {}\n", input, CountOf(rows.size(), "plan"),
                                 over == 0 ? std::string("all verified")
                                           : fmt::format("{} verified, {} do not fit",
                                                         rows.size() - over, over));
  std::vector<std::string> header = dims;
  if (fast) header.push_back("fast memory");
  for (const char* name : {"transient extent", "lower bound", "over bound", "default used"}) {
    header.push_back(name);
  }
  if (fast) {
    for (const char* name : {"fast used", "est. time", "bound", "captured"}) {
      header.push_back(name);
    }
  }
  // With a point over capacity, a last column says which fit.
  if (over > 0) header.push_back("capacity");
  std::vector<std::vector<std::string>> table{header};
  for (const SweepRow& row : rows) {
    std::vector<std::string> cells;
    for (const auto& [name, value] : row.point.dims) cells.push_back(std::to_string(value));
    if (fast) cells.push_back(row.point.fast_memory ? FormatBytes(*row.point.fast_memory) : "");
    const bool figures = row.HasFigures();
    const auto bytes = [&](Bytes value) { return figures ? FormatBytes(value) : std::string(); };
    cells.push_back(bytes(row.peak));
    cells.push_back(bytes(row.lower_bound));
    cells.push_back(figures ? PercentOver(row.peak, row.lower_bound) : "");
    cells.push_back(bytes(row.default_bytes));
    if (fast) {
      cells.push_back(row.alternate_bytes ? FormatBytes(*row.alternate_bytes) : "");
      cells.push_back(row.msa ? memmap::FormatSeconds(row.msa->estimated_time_s) : "");
      const bool bound = row.msa && row.msa->time_bound_s;
      cells.push_back(bound ? memmap::FormatSeconds(*row.msa->time_bound_s) : "");
      cells.push_back(row.msa ? Percent(row.captured_speedup) : "");
    }
    if (over > 0) {
      cells.push_back(row.over_capacity ? "does not fit: " + SweepCapacityReason(*row.over_capacity)
                                        : "fits");
    }
    table.push_back(std::move(cells));
  }
  std::vector<size_t> widths(header.size(), 0);
  for (const std::vector<std::string>& cells : table) {
    for (size_t c = 0; c < cells.size(); ++c) widths[c] = std::max(widths[c], cells[c].size());
  }
  for (const std::vector<std::string>& cells : table) text += Line(cells, widths);
  text += ExactSearchNote(rows);
  return text;
}

std::string SweepCapacityReason(const std::string& message) {
  constexpr std::string_view kLead = "plan does not fit: ";
  const size_t at = message.find(kLead);
  return at == std::string::npos ? message : message.substr(at + kLead.size());
}

std::string FormatSweepCsv(const std::vector<SweepRow>& rows) {
  std::string text;
  for (const std::string& name : DimNames(rows)) text += CsvField(name) + ",";
  text +=
      "fast_memory_bytes,peak_bytes,lower_bound_bytes,default_bytes,alternate_bytes,"
      "estimated_time_s,time_bound_s,time_all_default_s,time_all_fast_s,captured_speedup,"
      "prefetches,evictions,time_steps,buffers,verified,over_capacity\n";
  for (const SweepRow& row : rows) {
    std::vector<std::string> fields;
    for (const auto& [name, value] : row.point.dims) fields.push_back(std::to_string(value));
    fields.push_back(row.point.fast_memory ? std::to_string(*row.point.fast_memory) : "");
    const bool planned = row.HasFigures();
    const auto bytes = [&](Bytes value) { return planned ? std::to_string(value) : ""; };
    fields.push_back(bytes(row.peak));
    fields.push_back(bytes(row.lower_bound));
    fields.push_back(bytes(row.default_bytes));
    fields.push_back(row.alternate_bytes ? std::to_string(*row.alternate_bytes) : "");
    const auto seconds = [&](double value) {
      return row.msa ? fmt::format("{:.9g}", value) : std::string();
    };
    fields.push_back(seconds(row.msa ? row.msa->estimated_time_s : 0));
    fields.push_back(row.msa && row.msa->time_bound_s ? seconds(*row.msa->time_bound_s) : "");
    fields.push_back(seconds(row.msa ? row.msa->time_all_default_s : 0));
    fields.push_back(seconds(row.msa ? row.msa->time_all_fast_s : 0));
    fields.push_back(row.msa ? fmt::format("{:.6g}", row.captured_speedup) : "");
    fields.push_back(row.msa ? std::to_string(row.msa->prefetches) : "");
    fields.push_back(row.msa ? std::to_string(row.msa->evictions) : "");
    fields.push_back(planned ? std::to_string(row.time_steps) : "");
    fields.push_back(planned ? std::to_string(row.buffers) : "");
    fields.push_back(planned ? (row.verified ? "true" : "false") : "");
    fields.push_back(row.over_capacity ? CsvField(*row.over_capacity) : "");
    for (size_t i = 0; i < fields.size(); ++i) text += (i ? "," : "") + fields[i];
    text += "\n";
  }
  return text;
}

}  // namespace memplan
