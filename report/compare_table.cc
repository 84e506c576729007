#include "report/compare_table.h"

#include <algorithm>
#include <array>

#include "fmt/format.h"
#include "io/byte_size.h"
#include "io/json_util.h"
#include "ir/plural.h"
#include "report/aligned_rows.h"

namespace memplan {
namespace {

constexpr std::size_t kColumns = 6;

std::string RuleText(const CompareRow& row) {
  std::string text = row.planner.empty() ? row.rule : row.planner + ": " + row.rule;
  if (!row.detail.empty()) text += " (" + row.detail + ")";
  return text;
}

std::array<std::string, kColumns> Cells(const CompareRow& row, Bytes lower_bound) {
  const std::optional<double> ratio = RatioToLowerBound(row.bytes, lower_bound);
  return {row.name,
          std::to_string(row.bytes),
          FormatBytes(row.bytes),
          ratio ? fmt::format("{:.3f}", *ratio) : std::string("-"),
          !row.verified ? std::string("-") : *row.verified ? std::string("yes") : std::string("no"),
          RuleText(row)};
}

}  // namespace

std::optional<double> RatioToLowerBound(Bytes bytes, Bytes lower_bound) {
  if (lower_bound > 0) return static_cast<double>(bytes) / static_cast<double>(lower_bound);
  if (bytes == 0) return 1.0;
  return std::nullopt;
}

std::string FormatCompareTable(const CompareTable& table) {
  std::string out = fmt::format("memplan compare: {}\n", table.input);
  out += fmt::format("{} in default memory, {} in all; alignment {}\n",
                     CountOf(table.buffers, "transient buffer"), FormatBytes(table.total_bytes),
                     table.alignment);
  // Which rows see memplan's buffers, said once rather than on every row.
  std::string others;
  for (const CompareRow& row : table.rows) {
    if (!row.on_memplan_buffers) others += (others.empty() ? " but " : ", ") + row.name;
  }
  out += fmt::format("every row on memplan's buffers (a view shares its input's buffer){}\n\n",
                     others);
  const std::array<std::string, kColumns> header = {"strategy", "arena bytes", "size",
                                                    "vs LB",    "verified",    "rule"};
  std::vector<std::vector<std::string>> lines = {{header.begin(), header.end()}};
  for (const CompareRow& row : table.rows) {
    const std::array<std::string, kColumns> cells = Cells(row, table.lower_bound);
    lines.emplace_back(cells.begin(), cells.end());
  }
  // Numbers right-aligned, words left-aligned; the last column unpadded.
  out += AlignedRows(lines, {false, true, true, true, false, false});
  if (table.orders) out += FormatCompareOrders(*table.orders);
  if (table.times) out += FormatCompareTimes(*table.times);
  return out;
}

std::string WriteCompareJson(const CompareTable& table) {
  using json_internal::Json;
  Json doc;
  doc["schema"] = "memplan.compare/1";
  doc["input"] = table.input;
  doc["alignment"] = table.alignment;
  doc["buffers"] = table.buffers;
  doc["total_bytes"] = table.total_bytes;
  doc["lower_bound_bytes"] = table.lower_bound;
  Json strategies = Json::array();
  for (const CompareRow& row : table.rows) {
    Json entry;
    entry["name"] = row.name;
    entry["planner"] = row.planner;
    entry["rule"] = row.rule;
    entry["source"] = row.source;
    if (!row.detail.empty()) entry["detail"] = row.detail;
    entry["on_memplan_buffers"] = row.on_memplan_buffers;
    entry["arena_bytes"] = row.bytes;
    const std::optional<double> ratio = RatioToLowerBound(row.bytes, table.lower_bound);
    entry["ratio_to_lower_bound"] = ratio ? Json(*ratio) : Json(nullptr);
    entry["verified"] = row.verified ? Json(*row.verified) : Json(nullptr);
    strategies.push_back(std::move(entry));
  }
  doc["strategies"] = std::move(strategies);
  if (table.orders) {
    Json orders;
    orders["kept"] = table.orders->kept;
    orders["input_max_live_bytes"] = table.orders->input_max_live;
    orders["lower_bound_bytes"] = table.orders->lower_bound;
    Json rows = Json::array();
    for (const CompareOrderRow& row : table.orders->rows) {
      Json entry;
      entry["name"] = row.name;
      entry["planner"] = row.planner;
      entry["max_live_bytes"] = row.max_live;
      if (row.seconds) entry["seconds"] = *row.seconds;
      rows.push_back(std::move(entry));
    }
    orders["strategies"] = std::move(rows);
    doc["orders"] = std::move(orders);
  }
  if (table.times) {
    Json times;
    times["target"] = table.times->target;
    times["fast_memory_bytes"] = table.times->fast_memory_bytes;
    times["time_bound_s"] =
        table.times->does_not_fit.empty() ? Json(table.times->bound_s) : Json(nullptr);
    if (!table.times->does_not_fit.empty()) times["does_not_fit"] = table.times->does_not_fit;
    Json rows = Json::array();
    for (const CompareTimeRow& row : table.times->rows) {
      Json entry;
      entry["name"] = row.name;
      entry["planner"] = row.planner;
      entry["rule"] = row.rule;
      entry["source"] = row.source;
      entry["estimated_s"] = row.estimated_s ? Json(*row.estimated_s) : Json(nullptr);
      const std::optional<double> ratio = RatioToBound(row.estimated_s, table.times->bound_s);
      entry["ratio_to_bound"] = ratio ? Json(*ratio) : Json(nullptr);
      entry["kept"] = row.kept;
      if (!row.not_run.empty()) entry["not_run"] = row.not_run;
      if (!row.does_not_fit.empty()) entry["does_not_fit"] = row.does_not_fit;
      rows.push_back(std::move(entry));
    }
    times["strategies"] = std::move(rows);
    doc["times"] = std::move(times);
  }
  return json_internal::Dump(doc) + "\n";
}

}  // namespace memplan
