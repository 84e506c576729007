#include "ir/text_lexer.h"

#include <cstdint>
#include <cstdio>
#include <limits>
#include <optional>

#include "ir/diagnostic.h"
#include "ir/text_syntax.h"

namespace memplan {
namespace {

int HexDigit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

std::string Hex(std::uint8_t byte) {
  char buffer[8];
  std::snprintf(buffer, sizeof(buffer), "0x%02X", byte);
  return buffer;
}

// True if `text` is -?[0-9]+(\.[0-9]+)?([eE][+-]?[0-9]+)?; *is_float tells
// whether a fraction or exponent is present.
bool IsNumber(std::string_view text, bool* is_float) {
  std::size_t i = 0;
  const auto digits = [&] {
    const std::size_t start = i;
    while (i < text.size() && IsDigit(text[i])) ++i;
    return i > start;
  };
  *is_float = false;
  if (i < text.size() && text[i] == '-') ++i;
  if (!digits()) return false;
  if (i < text.size() && text[i] == '.') {
    ++i;
    if (!digits()) return false;
    *is_float = true;
  }
  if (i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
    ++i;
    if (i < text.size() && (text[i] == '+' || text[i] == '-')) ++i;
    if (!digits()) return false;
    *is_float = true;
  }
  return i == text.size();
}


}  // namespace

Lexer::Lexer(std::string_view text) : text_(text) {
  // Editors on Windows may start files with a UTF-8 byte order mark.
  if (text_.substr(0, 3) == "\xEF\xBB\xBF") pos_ = 3;
}

Token Lexer::Next() {
  SkipSpaceAndComments();
  if (pos_ == text_.size()) return Make(TokenKind::kEnd, pos_);
  const std::size_t start = pos_;
  const char c = text_[pos_];
  switch (c) {
    case '(': return Punct(TokenKind::kLParen);
    case ')': return Punct(TokenKind::kRParen);
    case '[': return Punct(TokenKind::kLBracket);
    case ']': return Punct(TokenKind::kRBracket);
    case '{': return Punct(TokenKind::kLBrace);
    case '}': return Punct(TokenKind::kRBrace);
    case ',': return Punct(TokenKind::kComma);
    case ':': return Punct(TokenKind::kColon);
    case '=': return Punct(TokenKind::kEquals);
    case '+': return Punct(TokenKind::kPlus);
    case '*': return Punct(TokenKind::kStar);
    case '%': return LexName(TokenKind::kValueName);
    case '@': return LexName(TokenKind::kSymbol);
    case '"': return LexQuoted(TokenKind::kString, start, "string");
    default: break;
  }
  if (c == '<' && pos_ + 1 < text_.size() && text_[pos_ + 1] == '=') {
    pos_ += 2;
    return Make(TokenKind::kLessEqual, start);
  }
  if (IsIdentifierStart(c)) {
    while (pos_ < text_.size() && IsIdentifierChar(text_[pos_])) ++pos_;
    return Make(TokenKind::kIdent, start);
  }
  if (IsDigit(c) || (c == '-' && pos_ + 1 < text_.size() && IsDigit(text_[pos_ + 1]))) {
    return LexNumber();
  }
  const auto byte = static_cast<std::uint8_t>(c);
  if (byte >= 0x80) {
    return Error(start, "non-ASCII character outside a quoted name, string or comment");
  }
  if (byte < 0x20 || byte == 0x7F) return Error(start, "unexpected control character " + Hex(byte));
  return Error(start, std::string("unexpected character '") + c + "'");
}

void Lexer::SkipSpaceAndComments() {
  while (pos_ < text_.size()) {
    const char c = text_[pos_];
    if (c == '\n') {
      ++pos_;
      ++line_;
      line_start_ = pos_;
    } else if (c == ' ' || c == '\t' || c == '\r') {
      ++pos_;
    } else if (c == '#') {
      while (pos_ < text_.size() && text_[pos_] != '\n') ++pos_;
    } else {
      return;
    }
  }
}

// Tokens never span lines, so every position of one is on the current line.
SourceLocation Lexer::Loc(std::size_t at) const {
  return {line_, static_cast<std::int32_t>(at - line_start_ + 1)};
}

Token Lexer::Make(TokenKind kind, std::size_t start, std::string value) const {
  Token t;
  t.kind = kind;
  t.loc = Loc(start);
  t.text = text_.substr(start, pos_ - start);
  t.value = std::move(value);
  return t;
}

Token Lexer::Punct(TokenKind kind) {
  ++pos_;
  return Make(kind, pos_ - 1);
}

Token Lexer::Error(std::size_t at, std::string message) const {
  Token t;
  t.kind = TokenKind::kError;
  t.loc = Loc(at);
  t.text = text_.substr(at, 1);
  t.value = std::move(message);
  return t;
}

Token Lexer::LexNumber() {
  const std::size_t start = pos_;
  ++pos_;  // the first digit or '-'
  while (pos_ < text_.size()) {
    const char c = text_[pos_];
    const char prev = text_[pos_ - 1];
    if (IsIdentifierChar(c) || (c == '+' && (prev == 'e' || prev == 'E'))) {
      ++pos_;
    } else {
      break;
    }
  }
  bool is_float = false;
  Token t = Make(TokenKind::kInt, start);
  if (!IsNumber(t.text, &is_float)) {
    return Error(start, "'" + std::string(t.text) + "' is not a number");
  }
  if (is_float) t.kind = TokenKind::kFloat;
  return t;
}

Token Lexer::LexName(TokenKind kind) {
  const std::size_t start = pos_;
  const char sigil = text_[pos_++];
  if (pos_ < text_.size() && text_[pos_] == '"') {
    Token t = LexQuoted(kind, start, "quoted name");
    if (t.kind != TokenKind::kError && t.value.empty()) {
      return Error(start, std::string("empty name after '") + sigil + "'");
    }
    return t;
  }
  while (pos_ < text_.size()) {
    const char c = text_[pos_];
    const bool colon_in_name = c == ':' && pos_ + 1 < text_.size() && IsNameChar(text_[pos_ + 1]);
    if (c == ':' ? !colon_in_name : !IsNameChar(c)) break;
    ++pos_;
  }
  if (pos_ == start + 1) return Error(start, std::string("expected a name after '") + sigil + "'");
  return Make(kind, start, std::string(text_.substr(start + 1, pos_ - start - 1)));
}

// Reads "..." starting at pos_ (the opening quote); `start` is where the
// token began (the sigil for quoted names).
Token Lexer::LexQuoted(TokenKind kind, std::size_t start, std::string_view what) {
  ++pos_;  // opening quote
  std::string out;
  while (true) {
    if (pos_ == text_.size() || text_[pos_] == '\n') {
      return Error(start, "unterminated " + std::string(what) + " (missing closing '\"')");
    }
    const char c = text_[pos_];
    const auto byte = static_cast<std::uint8_t>(c);
    if (c == '"') {
      ++pos_;
      break;
    }
    if (c == '\\') {
      std::optional<char> decoded = Escape(pos_);
      if (!decoded) return Error(pos_, BadEscapeMessage(pos_));
      if (*decoded == '\0') return Error(pos_, "NUL (\\x00) is not allowed in names and strings");
      out += *decoded;
      pos_ += text_[pos_ + 1] == 'x' ? 4 : 2;
      continue;
    }
    if ((byte < 0x20 && c != '\t') || byte == 0x7F) {
      return Error(pos_, "control character " + Hex(byte) + " in " + std::string(what) +
                             "; write it as an escape (\\n, \\t or \\xHH)");
    }
    out += c;
    ++pos_;
  }
  if (FirstInvalidUtf8(out)) {
    return Error(start, std::string(what) + " is not valid UTF-8 after decoding \\x escapes");
  }
  return Make(kind, start, std::move(out));
}

// The byte an escape at `at` (a backslash) stands for, or nullopt.
std::optional<char> Lexer::Escape(std::size_t at) const {
  if (at + 1 >= text_.size()) return std::nullopt;
  switch (text_[at + 1]) {
    case '"': return '"';
    case '\\': return '\\';
    case 'n': return '\n';
    case 't': return '\t';
    case 'x': {
      if (at + 3 >= text_.size()) return std::nullopt;
      const int high = HexDigit(text_[at + 2]);
      const int low = HexDigit(text_[at + 3]);
      if (high < 0 || low < 0) return std::nullopt;
      return static_cast<char>(high * 16 + low);
    }
    default: return std::nullopt;
  }
}

std::string Lexer::BadEscapeMessage(std::size_t at) const {
  std::string shown = "\\";
  if (at + 1 < text_.size() && static_cast<std::uint8_t>(text_[at + 1]) >= 0x20 &&
      static_cast<std::uint8_t>(text_[at + 1]) < 0x7F) {
    shown += text_[at + 1];
  }
  return "bad escape '" + shown + "' (use \\\", \\\\, \\n, \\t or \\xHH)";
}

absl::Status CheckEncoding(std::string_view text, std::string_view path) {
  if (text.size() > static_cast<std::size_t>(std::numeric_limits<std::int32_t>::max())) {
    return LocatedError(path, {}, "input is larger than 2147483647 bytes");
  }
  const std::size_t bad_utf8 = FirstInvalidUtf8(text).value_or(text.size());
  std::int32_t line = 1;
  std::size_t column = 1;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '\n') {
      ++line;
      column = 1;
      continue;
    }
    if (column > kMaxLineBytes) {
      return LocatedError(path, {line, static_cast<std::int32_t>(column)},
                          "line exceeds " + std::to_string(kMaxLineBytes) + " bytes");
    }
    const SourceLocation here{line, static_cast<std::int32_t>(column)};
    if (c == '\0') return LocatedError(path, here, "NUL byte in input");
    if (i == bad_utf8) {
      return LocatedError(path, here,
                          "invalid UTF-8 (byte " + Hex(static_cast<std::uint8_t>(c)) + ")");
    }
    ++column;
  }
  return absl::OkStatus();
}

std::string DescribeToken(const Token& token) {
  if (token.kind == TokenKind::kEnd) return "end of input";
  constexpr std::size_t kMaxShown = 40;
  std::string_view text = token.text;
  if (text.size() <= kMaxShown) return "'" + std::string(text) + "'";
  std::size_t cut = kMaxShown;
  while (cut > 0 && (static_cast<std::uint8_t>(text[cut]) & 0xC0) == 0x80) --cut;
  return "'" + std::string(text.substr(0, cut)) + "...'";
}

}  // namespace memplan

