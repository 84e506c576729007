// Plain-text tables: the compare table and its orders table.
#pragma once

#include <algorithm>
#include <string>
#include <vector>

#include "fmt/format.h"

namespace memplan {

// `rows` (all of one length) as lines of columns two spaces apart, each cell
// padded to its column's widest: right-aligned where `right[c]`, else
// left-aligned; the last column unpadded. Every line ends in '\n'.
// Example: {{"a", "10", "x"}, {"bb", "2", "yy"}}, right {false, true, false}
// -> "a   10  x\nbb   2  yy\n".
inline std::string AlignedRows(const std::vector<std::vector<std::string>>& rows,
                               const std::vector<bool>& right) {
  std::vector<std::size_t> width(right.size(), 0);
  for (const auto& row : rows) {
    for (std::size_t c = 0; c < row.size(); ++c) width[c] = std::max(width[c], row[c].size());
  }
  std::string out;
  for (const auto& row : rows) {
    for (std::size_t c = 0; c < row.size(); ++c) {
      if (c > 0) out += "  ";
      if (c + 1 == row.size()) {
        out += row[c];
      } else if (right[c]) {
        out += fmt::format("{:>{}}", row[c], width[c]);
      } else {
        out += fmt::format("{:<{}}", row[c], width[c]);
      }
    }
    out += "\n";
  }
  return out;
}

}  // namespace memplan
