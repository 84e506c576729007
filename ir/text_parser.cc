#include "ir/text_parser.h"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstdio>
#include <cstring>
#include <deque>
#include <limits>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "ir/diagnostic.h"
#include "ir/dims.h"
#include "ir/dtype.h"
#include "ir/opcodes.h"
#include "ir/text_lexer.h"
#include "ir/text_syntax.h"
#include "ir/validate.h"

namespace memplan {
namespace {

// A reference checked once the whole input is read: a value named before any
// definition of that name (always an error, reported precisely at the end),
// or a computation named in an attribute (they may be defined later).
struct PendingRef {
  bool is_value = false;
  std::string name;
  SourceLocation loc;
  ComputationId computation = kNoId;  // value refs: the computation using it
  OpId op = kNoId;                    // computation refs: op and Op::callees slot
  std::size_t slot = 0;
};

// An upper estimate of the size of a size expression's normal form
// (ir/size_expr.h), tracked while parsing so that hostile input cannot make
// normalisation explode (max distributes over + and *, so terms multiply).
struct ExprShape {
  std::int64_t terms = 1;   // sums in the max
  std::int64_t atoms = 0;   // non-constant atoms per sum
  std::int64_t degree = 0;  // dims in the longest monomial
  bool constant = true;     // a sum may have a constant part
};

// A parsed size expression and the estimate of its normal form.
struct ParsedSize {
  SizeExpr expr;
  ExprShape shape;
};

// Which callee attributes an op carried, to check the required ones.
struct CalleeAttrs {
  bool cond = false;
  bool body = false;
  std::size_t branches = 0;
  bool callee = false;
};

class Parser {
 public:
  Parser(std::string_view text, std::string_view path) : lexer_(text), path_(path) {}

  absl::StatusOr<Program> Parse() {
    if (PeekWord("program")) {
      Take();
      if (!PeekIs(TokenKind::kSymbol)) return Unexpected("a program name (@name)");
      program_.name = Take().value;
    }
    while (PeekWord("dim")) {
      Release();
      if (absl::Status s = ParseDim(); !s.ok()) return s;
    }
    // Dims are all declared: sizes evaluate at a fixed point from here on.
    dim_names_ = DimNames(program_);
    point_ = EvaluationPoint(program_);
    if (PeekIs(TokenKind::kEnd)) return Unexpected("a computation ('func' or 'region')");
    while (!PeekIs(TokenKind::kEnd)) {
      Release();
      if (absl::Status s = ParseComputation(); !s.ok()) return s;
    }
    if (absl::Status s = ResolvePending(); !s.ok()) return s;
    program_.source = std::string(path_);
    if (absl::Status s = ValidateProgram(program_, path_); !s.ok()) return s;
    return std::move(program_);
  }

  // A lone size expression over `program`'s dims (ParseSizeExpr below).
  absl::StatusOr<SizeExpr> ParseLoneSizeExpr(const Program& program) {
    for (DimId d = 0; d < static_cast<DimId>(program.dims.size()); ++d) {
      dim_ids_.emplace(program.dims[d].name, d);
    }
    dim_names_ = DimNames(program);
    absl::StatusOr<ParsedSize> size = ParseSizeExpr(0);
    if (!size.ok()) return size.status();
    if (!PeekIs(TokenKind::kEnd)) return Unexpected("'+', '*' or the end of the size expression");
    return std::move(size->expr);
  }

 private:
  // --- Tokens -------------------------------------------------------------
  // Tokens are lexed on demand into a deque (references stay valid while
  // more are appended) and dropped by Release() between statements.
  const Token& Peek(std::size_t ahead = 0) {
    while (pos_ + ahead >= tokens_.size() && !lexed_all_) {
      tokens_.push_back(lexer_.Next());
      const TokenKind kind = tokens_.back().kind;
      lexed_all_ = kind == TokenKind::kEnd || kind == TokenKind::kError;
    }
    return tokens_[std::min(pos_ + ahead, tokens_.size() - 1)];
  }
  bool PeekIs(TokenKind kind, std::size_t ahead = 0) { return Peek(ahead).kind == kind; }
  bool PeekWord(std::string_view word) { return Peek().kind == TokenKind::kIdent && Peek().text == word; }
  // The current token; the final kEnd/kError token is never passed.
  const Token& Take() {
    const Token& t = Peek();
    if (t.kind != TokenKind::kEnd && t.kind != TokenKind::kError) ++pos_;
    return t;
  }
  // Forgets the tokens already taken; no reference to them may be held.
  void Release() {
    tokens_.erase(tokens_.begin(), tokens_.begin() + static_cast<std::ptrdiff_t>(pos_));
    pos_ = 0;
  }

  absl::Status Error(SourceLocation loc, const std::string& message) const {
    return LocatedError(path_, loc, message);
  }
  // "expected X, got Y" at the current token, or the lexical error there.
  absl::Status Unexpected(const std::string& expected) {
    const Token& t = Peek();
    if (t.kind == TokenKind::kError) return Error(t.loc, t.value);
    if (t.kind == TokenKind::kEnd) return Error(t.loc, "unexpected end of input, expected " + expected);
    return Error(t.loc, "expected " + expected + ", got " + DescribeToken(t));
  }
  absl::Status Expect(TokenKind kind, const std::string& expected) {
    if (!PeekIs(kind)) return Unexpected(expected);
    Take();
    return absl::OkStatus();
  }

  // --- Numbers ------------------------------------------------------------
  // Takes an integer token >= 0. `what` names it in messages ("a dimension",
  // "attribute 'wave'"); `expected` is what a wrong token is compared with.
  absl::StatusOr<std::int64_t> NonNegativeInt(const std::string& what, const std::string& expected) {
    return IntAtLeast(0, what, expected);
  }

  // Takes an integer token >= `min` (messages as for NonNegativeInt).
  absl::StatusOr<std::int64_t> IntAtLeast(std::int64_t min, const std::string& what, const std::string& expected) {
    const Token& t = Peek();
    if (t.kind == TokenKind::kFloat) {
      return Error(t.loc, what + " must be an integer, got " + DescribeToken(t));
    }
    if (t.kind != TokenKind::kInt) return Unexpected(expected);
    std::int64_t value = 0;
    const auto [end, ec] = std::from_chars(t.text.data(), t.text.data() + t.text.size(), value);
    if (ec != std::errc() || end != t.text.data() + t.text.size()) {
      return Error(t.loc, "integer " + DescribeToken(t) + " is out of range (int64)");
    }
    if (value < min) return Error(t.loc, what + " must be >= " + std::to_string(min) + ", got " + std::string(t.text));
    Take();
    return value;
  }

