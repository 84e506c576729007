// Located errors: every bad-input error reads `path:line:col: error: message`.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "ir/program.h"

namespace memplan {

// InvalidArgument status whose message is `path:line:col: error: message`
// (`path: error: message` when the location is unknown). Callers map
// InvalidArgument to exit code 2.
absl::Status LocatedError(std::string_view path, SourceLocation loc, std::string_view message);

// Line and column (1-based, columns in bytes) of the byte at 0-based
// `index` of `text`; an index past the end gives the end. O(index).
// Example: ("ab\ncd", 4) -> line 2, column 2.
SourceLocation TextLocation(std::string_view text, std::size_t index);

// TextLocation for many indices of one text: the line starts are found once
// (O(size)), then each lookup is a binary search, O(log lines). For parsers
// that record a location per token; `text` must outlive the index.
// Example: LineIndex("ab\ncd").Locate(4) -> line 2, column 2.
class LineIndex {
 public:
  explicit LineIndex(std::string_view text);
  SourceLocation Locate(std::size_t index) const;

 private:
  std::string_view text_;
  std::vector<std::size_t> line_starts_;  // byte of each line's first character
};

// `line:col` of `loc`, e.g. "3:7", for a message that points at a second
// place in the same file ("first defined at 3:7").
std::string LineColumn(SourceLocation loc);

}  // namespace memplan
