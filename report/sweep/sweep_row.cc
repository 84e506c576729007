#include "report/sweep/sweep_row.h"

#include "fmt/format.h"

namespace memplan {

std::string DescribeSweepPoint(const SweepPoint& point) {
  std::string text;
  for (const auto& [name, value] : point.dims) text += fmt::format(" --dim {}={}", name, value);
  if (point.fast_memory) text += fmt::format(" --fast-memory {}", *point.fast_memory);
  return text.empty() ? text : text.substr(1);
}

std::pair<std::string, double> DurationUnit(double seconds) {
  const std::pair<const char*, double> units[] = {{"s", 1}, {"ms", 1e-3}, {"us", 1e-6}};
  for (const auto& [name, size] : units) {
    if (seconds >= size * (1 - 1e-12)) return {name, size};
  }
  return {seconds > 0 ? "ns" : "s", seconds > 0 ? 1e-9 : 1};
}

std::string FormatDuration(double seconds) {
  const auto [name, size] = DurationUnit(seconds);
  return fmt::format("{:.4g} {}", seconds / size, name);
}

}  // namespace memplan