  // Takes an integer or float token >= 0 as a double.
  absl::StatusOr<double> NonNegativeNumber(const std::string& what, const std::string& expected) {
    const Token& t = Peek();
    if (t.kind != TokenKind::kInt && t.kind != TokenKind::kFloat) return Unexpected(expected);
    double value = 0;
    const auto [end, ec] = std::from_chars(t.text.data(), t.text.data() + t.text.size(), value);
    if (ec != std::errc() || end != t.text.data() + t.text.size()) {
      return Error(t.loc, "number " + DescribeToken(t) + " is out of range (double)");
    }
    if (value < 0) return Error(t.loc, what + " must be >= 0, got " + std::string(t.text));
    Take();
    return value;
  }

  // --- Names --------------------------------------------------------------
  absl::StatusOr<ValueId> DefineValue(const Token& name, ComputationId c, OpId op) {
    if (const auto dim = dim_ids_.find(name.value); dim != dim_ids_.end()) {
      return Error(name.loc, "value " + SigilName('%', name.value) + " reuses the name of dim " +
                                 SigilName('%', name.value) + " (declared at " + LineColumn(program_.dims[dim->second].loc) +
                                 "); dims and values share one namespace");
    }
    const auto [it, inserted] =
        value_ids_.emplace(name.value, static_cast<ValueId>(program_.values.size()));
    if (!inserted) {
      return Error(name.loc, "duplicate value name " + SigilName('%', name.value) +
                                 " (first defined at " + LineColumn(program_.values[it->second].loc) + ")");
    }
    Value v;
    v.name = name.value;
    v.computation = c;
    v.defining_op = op;
    v.loc = name.loc;
    program_.values.push_back(std::move(v));
    return it->second;
  }

  absl::Status OtherComputationError(SourceLocation use, ValueId v) const {
    const Value& def = program_.values[v];
    return Error(use, "value " + SigilName('%', def.name) + " belongs to computation " +
                              SigilName('@', program_.computations[def.computation].name) +
                              " (defined at " + LineColumn(def.loc) +
                              "); pass values to other computations as operands");
  }

  // The value `use` names, or kNoId when no definition precedes it (then the
  // error is reported by ResolvePending, which knows all definitions).
  absl::StatusOr<ValueId> ResolveUse(const Token& use, ComputationId c) {
    const auto it = value_ids_.find(use.value);
    if (it == value_ids_.end()) {
      pending_.push_back(PendingRef{true, use.value, use.loc, c, kNoId, 0});
      return kNoId;
    }
    if (program_.values[it->second].computation != c) return OtherComputationError(use.loc, it->second);
    return it->second;
  }

  absl::Status ResolvePending() {
    for (const PendingRef& ref : pending_) {
      if (ref.is_value) {
        const auto it = value_ids_.find(ref.name);
        if (it == value_ids_.end()) return Error(ref.loc, "unknown value " + SigilName('%', ref.name));
        if (program_.values[it->second].computation != ref.computation) {
          return OtherComputationError(ref.loc, it->second);
        }
        const Value& def = program_.values[it->second];
        if (def.is_timepoint) {
          return Error(ref.loc, "timepoint " + SigilName('%', ref.name) + " is awaited before it is produced at " +
                                    LineColumn(def.loc));
        }
        return Error(ref.loc, "value " + SigilName('%', ref.name) + " is used before its definition at " +
                                  LineColumn(def.loc));
      }
      const auto it = computation_ids_.find(ref.name);
      if (it == computation_ids_.end()) {
        return Error(ref.loc, "unknown computation " + SigilName('@', ref.name));
      }
      program_.ops[ref.op].callees[ref.slot] = it->second;
    }
    return absl::OkStatus();
  }

  // --- Computations ---------------------------------------------------------
  static bool IsTopLevelWord(std::string_view word) {
    return word == "entry" || word == "initializer" || word == "func" || word == "region" || word == "program";
  }

  // dim %name [<= BOUND]; the cursor is on 'dim'.
  absl::Status ParseDim() {
    Take();
    if (!PeekIs(TokenKind::kValueName)) return Unexpected("a dim name (%name)");
    const Token& name = Take();
    const auto d = static_cast<DimId>(program_.dims.size());
    if (const auto [it, inserted] = dim_ids_.emplace(name.value, d); !inserted) {
      return Error(name.loc, "duplicate dim " + SigilName('%', name.value) + " (first declared at " +
                                 LineColumn(program_.dims[it->second].loc) + ")");
    }
    DimDecl dim;
    dim.name = name.value;
    dim.loc = name.loc;
    if (PeekIs(TokenKind::kLessEqual)) {
      Take();
      absl::StatusOr<std::int64_t> bound = IntAtLeast(1, "a dim bound", "a dim bound (an integer >= 1)");
      if (!bound.ok()) return bound.status();
      dim.bound = *bound;
    }
    program_.dims.push_back(std::move(dim));
    return absl::OkStatus();
  }

