// Tokenizer of the IR text format (docs/ir.md).
//
// CheckEncoding runs first over the whole input (NUL bytes, UTF-8, line
// length); Tokenize then splits the input into tokens. Lexical errors do not
// fail Tokenize: they become a final kError token at the offending byte, so
// the parser reports them only if no earlier syntax error comes first.
//
// Example: `%y = exp(%x) : f32[4]` -> kValueName(y) kEquals kIdent(exp)
// kLParen kValueName(x) kRParen kColon kIdent(f32) kLBracket kInt(4)
// kRBracket kEnd.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

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

// Splits `text` (which passed CheckEncoding) into tokens, skipping whitespace
// and `#` comments. The last token is kEnd, or kError at the first lexical
// error (unexpected or non-ASCII character, malformed number, bad escape,
// unterminated or empty quoted name, unterminated string). Tokens view
// `text`, which must outlive them.
std::vector<Token> Tokenize(std::string_view text);

// A short quoted rendering of a token for messages: 'text' (truncated to 40
// bytes at a UTF-8 boundary) or "end of input".
std::string DescribeToken(const Token& token);

}  // namespace memplan
