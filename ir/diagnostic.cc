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

namespace {

SourceLocation Clamped(std::size_t line, std::size_t column) {
  const auto clamp = [](std::size_t v) {
    return static_cast<std::int32_t>(std::min<std::size_t>(v, std::numeric_limits<std::int32_t>::max()));
  };
  return SourceLocation{clamp(line), clamp(column)};
}

}  // namespace

SourceLocation TextLocation(std::string_view text, std::size_t index) {
  index = std::min(index, text.size());
  const std::string_view before = text.substr(0, index);
  const std::size_t line = static_cast<std::size_t>(std::count(before.begin(), before.end(), '\n')) + 1;
  const std::size_t newline = before.rfind('\n');
  const std::size_t line_start = newline == std::string_view::npos ? 0 : newline + 1;
  return Clamped(line, index - line_start + 1);
}

LineIndex::LineIndex(std::string_view text) : text_(text) {
  line_starts_.push_back(0);
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\n') line_starts_.push_back(i + 1);
  }
}

SourceLocation LineIndex::Locate(std::size_t index) const {
  index = std::min(index, text_.size());
  // The last line start at or before `index`.
  const auto after = std::upper_bound(line_starts_.begin(), line_starts_.end(), index);
  const std::size_t line = static_cast<std::size_t>(after - line_starts_.begin());
  return Clamped(line, index - *(after - 1) + 1);
}

}  // namespace memplan