  absl::Status ParseComputation() {
    if (PeekWord("dim")) {
      return Error(Peek().loc, "'dim %name' declarations must come before the first computation");
    }
    std::optional<SourceLocation> entry_loc;
    bool initializer = false;
    if (PeekWord("initializer")) {
      Take();
      initializer = true;
    } else if (PeekWord("entry")) {
      const Token& entry = Take();
      if (program_.entry != kNoId) {
        const Computation& first = program_.computations[program_.entry];
        return Error(entry.loc, "second entry computation; " + SigilName('@', first.name) +
                                    " (at " + LineColumn(first.loc) + ") is already the entry");
      }
      entry_loc = entry.loc;
    }
    if (PeekWord("program")) {
      return Error(Peek().loc, "'program @name' must be the first statement of the file");
    }
    ComputationKind kind = ComputationKind::kFunction;
    if (PeekWord("region")) {
      if (initializer) return Error(Peek().loc, "an initializer must be a func, not a region");
      kind = ComputationKind::kRegion;
    } else if (!PeekWord("func")) {
      return Unexpected(initializer ? "'func' after 'initializer'"
                        : entry_loc ? "'func' or 'region' after 'entry'"
                                    : "a computation ('func' or 'region')");
    }
    Take();
    if (!PeekIs(TokenKind::kSymbol)) return Unexpected("a computation name (@name)");
    const Token& name = Take();
    const auto c = static_cast<ComputationId>(program_.computations.size());
    if (const auto [it, inserted] = computation_ids_.emplace(name.value, c); !inserted) {
      return Error(name.loc, "duplicate computation " + SigilName('@', name.value) +
                                 " (first defined at " +
                                 LineColumn(program_.computations[it->second].loc) + ")");
    }
    Computation computation;
    computation.name = name.value;
    computation.kind = kind;
    computation.initializer = initializer;
    computation.loc = name.loc;
    program_.computations.push_back(std::move(computation));
    if (entry_loc) program_.entry = c;

    if (absl::Status s = Expect(TokenKind::kLParen, "'(' and the parameter list"); !s.ok()) return s;
    if (!PeekIs(TokenKind::kRParen)) {
      while (true) {
        Release();
        if (absl::Status s = ParseParam(c); !s.ok()) return s;
        if (!PeekIs(TokenKind::kComma)) break;
        Take();
      }
    }
    if (absl::Status s = Expect(TokenKind::kRParen, "',' or ')'"); !s.ok()) return s;
    if (PeekWord("affinity")) {
      if (kind != ComputationKind::kRegion) {
        return Error(Peek().loc, "affinity(\"...\") is only valid on a region");
      }
      Take();
      if (absl::Status s = Expect(TokenKind::kLParen, "'(' after affinity"); !s.ok()) return s;
      if (!PeekIs(TokenKind::kString)) return Unexpected("an affinity string (\"device\")");
      program_.computations[c].affinity = Take().value;
      if (absl::Status s = Expect(TokenKind::kRParen, "')'"); !s.ok()) return s;
    }
    if (!PeekIs(TokenKind::kLBrace)) {
      return Unexpected(kind == ComputationKind::kRegion ? "affinity(\"...\") or '{'" : "'{'");
    }
    // Tokens are released per statement below: keep what messages need.
    const std::string closes = SigilName('@', program_.computations[c].name) + " from " + LineColumn(Take().loc);
    while (true) {
      Release();
      if (PeekIs(TokenKind::kRBrace)) {
        Take();
        return absl::OkStatus();
      }
      if (PeekWord("return")) {
        if (absl::Status s = ParseReturn(c); !s.ok()) return s;
        return Expect(TokenKind::kRBrace, "'}' after return (closing " + closes + ")");
      }
      const bool op_start = PeekIs(TokenKind::kValueName) ||
                            (PeekIs(TokenKind::kIdent) && !IsTopLevelWord(Peek().text));
      if (!op_start) return Unexpected("'}' (closing " + closes + "), an op or 'return'");
      if (absl::Status s = ParseOp(c); !s.ok()) return s;
    }
  }

  absl::Status ParseParam(ComputationId c) {
    if (!PeekIs(TokenKind::kValueName)) return Unexpected("a parameter (%name: type)");
    const Token& name = Take();
    absl::StatusOr<ValueId> v = DefineValue(name, c, kNoId);
    if (!v.ok()) return v.status();
    program_.computations[c].params.push_back(*v);
    if (!PeekIs(TokenKind::kColon)) {
      const bool colon_in_name = name.text.size() > 1 && name.text[1] != '"' &&
                                 name.value.find(':') != std::string::npos;
      return Unexpected(colon_in_name ? "':' and the parameter type (" + std::string(name.text) +
                                            " is one name: a ':' followed by a name character "
                                            "belongs to the name; put a space after the ':')"
                                      : "':' and the parameter type");
    }
    Take();
    if (absl::Status s = ParseType(*v); !s.ok()) return s;
    return ParseQualifiers(*v, nullptr);
  }

  absl::Status ParseReturn(ComputationId c) {
    Take();  // 'return'
    if (!PeekIs(TokenKind::kValueName)) return absl::OkStatus();
    while (true) {
      const Token& use = Take();
      absl::StatusOr<ValueId> v = ResolveUse(use, c);
      if (!v.ok()) return v.status();
      program_.computations[c].results.push_back(*v);
      if (!PeekIs(TokenKind::kComma)) return absl::OkStatus();
      Take();
      if (!PeekIs(TokenKind::kValueName)) return Unexpected("a value to return (%name)");
    }
  }

  // --- Ops ----------------------------------------------------------------
  absl::Status ParseOp(ComputationId c) {
    std::vector<const Token*> result_names;
    if (PeekIs(TokenKind::kValueName)) {
      while (true) {
        result_names.push_back(&Take());
        if (!PeekIs(TokenKind::kComma)) break;
        Take();
        if (!PeekIs(TokenKind::kValueName)) return Unexpected("a result name (%name)");
      }
      if (absl::Status s = Expect(TokenKind::kEquals, "',' or '=' after the result names"); !s.ok()) {
        return s;
      }
    }
    if (!PeekIs(TokenKind::kIdent)) return Unexpected("an opcode");
    const Token& opcode = Take();
    const auto o = static_cast<OpId>(program_.ops.size());
    Op op;
    op.opcode = std::string(opcode.text);
    op.kind = ClassifyOpcode(opcode.text).value_or(OpKind::kCompute);
    op.computation = c;
    op.loc = opcode.loc;
    program_.ops.push_back(std::move(op));
    program_.computations[c].ops.push_back(o);

    if (absl::Status s = Expect(TokenKind::kLParen, "'(' after opcode '" + std::string(opcode.text) + "'");
        !s.ok()) {
      return s;
    }
    // Operand names -> ids, for tied(%x) / view(%x, ...) (first occurrence).
    std::unordered_map<std::string_view, ValueId> operand_ids;
    if (absl::Status s = ParseOperands(o, c, operand_ids); !s.ok()) return s;

    if (!result_names.empty()) {
      if (absl::Status s = Expect(TokenKind::kColon, "':' and the result types"); !s.ok()) return s;
      for (std::size_t i = 0; i < result_names.size(); ++i) {
        if (i > 0 && !PeekIs(TokenKind::kComma)) {
          return Unexpected("',' and the type of result " + std::string(result_names[i]->text) + " (" +
                            std::to_string(result_names.size()) + " results)");
        }
        if (i > 0) Take();
        absl::StatusOr<ValueId> v = DefineValue(*result_names[i], c, o);
        if (!v.ok()) return v.status();
        program_.ops[o].results.push_back(*v);
        if (absl::Status s = ParseType(*v); !s.ok()) return s;
        if (absl::Status s = ParseQualifiers(*v, &operand_ids); !s.ok()) return s;
      }
      if (PeekIs(TokenKind::kComma)) {
        return Error(Peek().loc, "more result types than results (" +
                                     std::to_string(result_names.size()) + ")");
      }
    } else if (PeekIs(TokenKind::kColon)) {
      return Error(Peek().loc,
                   "an op without results has no result types; write '%name = opcode(...) : type'");
    }
    CalleeAttrs callees;
    if (PeekIs(TokenKind::kLBrace)) {
      if (absl::Status s = ParseAttributes(o, callees); !s.ok()) return s;
    }
    return SizeCallees(o, callees);
  }

