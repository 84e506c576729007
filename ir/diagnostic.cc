#include "ir/diagnostic.h"

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

}  // namespace memplan
