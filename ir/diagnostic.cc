#include "ir/diagnostic.h"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>

namespace memplan {

absl::Status LocatedError(std::string_view path, SourceLocation loc, std::string_view message) {
  std::string text(path);
  if (loc.line > 0) {
    text += ":" + LineColumn(loc);
  }
  text += ": error: ";
  text += message;
  return absl::InvalidArgumentError(text);
}

std::string LineColumn(SourceLocation loc) {
  return std::to_string(loc.line) + ":" + std::to_string(loc.column);
}

SourceLocation TextLocation(std::string_view text, std::size_t index) {
  index = std::min(index, text.size());
  const std::string_view before = text.substr(0, index);
  const std::size_t line = static_cast<std::size_t>(std::count(before.begin(), before.end(), '\n')) + 1;
  const std::size_t newline = before.rfind('\n');
  const std::size_t line_start = newline == std::string_view::npos ? 0 : newline + 1;
  const auto clamp = [](std::size_t v) {
    return static_cast<std::int32_t>(std::min<std::size_t>(v, std::numeric_limits<std::int32_t>::max()));
  };
  return SourceLocation{clamp(line), clamp(index - line_start + 1)};
}

}  // namespace memplan