  // The operand list after '(' up to and including ')': `%x` or `%x[OFFSET
  // for LENGTH]`. Op::operand_ranges stays empty unless some operand has a range.
  absl::Status ParseOperands(OpId o, ComputationId c, std::unordered_map<std::string_view, ValueId>& operand_ids) {
    std::vector<std::optional<OperandRange>> ranges;
    bool any_range = false;
    if (!PeekIs(TokenKind::kRParen)) {
      while (true) {
        if (!PeekIs(TokenKind::kValueName)) return Unexpected("an operand (%name)");
        const Token& use = Take();
        absl::StatusOr<ValueId> v = ResolveUse(use, c);
        if (!v.ok()) return v.status();
        program_.ops[o].operands.push_back(*v);
        operand_ids.emplace(use.value, *v);
        ranges.emplace_back();
        if (PeekIs(TokenKind::kLBracket)) {
          absl::StatusOr<OperandRange> range = ParseRange(*v);
          if (!range.ok()) return range.status();
          ranges.back() = *std::move(range);
          any_range = true;
        }
        if (!PeekIs(TokenKind::kComma)) break;
        Take();
      }
    }
    if (any_range) program_.ops[o].operand_ranges = std::move(ranges);
    return Expect(TokenKind::kRParen, "',' or ')'");
  }

  // `[OFFSET for LENGTH]` after operand `v` (kNoId while unresolved: then an
  // error is reported later anyway, so the range is not checked).
  absl::StatusOr<OperandRange> ParseRange(ValueId v) {
    const SourceLocation at = Take().loc;  // '['
    absl::StatusOr<ParsedSize> offset = ParseSizeExpr(0);
    if (!offset.ok()) return offset.status();
    if (!PeekWord("for")) return Unexpected("'for' and the range length (%x[OFFSET for LENGTH])");
    Take();
    absl::StatusOr<ParsedSize> length = ParseSizeExpr(0);
    if (!length.ok()) return length.status();
    if (absl::Status s = Expect(TokenKind::kRBracket, "']' closing the operand range"); !s.ok()) return s;
    OperandRange range{std::move(offset->expr), std::move(length->expr)};
    if (v != kNoId) {
      if (std::optional<std::string> problem = OperandRangeProblem(program_, v, range)) return Error(at, *problem);
    }
    return range;
  }

  // Sizes Op::callees for the op kind (slots are filled by ResolvePending)
  // and reports missing callee attributes at the opcode.
  absl::Status SizeCallees(OpId o, const CalleeAttrs& attrs) {
    Op& op = program_.ops[o];
    switch (op.kind) {
      case OpKind::kWhile:
        if (!attrs.cond || !attrs.body) {
          return Error(op.loc, "while requires attributes cond = @c and body = @b");
        }
        op.callees.assign(2, kNoId);
        return absl::OkStatus();
      case OpKind::kConditional:
        if (attrs.branches == 0) {
          return Error(op.loc, "conditional requires attribute branches = [@b0, @b1, ...]");
        }
        op.callees.assign(attrs.branches, kNoId);
        return absl::OkStatus();
      case OpKind::kCall:
      case OpKind::kExecute:
        if (!attrs.callee) {
          return Error(op.loc, op.opcode + " requires attribute callee = @" +
                                   (op.kind == OpKind::kCall ? "func" : "region"));
        }
        op.callees.assign(1, kNoId);
        return absl::OkStatus();
      default:
        return absl::OkStatus();
    }
  }

  // --- Types and qualifiers -----------------------------------------------
  absl::Status ParseType(ValueId v) {
    const Token& t = Peek();
    if (t.kind == TokenKind::kLParen) return ParseSizeType(v);
    if (t.kind == TokenKind::kInt || t.kind == TokenKind::kFloat) {
      absl::StatusOr<std::int64_t> size = NonNegativeInt("a byte size", "a byte size");
      if (!size.ok()) return size.status();
      program_.values[v].size = *size;
      return absl::OkStatus();
    }
    const std::string expected = "a type (DTYPE[dims], a byte count, (size expression) or timepoint)";
    if (t.kind != TokenKind::kIdent) return Unexpected(expected);
    if (t.text == "timepoint") {
      Take();
      program_.values[v].is_timepoint = true;
      return absl::OkStatus();
    }
    if (!PeekIs(TokenKind::kLBracket, 1)) {
      if (DtypeBits(t.text)) {
        return Error(t.loc, "expected '[' after dtype '" + std::string(t.text) + "' (write " +
                                std::string(t.text) + "[] for a scalar)");
      }
      return Unexpected(expected);
    }
    if (!DtypeBits(t.text)) return Error(t.loc, "unknown dtype " + DescribeToken(t));
    const Token& dtype = Take();
    Take();  // '['
    TensorType type;
    type.dtype = std::string(dtype.text);
    if (!PeekIs(TokenKind::kRBracket)) {
      while (true) {
        if (PeekIs(TokenKind::kValueName)) {
          const std::string name(Peek().text);
          return Error(Peek().loc, "symbolic tensor dimensions are not supported; declare the size in bytes "
                                   "as an expression instead, e.g. f32[" + name + "] as (4*" + name + ")");
        }
        absl::StatusOr<std::int64_t> dim = NonNegativeInt("a dimension", "a dimension");
        if (!dim.ok()) return dim.status();
        type.dims.push_back(*dim);
        if (!PeekIs(TokenKind::kComma)) break;
        Take();
      }
    }
    if (absl::Status s = Expect(TokenKind::kRBracket, "',' or ']'"); !s.ok()) return s;
    absl::StatusOr<Bytes> bytes = TensorBytes(type);
    if (!bytes.ok()) return Error(dtype.loc, "tensor type is too large: " + std::string(bytes.status().message()));
    program_.values[v].size = *bytes;
    program_.values[v].type = std::move(type);
    return absl::OkStatus();
  }

