// Byte sizes as people write them on the command line, and back.
#pragma once

#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "ir/units.h"

namespace memplan {

// Parses a byte count: a non-negative decimal number, optionally with a
// fraction, followed without spaces by an optional case-sensitive unit:
//   B; binary KiB MiB GiB TiB (powers of 1024); decimal KB MB GB TB (powers
//   of 1000).
// Examples: "1048576" = "1MiB" = 1048576, "512KiB" = 524288, "1.5MiB" =
// 1572864, "64B" = 64, "1KB" = 1000, "2GB" = 2000000000.
// Errors: InvalidArgument "invalid byte size '<text>': <reason>" (no path or
// "error:" prefix; callers add the flag name) for an empty or malformed
// number, a negative value, an unknown unit, a value that is not a whole
// number of bytes (e.g. "1.3B"), or one above 2^63 - 1.
absl::StatusOr<Bytes> ParseByteSize(std::string_view text);

// Human form for summaries: below 1024 bytes "<n> B" (e.g. "512 B"), else two
// decimals in the largest binary unit not above the value, e.g. "1.50 MiB",
// "1.00 KiB", "8.00 EiB". Negative values get a leading '-'.
std::string FormatBytes(Bytes bytes);

// A byte count for summaries, exact and, from 1 KiB on, in FormatBytes's
// form too: "12 bytes", "1 byte", "2048 bytes (2.00 KiB)", "1572864 bytes
// (1.50 MiB)" (below 1 KiB the human form would only repeat the count).
std::string BytesAndHuman(Bytes bytes);

}  // namespace memplan
