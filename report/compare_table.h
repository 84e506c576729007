// The table of `memplan compare`: on one input's transient buffers in
// default memory, the arena each planner's strategy needs, beside memplan's
// own plan and the max-live lower bound, as plain text and as JSON
// ("schema": "memplan.compare/1").
//
// Text example (tests/data/csv/compare_peers.csv; columns as wide as their
// widest cell, rules cut here):
//   memplan compare: compare_peers.csv
//   6 transient buffers in default memory, 410 B in all; alignment 1
//   every row on memplan's buffers (a view shares its input's buffer)
//
//   strategy                 arena bytes   size  vs LB  verified  rule
//   lower bound                      300  300 B  1.000  -         max over ...
//   memplan                          300  300 B  1.000  yes       memplan plan: ...
//   tflite-arena                     320  320 B  1.067  yes       TFLite ArenaPlanner: ...
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "ir/units.h"
#include "report/compare_orders.h"
#include "report/compare_times.h"

namespace memplan {

// One strategy's line.
struct CompareRow {
  std::string name;     // "lower bound", "memplan", "tflite-arena", ...
  std::string planner;  // whose strategy, e.g. "TFLite ArenaPlanner"
  std::string rule;     // one line: how it places buffers
  std::string source;   // the files or paper it follows
  std::string detail;   // e.g. the portfolio member that won; "" for none
  // The row packs (or bounds) memplan's buffers, those of the table's
  // header, where a view shares its input's buffer; false for a row on the
  // framework's own tensors (tflite-micro-head).
  bool on_memplan_buffers = true;
  Bytes bytes = 0;      // arena bytes (max offset + size)
  // Whether the independent verifier accepted the placement; nullopt for
  // the lower bound, which is not a placement.
  std::optional<bool> verified;
};

struct CompareTable {
  std::string input;
  std::int64_t buffers = 0;  // the transient buffers of default memory compared
  Bytes total_bytes = 0;     // their sizes summed
  Bytes alignment = 1;       // every offset is a multiple of this
  Bytes lower_bound = 0;     // max live bytes
  std::vector<CompareRow> rows;
  // With --reorder: the reordering strategies' rows (report/compare_orders.h).
  std::optional<CompareOrders> orders;
  // With --target/--fast-memory: the estimated times (report/compare_times.h).
  std::optional<CompareTimes> times;
};

// bytes / lower bound; 1 when both are 0; nullopt when only the bound is 0.
std::optional<double> RatioToLowerBound(Bytes bytes, Bytes lower_bound);

// The plain-text table (header lines, the last saying which rows are on
// memplan's buffers: "every row on memplan's buffers (...)", or "every row
// on memplan's buffers (...) but tflite-micro-head" naming each other one;
// a blank line, one line per row: name,
// arena bytes, human size, ratio to the lower bound with three decimals or
// "-", verified yes/no/-, "planner: rule (detail)"); then, with orders,
// FormatCompareOrders; then, with times, FormatCompareTimes. Deterministic
// (without measured seconds).
std::string FormatCompareTable(const CompareTable& table);

// The JSON form: {"schema": "memplan.compare/1", "input", "alignment",
// "buffers", "total_bytes", "lower_bound_bytes", "strategies": [{"name",
// "planner", "rule", "source", "detail" (when set), "on_memplan_buffers"
// (bool), "arena_bytes",
// "ratio_to_lower_bound" (number or null), "verified" (bool or null)}]};
// with orders, "orders": {"kept", "input_max_live_bytes",
// "lower_bound_bytes", "strategies": [{"name", "planner", "max_live_bytes",
// "seconds" (when measured)}]}; with times, "times": {"target",
// "fast_memory_bytes", "time_bound_s", "strategies": [{"name", "planner",
// "rule", "source", "estimated_s" (number or null), "ratio_to_bound"
// (number or null), "kept" (bool)}]}; compact, newline-terminated.
std::string WriteCompareJson(const CompareTable& table);

}  // namespace memplan
