// Parser of XLA's HLO text format (the `*.after_optimizations.txt` files that
// `XLA_FLAGS=--xla_dump_to=DIR` writes, and XLA's own test modules); memplan's
// own reader, no XLA dependency. Grammar (docs/hlo.md):
//
//   module      := 'HloModule' NAME (',' KEY '=' VALUE)* computation+
//   computation := ['ENTRY'] NAME ['(' params ')' '->' shape] '{' instr+ '}'
//   instr       := ['ROOT'] NAME '=' shape OPCODE '(' operands ')' (',' KEY '=' VALUE)*
//   operands    := [shape] NAME (',' [shape] NAME)*   (parameter(N); constant(literal))
//   shape       := TYPE '[' dims ']' ['{' layout '}'] | '(' shape (',' shape)* ')'
//
// NAMEs may carry a leading '%'. `/*...*/` comments are skipped (dumps write
// `/*index=5*/` inside long tuples). Attribute values are kept as raw text.
// Semantic checks (names resolve, shapes agree) are the importer's.
#pragma once

#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "io/hlo/module.h"

namespace memplan {

// Parses `text` (read from `path`). Errors: InvalidArgument
// `path:line:col: error: ...` at the first syntax error, e.g. "unexpected end
// of input, expected '}' closing computation %main (opened at 2:1)",
// "unknown element type 'f31'", "expected an opcode", "duplicate computation
// %body (first at 3:1)". Without an ENTRY computation the last one is the
// entry, as in XLA.
absl::StatusOr<HloModule> ParseHloModule(std::string_view text, const std::string& path);

// A character of an HLO name: letters, digits, '_', '.', '-'.
bool IsHloNameChar(char c);

// True when `text` (after leading whitespace and comments) starts with the
// word `HloModule`: how a file not named .hlo is recognised as HLO text.
bool LooksLikeHloText(std::string_view text);

}  // namespace memplan