  // `(size_expr)` as the type of `v`: a static size when it mentions no dim,
  // else Value::size_expr with Value::size its value at the evaluation point.
  absl::Status ParseSizeType(ValueId v) {
    const SourceLocation at = Take().loc;  // '('
    absl::StatusOr<ParsedSize> size = ParseSizeExpr(1);
    if (!size.ok()) return size.status();
    if (absl::Status s = Expect(TokenKind::kRParen, "')' closing the size expression"); !s.ok()) return s;
    Value& value = program_.values[v];
    absl::StatusOr<Bytes> bytes = SizeAtPoint(size->expr, point_, dim_names_);
    if (!bytes.ok()) return Error(at, SigilName('%', value.name) + ": " + std::string(bytes.status().message()));
    value.size = *bytes;
    if (!size->expr.IsConstant()) value.size_expr = std::move(size->expr);
    return absl::OkStatus();
  }

  // --- Size expressions -----------------------------------------------------
  // size_expr = term { "+" term }. `depth` counts enclosing parentheses,
  // max(...) and align(...), bounded to keep the recursion shallow.
  absl::StatusOr<ParsedSize> ParseSizeExpr(int depth) {
    absl::StatusOr<ParsedSize> sum = ParseTerm(depth);
    if (!sum.ok()) return sum;
    while (PeekIs(TokenKind::kPlus)) {
      const SourceLocation op = Take().loc;
      absl::StatusOr<ParsedSize> term = ParseTerm(depth);
      if (!term.ok()) return term;
      const ExprShape& a = sum->shape;
      const ExprShape& b = term->shape;
      sum->shape = {a.terms * b.terms, a.atoms + b.atoms, std::max(a.degree, b.degree), a.constant || b.constant};
      if (absl::Status s = CheckShape(sum->shape, op); !s.ok()) return s;
      sum->expr += term->expr;
      if (absl::Status s = CheckOverflow(sum->expr, op); !s.ok()) return s;
    }
    return sum;
  }

  // term = factor { "*" factor }.
  absl::StatusOr<ParsedSize> ParseTerm(int depth) {
    absl::StatusOr<ParsedSize> product = ParseFactor(depth);
    if (!product.ok()) return product;
    while (PeekIs(TokenKind::kStar)) {
      const SourceLocation op = Take().loc;
      absl::StatusOr<ParsedSize> factor = ParseFactor(depth);
      if (!factor.ok()) return factor;
      const ExprShape& a = product->shape;
      const ExprShape& b = factor->shape;
      // (c + sum of atoms) * (c' + sum of atoms'): products of atom pairs, and
      // each atom times the other side's constant.
      product->shape = {a.terms * b.terms,
                        a.atoms * b.atoms + (b.constant ? a.atoms : 0) + (a.constant ? b.atoms : 0),
                        a.degree + b.degree, a.constant && b.constant};
      if (absl::Status s = CheckShape(product->shape, op); !s.ok()) return s;
      absl::StatusOr<SizeExpr> multiplied = SizeExpr::Multiply(product->expr, factor->expr);
      if (!multiplied.ok()) {
        // Multiply's message cannot name the dims; say the same with their names.
        return Error(op, "cannot multiply " + product->expr.ToString(dim_names_) + " by " +
                             factor->expr.ToString(dim_names_) +
                             ": a product with max(...) or align(...) is not supported");
      }
      product->expr = *std::move(multiplied);
      if (absl::Status s = CheckOverflow(product->expr, op); !s.ok()) return s;
    }
    return product;
  }

  // factor = INT | VALUE | "(" size_expr ")" | max(...) | align(size_expr, INT).
  absl::StatusOr<ParsedSize> ParseFactor(int depth) {
    const Token& t = Peek();
    const bool call = t.kind == TokenKind::kIdent && (t.text == "max" || t.text == "align") &&
                      PeekIs(TokenKind::kLParen, 1);
    if ((call || t.kind == TokenKind::kLParen) && depth >= kMaxSizeExprNesting) {
      return Error(t.loc, "size expression nested deeper than " + std::to_string(kMaxSizeExprNesting));
    }
    if (t.kind == TokenKind::kInt || t.kind == TokenKind::kFloat) {
      absl::StatusOr<std::int64_t> n = NonNegativeInt("a number in a size expression", "a size");
      if (!n.ok()) return n.status();
      return ParsedSize{SizeExpr::Constant(*n), {}};
    }
    if (t.kind == TokenKind::kValueName) return ParseDimRef();
    if (t.kind == TokenKind::kLParen) {
      Take();
      absl::StatusOr<ParsedSize> inner = ParseSizeExpr(depth + 1);
      if (!inner.ok()) return inner;
      if (absl::Status s = Expect(TokenKind::kRParen, "')' closing the size expression"); !s.ok()) return s;
      return inner;
    }
    if (call && t.text == "max") return ParseMax(depth);
    if (call) return ParseAlign(depth);
    return Unexpected("a size (an integer, a dim %name, '(', max(...) or align(...))");
  }

  // A %name in a size expression: it must name a dim.
  absl::StatusOr<ParsedSize> ParseDimRef() {
    const Token& name = Take();
    if (const auto it = dim_ids_.find(name.value); it != dim_ids_.end()) {
      return ParsedSize{SizeExpr::Dim(it->second), {1, 1, 1, false}};
    }
    if (value_ids_.count(name.value) > 0) {
      return Error(name.loc, SigilName('%', name.value) + " is a value, not a dim");
    }
    return Error(name.loc, "unknown dim " + SigilName('%', name.value));
  }

