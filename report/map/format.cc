#include "report/map/format.h"

#include <cmath>
#include <cstdint>
#include <cstdlib>

#include <fmt/format.h>

namespace memplan::memmap {
namespace {

constexpr char32_t kReplacement = 0xFFFD;

// Decodes one UTF-8 code point at text[i], advancing i. Malformed, overlong
// and surrogate sequences yield U+FFFD and consume one byte.
char32_t DecodeUtf8(std::string_view text, std::size_t& i) {
  const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(text[k]); };
  const unsigned char lead = byte(i);
  if (lead < 0x80) {
    ++i;
    return lead;
  }
  int extra = 0;
  char32_t cp = 0;
  char32_t min = 0;
  if ((lead & 0xE0) == 0xC0) {
    extra = 1, cp = lead & 0x1F, min = 0x80;
  } else if ((lead & 0xF0) == 0xE0) {
    extra = 2, cp = lead & 0x0F, min = 0x800;
  } else if ((lead & 0xF8) == 0xF0) {
    extra = 3, cp = lead & 0x07, min = 0x10000;
  } else {
    ++i;
    return kReplacement;
  }
  if (i + extra >= text.size()) {  // truncated sequence
    ++i;
    return kReplacement;
  }
  for (int k = 1; k <= extra; ++k) {
    const unsigned char c = byte(i + k);
    if ((c & 0xC0) != 0x80) {
      ++i;
      return kReplacement;
    }
    cp = (cp << 6) | (c & 0x3F);
  }
  if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) {
    ++i;
    return kReplacement;
  }
  i += extra + 1;
  return cp;
}

void AppendUtf8(std::string& out, char32_t cp) {
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xC0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xE0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (cp >> 18));
    out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  }
}

// Fixed two-decimal text with trailing zeros (and a bare '.') removed.
std::string TrimmedFixed(double value) {
  std::string text = fmt::format("{:.2f}", value);
  if (text.find('.') != std::string::npos) {
    while (text.back() == '0') text.pop_back();
    if (text.back() == '.') text.pop_back();
  }
  if (text == "-0") text = "0";
  return text;
}

}  // namespace

std::string FormatBytesIn(double bytes, Bytes unit) {
  if (bytes == 0) return "0";
  std::string_view suffix = "B";
  switch (unit) {
    case Bytes{1} << 10: suffix = "KiB"; break;
    case Bytes{1} << 20: suffix = "MiB"; break;
    case Bytes{1} << 30: suffix = "GiB"; break;
    case Bytes{1} << 40: suffix = "TiB"; break;
    case Bytes{1} << 50: suffix = "PiB"; break;
    case Bytes{1} << 60: suffix = "EiB"; break;
    default: unit = 1; break;
  }
  return fmt::format("{} {}", TrimmedFixed(bytes / static_cast<double>(unit)), suffix);
}

std::string FormatBytes(Bytes bytes) {
  if (bytes == 0) return "0 B";
  Bytes unit = 1;
  const Bytes magnitude = bytes < 0 ? -bytes : bytes;
  while (unit < (Bytes{1} << 60) && magnitude >= unit * 1024) unit *= 1024;
  return FormatBytesIn(static_cast<double>(bytes), unit);
}

std::string FormatBytesExact(Bytes bytes) {
  if (bytes > -1024 && bytes < 1024) return FormatBytes(bytes);
  return fmt::format("{} ({} B)", FormatBytes(bytes), bytes);
}

std::string FormatOffset(Bytes offset) {
  if (offset > -1024 && offset < 1024) return fmt::format("{}", offset);
  return fmt::format("{} ({})", offset, FormatBytes(offset));
}

std::pair<std::string, std::string> FormatExtentAndBound(Bytes extent, Bytes bound) {
  std::string e = FormatBytes(extent), b = FormatBytes(bound);
  if (extent != bound && e == b) return {fmt::format("{} B", extent), fmt::format("{} B", bound)};
  return {std::move(e), std::move(b)};
}

std::string FormatCoord(double value) { return TrimmedFixed(value); }

std::string FormatPercentOver(Bytes peak, Bytes lower_bound) {
  if (lower_bound <= 0) return "n/a";
  const double percent =
      100.0 * static_cast<double>(peak - lower_bound) / static_cast<double>(lower_bound);
  // A gap too small for one decimal must not read as none.
  if (peak > lower_bound && percent < 0.05) return "<0.1 %";
  return fmt::format("{:.1f} %", percent);
}

std::string XmlEscape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size();) {
    const char32_t cp = DecodeUtf8(text, i);
    switch (cp) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&#39;"; break;
      default:
        // XML 1.0 forbids C0 controls other than tab, newline and carriage
        // return, even as character references.
        if ((cp < 0x20 && cp != '\t' && cp != '\n' && cp != '\r') || cp == 0xFFFE ||
            cp == 0xFFFF) {
          AppendUtf8(out, kReplacement);
        } else {
          AppendUtf8(out, cp);
        }
    }
  }
  return out;
}

std::string JsonString(std::string_view text) {
  std::string out = "\"";
  out.reserve(text.size() + 2);
  for (std::size_t i = 0; i < text.size();) {
    const char32_t cp = DecodeUtf8(text, i);
    switch (cp) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\t': out += "\\t"; break;
      case '\r': out += "\\r"; break;
      default:
        // < > & would let the text close the <script> element or open a
        // comment; U+2028/2029 end lines in older JavaScript engines.
        if (cp < 0x20 || cp == '<' || cp == '>' || cp == '&' || cp == 0x2028 || cp == 0x2029) {
          out += fmt::format("\\u{:04x}", static_cast<std::uint32_t>(cp));
        } else {
          AppendUtf8(out, cp);
        }
    }
  }
  out += '"';
  return out;
}

std::string FormatSeconds(double seconds) {
  if (!std::isfinite(seconds)) return "n/a";
  const double magnitude = std::abs(seconds);
  if (magnitude == 0) return "0 s";
  if (magnitude < 1e-3) return fmt::format("{:.4g} us", seconds * 1e6);
  if (magnitude < 1) return fmt::format("{:.4g} ms", seconds * 1e3);
  return fmt::format("{:.4g} s", seconds);
}

}  // namespace memplan::memmap
