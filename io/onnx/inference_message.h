// ONNX shape inference's error text, made into one line for a user.
#pragma once

#include <string>
#include <string_view>

namespace memplan {

// One line from the text of libonnx's shape-inference exception `raw`, which
// lists one failing node per line as
//   `[ShapeInferenceError] Shape inference error(s): (op_type:Where, node name:
//   /Where_1): [ShapeInferenceError] Incompatible dimensions` + `\n(op_type:...`.
// Returns the first node's failure as `node '/Where_1' (Where): Incompatible
// dimensions`, plus ` (and N more nodes)` when there are more; text of any
// other form comes back with its first line and ` (and N more lines)`.
std::string OneLineInferenceMessage(std::string_view raw);

}  // namespace memplan