  // max(size_expr {, size_expr}); the cursor is on 'max'.
  absl::StatusOr<ParsedSize> ParseMax(int depth) {
    Take();
    Take();  // '('
    absl::StatusOr<ParsedSize> result = ParseSizeExpr(depth + 1);
    if (!result.ok()) return result;
    while (PeekIs(TokenKind::kComma)) {
      const SourceLocation comma = Take().loc;
      absl::StatusOr<ParsedSize> next = ParseSizeExpr(depth + 1);
      if (!next.ok()) return next;
      const ExprShape& a = result->shape;
      const ExprShape& b = next->shape;
      result->shape = {a.terms + b.terms, std::max(a.atoms, b.atoms), std::max(a.degree, b.degree),
                       a.constant || b.constant};
      if (absl::Status s = CheckShape(result->shape, comma); !s.ok()) return s;
      result->expr = SizeExpr::Max(result->expr, next->expr);
    }
    if (absl::Status s = Expect(TokenKind::kRParen, "',' or ')' closing max("); !s.ok()) return s;
    return result;
  }

  // align(size_expr, INT); the cursor is on 'align'.
  absl::StatusOr<ParsedSize> ParseAlign(int depth) {
    const SourceLocation at = Take().loc;
    Take();  // '('
    absl::StatusOr<ParsedSize> value = ParseSizeExpr(depth + 1);
    if (!value.ok()) return value;
    if (absl::Status s = Expect(TokenKind::kComma, "',' and the alignment"); !s.ok()) return s;
    const SourceLocation number = Peek().loc;
    absl::StatusOr<std::int64_t> alignment = IntAtLeast(1, "an alignment", "an alignment (an integer >= 1)");
    if (!alignment.ok()) return alignment.status();
    if (*alignment > kMaxAlignment) {
      return Error(number, "alignment " + std::to_string(*alignment) + " is above the limit of 2^32 (" +
                               std::to_string(kMaxAlignment) + ")");
    }
    if (absl::Status s = Expect(TokenKind::kRParen, "')' closing align("); !s.ok()) return s;
    value->shape.atoms += 1;
    if (absl::Status s = CheckShape(value->shape, at); !s.ok()) return s;
    value->expr = SizeExpr::AlignUp(value->expr, *alignment);
    if (absl::Status s = CheckOverflow(value->expr, at); !s.ok()) return s;
    return value;
  }

  // The normal form stays small (see ExprShape).
  absl::Status CheckShape(const ExprShape& shape, SourceLocation at) const {
    if (shape.degree > kMaxSizeExprDegree) {
      return Error(at, "size expression multiplies more than " + std::to_string(kMaxSizeExprDegree) + " dims");
    }
    if (shape.terms * (shape.atoms + 1) > kMaxSizeExprAtoms) {
      return Error(at, "size expression is too complex (its normal form could exceed " +
                           std::to_string(kMaxSizeExprAtoms) + " atoms)");
    }
    return absl::OkStatus();
  }

  // The operation at `at` that produced `expr` did not overflow.
  absl::Status CheckOverflow(const SizeExpr& expr, SourceLocation at) const {
    if (expr.Overflowed()) return Error(at, "size expression overflows int64");
    return absl::OkStatus();
  }

  // True if the tokens at the cursor read `view(%x, <not a %name>`: the view
  // qualifier, as opposed to a result-less op `view(%x, %y)` that follows.
  bool AtViewQualifier() {
    // `view(%x, %n + 64)` is the qualifier when %n is a dim (dims and values
    // share one namespace), or when an operator follows the name (`%k + 1`
    // is an expression whatever %k is: the size parser then names it);
    // `view(%c, %d)` with a value %d is an op.
    return PeekIs(TokenKind::kLParen, 1) && PeekIs(TokenKind::kValueName, 2) &&
           PeekIs(TokenKind::kComma, 3) &&
           (!PeekIs(TokenKind::kValueName, 4) || dim_ids_.contains(std::string(Peek(4).value)) ||
            PeekIs(TokenKind::kPlus, 5) || PeekIs(TokenKind::kStar, 5));
  }

  // Qualifiers after the type of `v`; `operands` is null for a parameter.
  absl::Status ParseQualifiers(ValueId v, const std::unordered_map<std::string_view, ValueId>* operands) {
    while (PeekIs(TokenKind::kIdent)) {
      const Token& t = Peek();
      const bool paren = PeekIs(TokenKind::kLParen, 1);
      if ((t.text == "tied" && paren) || (t.text == "view" && paren && (!operands || AtViewQualifier()))) {
        if (!operands) return Error(t.loc, std::string(t.text) + "(...) is only allowed on op results");
        if (absl::Status s = ParseAlias(v, *operands); !s.ok()) return s;
      } else if (t.text == "gathers" && paren) {
        if (!operands) return Error(t.loc, "gathers(...) is only allowed on op results");
        if (absl::Status s = ParseGathers(v, *operands); !s.ok()) return s;
      } else if (t.text == "space" && paren) {
        if (program_.values[v].space) return Error(t.loc, "duplicate space(...) qualifier");
        Take();
        Take();  // '('
        const SourceLocation number = Peek().loc;
        absl::StatusOr<std::int64_t> space = NonNegativeInt("a memory space", "a memory space number");
        if (!space.ok()) return space.status();
        if (*space > std::numeric_limits<MemorySpace>::max()) {
          return Error(number, "memory space " + std::to_string(*space) + " is out of range (at most " +
                                   std::to_string(std::numeric_limits<MemorySpace>::max()) + ")");
        }
        program_.values[v].space = static_cast<MemorySpace>(*space);
        if (absl::Status s = Expect(TokenKind::kRParen, "')'"); !s.ok()) return s;
      } else if (std::optional<Lifetime> lifetime = ParseLifetime(t.text); lifetime && !paren) {
        if (const auto& old = program_.values[v].lifetime) {
          return Error(t.loc, "duplicate lifetime: " + SigilName('%', program_.values[v].name) +
                                  " is already '" + std::string(LifetimeName(*old)) + "'");
        }
        Take();
        program_.values[v].lifetime = lifetime;
      } else {
        break;
      }
    }
    return absl::OkStatus();
  }

