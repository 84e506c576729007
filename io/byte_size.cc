#include "io/byte_size.h"

#include <array>
#include <cstdint>
#include <limits>
#include <utility>

#include "absl/status/status.h"
#include "fmt/format.h"
#include "ir/plural.h"

namespace memplan {
namespace {

using Wide = __int128;  // holds fraction * unit without overflow

constexpr std::array<std::pair<std::string_view, Bytes>, 9> kUnits = {{
    {"B", 1},
    {"KiB", Bytes{1} << 10},
    {"MiB", Bytes{1} << 20},
    {"GiB", Bytes{1} << 30},
    {"TiB", Bytes{1} << 40},
    {"KB", 1000},
    {"MB", 1000000},
    {"GB", 1000000000},
    {"TB", 1000000000000},
}};

// More fraction digits than this cannot be needed by any unit up to TiB in
// practice, and keeps 10^digits within 64 bits.
constexpr int kMaxFractionDigits = 18;

absl::Status Invalid(std::string_view text, std::string_view reason) {
  return absl::InvalidArgumentError(fmt::format("invalid byte size '{}': {}", text, reason));
}

bool IsDigit(char c) { return c >= '0' && c <= '9'; }

}  // namespace

absl::StatusOr<Bytes> ParseByteSize(std::string_view text) {
  constexpr std::string_view kExpected =
      "expected a number of bytes such as 1048576, 512KiB or 1.5MiB";
  if (!text.empty() && text[0] == '-') return Invalid(text, "must not be negative");
  size_t pos = 0;
  const Bytes max = std::numeric_limits<Bytes>::max();
  Wide whole = 0;
  bool any_digit = false;
  bool too_large = false;
  for (; pos < text.size() && IsDigit(text[pos]); ++pos) {
    any_digit = true;
    whole = whole * 10 + (text[pos] - '0');
    if (whole > max) too_large = true, whole = max;  // keep scanning the syntax
  }
  Wide fraction = 0;
  Wide scale = 1;  // 10^(significant fraction digits)
  int fraction_digits = 0;
  if (pos < text.size() && text[pos] == '.') {
    ++pos;
    const size_t first = pos;
    size_t last_nonzero = pos;  // one past the last non-zero fraction digit
    for (; pos < text.size() && IsDigit(text[pos]); ++pos) {
      if (text[pos] != '0') last_nonzero = pos + 1;
    }
    if (pos == first) return Invalid(text, kExpected);
    any_digit = true;
    for (size_t i = first; i < last_nonzero; ++i) {
      if (++fraction_digits > kMaxFractionDigits) return Invalid(text, "too many fraction digits");
      fraction = fraction * 10 + (text[i] - '0');
      scale *= 10;
    }
  }
  if (!any_digit) return Invalid(text, kExpected);
  const std::string_view unit = text.substr(pos);
  Bytes multiplier = 1;
  if (!unit.empty()) {
    bool known = false;
    for (const auto& [name, value] : kUnits) {
      if (unit == name) known = true, multiplier = value;
    }
    if (!known) {
      return Invalid(text, fmt::format("unknown unit '{}' (use B, KiB, MiB, GiB, TiB, KB, MB, "
                                       "GB or TB)",
                                       unit));
    }
  }
  const Wide fraction_bytes = fraction * multiplier;
  if (fraction_bytes % scale != 0) return Invalid(text, "not a whole number of bytes");
  const Wide total = whole * multiplier + fraction_bytes / scale;
  if (too_large || total > max) return Invalid(text, "too large (at most 2^63 - 1 bytes)");
  return static_cast<Bytes>(total);
}

std::string FormatBytes(Bytes bytes) {
  if (bytes < 0) {
    // Negating the minimum would overflow; widen first.
    return "-" + FormatBytes(bytes == std::numeric_limits<Bytes>::min()
                                 ? std::numeric_limits<Bytes>::max()
                                 : -bytes);
  }
  if (bytes < 1024) return fmt::format("{} B", bytes);
  constexpr std::array<std::string_view, 6> kNames = {"KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  size_t unit = 0;
  while (unit + 1 < kNames.size() && bytes >= (Bytes{1} << (10 * (unit + 2)))) ++unit;
  const double value = static_cast<double>(bytes) / static_cast<double>(Bytes{1} << (10 * (unit + 1)));
  return fmt::format("{:.2f} {}", value, kNames[unit]);
}

std::string BytesAndHuman(Bytes bytes) {
  if (bytes > -1024 && bytes < 1024) return CountOf(bytes, "byte");
  return fmt::format("{} ({})", CountOf(bytes, "byte"), FormatBytes(bytes));
}

}  // namespace memplan
