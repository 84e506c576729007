#include "report/sweep/sweep_row.h"

#include "fmt/format.h"

namespace memplan {

std::string DescribeSweepPoint(const SweepPoint& point) {
  std::string text;
  for (std::size_t i = 0; i < point.dims.size(); ++i) {
    const auto& [name, value] = point.dims[i];
    text += i == 0 && point.batch_first ? fmt::format(" --batch {}", value)
                                        : fmt::format(" --dim {}={}", name, value);
  }
  if (point.fast_memory) text += fmt::format(" --fast-memory {}", *point.fast_memory);
  return text.empty() ? text : text.substr(1);
}

}  // namespace memplan