  // tied(%operand) or view(%operand, OFFSET); the cursor is on the keyword.
  absl::Status ParseAlias(ValueId v, const std::unordered_map<std::string_view, ValueId>& operands) {
    const Token& keyword = Take();
    const AliasKind kind = keyword.text == "tied" ? AliasKind::kTied : AliasKind::kView;
    if (program_.values[v].alias != AliasKind::kNone) {
      return Error(keyword.loc, program_.values[v].alias == kind
                                    ? "duplicate " + std::string(keyword.text) + "(...) qualifier"
                                    : "a result cannot be both tied and a view");
    }
    Take();  // '('
    if (!PeekIs(TokenKind::kValueName)) return Unexpected("an operand of this op (%name)");
    const Token& target = Take();
    const auto found = operands.find(target.value);
    if (found == operands.end()) {
      return Error(target.loc, std::string(keyword.text) + "(" + SigilName('%', target.value) + "): " +
                                   SigilName('%', target.value) + " is not an operand of this op");
    }
    Value& value = program_.values[v];
    value.alias = kind;
    value.alias_of = found->second;
    if (kind == AliasKind::kView) {
      if (absl::Status s = Expect(TokenKind::kComma, "',' and the view's byte offset"); !s.ok()) return s;
      if (PeekIs(TokenKind::kInt) && Peek(1).kind == TokenKind::kRParen) {
        absl::StatusOr<std::int64_t> offset = NonNegativeInt("a view byte offset", "a view byte offset");
        if (!offset.ok()) return offset.status();
        program_.values[v].view_offset = *offset;
      } else {
        // A subview at an offset given by dims (`view(%x, align(%n, 64))`).
        const SourceLocation at = Peek().loc;
        absl::StatusOr<ParsedSize> offset = ParseSizeExpr(1);
        if (!offset.ok()) return offset.status();
        absl::StatusOr<Bytes> bytes = SizeAtPoint(offset->expr, point_, dim_names_);
        if (!bytes.ok()) {
          return Error(at, SigilName('%', value.name) + ": " + std::string(bytes.status().message()));
        }
        value.view_offset = *bytes;
        if (!offset->expr.IsConstant()) value.view_offset_expr = std::move(offset->expr);
      }
    }
    return Expect(TokenKind::kRParen, "')'");
  }

  // gathers(%a, OFFSET, %b, OFFSET, ...): each operand sits inside the
  // result at its byte offset; the cursor is on the keyword.
  absl::Status ParseGathers(ValueId v, const std::unordered_map<std::string_view, ValueId>& operands) {
    const Token& keyword = Take();
    if (!program_.values[v].gathers.empty()) return Error(keyword.loc, "duplicate gathers(...) qualifier");
    Take();  // '('
    std::vector<GatheredOperand> gathered;
    while (true) {
      if (!PeekIs(TokenKind::kValueName)) return Unexpected("an operand of this op (%name)");
      const Token& target = Take();
      const auto found = operands.find(target.value);
      if (found == operands.end()) {
        return Error(target.loc, "gathers(" + SigilName('%', target.value) + "): " +
                                     SigilName('%', target.value) + " is not an operand of this op");
      }
      for (const GatheredOperand& g : gathered) {
        if (g.operand == found->second) {
          return Error(target.loc, "gathers(...) names " + SigilName('%', target.value) +
                                       " twice; an operand has one place in the result");
        }
      }
      if (absl::Status s = Expect(TokenKind::kComma, "',' and the operand's byte offset in the result");
          !s.ok()) {
        return s;
      }
      absl::StatusOr<std::int64_t> offset = NonNegativeInt("a gathered byte offset", "a gathered byte offset");
      if (!offset.ok()) return offset.status();
      gathered.push_back(GatheredOperand{found->second, *offset});
      if (!PeekIs(TokenKind::kComma)) break;
      Take();
    }
    program_.values[v].gathers = std::move(gathered);
    return Expect(TokenKind::kRParen, "')'");
  }

  // --- Attributes -----------------------------------------------------------
  absl::Status ParseAttributes(OpId o, CalleeAttrs& callees) {
    Take();  // '{'
    if (PeekIs(TokenKind::kRBrace)) {
      Take();
      return absl::OkStatus();
    }
    std::unordered_map<std::string_view, SourceLocation> keys;
    while (true) {
      if (!PeekIs(TokenKind::kIdent)) return Unexpected("an attribute name");
      const Token& key = Take();
      if (const auto [it, inserted] = keys.emplace(key.text, key.loc); !inserted) {
        return Error(key.loc, "duplicate attribute '" + std::string(key.text) + "' (first given at " +
                                  LineColumn(it->second) + ")");
      }
      if (absl::Status s = Expect(TokenKind::kEquals, "'=' after attribute '" + std::string(key.text) + "'");
          !s.ok()) {
        return s;
      }
      if (absl::Status s = ParseAttribute(o, key, callees); !s.ok()) return s;
      if (PeekIs(TokenKind::kComma)) {
        Take();
        continue;
      }
      return Expect(TokenKind::kRBrace, "',' or '}'");
    }
  }

  absl::Status RequireKind(OpId o, const Token& key, std::initializer_list<OpKind> kinds,
                           std::string_view valid_on) const {
    const Op& op = program_.ops[o];
    if (std::find(kinds.begin(), kinds.end(), op.kind) != kinds.end()) return absl::OkStatus();
    return Error(key.loc, "attribute '" + std::string(key.text) + "' is only valid on " +
                              std::string(valid_on) + ", not on '" + op.opcode + "'");
  }

  absl::Status CalleeRef(OpId o, std::size_t slot, const std::string& what) {
    if (!PeekIs(TokenKind::kSymbol)) return Unexpected(what);
    const Token& symbol = Take();
    pending_.push_back(PendingRef{false, symbol.value, symbol.loc, kNoId, o, slot});
    return absl::OkStatus();
  }

