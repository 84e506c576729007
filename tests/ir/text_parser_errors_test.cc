// Every error of the text format: exact location and message.
#include <string>

#include "gtest/gtest.h"
#include "ir/text_parser.h"
#include "tests/ir/parse_ok.h"

namespace memplan {
namespace {

// The message of a parse that must fail with InvalidArgument.
// --- Input as a whole -----------------------------------------------------

TEST(ParseErrorTest, EmptyInput) {
  EXPECT_EQ(Err(""), "t.mpir:1:1: error: unexpected end of input, expected a computation ('func' or 'region')");
  EXPECT_EQ(Err("  \n\n"), "t.mpir:3:1: error: unexpected end of input, expected a computation ('func' or 'region')");
}

TEST(ParseErrorTest, OnlyComments) {
  EXPECT_EQ(Err("# one\n# two"),
            "t.mpir:2:6: error: unexpected end of input, expected a computation ('func' or 'region')");
  EXPECT_EQ(Err("program @p  # no computation\n"),
            "t.mpir:2:1: error: unexpected end of input, expected a computation ('func' or 'region')");
}

TEST(ParseErrorTest, LineTooLong) {
  const std::string long_comment = "# " + std::string(70000, 'a');
  EXPECT_EQ(Err("entry func @m() {}\n" + long_comment + "\n"),
            "t.mpir:2:65537: error: line exceeds 65536 bytes");
  // Exactly 65536 bytes is fine.
  EXPECT_EQ(Err("entry func @m() {}\n#" + std::string(65535, 'a') + "\nx"),
            "t.mpir:3:1: error: expected a computation ('func' or 'region'), got 'x'");
}

TEST(ParseErrorTest, InvalidUtf8) {
  EXPECT_EQ(Err("entry func @m() {}  # caf\xC3\x28\n"), "t.mpir:1:26: error: invalid UTF-8 (byte 0xC3)");
  EXPECT_EQ(Err("entry func @m() {}\n\xFF"), "t.mpir:2:1: error: invalid UTF-8 (byte 0xFF)");
  EXPECT_EQ(Err("entry func @m() { %\"a\x80\" = constant() : 1 }"),
            "t.mpir:1:22: error: invalid UTF-8 (byte 0x80)");
}

TEST(ParseErrorTest, NulByte) {
  EXPECT_EQ(Err(std::string("entry func @m() {}\n  \0", 22)), "t.mpir:2:3: error: NUL byte in input");
}

TEST(ParseErrorTest, NonAsciiOutsideQuotes) {
  EXPECT_EQ(Err("entry func @m() {\n  caf\xC3\xA9()\n}"),
            "t.mpir:2:6: error: non-ASCII character outside a quoted name, string or comment");
}

// --- Lexical errors ---------------------------------------------------------

TEST(ParseErrorTest, UnexpectedCharacter) {
  EXPECT_EQ(Err("entry func @m() {\n  & \n}"), "t.mpir:2:3: error: unexpected character '&'");
  EXPECT_EQ(Err("entry func @m() {\x01}"), "t.mpir:1:18: error: unexpected control character 0x01");
}

TEST(ParseErrorTest, BadNames) {
  EXPECT_EQ(Err("entry func @m(% x: 4) {}"), "t.mpir:1:15: error: expected a name after '%'");
  EXPECT_EQ(Err("entry func @\"\"() {}"), "t.mpir:1:12: error: empty name after '@'");
  EXPECT_EQ(Err("entry func @m(%\"x: 4) {}"),
            "t.mpir:1:15: error: unterminated quoted name (missing closing '\"')");
  EXPECT_EQ(Err("entry func @m(%\"a\\qb\": 4) {}"),
            "t.mpir:1:18: error: bad escape '\\q' (use \\\", \\\\, \\n, \\t or \\xHH)");
  EXPECT_EQ(Err("entry func @m(%\"a\\x4\": 4) {}"),
            "t.mpir:1:18: error: bad escape '\\x' (use \\\", \\\\, \\n, \\t or \\xHH)");
  EXPECT_EQ(Err("entry func @m(%\"a\\x00\": 4) {}"),
            "t.mpir:1:18: error: NUL (\\x00) is not allowed in names and strings");
  EXPECT_EQ(Err("entry func @m(%\"a\\xFF\": 4) {}"),
            "t.mpir:1:15: error: quoted name is not valid UTF-8 after decoding \\x escapes");
  EXPECT_EQ(Err("entry func @m(%\"a\rb\": 4) {}"),
            "t.mpir:1:18: error: control character 0x0D in quoted name; write it as an escape (\\n, \\t or \\xHH)");
}

TEST(ParseErrorTest, UnterminatedString) {
  EXPECT_EQ(Err("entry region @r() affinity(\"gpu\n) {}"),
            "t.mpir:1:28: error: unterminated string (missing closing '\"')");
}

// --- Syntax -----------------------------------------------------------------

TEST(ParseErrorTest, TruncatedInput) {
  EXPECT_EQ(Err("entry func @m(%x: 4) {\n  %y = exp(%x) : 4\n"),
            "t.mpir:3:1: error: unexpected end of input, expected '}' (closing @m from 1:22), an op or 'return'");
  EXPECT_EQ(Err("entry func @m(%x: 4) {\n  %y = exp(%x"),
            "t.mpir:2:14: error: unexpected end of input, expected ',' or ')'");
  EXPECT_EQ(Err("entry func @m("), "t.mpir:1:15: error: unexpected end of input, expected a parameter (%name: type)");
  EXPECT_EQ(Err("entry func @m(%x: 4) { return %x"),
            "t.mpir:1:33: error: unexpected end of input, expected '}' after return (closing @m from 1:22)");
  EXPECT_EQ(Err("entry func @m() { %y = c.op() : f32[2,"),
            "t.mpir:1:39: error: unexpected end of input, expected a dimension");
  EXPECT_EQ(Err("entry func @m() { %y = c.op() : 4 {a = [1,"),
            "t.mpir:1:43: error: unexpected end of input, expected an attribute value (number, \"string\", true, "
            "false, @name or [list])");
}

TEST(ParseErrorTest, MissingCloseBrace) {
  EXPECT_EQ(Err("entry func @m(%x: 4) {\n  store(%x)\nfunc @f() {}"),
            "t.mpir:3:1: error: expected '}' (closing @m from 1:22), an op or 'return', got 'func'");
  EXPECT_EQ(Err("entry func @m(%x: 4) {\n  return %x\nfunc @f() {}"),
            "t.mpir:3:1: error: expected '}' after return (closing @m from 1:22), got 'func'");
}

TEST(ParseErrorTest, ProgramStatementPlacement) {
  EXPECT_EQ(Err("entry func @m() {}\nprogram @p"),
            "t.mpir:2:1: error: 'program @name' must be the first statement of the file");
  EXPECT_EQ(Err("program p"), "t.mpir:1:9: error: expected a program name (@name), got 'p'");
}

TEST(ParseErrorTest, ComputationHeader) {
  EXPECT_EQ(Err("entry @m() {}"), "t.mpir:1:7: error: expected 'func' or 'region' after 'entry', got '@m'");
  EXPECT_EQ(Err("function @m() {}"),
            "t.mpir:1:1: error: expected a computation ('func' or 'region'), got 'function'");
  EXPECT_EQ(Err("entry func m() {}"), "t.mpir:1:12: error: expected a computation name (@name), got 'm'");
  EXPECT_EQ(Err("entry func @m(%x 4) {}"),
            "t.mpir:1:18: error: expected ':' and the parameter type, got '4'");
  EXPECT_EQ(Err("entry func @m(%x:f32[4]) {}"),
            "t.mpir:1:21: error: expected ':' and the parameter type (%x:f32 is one name: a ':' followed by a "
            "name character belongs to the name; put a space after the ':'), got '['");
  EXPECT_EQ(Err("entry func @m() affinity(\"gpu\") {}"),
            "t.mpir:1:17: error: affinity(\"...\") is only valid on a region");
  EXPECT_EQ(Err("entry region @r() affinity(gpu) {}"),
            "t.mpir:1:28: error: expected an affinity string (\"device\"), got 'gpu'");
  EXPECT_EQ(Err("entry region @r() [] {}"), "t.mpir:1:19: error: expected affinity(\"...\") or '{', got '['");
}

TEST(ParseErrorTest, OpSyntax) {
  EXPECT_EQ(Err("entry func @m(%x: 4) {\n  %y exp(%x) : 4\n}"),
            "t.mpir:2:6: error: expected ',' or '=' after the result names, got 'exp'");
  EXPECT_EQ(Err("entry func @m(%x: 4) {\n  %y = (%x) : 4\n}"), "t.mpir:2:8: error: expected an opcode, got '('");
  EXPECT_EQ(Err("entry func @m(%x: 4) {\n  %y = exp %x : 4\n}"),
            "t.mpir:2:12: error: expected '(' after opcode 'exp', got '%x'");
  EXPECT_EQ(Err("entry func @m(%x: 4) {\n  %y = exp(x) : 4\n}"),
            "t.mpir:2:12: error: expected an operand (%name), got 'x'");
  EXPECT_EQ(Err("entry func @m(%x: 4) {\n  %y = exp(%x)\n}"),
            "t.mpir:3:1: error: expected ':' and the result types, got '}'");
  EXPECT_EQ(Err("entry func @m(%x: 4) {\n  %y, %z = split(%x) : 2\n}"),
            "t.mpir:3:1: error: expected ',' and the type of result %z (2 results), got '}'");
  EXPECT_EQ(Err("entry func @m(%x: 4) {\n  %y = exp(%x) : 4, 4\n}"),
            "t.mpir:2:19: error: more result types than results (1)");
  EXPECT_EQ(Err("entry func @m(%x: 4) {\n  store(%x) : 4\n}"),
            "t.mpir:2:13: error: an op without results has no result types; write '%name = opcode(...) : type'");
  EXPECT_EQ(Err("entry func @m(%x: 4) {\n  %y = exp(%x) : float\n}"),
            "t.mpir:2:18: error: expected a type (DTYPE[dims], a byte count, (size expression) or timepoint), got "
            "'float'");
  EXPECT_EQ(Err("entry func @m(%x: 4) {\n  %y = exp(%x) : f32\n}"),
            "t.mpir:2:18: error: expected '[' after dtype 'f32' (write f32[] for a scalar)");
  EXPECT_EQ(Err("entry func @m(%x: 4) {\n  %y = exp(%x) : f32[4 4]\n}"),
            "t.mpir:2:24: error: expected ',' or ']', got '4'");
}

TEST(ParseErrorTest, UnknownDtype) {
  EXPECT_EQ(Err("entry func @m(%x: f31[4]) {}"), "t.mpir:1:19: error: unknown dtype 'f31'");
}

TEST(ParseErrorTest, BadNumbers) {
  EXPECT_EQ(Err("entry func @m(%x: f32[4x]) {}"), "t.mpir:1:23: error: '4x' is not a number");
  EXPECT_EQ(Err("entry func @m(%x: 1.5.2) {}"), "t.mpir:1:19: error: '1.5.2' is not a number");
  EXPECT_EQ(Err("entry func @m(%x: f32[99999999999999999999]) {}"),
            "t.mpir:1:23: error: integer '99999999999999999999' is out of range (int64)");
  EXPECT_EQ(Err("entry func @m(%x: -4) {}"), "t.mpir:1:19: error: a byte size must be >= 0, got -4");
  EXPECT_EQ(Err("entry func @m(%x: 1.5) {}"), "t.mpir:1:19: error: a byte size must be an integer, got '1.5'");
  EXPECT_EQ(Err("entry func @m(%x: f32[2,-1]) {}"), "t.mpir:1:25: error: a dimension must be >= 0, got -1");
  EXPECT_EQ(Err("entry func @m(%x: f32[4611686018427387904]) {}"),
            "t.mpir:1:19: error: tensor type is too large: tensor size overflows int64");
  EXPECT_EQ(Err("entry func @m(%x: 16) {\n  %v = slice(%x) : 4 view(%x, -8)\n}"),
            "t.mpir:2:31: error: a view byte offset must be >= 0, got -8");
  EXPECT_EQ(Err("entry func @m(%x: 4 space(3000000000)) {}"),
            "t.mpir:1:27: error: memory space 3000000000 is out of range (at most 2147483647)");
  EXPECT_EQ(Err("entry func @m(%x: 4) {\n  %y = exp(%x) : 4 {flops = -1}\n}"),
            "t.mpir:2:29: error: attribute 'flops' must be >= 0, got -1");
  EXPECT_EQ(Err("entry func @m(%x: 4) {\n  %y = exp(%x) : 4 {scratch = 1.5}\n}"),
            "t.mpir:2:31: error: attribute 'scratch' must be an integer, got '1.5'");
  EXPECT_EQ(Err("entry func @m(%x: 4) {\n  %y = exp(%x) : 4 {alpha = 1e999}\n}"),
            "t.mpir:2:29: error: number '1e999' is out of range (double)");
  EXPECT_EQ(Err("entry func @m(%x: 4) {\n  %y = exp(%x) : 4 {n = -9223372036854775809}\n}"),
            "t.mpir:2:25: error: integer '-9223372036854775809' is out of range (int64)");
}

// --- Qualifiers -------------------------------------------------------------

TEST(ParseErrorTest, QualifierPlacementAndRepetition) {
  EXPECT_EQ(Err("entry func @m(%x: 4, %y: 4 tied(%x)) {}"),
            "t.mpir:1:28: error: tied(...) is only allowed on op results");
  EXPECT_EQ(Err("entry func @m(%x: 4 view(%x, 0)) {}"),
            "t.mpir:1:21: error: view(...) is only allowed on op results");
  EXPECT_EQ(Err("entry func @m(%x: 4 space(1) space(1)) {}"),
            "t.mpir:1:30: error: duplicate space(...) qualifier");
  EXPECT_EQ(Err("entry func @m(%x: 4 constant external) {}"),
            "t.mpir:1:30: error: duplicate lifetime: %x is already 'constant'");
  EXPECT_EQ(Err("entry func @m(%x: 4) {\n  %y = exp(%x) : 4 tied(%x) tied(%x)\n}"),
            "t.mpir:2:29: error: duplicate tied(...) qualifier");
  EXPECT_EQ(Err("entry func @m(%x: 4) {\n  %y = exp(%x) : 4 tied(%x) view(%x, 0)\n}"),
            "t.mpir:2:29: error: a result cannot be both tied and a view");
}

TEST(ParseErrorTest, TiedOrViewOperandNotAnOperand) {
  EXPECT_EQ(Err("entry func @m(%x: 4, %z: 4) {\n  %y = exp(%x) : 4 tied(%z)\n}"),
            "t.mpir:2:25: error: tied(%z): %z is not an operand of this op");
  EXPECT_EQ(Err("entry func @m(%x: 4, %z: 4) {\n  %y = exp(%x) : 4 view(%z, 0)\n}"),
            "t.mpir:2:25: error: view(%z): %z is not an operand of this op");
}

TEST(ParseErrorTest, TiedSizeMismatch) {
  EXPECT_EQ(Err("entry func @m(%x: f32[4]) {\n  %y = exp(%x) : f32[8] tied(%x)\n  return %y\n}"),
            "t.mpir:2:3: error: tied result %y (32 bytes) must have the size of operand %x (16 bytes)");
}

// A tie overwrites its operand: reading the operand (or a view of it, or
// returning it) later would see the tied result's bytes.
TEST(ParseErrorTest, TiedOperandReadLater) {
  EXPECT_EQ(Err("entry func @m(%a: f32[4]) {\n  %b = exp(%a) : f32[4]\n  %c = exp(%b) : f32[4] tied(%b)\n"
                "  %d = log(%b) : f32[4]\n  %e = add(%c, %d) : f32[4]\n  return %e\n}"),
            "t.mpir:4:8: error: %d reads %b after %c was written in place over %b at 3:3; a result may be "
            "tied to an operand only at that operand's last use");
  // Tied twice to one operand: the second tie reads what the first overwrote.
  EXPECT_EQ(Err("entry func @m(%a: f32[4]) {\n  %b = exp(%a) : f32[4]\n  %c = exp(%b) : f32[4] tied(%b)\n"
                "  %d = log(%b) : f32[4] tied(%b)\n  return %d\n}"),
            "t.mpir:4:8: error: %d reads %b after %c was written in place over %b at 3:3; a result may be "
            "tied to an operand only at that operand's last use");
  // A view taken before the tie reads the overwritten bytes too.
  EXPECT_EQ(Err("entry func @m(%a: f32[4]) {\n  %b = exp(%a) : f32[4]\n  %v = slice(%b) : f32[2] view(%b, 8)\n"
                "  %c = exp(%b) : f32[4] tied(%b)\n  %d = sum(%v) : f32[2]\n  return %c, %d\n}"),
            "t.mpir:5:8: error: %d reads %v after %c was written in place over %b at 4:3; a result may be "
            "tied to an operand only at that operand's last use");
  EXPECT_EQ(Err("entry func @m(%a: f32[4]) {\n  %b = exp(%a) : f32[4]\n  %c = exp(%b) : f32[4] tied(%b)\n"
                "  return %b, %c\n}"),
            "t.mpir:1:12: error: the return of @m reads %b after %c was written in place over %b at 3:3; a "
            "result may be tied to an operand only at that operand's last use");
  // Two results of one op tied to the same operand.
  EXPECT_EQ(Err("entry func @m(%a: f32[4]) {\n  %b = exp(%a) : f32[4]\n"
                "  %c, %d = split(%b) : f32[4] tied(%b), f32[4] tied(%b)\n  return %c, %d\n}"),
            "t.mpir:3:7: error: %d is tied to %b, which %c of the same op is tied to already; each result needs "
            "storage of its own");
  // At the last use a tie is fine, also when the same op reads the operand twice.
  EXPECT_TRUE(ParseProgram("entry func @m(%a: f32[4]) {\n  %b = exp(%a) : f32[4]\n"
                           "  %c = add(%b, %b) : f32[4] tied(%b)\n  return %c\n}", "t.mpir").ok());
}

// A predicate or branch index is one element of pred, bool or an integer type.
TEST(ParseErrorTest, PredicateType) {
  const std::string branches = "\n  return %y\n}\nfunc @t(%tx: 4) {\n  return %tx\n}\nfunc @f(%fx: 4) {\n  return %fx\n}";
  EXPECT_EQ(Err("entry func @m(%p: f32[1024], %x: 4) {\n  %y = conditional(%p, %x) : 4 {branches = [@t, @f]}" +
                branches),
            "t.mpir:2:8: error: the conditional's predicate %p is f32[1024]; a predicate or branch index is one "
            "element of pred, bool or an integer type");
  EXPECT_EQ(Err("entry func @m(%p: pred[2], %x: 4) {\n  %y = conditional(%p, %x) : 4 {branches = [@t, @f]}" +
                branches),
            "t.mpir:2:8: error: the conditional's predicate %p is pred[2]; a predicate or branch index is one "
            "element of pred, bool or an integer type");
  for (const char* type : {"pred[]", "bool[1]", "s32[]", "i64[1,1]", "1"}) {
    EXPECT_TRUE(ParseProgram(std::string("entry func @m(%p: ") + type +
                                 ", %x: 4) {\n  %y = conditional(%p, %x) : 4 {branches = [@t, @f]}" + branches,
                             "t.mpir")
                    .ok())
        << type;
  }
  EXPECT_EQ(Err("entry func @m(%x: 4) {\n  %y = while(%x) : 4 {cond = @c, body = @b}\n  return %y\n}\n"
                "func @c(%cx: 4) {\n  %k = compare(%cx) : f32[]\n  return %k\n}\n"
                "func @b(%bx: 4) {\n  %n = add(%bx) : 4\n  return %n\n}"),
            "t.mpir:2:8: error: while cond @c returns %k, which is f32[]; a predicate or branch index is one "
            "element of pred, bool or an integer type");
}

TEST(ParseErrorTest, ViewOutOfRange) {
  EXPECT_EQ(Err("entry func @m(%x: 16) {\n  %v = slice(%x) : 8 view(%x, 12)\n  return %v\n}"),
            "t.mpir:2:3: error: view %v (8 bytes at offset 12) exceeds operand %x (16 bytes)");
  EXPECT_EQ(Err("entry func @m(%x: 16) {\n  %v = slice(%x) : 8 view(%x, 9223372036854775807)\n  return %v\n}"),
            "t.mpir:2:3: error: view %v (8 bytes at offset 9223372036854775807) exceeds operand %x (16 bytes)");
}

TEST(ParseErrorTest, TimepointQualifiers) {
  EXPECT_EQ(Err("entry func @m(%t: timepoint space(1)) {}"),
            "t.mpir:1:15: error: timepoint %t cannot be tied, a view, pinned to a space or given a lifetime");
}

// --- Names and references ---------------------------------------------------

TEST(ParseErrorTest, UnknownValue) {
  EXPECT_EQ(Err("entry func @m() {\n  %y = exp(%nope) : 4\n  return %y\n}"),
            "t.mpir:2:12: error: unknown value %nope");
  EXPECT_EQ(Err("entry func @m() {\n  return %gone\n}"), "t.mpir:2:10: error: unknown value %gone");
}

TEST(ParseErrorTest, UseBeforeDefinition) {
  EXPECT_EQ(Err("entry func @m(%x: 4) {\n  %a = exp(%b) : 4\n  %b = exp(%x) : 4\n  return %a\n}"),
            "t.mpir:2:12: error: value %b is used before its definition at 3:3");
  EXPECT_EQ(Err("entry func @m() {\n  %a = exp(%a) : 4\n}"),
            "t.mpir:2:12: error: value %a is used before its definition at 2:3");
}

TEST(ParseErrorTest, ValueOfAnotherComputation) {
  EXPECT_EQ(Err("func @f(%p: 4) { return %p }\n"
                "entry func @m(%x: 4) {\n  %y = call(%p) : 4 {callee = @f}\n  return %y\n}"),
            "t.mpir:3:13: error: value %p belongs to computation @f (defined at 1:9); pass values to other "
            "computations as operands");
  // Defined in a later computation: reported once everything is read.
  EXPECT_EQ(Err("entry func @m() {\n  %y = exp(%p) : 4\n  return %y\n}\nfunc @f(%p: 4) { return %p }"),
            "t.mpir:2:12: error: value %p belongs to computation @f (defined at 5:9); pass values to other "
            "computations as operands");
}

TEST(ParseErrorTest, DuplicateValueName) {
  EXPECT_EQ(Err("entry func @m(%x: 4) {\n  %x = exp(%x) : 4\n  return %x\n}"),
            "t.mpir:2:3: error: duplicate value name %x (first defined at 1:15)");
  EXPECT_EQ(Err("entry func @m(%x: 4) { %y = call(%x) : 4 {callee = @f} return %y }\n"
                "func @f(%x: 4) { return %x }"),
            "t.mpir:2:9: error: duplicate value name %x (first defined at 1:15)");
  EXPECT_EQ(Err("entry func @m(%x: 4) {\n  %a, %a = split(%x) : 2, 2\n}"),
            "t.mpir:2:7: error: duplicate value name %a (first defined at 2:3)");
}

TEST(ParseErrorTest, DuplicateComputation) {
  EXPECT_EQ(Err("entry func @m() {}\nfunc @m() {}"),
            "t.mpir:2:6: error: duplicate computation @m (first defined at 1:12)");
}

TEST(ParseErrorTest, MissingComputation) {
  EXPECT_EQ(Err("entry func @m(%x: 4) {\n  %y = while(%x) : 4 {cond = @cond, body = @body}\n  return %y\n}\n"
                "func @body(%b: 4) { return %b }"),
            "t.mpir:2:30: error: unknown computation @cond");
  EXPECT_EQ(Err("entry func @m(%x: 4) {\n  %y = call(%x) : 4 {callee = @nope}\n}"),
            "t.mpir:2:31: error: unknown computation @nope");
}

TEST(ParseErrorTest, UnknownOpcode) {
  EXPECT_EQ(Err("entry func @m(%x: 4) {\n  %y = frobnicate(%x) : 4\n  return %y\n}"),
            "t.mpir:2:8: error: unknown opcode 'frobnicate' (custom ops must be namespaced with a '.', e.g. "
            "custom.frobnicate)");
  EXPECT_EQ(Err("entry func @m(%x: 4) {\n  tied(%x)\n}"),
            "t.mpir:2:3: error: unknown opcode 'tied' (custom ops must be namespaced with a '.', e.g. custom.tied)");
}

TEST(ParseErrorTest, Entry) {
  EXPECT_EQ(Err("func @m() {}"), "t.mpir:1:6: error: no entry computation; mark one computation 'entry'");
  EXPECT_EQ(Err("entry func @a() {}\nentry func @b() {}"),
            "t.mpir:2:1: error: second entry computation; @a (at 1:12) is already the entry");
}

// --- Attributes -------------------------------------------------------------

TEST(ParseErrorTest, AttributeSyntax) {
  EXPECT_EQ(Err("entry func @m(%x: 4) {\n  %y = exp(%x) : 4 {flops = 1, flops = 2}\n}"),
            "t.mpir:2:32: error: duplicate attribute 'flops' (first given at 2:21)");
  EXPECT_EQ(Err("entry func @m(%x: 4) {\n  %y = exp(%x) : 4 {k: 1}\n}"),
            "t.mpir:2:22: error: expected '=' after attribute 'k', got ':'");
  EXPECT_EQ(Err("entry func @m(%x: 4) {\n  %y = exp(%x) : 4 {k = 1,}\n}"),
            "t.mpir:2:27: error: expected an attribute name, got '}'");
  EXPECT_EQ(Err("entry func @m(%x: 4) {\n  %y = exp(%x) : 4 {k = 1 j = 2}\n}"),
            "t.mpir:2:27: error: expected ',' or '}', got 'j'");
  EXPECT_EQ(Err("entry func @m(%x: 4) {\n  %y = exp(%x) : 4 {k = maybe}\n}"),
            "t.mpir:2:25: error: expected an attribute value (number, \"string\", true, false, @name or [list]), "
            "got 'maybe'");
  EXPECT_EQ(Err("entry func @m(%x: 4) {\n  %y = exp(%x) : 4 {affinity = 3}\n}"),
            "t.mpir:2:32: error: expected a string for attribute 'affinity', got '3'");
  EXPECT_EQ(Err("entry func @m(%x: 4) {\n  %y = exp(%x) : 4 {wave = x}\n}"),
            "t.mpir:2:28: error: expected an integer for attribute 'wave', got 'x'");
  EXPECT_EQ(Err("entry func @m(%x: 4) {\n  %y = exp(%x) : 4 {flops = \"many\"}\n}"),
            "t.mpir:2:29: error: expected a number for attribute 'flops', got '\"many\"'");
}

TEST(ParseErrorTest, AttributeNestingLimit) {
  const std::string deep = std::string(33, '[') + std::string(33, ']');
  EXPECT_EQ(Err("entry func @m(%x: 4) {\n  %y = exp(%x) : 4 {k = " + deep + "}\n}"),
            "t.mpir:2:57: error: attribute lists nested deeper than 32");
  const std::string ok = std::string(32, '[') + std::string(32, ']');
  EXPECT_EQ(Err("entry func @m(%x: 4) {\n  %y = exp(%x) : 4 {k = " + ok + "}\n}"), "unexpectedly parsed");
}

TEST(ParseErrorTest, CalleeAttributePlacement) {
  EXPECT_EQ(Err("entry func @m(%x: 4) {\n  %y = exp(%x) : 4 {cond = @c}\n}"),
            "t.mpir:2:21: error: attribute 'cond' is only valid on while, not on 'exp'");
  EXPECT_EQ(Err("entry func @m(%x: 4) {\n  %y = whiel(%x) : 4 {body = @c}\n}"),
            "t.mpir:2:23: error: attribute 'body' is only valid on while, not on 'whiel'");
  EXPECT_EQ(Err("entry func @m(%x: 4) {\n  %y = call(%x) : 4 {branches = [@c]}\n}"),
            "t.mpir:2:22: error: attribute 'branches' is only valid on conditional, not on 'call'");
  EXPECT_EQ(Err("entry func @m(%x: 4) {\n  %y = exp(%x) : 4 {callee = @c}\n}"),
            "t.mpir:2:21: error: attribute 'callee' is only valid on call and execute, not on 'exp'");
  EXPECT_EQ(Err("entry func @m(%x: 4) {\n  %y = exp(%x) : 4 {trip_count = 3}\n}"),
            "t.mpir:2:21: error: attribute 'trip_count' is only valid on while, not on 'exp'");
  EXPECT_EQ(Err("entry func @m(%x: 4) {\n  %y = call(%x) : 4 {callee = f}\n}"),
            "t.mpir:2:31: error: expected a computation (@name) for attribute 'callee', got 'f'");
  EXPECT_EQ(Err("entry func @m(%p: pred[], %x: 4) {\n  %y = conditional(%p, %x) : 4 {branches = []}\n}"),
            "t.mpir:2:45: error: expected a branch computation (@name), got ']'");
}

TEST(ParseErrorTest, MissingCalleeAttributes) {
  EXPECT_EQ(Err("entry func @m(%x: 4) {\n  %y = while(%x) : 4 {cond = @c}\n}"),
            "t.mpir:2:8: error: while requires attributes cond = @c and body = @b");
  EXPECT_EQ(Err("entry func @m(%p: pred[], %x: 4) {\n  %y = conditional(%p, %x) : 4\n}"),
            "t.mpir:2:8: error: conditional requires attribute branches = [@b0, @b1, ...]");
  EXPECT_EQ(Err("entry func @m(%x: 4) {\n  %y = call(%x) : 4\n}"),
            "t.mpir:2:8: error: call requires attribute callee = @func");
  EXPECT_EQ(Err("entry func @m(%x: 4) {\n  %y = execute(%x) : 4 {}\n}"),
            "t.mpir:2:8: error: execute requires attribute callee = @region");
}

// --- Control flow against callees ---------------------------------------------

TEST(ParseErrorTest, WhileArityAndSizes) {
  const std::string cond = "func @c(%cp: 4) { %cq = compare(%cp) : pred[] return %cq }\n";
  const std::string body = "func @b(%bp: 4) { return %bp }\n";
  EXPECT_EQ(Err("entry func @m(%x: 4, %z: 4) {\n  %y = while(%x, %z) : 4 {cond = @c, body = @b}\n  return %y\n}\n" +
                cond + body),
            "t.mpir:2:8: error: while has 2 operands but 1 result; loop-carried values correspond position-wise");
  EXPECT_EQ(Err("entry func @m(%x: 4, %z: 4) {\n  %y, %w = while(%x, %z) : 4, 4 {cond = @c, body = @b}\n"
                "  return %y\n}\n" + cond + body),
            "t.mpir:2:12: error: while cond @c takes 1 parameter but the while has 2 operands");
  EXPECT_EQ(Err("entry func @m(%x: 8) {\n  %y = while(%x) : 8 {cond = @c, body = @b}\n  return %y\n}\n" + cond + body),
            "t.mpir:2:8: error: while operand 1 %x (8 bytes) does not match parameter 1 %cp (4 bytes) of cond @c");
  EXPECT_EQ(Err("entry func @m(%x: 4) {\n  %y = while(%x) : 8 {cond = @c, body = @b}\n  return %y\n}\n" + cond + body),
            "t.mpir:2:8: error: while operand 1 %x (4 bytes) does not match result 1 %y (8 bytes)");
  EXPECT_EQ(Err("entry func @m(%x: 4) {\n  %y = while(%x) : 4 {cond = @c, body = @b}\n  return %y\n}\n" + cond +
                "func @b(%bp: 4) { %bq = exp(%bp) : 2 return %bq }\n"),
            "t.mpir:2:8: error: while operand 1 %x (4 bytes) does not match result 1 %bq (2 bytes) of body @b");
  EXPECT_EQ(Err("entry func @m(%x: 4) {\n  %y = while(%x) : 4 {cond = @c, body = @b}\n  return %y\n}\n"
                "func @c(%cp: 4) { return }\n" + body),
            "t.mpir:2:8: error: while cond @c must return 1 value (the predicate), returns 0");
  EXPECT_EQ(Err("entry func @m(%x: 4) {\n  %y = while(%x) : 4 {cond = @c, body = @b}\n  return %y\n}\n" + cond +
                "func @b(%bp: 4) { return %bp, %bp }\n"),
            "t.mpir:2:8: error: while body @b returns 2 values but the while has 1 operand");
}

TEST(ParseErrorTest, ConditionalArityAndSizes) {
  const std::string head = "entry func @m(%p: pred[], %x: 4) {\n  %y = conditional(%p, %x) : 4 {branches = [@t, @f]}\n"
                           "  return %y\n}\nfunc @t(%ta: 4) { return %ta }\n";
  EXPECT_EQ(Err(head + "func @f(%fa: 4, %fb: 4) { return %fa }"),
            "t.mpir:2:8: error: conditional branch 2 @f takes 2 parameters but the conditional passes 1 argument "
            "(operands after the predicate)");
  EXPECT_EQ(Err(head + "func @f(%fa: 8) { return %fa }"),
            "t.mpir:2:8: error: conditional argument 1 %x (4 bytes) does not match parameter 1 %fa (8 bytes) of "
            "branch 2 @f");
  EXPECT_EQ(Err(head + "func @f(%fa: 4) { %fb = c.op() : 3 return %fb }"),
            "t.mpir:2:8: error: conditional result 1 %y (4 bytes) does not match result 1 %fb (3 bytes) of branch 2 @f");
  EXPECT_EQ(Err(head + "func @f(%fa: 4) { }"),
            "t.mpir:2:8: error: conditional branch 2 @f returns 0 values but the conditional has 1 result");
}

TEST(ParseErrorTest, CallAndExecuteArityAndSizes) {
  EXPECT_EQ(Err("entry func @m(%x: 4) {\n  %y = call(%x, %x) : 4 {callee = @f}\n  return %y\n}\n"
                "func @f(%a: 4) { return %a }"),
            "t.mpir:2:8: error: call @f takes 1 parameter but is given 2 operands");
  EXPECT_EQ(Err("entry func @m(%x: 4, %z: 4) {\n  %y = call(%x, %z) : 4 {callee = @f}\n  return %y\n}\n"
                "func @f(%a: 4, %b: 16) { return %a }"),
            "t.mpir:2:8: error: call operand 2 %z (4 bytes) does not match parameter 2 %b (16 bytes) of @f");
  EXPECT_EQ(Err("entry func @m(%x: 4, %t: timepoint) {\n  %y = execute(%x, %t) : 4 {callee = @r}\n  return %y\n}\n"
                "region @r(%a: 4, %b: 0) { return %a }"),
            "t.mpir:2:8: error: execute operand 2 %t (timepoint) does not match parameter 2 %b (0 bytes) of @r");
  EXPECT_EQ(Err("entry func @m(%x: 4) {\n  %y, %t = execute(%x) : 4, 4 {callee = @r}\n  return %y\n}\n"
                "region @r(%a: 4) { %d = barrier() : timepoint return %a, %d }"),
            "t.mpir:2:12: error: execute result 2 %t (4 bytes) does not match result 2 %d (timepoint) of @r");
  EXPECT_EQ(Err("entry func @m(%x: 4) {\n  %y = call(%x) : 4 {callee = @f}\n  return %y\n}\n"
                "func @f(%a: 4) { return }"),
            "t.mpir:2:8: error: call @f returns 0 values but the call has 1 result");
}

TEST(ParseErrorTest, CallRegionOrExecuteFunc) {
  EXPECT_EQ(Err("entry func @m(%x: 4) {\n  %y = call(%x) : 4 {callee = @r}\n  return %y\n}\n"
                "region @r(%a: 4) { return %a }"),
            "t.mpir:2:8: error: call: @r is a region; run regions with execute");
  EXPECT_EQ(Err("entry func @m(%x: 4) {\n  %y = execute(%x) : 4 {callee = @f}\n  return %y\n}\n"
                "func @f(%a: 4) { return %a }"),
            "t.mpir:2:8: error: execute: @f is a func; execute runs regions (call funcs with call)");
}

TEST(ParseErrorTest, CallGraph) {
  const std::string f = "func @f(%a: 4) { return %a }\n";
  EXPECT_EQ(Err("entry func @m(%x: 4) {\n  %y = call(%x) : 4 {callee = @f}\n  %z = call(%y) : 4 {callee = @f}\n"
                "  return %z\n}\n" + f),
            "t.mpir:3:8: error: computation @f is called a second time (first at 2:8); every computation except "
            "the entry and the initializers has exactly one call site");
  EXPECT_EQ(Err("entry func @m(%x: 4) { return %x }\n" + f),
            "t.mpir:2:6: error: computation @f is never called; every computation except the entry and the "
            "initializers is called from exactly one op");
  EXPECT_EQ(Err("entry func @m(%x: 4) {\n  %y = call(%x) : 4 {callee = @m}\n  return %y\n}"),
            "t.mpir:2:8: error: the entry computation @m cannot be called");
}

TEST(ParseErrorTest, Recursion) {
  EXPECT_EQ(Err("entry func @m() {}\nfunc @f(%a: 4) {\n  %b = call(%a) : 4 {callee = @f}\n  return %b\n}"),
            "t.mpir:3:8: error: recursive call: @f -> @f; computations may not call themselves, directly or "
            "indirectly");
  EXPECT_EQ(Err("entry func @m() {}\n"
                "func @f(%a: 4) {\n  %b = call(%a) : 4 {callee = @g}\n  return %b\n}\n"
                "func @g(%c: 4) {\n  %d = call(%c) : 4 {callee = @f}\n  return %d\n}"),
            "t.mpir:7:8: error: recursive call: @f -> @g -> @f; computations may not call themselves, directly or "
            "indirectly");
}

// --- Async pairs ----------------------------------------------------------------

TEST(ParseErrorTest, AsyncPairs) {
  EXPECT_EQ(Err("entry func @m(%x: 4) {\n  %d = copy-done(%x) : 4\n  return %d\n}"),
            "t.mpir:2:8: error: copy-done operand 1 %x is not a result of a copy-start");
  EXPECT_EQ(Err("entry func @m(%x: 4) {\n  %s = all-reduce-start(%x) : 4\n  %d = copy-done(%s) : 4\n"
                "  return %d\n}"),
            "t.mpir:3:8: error: copy-done operand 1 %s is not a result of a copy-start");
  EXPECT_EQ(Err("entry func @m(%x: 4) {\n  %s = copy-start(%x) : 4\n  %d = copy-done(%s) : 8\n  return %d\n}"),
            "t.mpir:3:8: error: copy-done result 1 %d (8 bytes) does not match operand 1 %s (4 bytes)");
  EXPECT_EQ(Err("entry func @m(%x: 4) {\n  %s = copy-start(%x) : 4\n  %d = copy-done(%s) : 4\n"
                "  %e = copy-done(%s) : 4\n  return %e\n}"),
            "t.mpir:4:8: error: copy-start %s is already completed by the copy-done at 3:8");
  EXPECT_EQ(Err("entry func @m(%x: 4) {\n  %s = copy-start(%x) : 4\n  return %x\n}"),
            "t.mpir:2:8: error: copy-start %s is never completed by a copy-done");
  EXPECT_EQ(Err("entry func @m(%x: 4) {\n  %s = copy-start(%x) : 4\n  %t = copy-start(%x) : 4\n"
                "  %d, %e = copy-done(%s, %t) : 4, 4\n}"),
            "t.mpir:4:12: error: copy-done operand 2 %t comes from a different copy-start than operand 1");
  EXPECT_EQ(Err("entry func @m(%x: 4) {\n  copy-done()\n}"),
            "t.mpir:2:3: error: copy-done needs the results of a copy-start as operands");
}

// --- Waves ------------------------------------------------------------------------

TEST(ParseErrorTest, Waves) {
  EXPECT_EQ(Err("entry func @m() {\n  %a = fill() : 4 {wave = 0}\n}"),
            "t.mpir:2:8: error: wave is only valid on ops of an execution region");
  EXPECT_EQ(Err("entry region @r() {\n  %a = fill() : 4 {wave = 1}\n  %b = fill() : 4 {wave = 0}\n}"),
            "t.mpir:3:8: error: wave 0 after wave 1: ops of one wave must be adjacent and waves must increase along "
            "the schedule");
  EXPECT_EQ(Err("entry region @r() {\n  %a = fill() : 4 {wave = 0}\n  %b = fill() : 4\n  %c = fill() : 4 {wave = 0}\n}"),
            "t.mpir:4:8: error: wave 0 after wave 0: ops of one wave must be adjacent and waves must increase along "
            "the schedule");
}

// --- Files --------------------------------------------------------------------------

// --- Dims, size expressions, operand ranges, initializers ------------------------

TEST(ParseErrorTest, DimDeclarations) {
  EXPECT_EQ(Err("dim n"), "t.mpir:1:5: error: expected a dim name (%name), got 'n'");
  EXPECT_EQ(Err("dim %n <= 0"), "t.mpir:1:11: error: a dim bound must be >= 1, got 0");
  EXPECT_EQ(Err("dim %n <= -4"), "t.mpir:1:11: error: a dim bound must be >= 1, got -4");
  EXPECT_EQ(Err("dim %n <= %m"), "t.mpir:1:11: error: expected a dim bound (an integer >= 1), got '%m'");
  EXPECT_EQ(Err("dim %n < 4"), "t.mpir:1:8: error: unexpected character '<'");
  EXPECT_EQ(Err("dim %n\ndim %n <= 2\n"), "t.mpir:2:5: error: duplicate dim %n (first declared at 1:5)");
  EXPECT_EQ(Err("dim %n\nentry func @m() {}\ndim %k\n"),
            "t.mpir:3:1: error: 'dim %name' declarations must come before the first computation");
  EXPECT_EQ(Err("dim %n\nprogram @p\n"), "t.mpir:2:1: error: 'program @name' must be the first statement of the file");
}

TEST(ParseErrorTest, DimsAndValuesShareNames) {
  EXPECT_EQ(Err("dim %n\nentry func @m(%n: 4) {}"),
            "t.mpir:2:15: error: value %n reuses the name of dim %n (declared at 1:5); dims and values share one "
            "namespace");
}

TEST(ParseErrorTest, SizeExpressionNames) {
  EXPECT_EQ(Err("dim %n\nentry func @m(%x: 4) {\n  %y = exp(%x) : (4*%x)\n}"),
            "t.mpir:3:21: error: %x is a value, not a dim");
  EXPECT_EQ(Err("dim %n\nentry func @m(%x: 4) {\n  %y = exp(%x) : (4*%q)\n}"),
            "t.mpir:3:21: error: unknown dim %q");
  EXPECT_EQ(Err("entry func @m(%x: f32[%n]) {}"),
            "t.mpir:1:23: error: symbolic tensor dimensions are not supported; declare the size in bytes as an "
            "expression instead, e.g. f32[%n] as (4*%n)");
}

TEST(ParseErrorTest, SizeExpressionSyntax) {
  const std::string head = "dim %n <= 4096\nentry func @m(%x: ";
  EXPECT_EQ(Err(head + "(4*%n {}"), "t.mpir:2:25: error: expected ')' closing the size expression, got '{'");
  EXPECT_EQ(Err(head + "(4*-2)) {}"), "t.mpir:2:22: error: a number in a size expression must be >= 0, got -2");
  EXPECT_EQ(Err(head + "(-4)) {}"), "t.mpir:2:20: error: a number in a size expression must be >= 0, got -4");
  EXPECT_EQ(Err(head + "(1.5)) {}"), "t.mpir:2:20: error: a number in a size expression must be an integer, got '1.5'");
  EXPECT_EQ(Err(head + "(4 %n)) {}"), "t.mpir:2:22: error: expected ')' closing the size expression, got '%n'");
  EXPECT_EQ(Err(head + "(4+)) {}"),
            "t.mpir:2:22: error: expected a size (an integer, a dim %name, '(', max(...) or align(...)), got ')'");
  EXPECT_EQ(Err(head + "()) {}"),
            "t.mpir:2:20: error: expected a size (an integer, a dim %name, '(', max(...) or align(...)), got ')'");
  EXPECT_EQ(Err(head + "(max) {}"),
            "t.mpir:2:20: error: expected a size (an integer, a dim %name, '(', max(...) or align(...)), got 'max'");
  EXPECT_EQ(Err(head + "(max(%n; 2))) {}"), "t.mpir:2:26: error: unexpected character ';'");
  EXPECT_EQ(Err(head + "(max(%n, 2 {}"), "t.mpir:2:30: error: expected ',' or ')' closing max(, got '{'");
  EXPECT_EQ(Err(head + "(align(%n))) {}"), "t.mpir:2:28: error: expected ',' and the alignment, got ')'");
  EXPECT_EQ(Err(head + "(align(%n, 0))) {}"), "t.mpir:2:30: error: an alignment must be >= 1, got 0");
  EXPECT_EQ(Err(head + "(align(%n, %n))) {}"),
            "t.mpir:2:30: error: expected an alignment (an integer >= 1), got '%n'");
  EXPECT_EQ(Err(head + "(align(%n, 8589934592))) {}"),
            "t.mpir:2:30: error: alignment 8589934592 is above the limit of 2^32 (4294967296)");
  EXPECT_EQ(Err(head + "(align(%n, 8 {}"), "t.mpir:2:32: error: expected ')' closing align(, got '{'");
}

TEST(ParseErrorTest, SizeExpressionValues) {
  const std::string head = "dim %n <= 4096\nentry func @m(%x: ";
  EXPECT_EQ(Err(head + "(max(%n, 2) * %n)) {}"),
            "t.mpir:2:31: error: cannot multiply max(%n, 2) by %n: a product with max(...) or align(...) is not "
            "supported");
  EXPECT_EQ(Err(head + "(%n * align(%n, 8))) {}"),
            "t.mpir:2:23: error: cannot multiply %n by align(%n, 8): a product with max(...) or align(...) is not "
            "supported");
  EXPECT_EQ(Err(head + "(9223372036854775807 + 1)) {}"), "t.mpir:2:40: error: size expression overflows int64");
  EXPECT_EQ(Err(head + "(4611686018427387904 * %n * 2)) {}"),
            "t.mpir:2:45: error: size expression overflows int64");
  EXPECT_EQ(Err(head + "(4611686018427387905)) {}"),
            "t.mpir:2:19: error: %x: size 4611686018427387905 is 4611686018427387905 bytes, above the limit of 2^62 "
            "(4611686018427387904) bytes");
  EXPECT_EQ(Err(head + "(1125899906842625*%n)) {}"),
            "t.mpir:2:19: error: %x: size 1125899906842625*%n is 4611686018427392000 bytes at %n = 4096, above the "
            "limit of 2^62 (4611686018427387904) bytes");
  EXPECT_EQ(Err(head + "(2251799813685248*%n)) {}"),
            "t.mpir:2:19: error: %x: size 2251799813685248*%n overflows int64 at %n = 4096");
}

TEST(ParseErrorTest, SizeExpressionLimits) {
  std::string deep = "dim %n\nentry func @m(%x: ";
  for (int i = 0; i < 40; ++i) deep += "(";
  EXPECT_EQ(Err(deep), "t.mpir:2:51: error: size expression nested deeper than 32");
  std::string sum = "dim %n\ndim %m\nentry func @m(%x: (max(%n, %m)";
  for (int i = 0; i < 12; ++i) sum += " + max(%n, %m)";
  EXPECT_EQ(Err(sum + ")) {}"), "t.mpir:3:130: error: size expression is too complex (its normal form could exceed "
                                "4096 atoms)");
  std::string product = "dim %n\nentry func @m(%x: (%n";
  for (int i = 0; i < 16; ++i) product += "*%n";
  EXPECT_EQ(Err(product + ")) {}"), "t.mpir:2:67: error: size expression multiplies more than 16 dims");
}

TEST(ParseErrorTest, OperandRangeSyntax) {
  const std::string head = "dim %n <= 4096\nentry func @m(%x: 4096) {\n  ";
  EXPECT_EQ(Err(head + "store(%x[0])\n}"), "t.mpir:3:13: error: expected 'for' and the range length "
                                            "(%x[OFFSET for LENGTH]), got ']'");
  EXPECT_EQ(Err(head + "store(%x[0 for 4)\n}"), "t.mpir:3:19: error: expected ']' closing the operand range, got ')'");
  EXPECT_EQ(Err(head + "store(%x[0 to 4])\n}"), "t.mpir:3:14: error: expected 'for' and the range length "
                                                 "(%x[OFFSET for LENGTH]), got 'to'");
}

TEST(ParseErrorTest, OperandRangeOutOfBounds) {
  const std::string head = "dim %n <= 4096\nentry func @m(%t: 4096, %s: (4*%n), %p: timepoint) {\n  ";
  EXPECT_EQ(Err(head + "fill(%t[4000 for 200])\n}"),
            "t.mpir:3:10: error: range [4000 for 200] of %t exceeds its 4096 bytes");
  EXPECT_EQ(Err(head + "fill(%t[0 for 4*%n])\n}"),
            "t.mpir:3:10: error: range [0 for 4*%n] of %t exceeds its 4096 bytes");
  EXPECT_EQ(Err(head + "fill(%s[128 for 4*%n])\n}"),
            "t.mpir:3:10: error: range [128 for 4*%n] of %s exceeds its 4*%n bytes");
  EXPECT_EQ(Err(head + "fill(%p[0 for 4])\n}"),
            "t.mpir:3:10: error: range [0 for 4] of timepoint %p: a timepoint has no bytes");
}

TEST(ParseErrorTest, SymbolicSizeChecks) {
  const std::string head = "dim %n <= 4096\nentry func @m(%x: (4*%n)) {\n";
  EXPECT_EQ(Err(head + "  %y = exp(%x) : (8*%n) tied(%x)\n  return %y\n}"),
            "t.mpir:3:3: error: tied result %y (8*%n bytes) must have the size of operand %x (4*%n bytes)");
  EXPECT_EQ(Err(head + "  %y = exp(%x) : 16384 tied(%x)\n  return %y\n}"),
            "t.mpir:3:3: error: tied result %y (16384 bytes) must have the size of operand %x (4*%n bytes)");
  EXPECT_EQ(Err(head + "  %v = slice(%x) : (2*%n) view(%x, 2*%n)\n}"),
            "t.mpir:3:3: error: view %v at offset 2*%n: a subview at an offset given by dims must "
            "be defined in an execution region (`region @r`), whose slices keep symbolic offsets; "
            "buffers outside regions are laid out at constant byte offsets");
  EXPECT_EQ(Err(head + "  %v = slice(%x) : (2*%n + 1) view(%x, 2)\n  return %v\n}"),
            "t.mpir:3:3: error: view %v (2*%n + 1 bytes at offset 2) exceeds operand %x (4*%n bytes)");
  EXPECT_EQ(Err(head + "  %y = call(%x) : (4*%n) {callee = @f}\n  return %y\n}\n"
                       "func @f(%p: 16384) { return %p }"),
            "t.mpir:3:8: error: call operand 1 %x (4*%n bytes) does not match parameter 1 %p (16384 bytes) of @f");
}

TEST(ParseErrorTest, Initializers) {
  EXPECT_EQ(Err("initializer region @r() {}"), "t.mpir:1:13: error: an initializer must be a func, not a region");
  EXPECT_EQ(Err("initializer entry func @m() {}"),
            "t.mpir:1:13: error: expected 'func' after 'initializer', got 'entry'");
  EXPECT_EQ(Err("entry initializer func @m() {}"),
            "t.mpir:1:7: error: expected 'func' or 'region' after 'entry', got 'initializer'");
  EXPECT_EQ(Err("initializer func @i(%p: 4) { return %p }\nentry func @m() {}"),
            "t.mpir:1:18: error: initializer @i takes 1 parameter; an initializer takes none (it runs once, before "
            "the entry)");
  EXPECT_EQ(Err("initializer func @i() {}\nentry func @m() {\n  call() {callee = @i}\n}"),
            "t.mpir:3:3: error: initializer @i cannot be called; it runs once, before the entry");
  EXPECT_EQ(Err("entry func @m() {\n  store()\ninitializer func @i() {}"),
            "t.mpir:3:1: error: expected '}' (closing @m from 1:17), an op or 'return', got 'initializer'");
}

TEST(ParseErrorTest, TimepointAwaitedBeforeProduced) {
  EXPECT_EQ(Err("entry func @m(%x: 4) {\n  barrier(%t)\n  %t = c.signal(%x) : timepoint\n}"),
            "t.mpir:2:11: error: timepoint %t is awaited before it is produced at 3:3");
}

TEST(ParseErrorTest, UnreadableFile) {
  absl::StatusOr<Program> p = ParseProgramFile("/nonexistent/dir/x.mpir");
  ASSERT_FALSE(p.ok());
  EXPECT_EQ(p.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(p.status().message(), "/nonexistent/dir/x.mpir: error: cannot read file: No such file or directory");
  absl::StatusOr<Program> dir = ParseProgramFile(MEMPLAN_SOURCE_DIR);
  ASSERT_FALSE(dir.ok());
  EXPECT_EQ(dir.status().message(), std::string(MEMPLAN_SOURCE_DIR) + ": error: cannot read file: Is a directory");
}

}  // namespace
}  // namespace memplan
