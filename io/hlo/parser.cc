#include "io/hlo/parser.h"

#include <cctype>
#include <cstdint>
#include <map>
#include <optional>
#include <utility>

#include "io/hlo/shape.h"
#include "ir/diagnostic.h"

namespace memplan {
namespace {

// Dims, element counts and tuple depth past these are refused, not planned.
constexpr std::int64_t kMaxDim = std::int64_t{1} << 62;
constexpr int kMaxTupleDepth = 64;

constexpr std::string_view kUtf8Bom = "\xEF\xBB\xBF";

class Parser {
 public:
  Parser(std::string_view text, const std::string& path) : text_(text), lines_(text), path_(path) {}

  absl::StatusOr<HloModule> Module() {
    HloModule module;
    if (text_.starts_with(kUtf8Bom)) pos_ = kUtf8Bom.size();  // a UTF-8 byte-order mark
    SkipTrivia();
    module.loc = Here();
    if (Word() != "HloModule") return Fail(module.loc, "expected 'HloModule' at the start of an HLO module");
    SkipTrivia();
    if (!Name(module.name, "the module name")) return error_;
    if (!Attributes(module.attributes)) return error_;
    for (const HloAttribute& a : module.attributes) {
      if (a.key == "is_scheduled") module.is_scheduled = a.value == "true";
    }
    std::map<std::string, SourceLocation> seen;
    std::optional<std::size_t> entry;
    SkipTrivia();
    while (pos_ < text_.size()) {
      HloComputation comp;
      if (!Computation(comp)) return error_;
      if (auto [it, fresh] = seen.emplace(comp.name, comp.loc); !fresh) {
        return Fail(comp.loc, "duplicate computation %" + comp.name + " (first at " + LineColumn(it->second) + ")");
      }
      if (comp.is_entry) {
        if (entry) return Fail(comp.loc, "second ENTRY computation; %" + module.computations[*entry].name + " is already the entry");
        entry = module.computations.size();
      }
      module.computations.push_back(std::move(comp));
      SkipTrivia();
    }
    if (module.computations.empty()) return Fail(Here(), "unexpected end of input, expected a computation");
    // As XLA's HLO text parser: without an ENTRY, the last computation is
    // the entry.
    if (!entry) {
      entry = module.computations.size() - 1;
      module.computations[*entry].is_entry = true;
    }
    module.entry = *entry;
    return module;
  }

 private:
  SourceLocation Here() const { return lines_.Locate(pos_); }
  char Peek() const { return pos_ < text_.size() ? text_[pos_] : '\0'; }

  absl::Status Fail(SourceLocation loc, const std::string& message) {
    error_ = LocatedError(path_, loc, message);
    return error_;
  }
  bool Bad(SourceLocation loc, const std::string& message) {
    error_ = LocatedError(path_, loc, message);
    return false;
  }
  // "got 'x'" or "got end of input" for an error at the cursor.
  std::string Got() const {
    if (pos_ >= text_.size()) return "got end of input";
    return std::string("got '") + text_[pos_] + "'";
  }

  void SkipTrivia() {
    while (pos_ < text_.size()) {
      const char c = text_[pos_];
      if (std::isspace(static_cast<unsigned char>(c))) {
        ++pos_;
      } else if (text_.substr(pos_, 2) == "/*") {
        const std::size_t end = text_.find("*/", pos_ + 2);
        pos_ = end == std::string_view::npos ? text_.size() : end + 2;
      } else if (text_.substr(pos_, 2) == "//") {
        while (pos_ < text_.size() && text_[pos_] != '\n') ++pos_;
      } else {
        break;
      }
    }
  }

  std::string_view Word() {
    const std::size_t start = pos_;
    while (pos_ < text_.size() && IsHloNameChar(text_[pos_])) ++pos_;
    return text_.substr(start, pos_ - start);
  }

  bool Consume(char c) {
    SkipTrivia();
    if (Peek() != c) return false;
    ++pos_;
    return true;
  }
  bool Expect(char c, const std::string& what) {
    if (Consume(c)) return true;
    return Bad(Here(), std::string("expected '") + c + "' " + what + ", " + Got());
  }

  // NAME with an optional leading '%'.
  bool Name(std::string& out, const std::string& what) {
    SkipTrivia();
    const SourceLocation at = Here();
    if (Peek() == '%') ++pos_;
    out = std::string(Word());
    if (out.empty()) return Bad(at, "expected " + what + ", " + Got());
    return true;
  }

  bool Integer(std::int64_t& out, const std::string& what) {
    SkipTrivia();
    const SourceLocation at = Here();
    const std::size_t start = pos_;
    while (std::isdigit(static_cast<unsigned char>(Peek()))) ++pos_;
    if (pos_ == start) return Bad(at, "expected " + what + ", " + Got());
    out = 0;
    for (std::size_t i = start; i < pos_; ++i) {
      if (out > (kMaxDim - 9) / 10) return Bad(at, what + " is above the limit of 2^62");
      out = out * 10 + (text_[i] - '0');
    }
    return true;
  }

