// "did you mean --fast-memory?" for a mistyped flag or command.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace memplan::cli {

// The name in `names` closest to `typo` by edit distance (Levenshtein:
// insertions, deletions, substitutions, and swaps of two neighbours, each 1),
// when it is close enough to be a typo: at most 1 edit for names up to 4
// characters, else at most a third of the longer length. Ties go to the
// earliest name. O(|names| * |typo| * |name|).
// Example: ("--fast-memroy", {"--fast-memory", "--json"}) -> "--fast-memory".
std::optional<std::string> ClosestName(std::string_view typo, const std::vector<std::string>& names);

}  // namespace memplan::cli
