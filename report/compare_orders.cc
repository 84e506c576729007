#include "report/compare_orders.h"

#include "fmt/format.h"
#include "io/byte_size.h"
#include "report/aligned_rows.h"

namespace memplan {
namespace {

std::string Ratio(Bytes bytes, Bytes bound) {
  if (bound > 0) {
    return fmt::format("{:.3f}", static_cast<double>(bytes) / static_cast<double>(bound));
  }
  return bytes == 0 ? "1.000" : "-";
}

std::string Change(Bytes bytes, Bytes input) {
  if (input == 0) return "0.0%";
  return fmt::format("{:.1f}%",
                     100.0 * static_cast<double>(bytes - input) / static_cast<double>(input));
}

}  // namespace

std::string FormatCompareOrders(const CompareOrders& orders) {
  const bool timed = std::any_of(orders.rows.begin(), orders.rows.end(),
                                 [](const CompareOrderRow& r) { return r.seconds.has_value(); });
  std::vector<std::vector<std::string>> lines;
  std::vector<std::string> header = {"order", "max-live bytes", "size", "vs LB", "vs input"};
  if (timed) header.push_back("seconds");
  header.push_back("planner");
  lines.push_back(header);
  std::vector<std::string> bound = {"lower bound", std::to_string(orders.lower_bound),
                                    FormatBytes(orders.lower_bound),
                                    Ratio(orders.lower_bound, orders.lower_bound), "-"};
  if (timed) bound.push_back("-");
  bound.push_back("order-independent: bytes live at an op in every order (docs/reorder.md)");
  lines.push_back(bound);
  for (const CompareOrderRow& row : orders.rows) {
    std::vector<std::string> line = {row.name, std::to_string(row.max_live),
                                     FormatBytes(row.max_live),
                                     Ratio(row.max_live, orders.lower_bound),
                                     Change(row.max_live, orders.input_max_live)};
    if (timed) line.push_back(row.seconds ? fmt::format("{:.3f}", *row.seconds) : "-");
    line.push_back(row.planner);
    lines.push_back(std::move(line));
  }
  std::string out =
      "\norders (--reorder): each strategy's transient max-live; the packers above ran on "
      "memplan's\n\n";
  // The strategy name left-aligned, numbers right-aligned, the planner last.
  std::vector<bool> right(header.size(), true);
  right.front() = false;
  out += AlignedRows(lines, right);
  if (!orders.note.empty()) out += orders.note + "\n";
  return out;
}

}  // namespace memplan
