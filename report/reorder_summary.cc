#include "report/reorder_summary.h"

#include "fmt/format.h"
#include "io/byte_size.h"

namespace memplan {

std::string FormatReorderLine(std::string_view strategy, Bytes input_peak, Bytes peak, Bytes lower_bound,
                              const std::optional<ReorderFastMemoryChoice>& fast_memory) {
  if (strategy == "input" || peak >= input_peak) {
    return fmt::format(
        "order: kept (no order found below the input's transient max-live {}; the "
        "order-independent bound {})\n",
        FormatBytes(input_peak), FormatBytes(lower_bound));
  }
  const double change = 100.0 * static_cast<double>(peak - input_peak) / static_cast<double>(input_peak);
  if (fast_memory && fast_memory->kept_input_order) {
    return fmt::format(
        "order: kept the input order: reordered by {} (transient max-live {} → {}, {:.1f} %; the "
        "order-independent bound {}), but with fast memory the input order runs faster (estimated "
        "{:.6g} s vs {:.6g} s reordered)\n",
        strategy, FormatBytes(input_peak), FormatBytes(peak), change, FormatBytes(lower_bound),
        fast_memory->input_order_s, fast_memory->reordered_s);
  }
  std::string line = fmt::format(
      "order: reordered by {} (transient max-live {} → {}, {:.1f} %; the order-independent bound {})",
      strategy, FormatBytes(input_peak), FormatBytes(peak), change, FormatBytes(lower_bound));
  if (fast_memory) {
    line += fmt::format("; estimated {:.6g} s vs {:.6g} s in the input order", fast_memory->reordered_s,
                        fast_memory->input_order_s);
  }
  return line + "\n";
}

}  // namespace memplan
