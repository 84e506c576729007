// Tokenizer of the IR text format (docs/ir.md).
//
// CheckEncoding runs first over the whole input (NUL bytes, UTF-8, line
// length); a Lexer then hands out tokens one at a time, so the parser holds
// only the tokens of the statement it is reading. Lexical errors become a
// kError token at the offending byte, so the parser reports them only if no
// earlier syntax error comes first.
//
// Example: `%y = exp(%x) : f32[4]` -> kValueName(y) kEquals kIdent(exp)
// kLParen kValueName(x) kRParen kColon kIdent(f32) kLBracket kInt(4)
// kRBracket kEnd.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "ir/program.h"

namespace memplan {

enum class TokenKind : std::uint8_t {
  kIdent,      // opcode, dtype, keyword, attribute key
  kValueName,  // %name or %"quoted name"
  kSymbol,     // @name or @"quoted name"
  kInt,        // -?[0-9]+
  kFloat,      // -?[0-9]+ with a fraction and/or an exponent
  kString,     // "text"
  kLParen,
  kRParen,
  kLBracket,
  kRBracket,
  kLBrace,
  kRBrace,
  kComma,
  kColon,
  kEquals,
  kPlus,       // '+' (size expressions)
  kStar,       // '*' (size expressions)
  kLessEqual,  // '<=' (dim bounds)
  kEnd,        // end of input
  kError,      // lexical error; `value` holds the message
};

struct Token {
  TokenKind kind = TokenKind::kEnd;
  SourceLocation loc;        // 1-based line and byte column of the first byte
  std::string_view text;     // the token's source bytes
  std::string value;         // decoded name or string (without sigil/quotes), or error message
};

// Checks that `text` has no NUL byte, is valid UTF-8, has no line longer
// than kMaxLineBytes and is shorter than 2^31 bytes. Returns InvalidArgument
// `path:line:col: error: ...` at the first offending byte (for a long line:
// column kMaxLineBytes + 1).
absl::Status CheckEncoding(std::string_view text, std::string_view path);

// Splits `text` (which passed CheckEncoding) into tokens, skipping a leading
// UTF-8 byte order mark, whitespace and `#` comments. Tokens view `text`,
// which must outlive them.
class Lexer {
 public:
  explicit Lexer(std::string_view text);

  // The next token: kEnd at the end of input (and on every later call), or
  // kError at a lexical error (unexpected or non-ASCII character, malformed
  // number, bad escape, unterminated or empty quoted name, unterminated
  // string); the caller stops there.
  Token Next();

 private:
  void SkipSpaceAndComments();
  SourceLocation Loc(std::size_t at) const;
  Token Make(TokenKind kind, std::size_t start, std::string value = "") const;
  Token Punct(TokenKind kind);
  Token Error(std::size_t at, std::string message) const;
  Token LexNumber();
  Token LexName(TokenKind kind);
  Token LexQuoted(TokenKind kind, std::size_t start, std::string_view what);
  std::optional<char> Escape(std::size_t at) const;
  std::string BadEscapeMessage(std::size_t at) const;

  std::string_view text_;
  std::size_t pos_ = 0;
  std::int32_t line_ = 1;
  std::size_t line_start_ = 0;  // byte index of the current line's first byte
};

// A short quoted rendering of a token for messages: 'text' (truncated to 40
// bytes at a UTF-8 boundary) or "end of input".
std::string DescribeToken(const Token& token);

}  // namespace memplan
