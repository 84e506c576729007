#include "report/reorder_summary.h"

#include "fmt/format.h"
#include "io/byte_size.h"

namespace memplan {

std::string FormatReorderLine(std::string_view strategy, Bytes input_peak, Bytes peak, Bytes lower_bound) {
  if (strategy == "input" || peak >= input_peak) {
    return fmt::format(
        "order: kept (no order found below the input's transient max-live {}; the "
        "order-independent bound {})\n",
        FormatBytes(input_peak), FormatBytes(lower_bound));
  }
  const double change = 100.0 * static_cast<double>(peak - input_peak) / static_cast<double>(input_peak);
  return fmt::format(
      "order: reordered by {} (transient max-live {} → {}, {:.1f} %; the order-independent bound {})\n",
      strategy, FormatBytes(input_peak), FormatBytes(peak), change, FormatBytes(lower_bound));
}

}  // namespace memplan
