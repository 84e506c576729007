// Text helpers for the memory-map exporters (report/map/svg.h, report/map/html.h):
// locale-independent number formatting and escaping for XML and for JSON
// embedded in an HTML <script>. Every function is pure and deterministic.
#pragma once

#include <string>
#include <string_view>
#include <utility>

#include "ir/units.h"

namespace memplan::memmap {

// Human-readable byte count in binary units with at most two decimals,
// trailing zeros dropped: 0 -> "0 B", 1536 -> "1.5 KiB", 1048576 -> "1 MiB".
std::string FormatBytes(Bytes bytes);

// A byte count for tooltips and tables: FormatBytes and the exact count,
// "1 MiB (1048576 B)", "1.5 KiB (1536 B)"; below 1 KiB FormatBytes alone,
// "12 B" (the count in parentheses would only repeat it).
std::string FormatBytesExact(Bytes bytes);

// A byte offset and, from 1 KiB on, FormatBytes of it: "1048576 (1 MiB)",
// "12" (not "12 (12 B)").
std::string FormatOffset(Bytes offset);

// An extent and its lower bound, each as FormatBytes gives it unless the two
// would read the same while they differ: then both in exact bytes, so that
// "extent 1 MiB, bound 1 MiB, 0.1 % over" cannot appear. Example:
// (1049600, 1048576) -> {"1049600 B", "1048576 B"}; (1536, 1024) ->
// {"1.5 KiB", "1 KiB"}.
std::pair<std::string, std::string> FormatExtentAndBound(Bytes extent, Bytes bound);

// `bytes` expressed in `unit` (1, 1024, 1024^2, ...) as an axis label:
// FormatBytesIn(524288, 1048576) -> "0.5 MiB"; 0 -> "0".
std::string FormatBytesIn(double bytes, Bytes unit);

// A coordinate with at most two decimals, trailing zeros dropped, never "-0":
// 12.5 -> "12.5", 3.0 -> "3", 0.004 -> "0".
std::string FormatCoord(double value);

// How far `peak` is above `lower_bound`, e.g. "4.3 %"; "<0.1 %" for a gap
// above 0 that one decimal would round to "0.0 %" (1048600 over 1048576);
// "n/a" when the bound is 0 (then no percentage is meaningful).
std::string FormatPercentOver(Bytes peak, Bytes lower_bound);

// A duration in seconds with four significant digits in the largest of s,
// ms, us below which it is not: 0.0025 -> "2.5 ms", 6.4e-08 -> "0.064 us",
// 0 -> "0 s", not finite -> "n/a".
std::string FormatSeconds(double seconds);

// Escapes `text` for XML/HTML character data and attribute values (& < > " ').
// Invalid UTF-8 and control characters other than tab/newline, which XML 1.0
// cannot carry, become U+FFFD, so the output is always well-formed.
std::string XmlEscape(std::string_view text);

// `text` as a double-quoted JSON string that is also safe inside an HTML
// <script> element: < > & and U+2028/U+2029 become \u escapes; invalid UTF-8
// becomes U+FFFD.
std::string JsonString(std::string_view text);

}  // namespace memplan::memmap
