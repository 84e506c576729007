#include "report/sweep/sweep_row.h"

#include "fmt/format.h"

namespace memplan {

std::string DescribeSweepPoint(const SweepPoint& point) {
  std::string text;
  for (const auto& [name, value] : point.dims) text += fmt::format(" --dim {}={}", name, value);
  if (point.fast_memory) text += fmt::format(" --fast-memory {}", *point.fast_memory);
  return text.empty() ? text : text.substr(1);
}

}  // namespace memplan
