#include "io/hlo/attr_text.h"

#include <charconv>

namespace memplan {

std::vector<std::string> SplitAny(std::string_view text, std::string_view delims) {
  std::vector<std::string> out;
  std::size_t start = 0;
  for (std::size_t i = 0; i <= text.size(); ++i) {
    if (i < text.size() && delims.find(text[i]) == std::string_view::npos) continue;
    if (i > start) out.emplace_back(text.substr(start, i - start));
    start = i + 1;
  }
  return out;
}

std::optional<std::int64_t> ParseInt(std::string_view text) {
  std::int64_t v = 0;
  const char* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, v);
  if (ec != std::errc() || ptr != end || text.empty()) return std::nullopt;
  return v;
}

std::vector<std::int64_t> IntList(std::string_view text) {
  std::vector<std::int64_t> out;
  for (const std::string& piece : SplitAny(text, "{}, ")) {
    if (std::optional<std::int64_t> v = ParseInt(piece)) out.push_back(*v);
  }
  return out;
}

}  // namespace memplan
