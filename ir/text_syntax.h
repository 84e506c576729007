// Lexical rules of the IR text format (docs/ir.md), shared by the lexer, the
// printer and the validator so that every valid name prints in a form the
// lexer reads back unchanged.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace memplan {

// Longest line the text format accepts, in bytes (without the newline).
inline constexpr std::size_t kMaxLineBytes = 65536;
// Deepest nesting of attribute lists (`[[...]]` counts 2); bounds recursion.
inline constexpr int kMaxAttributeNesting = 32;
// Deepest nesting of parentheses, max(...) and align(...) in a size
// expression; bounds recursion.
inline constexpr int kMaxSizeExprNesting = 32;
// Limits on the normal form a size expression could take (ir/size_expr.h),
// estimated while parsing: so that normalising hostile input stays cheap.
inline constexpr std::int64_t kMaxSizeExprAtoms = 4096;  // sums times atoms per sum
inline constexpr std::int64_t kMaxSizeExprDegree = 16;   // dims in one product

// An ASCII decimal digit 0-9 (unlike std::isdigit, independent of the locale).
bool IsDigit(char c);

// Identifier (opcode, dtype, keyword, attribute key): [A-Za-z_][A-Za-z0-9_.-]*.
bool IsIdentifierStart(char c);
bool IsIdentifierChar(char c);
bool IsIdentifier(std::string_view text);

// A character of an unquoted %value / @computation name: [A-Za-z0-9_.$:/-].
// A ':' belongs to the name only when another name character follows it, so
// `%x: f32[4]` is the name `x` followed by ':'.
bool IsNameChar(char c);
// True if `name` can be written without quotes (non-empty, name characters
// only, not ending in ':').
bool IsPlainName(std::string_view name);

// Body of a quoted name or string: escapes '"' '\\' as \" \\, newline and tab
// as \n \t, other control bytes (< 0x20, 0x7f) as \xHH; keeps UTF-8 as is.
std::string EscapeText(std::string_view text);
// `sigil` + name, quoted as sigil"..." when !IsPlainName(name).
// Example: ('%', "conv/out:0") -> %conv/out:0, ('%', "a b") -> %"a b".
std::string SigilName(char sigil, std::string_view name);

// Byte index of the first byte of the first ill-formed UTF-8 sequence
// (overlong forms, surrogates and code points above U+10FFFF are
// ill-formed), or nullopt if `text` is valid UTF-8.
std::optional<std::size_t> FirstInvalidUtf8(std::string_view text);

}  // namespace memplan
