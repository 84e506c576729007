// Decoding the raw text of HLO attribute values (io/hlo/module.h keeps them
// as written): `{1,2}`, `{%a, %b}`, `5`.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace memplan {

// The non-empty pieces of `text` between any of the characters `delims`.
// Example: ("{%a, %b}", "{}, %") -> {"a", "b"}.
std::vector<std::string> SplitAny(std::string_view text, std::string_view delims);

// `text` as a whole decimal int64 (an optional '-'), or nullopt.
std::optional<std::int64_t> ParseInt(std::string_view text);

// The integers of a list such as "{1,0}" (pieces that are not integers are
// skipped). Example: "{1, 0}" -> {1, 0}.
std::vector<std::int64_t> IntList(std::string_view text);

}  // namespace memplan