  // One `key = value`; the cursor is on the value. Typed keys go to Op fields.
  absl::Status ParseAttribute(OpId o, const Token& key, CalleeAttrs& callees) {
    const std::string_view k = key.text;
    const std::string quoted = "attribute '" + std::string(k) + "'";
    Op& op = program_.ops[o];
    if (k == "flops" || k == "transcendentals") {
      absl::StatusOr<double> n = NonNegativeNumber(quoted, "a number for " + quoted);
      if (!n.ok()) return n.status();
      (k == "flops" ? op.cost.flops : op.cost.transcendentals) = *n;
      return absl::OkStatus();
    }
    if (k == "bytes_accessed" || k == "scratch" || k == "wave") {
      absl::StatusOr<std::int64_t> n = NonNegativeInt(quoted, "an integer for " + quoted);
      if (!n.ok()) return n.status();
      if (k == "bytes_accessed") op.cost.bytes_accessed = *n;
      if (k == "scratch") op.scratch_bytes = *n;
      if (k == "wave") op.wave = *n;
      return absl::OkStatus();
    }
    if (k == "trip_count") {
      if (absl::Status s = RequireKind(o, key, {OpKind::kWhile}, "while"); !s.ok()) return s;
      absl::StatusOr<std::int64_t> n = NonNegativeInt(quoted, "an integer for " + quoted);
      if (!n.ok()) return n.status();
      op.trip_count = *n;
      return absl::OkStatus();
    }
    if (k == "affinity") {
      if (!PeekIs(TokenKind::kString)) return Unexpected("a string for " + quoted);
      op.affinity = Take().value;
      return absl::OkStatus();
    }
    if (k == "cond" || k == "body") {
      if (absl::Status s = RequireKind(o, key, {OpKind::kWhile}, "while"); !s.ok()) return s;
      (k == "cond" ? callees.cond : callees.body) = true;
      return CalleeRef(o, k == "cond" ? 0 : 1, "a computation (@name) for " + quoted);
    }
    if (k == "callee") {
      if (absl::Status s = RequireKind(o, key, {OpKind::kCall, OpKind::kExecute}, "call and execute");
          !s.ok()) {
        return s;
      }
      callees.callee = true;
      return CalleeRef(o, 0, "a computation (@name) for " + quoted);
    }
    if (k == "branches") {
      if (absl::Status s = RequireKind(o, key, {OpKind::kConditional}, "conditional"); !s.ok()) return s;
      if (absl::Status s = Expect(TokenKind::kLBracket, "a list of computations [@b0, @b1, ...] for " + quoted);
          !s.ok()) {
        return s;
      }
      while (true) {
        if (absl::Status s = CalleeRef(o, callees.branches, "a branch computation (@name)"); !s.ok()) {
          return s;
        }
        ++callees.branches;
        if (!PeekIs(TokenKind::kComma)) break;
        Take();
      }
      return Expect(TokenKind::kRBracket, "',' or ']'");
    }
    absl::StatusOr<AttrValue> value = ParseAttrValue(0);
    if (!value.ok()) return value.status();
    program_.ops[o].attributes.push_back(Attribute{std::string(k), *std::move(value)});
    return absl::OkStatus();
  }

  absl::StatusOr<AttrValue> ParseAttrValue(int depth) {
    const Token& t = Peek();
    AttrValue value;
    switch (t.kind) {
      case TokenKind::kInt: {
        const auto [end, ec] = std::from_chars(t.text.data(), t.text.data() + t.text.size(), value.i);
        if (ec != std::errc() || end != t.text.data() + t.text.size()) {
          return Error(t.loc, "integer " + DescribeToken(t) + " is out of range (int64)");
        }
        value.kind = AttrValue::Kind::kInt;
        break;
      }
      case TokenKind::kFloat: {
        const auto [end, ec] = std::from_chars(t.text.data(), t.text.data() + t.text.size(), value.f);
        if (ec != std::errc() || end != t.text.data() + t.text.size()) {
          return Error(t.loc, "number " + DescribeToken(t) + " is out of range (double)");
        }
        value.kind = AttrValue::Kind::kFloat;
        break;
      }
      case TokenKind::kString:
      case TokenKind::kSymbol:
        value.kind = t.kind == TokenKind::kString ? AttrValue::Kind::kString : AttrValue::Kind::kSymbol;
        value.s = t.value;
        break;
      case TokenKind::kIdent:
        if (t.text != "true" && t.text != "false") return Unexpected(kAttrValueExpected);
        value.kind = AttrValue::Kind::kBool;
        value.i = t.text == "true" ? 1 : 0;
        break;
      case TokenKind::kLBracket: {
        if (depth >= kMaxAttributeNesting) {
          return Error(t.loc, "attribute lists nested deeper than " + std::to_string(kMaxAttributeNesting));
        }
        Take();
        value.kind = AttrValue::Kind::kList;
        if (PeekIs(TokenKind::kRBracket)) {
          Take();
          return value;
        }
        while (true) {
          absl::StatusOr<AttrValue> element = ParseAttrValue(depth + 1);
          if (!element.ok()) return element.status();
          value.list.push_back(*std::move(element));
          if (!PeekIs(TokenKind::kComma)) break;
          Take();
        }
        if (absl::Status s = Expect(TokenKind::kRBracket, "',' or ']'"); !s.ok()) return s;
        return value;
      }
      default:
        return Unexpected(kAttrValueExpected);
    }
    Take();
    return value;
  }

  static constexpr char kAttrValueExpected[] =
      "an attribute value (number, \"string\", true, false, @name or [list])";

  Lexer lexer_;
  std::deque<Token> tokens_;
  std::size_t pos_ = 0;  // index of the current token in tokens_
  bool lexed_all_ = false;
  std::string_view path_;
  Program program_;
  std::unordered_map<std::string, ValueId> value_ids_;
  std::unordered_map<std::string, ComputationId> computation_ids_;
  std::unordered_map<std::string, DimId> dim_ids_;
  std::vector<std::string> dim_names_;   // per DimId, once the dims are read
  std::vector<std::int64_t> point_;      // evaluation point of the dims
  std::vector<PendingRef> pending_;
};

}  // namespace

absl::StatusOr<Program> ParseProgram(std::string_view text, std::string_view path) {
  if (absl::Status s = CheckEncoding(text, path); !s.ok()) return s;
  return Parser(text, path).Parse();
}

absl::StatusOr<SizeExpr> ParseSizeExpr(std::string_view text, const Program& program,
                                       std::string_view path) {
  if (absl::Status s = CheckEncoding(text, path); !s.ok()) return s;
  return Parser(text, path).ParseLoneSizeExpr(program);
}

absl::StatusOr<Program> ParseProgramFile(const std::string& path) {
  std::FILE* file = std::fopen(path.c_str(), "rb");
  if (file == nullptr) return LocatedError(path, {}, std::string("cannot read file: ") + std::strerror(errno));
  std::string text;
  char buffer[1 << 16];
  std::size_t n = 0;
  while ((n = std::fread(buffer, 1, sizeof(buffer), file)) > 0) text.append(buffer, n);
  const int error = std::ferror(file) ? errno : 0;
  std::fclose(file);
  if (error != 0) return LocatedError(path, {}, std::string("cannot read file: ") + std::strerror(error));
  return ParseProgram(text, path);
}

}  // namespace memplan
