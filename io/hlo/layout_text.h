// Edits the memory space `S(n)` of the layouts in an HLO shape's text, keeping
// everything else as written (tiles, comments, spacing): what `plan
// --emit-hlo` uses to mark values placed in alternate memory.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace memplan {

// `shape` (e.g. "(f32[4]{0}, s32[])") with leaf i's memory space set to
// spaces[i] (depth-first leaf order; 0 removes `S(n)`). A leaf without a
// layout gets the default one (`f32[2,3]` -> `f32[2,3]{1,0:S(1)}`).
// nullopt when the text is not a shape or has another number of leaves.
// Example: ("f32[4]{0}", {1}) -> "f32[4]{0:S(1)}"; ("f32[4]{0:S(1)}", {0}) -> "f32[4]{0}".
std::optional<std::string> WithMemorySpaces(std::string_view shape,
                                            const std::vector<std::int64_t>& spaces);

}  // namespace memplan
