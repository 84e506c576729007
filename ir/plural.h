// Counts with their noun for user-facing text, singular when the count is 1,
// so that summaries and messages never read "1 bytes" or "1 buffers".
#pragma once

#include <concepts>
#include <string>
#include <string_view>

namespace memplan {

// The noun as it goes with `count`: `noun` for exactly 1, else `plural`, or
// `noun` + "s" when `plural` is empty. Examples: (1, "byte") -> "byte",
// (0, "byte") -> "bytes", (2, "copy", "copies") -> "copies".
template <std::integral Int>
std::string NounFor(Int count, std::string_view noun, std::string_view plural = {}) {
  if (count == 1) return std::string(noun);
  return plural.empty() ? std::string(noun) + "s" : std::string(plural);
}

// `count`, a space and NounFor(count, noun, plural). Examples: (1, "buffer")
// -> "1 buffer", (12, "time step") -> "12 time steps", (1, "copy", "copies")
// -> "1 copy".
template <std::integral Int>
std::string CountOf(Int count, std::string_view noun, std::string_view plural = {}) {
  return std::to_string(count) + " " + NounFor(count, noun, plural);
}

}  // namespace memplan
