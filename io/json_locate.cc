#include "io/json_locate.h"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

namespace memplan {
namespace {

class Scanner {
 public:
  explicit Scanner(std::string_view text) : text_(text) {}

  std::size_t pos() const { return pos_; }
  bool AtEnd() const { return pos_ >= text_.size(); }
  char Peek() const { return AtEnd() ? '\0' : text_[pos_]; }
  void Advance() { ++pos_; }

  void SkipSpace() {
    while (!AtEnd() && (Peek() == ' ' || Peek() == '\t' || Peek() == '\n' || Peek() == '\r')) ++pos_;
  }

  // At an opening quote: the string's text with simple escapes resolved
  // (\uXXXX below 0x80 too; others kept as written, enough to compare keys).
  std::string ReadString() {
    std::string out;
    ++pos_;  // the opening quote
    while (!AtEnd() && Peek() != '"') {
      char c = Peek();
      ++pos_;
      if (c != '\\' || AtEnd()) {
        out += c;
        continue;
      }
      const char e = Peek();
      ++pos_;
      switch (e) {
        case 'n': out += '\n'; break;
        case 't': out += '\t'; break;
        case 'r': out += '\r'; break;
        case 'b': out += '\b'; break;
        case 'f': out += '\f'; break;
        case 'u': {
          const std::string_view hex = text_.substr(pos_, 4);
          unsigned code = 0;
          bool ok = hex.size() == 4;
          for (char h : hex) {
            const int digit = h >= '0' && h <= '9'   ? h - '0'
                              : h >= 'a' && h <= 'f' ? h - 'a' + 10
                              : h >= 'A' && h <= 'F' ? h - 'A' + 10
                                                     : -1;
            ok = ok && digit >= 0;
            code = code * 16 + static_cast<unsigned>(std::max(digit, 0));
          }
          if (ok && code < 0x80) {
            out += static_cast<char>(code);
          } else {
            out += "\\u";
            out += hex;
          }
          pos_ += hex.size();
          break;
        }
        default: out += e; break;  // \" \\ \/
      }
    }
    ++pos_;  // the closing quote
    return out;
  }

  // Skips one value (any nesting depth, iteratively).
  void SkipValue() {
    std::int64_t depth = 0;
    do {
      SkipSpace();
      const char c = Peek();
      if (c == '"') {
        ReadString();
      } else if (c == '{' || c == '[') {
        ++depth;
        ++pos_;
      } else if (c == '}' || c == ']') {
        --depth;
        ++pos_;
      } else if (c == ',' || c == ':') {
        ++pos_;
      } else {
        while (!AtEnd() && std::string_view(",:]} \t\r\n").find(Peek()) == std::string_view::npos) ++pos_;
      }
      if (AtEnd()) return;
    } while (depth > 0);
  }

 private:
  std::string_view text_;
  std::size_t pos_ = 0;
};

// The pointer's reference tokens, unescaped (~1 -> '/', ~0 -> '~').
std::vector<std::string> Tokens(std::string_view pointer) {
  std::vector<std::string> tokens;
  if (pointer.empty()) return tokens;
  pointer.remove_prefix(1);  // the leading '/'
  while (true) {
    const std::size_t slash = pointer.find('/');
    std::string token;
    const std::string_view raw = pointer.substr(0, slash);
    for (std::size_t i = 0; i < raw.size(); ++i) {
      if (raw[i] == '~' && i + 1 < raw.size() && (raw[i + 1] == '0' || raw[i + 1] == '1')) {
        token += raw[i + 1] == '0' ? '~' : '/';
        ++i;
      } else {
        token += raw[i];
      }
    }
    tokens.push_back(std::move(token));
    if (slash == std::string_view::npos) break;
    pointer.remove_prefix(slash + 1);
  }
  return tokens;
}

// In the container at the scanner's position, moves to the value named by
// `token`; false when there is none (the position is then anywhere).
bool Enter(Scanner& s, const std::string& token) {
  const char open = s.Peek();
  if (open != '{' && open != '[') return false;
  s.Advance();
  std::optional<std::size_t> index;
  if (open == '[') {
    if (token.empty() || token.size() > 18 ||
        !std::all_of(token.begin(), token.end(), [](char c) { return c >= '0' && c <= '9'; })) {
      return false;
    }
    index = std::stoull(token);
  }
  for (std::size_t k = 0;; ++k) {
    s.SkipSpace();
    if (s.Peek() == (open == '{' ? '}' : ']') || s.AtEnd()) break;
    bool match = false;
    if (open == '{') {
      match = s.ReadString() == token;
      s.SkipSpace();
      s.Advance();  // ':'
      s.SkipSpace();
    } else {
      match = k == *index;
    }
    if (match) return true;
    s.SkipValue();
    s.SkipSpace();
    if (s.Peek() == ',') s.Advance();
  }
  return false;
}

}  // namespace

SourceLocation JsonPointerLocation(std::string_view text, std::string_view pointer) {
  Scanner s(text);
  s.SkipSpace();
  std::size_t found = s.pos();
  for (const std::string& token : Tokens(pointer)) {
    if (!Enter(s, token)) break;
    found = s.pos();
  }
  return TextLocation(text, found);
}

}  // namespace memplan