  bool Shape(HloShape& shape, int depth = 0) {
    SkipTrivia();
    const SourceLocation at = Here();
    if (depth > kMaxTupleDepth) return Bad(at, "tuple shape nested deeper than 64");
    if (Consume('(')) {
      shape.is_tuple = true;
      if (Consume(')')) return true;
      do {
        HloShape element;
        if (!Shape(element, depth + 1)) return false;
        shape.elements.push_back(std::move(element));
      } while (Consume(','));
      return Expect(')', "closing the tuple shape");
    }
    shape.element_type = std::string(Word());
    if (shape.element_type.empty()) return Bad(at, "expected a shape, " + Got());
    if (!HloElementBits(shape.element_type)) {
      return Bad(at, "unknown element type '" + shape.element_type + "'");
    }
    if (!Expect('[', "after the element type")) return false;
    if (!Consume(']')) {
      do {
        SkipTrivia();
        if (Peek() == '?') return Bad(Here(), "unbounded dynamic dimension '?': memplan needs a bound (<=N)");
        if (text_.substr(pos_, 2) == "<=") pos_ += 2;
        std::int64_t dim = 0;
        if (!Integer(dim, "a dimension")) return false;
        shape.dims.push_back(dim);
      } while (Consume(','));
      if (!Expect(']', "closing the dimensions")) return false;
    }
    if (HloElementCount(shape) >= kMaxDim) return Bad(at, "shape " + shape.ToString() + " has 2^62 or more elements");
    // A layout follows the dims directly; `-> f32[2] {` opens a computation.
    if (Peek() == '{') return Layout(shape);
    return true;
  }

  // `{1,0}`, `{1,0:T(8,128)S(1)}`: only the memory space `S(n)` is kept.
  bool Layout(HloShape& shape) {
    const SourceLocation open = Here();
    const std::size_t end = text_.find('}', pos_);
    if (end == std::string_view::npos) return Bad(open, "unexpected end of input, expected '}' closing the layout");
    const std::string_view body = text_.substr(pos_ + 1, end - pos_ - 1);
    if (const std::size_t colon = body.find(':'); colon != std::string_view::npos) {
      const std::size_t s = body.find("S(", colon);
      if (s != std::string_view::npos) {
        std::int64_t space = 0;
        std::size_t i = s + 2;
        while (i < body.size() && std::isdigit(static_cast<unsigned char>(body[i]))) {
          space = space * 10 + (body[i] - '0');
          if (space > 1000000) break;
          ++i;
        }
        if (i == s + 2 || i >= body.size() || body[i] != ')') {
          return Bad(lines_.Locate(pos_ + 1 + s), "expected a memory space S(N) in the layout");
        }
        shape.memory_space = space;
      }
    }
    pos_ = end + 1;
    return true;
  }

  // A raw value: up to a ',' , newline or unmatched closer at depth 0.
  bool RawValue(std::string& out) {
    SkipTrivia();
    const std::size_t start = pos_;
    const SourceLocation at = Here();
    std::vector<char> closers;
    while (pos_ < text_.size()) {
      const char c = text_[pos_];
      if (c == '"') {
        ++pos_;
        while (pos_ < text_.size() && text_[pos_] != '"') pos_ += text_[pos_] == '\\' ? 2 : 1;
        if (pos_ >= text_.size()) return Bad(at, "unexpected end of input inside a string");
        ++pos_;
        continue;
      }
      if (closers.empty() && (c == ',' || c == '\n' || c == ')' || c == '}')) break;
      if (c == '{') closers.push_back('}');
      if (c == '(') closers.push_back(')');
      if (c == '[') closers.push_back(']');
      if (!closers.empty() && c == closers.back()) closers.pop_back();
      ++pos_;
    }
    if (!closers.empty()) {
      return Bad(at, std::string("unexpected end of input, expected '") + closers.back() + "' in this value");
    }
    std::size_t end = pos_;
    while (end > start && std::isspace(static_cast<unsigned char>(text_[end - 1]))) --end;
    out = std::string(text_.substr(start, end - start));
    return true;
  }

  // (',' KEY '=' VALUE)*
  bool Attributes(std::vector<HloAttribute>& out) {
    while (true) {
      const std::size_t save = pos_;
      SkipTrivia();
      if (Peek() != ',') {
        pos_ = save;
        return true;
      }
      ++pos_;
      SkipTrivia();
      const SourceLocation key_at = Here();
      HloAttribute a;
      a.key = std::string(Word());
      if (a.key.empty()) return Bad(key_at, "expected an attribute name, " + Got());
      if (!Expect('=', "after attribute '" + a.key + "'")) return false;
      SkipTrivia();
      a.loc = Here();
      if (!RawValue(a.value)) return false;
      out.push_back(std::move(a));
    }
  }

  bool Computation(HloComputation& comp) {
    SkipTrivia();
    comp.loc = Here();
    const std::size_t save = pos_;
    if (Word() == "ENTRY") {
      comp.is_entry = true;
    } else {
      pos_ = save;
    }
    if (!Name(comp.name, "a computation name")) return false;
    SkipTrivia();
    if (Peek() == '(') {
      ++pos_;
      std::string param;
      do {
        if (!RawValue(param)) return false;
      } while (Consume(','));
      if (!Expect(')', "closing the parameter list of %" + comp.name)) return false;
      SkipTrivia();
      if (text_.substr(pos_, 2) != "->") return Bad(Here(), "expected '->' and the result shape, " + Got());
      pos_ += 2;
      HloShape result;
      if (!Shape(result)) return false;
    }
    SkipTrivia();
    const SourceLocation open = Here();
    if (!Expect('{', "opening computation %" + comp.name)) return false;
    std::map<std::string, SourceLocation> names;
    bool has_root = false;
    while (true) {
      SkipTrivia();
      if (pos_ >= text_.size()) {
        return Bad(Here(), "unexpected end of input, expected '}' closing computation %" + comp.name +
                               " (opened at " + LineColumn(open) + ")");
      }
      if (Consume('}')) break;
      HloInstruction instr;
      if (!Instruction(instr)) return false;
      if (auto [it, fresh] = names.emplace(instr.name, instr.loc); !fresh) {
        return Bad(instr.loc, "duplicate instruction %" + instr.name + " (first at " + LineColumn(it->second) + ")");
      }
      if (instr.is_root) {
        if (has_root) return Bad(instr.loc, "second ROOT in computation %" + comp.name);
        has_root = true;
        comp.root = comp.instructions.size();
      }
      comp.instructions.push_back(std::move(instr));
    }
    if (comp.instructions.empty()) return Bad(open, "computation %" + comp.name + " has no instructions");
    if (!has_root) comp.root = comp.instructions.size() - 1;
    return true;
  }

  bool Operands(HloInstruction& instr) {
    if (instr.opcode == "parameter") {
      std::int64_t n = 0;
      if (!Integer(n, "the parameter number")) return false;
      instr.parameter_number = n;
      return Expect(')', "closing parameter(N)");
    }
    if (instr.opcode == "constant") {  // the literal is not needed for planning
      std::string literal;
      while (true) {
        if (!RawValue(literal)) return false;
        if (Peek() != ',') break;
        ++pos_;
      }
      return Expect(')', "closing the constant literal");
    }
    if (Consume(')')) return true;
    do {
      HloOperand operand;
      SkipTrivia();
      const std::size_t save = pos_;
      const std::string_view word = Word();
      SkipTrivia();
      const bool has_shape = Peek() == '(' ? word.empty() : (Peek() == '[' && !word.empty());
      pos_ = save;
      if (has_shape) {
        SkipTrivia();
        operand.shape_loc = Here();
        HloShape shape;
        if (!Shape(shape)) return false;
        operand.shape = std::move(shape);
      }
      SkipTrivia();
      operand.loc = Here();
      if (!Name(operand.name, "an operand name")) return false;
      instr.operands.push_back(std::move(operand));
    } while (Consume(','));
    return Expect(')', "closing the operands of " + instr.opcode);
  }

  bool Instruction(HloInstruction& instr) {
    SkipTrivia();
    const std::size_t save = pos_;
    if (Word() == "ROOT") {
      instr.is_root = true;
    } else {
      pos_ = save;
    }
    SkipTrivia();
    instr.loc = Here();
    if (!Name(instr.name, "an instruction name")) return false;
    if (!Expect('=', "after the instruction name %" + instr.name)) return false;
    if (!Shape(instr.shape)) return false;
    SkipTrivia();
    instr.opcode_loc = Here();
    instr.opcode = std::string(Word());
    if (instr.opcode.empty()) return Bad(instr.opcode_loc, "expected an opcode, " + Got());
    if (!Expect('(', "after the opcode " + instr.opcode)) return false;
    if (!Operands(instr)) return false;
    return Attributes(instr.attributes);
  }

  std::string_view text_;
  LineIndex lines_;  // Here() per token: a binary search, not a scan from the start
  const std::string& path_;
  std::size_t pos_ = 0;
  absl::Status error_;
};

}  // namespace

bool IsHloNameChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_' || c == '.' || c == '-';
}

absl::StatusOr<HloModule> ParseHloModule(std::string_view text, const std::string& path) {
  return Parser(text, path).Module();
}

bool LooksLikeHloText(std::string_view text) {
  std::size_t i = text.starts_with(kUtf8Bom) ? kUtf8Bom.size() : 0;
  while (i < text.size()) {
    if (std::isspace(static_cast<unsigned char>(text[i]))) {
      ++i;
    } else if (text.substr(i, 2) == "/*") {
      const std::size_t end = text.find("*/", i + 2);
      if (end == std::string_view::npos) return false;
      i = end + 2;
    } else if (text.substr(i, 2) == "//") {
      while (i < text.size() && text[i] != '\n') ++i;
    } else {
      break;
    }
  }
  return text.substr(i, 9) == "HloModule" && (i + 9 == text.size() || !IsHloNameChar(text[i + 9]));
}

}  // namespace memplan
