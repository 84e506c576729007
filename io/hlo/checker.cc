#include "io/hlo/checker.h"

#include <algorithm>
#include <array>
#include <map>
#include <string_view>

#include "io/hlo/attr_text.h"
#include "io/hlo/cost.h"
#include "io/hlo/shape.h"
#include "ir/diagnostic.h"

namespace memplan {
namespace {

// Opcodes whose operands have the result's dimensions (XLA's elementwise ops).
constexpr std::array<std::string_view, 44> kElementwise = {
    "abs", "add", "and", "atan2", "cbrt", "ceil", "clamp", "compare", "convert", "cosine",
    "divide", "erf", "exponential", "exponential-minus-one", "floor", "imag", "is-finite",
    "log", "log-plus-one", "logistic", "maximum", "minimum", "multiply", "negate", "not",
    "or", "popcnt", "power", "real", "remainder", "round-nearest-afz", "round-nearest-even",
    "rsqrt", "select", "shift-left", "shift-right-arithmetic", "shift-right-logical", "sign",
    "sine", "sqrt", "subtract", "tan", "tanh", "xor",
};

std::vector<std::string> NameList(std::string_view text) { return SplitAny(text, "{}, %"); }

class Checker {
 public:
  Checker(const HloModule& m, const std::string& path) : m_(m), path_(path) {
    for (std::size_t c = 0; c < m.computations.size(); ++c) {
      for (const HloInstruction& i : m.computations[c].instructions) owner_.emplace(i.name, c);
    }
  }

  absl::Status Run() {
    for (std::size_t c = 0; c < m_.computations.size(); ++c) {
      if (absl::Status s = Computation(c); !s.ok()) return s;
    }
    return absl::OkStatus();
  }

 private:
  absl::Status Fail(SourceLocation loc, const std::string& message) const {
    return LocatedError(path_, loc, message);
  }

  const HloComputation* Callee(const std::string& name) const {
    const int c = FindHloComputation(m_, name);
    return c < 0 ? nullptr : &m_.computations[static_cast<std::size_t>(c)];
  }

  // Parameter shapes of `comp` by number. `comp` may not be checked yet: a
  // number past its instruction count (a gap, reported when `comp` is
  // checked) is skipped rather than sized for.
  std::vector<const HloShape*> Params(const HloComputation& comp) const {
    std::vector<const HloShape*> out;
    for (const HloInstruction& i : comp.instructions) {
      if (!i.parameter_number || *i.parameter_number >= static_cast<std::int64_t>(comp.instructions.size())) continue;
      const auto n = static_cast<std::size_t>(*i.parameter_number);
      if (out.size() <= n) out.resize(n + 1, nullptr);
      out[n] = &i.shape;
    }
    return out;
  }

  absl::Status Computation(std::size_t c) {
    const HloComputation& comp = m_.computations[c];
    std::map<std::string, std::size_t> index;
    for (std::size_t k = 0; k < comp.instructions.size(); ++k) index.emplace(comp.instructions[k].name, k);
    std::map<std::int64_t, SourceLocation> params;
    for (std::size_t k = 0; k < comp.instructions.size(); ++k) {
      const HloInstruction& instr = comp.instructions[k];
      if (instr.parameter_number) {
        if (auto [it, fresh] = params.emplace(*instr.parameter_number, instr.loc); !fresh) {
          return Fail(instr.loc, "parameter(" + std::to_string(*instr.parameter_number) +
                                     ") is declared twice in %" + comp.name + " (first at " + LineColumn(it->second) + ")");
        }
      }
      HloOperandShapes shapes;
      for (const HloOperand& operand : instr.operands) {
        const auto it = index.find(operand.name);
        if (it == index.end()) {
          if (const auto other = owner_.find(operand.name); other != owner_.end()) {
            return Fail(operand.loc, "operand %" + operand.name + " belongs to computation %" +
                                         m_.computations[other->second].name + ", not %" + comp.name);
          }
          return Fail(operand.loc, "unknown operand %" + operand.name);
        }
        const HloInstruction& def = comp.instructions[it->second];
        if (it->second >= k) {
          return Fail(operand.loc, "operand %" + operand.name + " is used before it is defined (at " +
                                       LineColumn(def.loc) + ")");
        }
        if (operand.shape && !operand.shape->SameAs(def.shape)) {
          return Fail(operand.shape_loc, "operand %" + operand.name + " is used as " + operand.shape->ToString() +
                                             " but defined as " + def.shape.ToString() + " at " + LineColumn(def.loc));
        }
        shapes.push_back(&def.shape);
      }
      if (absl::Status s = Calls(instr, shapes); !s.ok()) return s;
      if (absl::Status s = Shapes(instr, shapes); !s.ok()) return s;
    }
    std::int64_t expect = 0;
    for (const auto& [n, loc] : params) {
      if (n != expect) return Fail(loc, "parameter(" + std::to_string(n) + ") of %" + comp.name + " skips parameter(" + std::to_string(expect) + ")");
      ++expect;
    }
    return absl::OkStatus();
  }

  absl::Status Calls(const HloInstruction& instr, const HloOperandShapes& shapes) {
    const HloCallees callees = CalleesOf(instr);
    const auto check = [&](const std::vector<std::string>& names, const std::vector<SourceLocation>& locs) {
      for (std::size_t i = 0; i < names.size(); ++i) {
        const int c = FindHloComputation(m_, names[i]);
        if (c < 0) return Fail(locs[i], "unknown computation %" + names[i]);
        if (static_cast<std::size_t>(c) == m_.entry) {
          return Fail(locs[i], "the ENTRY computation %" + names[i] + " cannot be called");
        }
      }
      return absl::OkStatus();
    };
    if (absl::Status s = check(callees.control, callees.control_locs); !s.ok()) return s;
    if (absl::Status s = check(callees.other, callees.other_locs); !s.ok()) return s;
    const std::string& op = instr.opcode;
    if (op == "while") {
      if (shapes.size() != 1) return Fail(instr.opcode_loc, "while takes 1 operand, got " + std::to_string(shapes.size()));
      if (callees.control.size() != 2) return Fail(instr.opcode_loc, "while needs condition= and body=");
      const HloComputation& cond = *Callee(callees.control[0]);
      const HloComputation& body = *Callee(callees.control[1]);
      if (absl::Status s = Signature(instr, cond, shapes, callees.control_locs[0]); !s.ok()) return s;
      if (absl::Status s = Signature(instr, body, shapes, callees.control_locs[1]); !s.ok()) return s;
      const HloShape& pred = cond.instructions[cond.root].shape;
      if (pred.is_tuple || pred.element_type != "pred" || !pred.dims.empty()) {
        return Fail(callees.control_locs[0], "while condition %" + cond.name + " returns " + pred.ToString() + ", not pred[]");
      }
      const HloShape& root = body.instructions[body.root].shape;
      if (!root.SameAs(*shapes[0]) || !instr.shape.SameAs(*shapes[0])) {
        return Fail(callees.control_locs[1], "while body %" + body.name + " returns " + root.ToString() +
                                                 "; the loop-carried shape is " + shapes[0]->ToString() +
                                                 " and the while returns " + instr.shape.ToString());
      }
    } else if (op == "call") {
      if (callees.control.size() != 1) return Fail(instr.opcode_loc, "call needs to_apply=%COMPUTATION");
      const HloComputation& callee = *Callee(callees.control[0]);
      if (absl::Status s = Signature(instr, callee, shapes, callees.control_locs[0]); !s.ok()) return s;
      if (absl::Status s = Root(instr, callee, callees.control_locs[0]); !s.ok()) return s;
    } else if (op == "conditional") {
      if (shapes.size() != callees.control.size() + 1) {
        return Fail(instr.opcode_loc, "conditional with " + std::to_string(callees.control.size()) +
                                          " branches takes " + std::to_string(callees.control.size() + 1) +
                                          " operands (the predicate or branch index, then one per branch), got " +
                                          std::to_string(shapes.size()));
      }
      if (shapes[0]->is_tuple || !shapes[0]->dims.empty()) {
        return Fail(instr.operands[0].loc, "conditional's operand 0 must be a scalar pred or s32, got " + shapes[0]->ToString());
      }
      for (std::size_t b = 0; b < callees.control.size(); ++b) {
        const HloComputation& branch = *Callee(callees.control[b]);
        if (absl::Status s = Signature(instr, branch, {shapes[b + 1]}, callees.control_locs[b]); !s.ok()) return s;
        if (absl::Status s = Root(instr, branch, callees.control_locs[b]); !s.ok()) return s;
      }
    }
    return absl::OkStatus();
  }

  absl::Status Signature(const HloInstruction& instr, const HloComputation& callee,
                         const HloOperandShapes& args, SourceLocation at) const {
    const std::vector<const HloShape*> params = Params(callee);
    if (params.size() != args.size()) {
      return Fail(at, instr.opcode + " passes " + std::to_string(args.size()) + " operand(s) to %" + callee.name +
                          ", which takes " + std::to_string(params.size()));
    }
    for (std::size_t i = 0; i < params.size(); ++i) {
      if (params[i] != nullptr && !params[i]->SameAs(*args[i])) {
        return Fail(at, instr.opcode + " passes " + args[i]->ToString() + " to parameter(" + std::to_string(i) +
                            ") of %" + callee.name + ", which is " + params[i]->ToString());
      }
    }
    return absl::OkStatus();
  }

  absl::Status Root(const HloInstruction& instr, const HloComputation& callee, SourceLocation at) const {
    const HloShape& root = callee.instructions[callee.root].shape;
    if (root.SameAs(instr.shape)) return absl::OkStatus();
    return Fail(at, "%" + callee.name + " returns " + root.ToString() + " but " + instr.opcode + " %" + instr.name +
                        " is " + instr.shape.ToString());
  }

  absl::Status Shapes(const HloInstruction& instr, const HloOperandShapes& shapes) const {
    const std::string& op = instr.opcode;
    if (std::find(kElementwise.begin(), kElementwise.end(), op) != kElementwise.end()) {
      for (std::size_t i = 0; i < shapes.size(); ++i) {
        const bool scalar_ok = op == "clamp" || op == "select";  // scalar bounds / predicate
        if (shapes[i]->is_tuple || instr.shape.is_tuple ||
            (shapes[i]->dims != instr.shape.dims && !(scalar_ok && shapes[i]->dims.empty()))) {
          return Fail(instr.operands[i].loc, op + " operand " + std::to_string(i) + " %" + instr.operands[i].name +
                                                 " is " + shapes[i]->ToString() + " but the result is " +
                                                 instr.shape.ToString() + " (elementwise operands have the result's dimensions)");
        }
      }
    } else if (op == "dot") {
      return Dot(instr, shapes);
    } else if (op == "get-tuple-element") {
      const HloAttribute* a = instr.Find("index");
      const std::int64_t index = a == nullptr ? -1 : ParseInt(a->value).value_or(-1);
      if (index < 0) {
        return Fail(a ? a->loc : instr.opcode_loc, "get-tuple-element needs index=N (N >= 0)");
      }
      if (shapes.size() != 1 || !shapes[0]->is_tuple) {
        return Fail(instr.opcode_loc, "get-tuple-element takes one tuple operand");
      }
      if (static_cast<std::size_t>(index) >= shapes[0]->elements.size()) {
        return Fail(a->loc, "get-tuple-element index " + std::to_string(index) + " is out of range for %" +
                                instr.operands[0].name + " " + shapes[0]->ToString() + " (" +
                                std::to_string(shapes[0]->elements.size()) + " elements)");
      }
      const HloShape& element = shapes[0]->elements[static_cast<std::size_t>(index)];
      if (!element.SameAs(instr.shape)) {
        return Fail(instr.loc, "get-tuple-element %" + instr.name + " is " + instr.shape.ToString() + " but element " +
                                   std::to_string(index) + " of %" + instr.operands[0].name + " is " + element.ToString());
      }
    } else if (op == "tuple") {
      HloShape expect;
      expect.is_tuple = true;
      for (const HloShape* s : shapes) expect.elements.push_back(*s);
      if (!expect.SameAs(instr.shape)) {
        return Fail(instr.loc, "tuple %" + instr.name + " is " + instr.shape.ToString() + " but its operands make " + expect.ToString());
      }
    } else if (op == "bitcast") {
      if (shapes.size() != 1 || shapes[0]->is_tuple || instr.shape.is_tuple ||
          HloArrayBytes(*shapes[0]) != HloArrayBytes(instr.shape)) {
        return Fail(instr.loc, "bitcast %" + instr.name + " changes the byte size: " +
                                   (shapes.empty() ? std::string("no operand") : shapes[0]->ToString()) + " to " + instr.shape.ToString());
      }
    } else if (op == "dynamic-update-slice") {
      if (shapes.empty() || !shapes[0]->SameAs(instr.shape)) {
        return Fail(instr.loc, "dynamic-update-slice %" + instr.name + " is " + instr.shape.ToString() +
                                   " but its operand 0 is " + (shapes.empty() ? std::string("missing") : shapes[0]->ToString()));
      }
    }
    return absl::OkStatus();
  }

  absl::Status Dot(const HloInstruction& instr, const HloOperandShapes& shapes) const {
    if (shapes.size() != 2 || shapes[0]->is_tuple || shapes[1]->is_tuple) {
      return Fail(instr.opcode_loc, "dot takes two array operands");
    }
    const HloAttribute* la = instr.Find("lhs_contracting_dims");
    const HloAttribute* ra = instr.Find("rhs_contracting_dims");
    const std::vector<std::int64_t> lhs = la ? IntList(la->value) : std::vector<std::int64_t>{};
    const std::vector<std::int64_t> rhs = ra ? IntList(ra->value) : std::vector<std::int64_t>{};
    if (lhs.size() != rhs.size()) {
      return Fail(la ? la->loc : instr.opcode_loc, "dot has " + std::to_string(lhs.size()) + " lhs and " +
                                                      std::to_string(rhs.size()) + " rhs contracting dims");
    }
    for (std::size_t i = 0; i < lhs.size(); ++i) {
      const auto rank_l = static_cast<std::int64_t>(shapes[0]->dims.size());
      const auto rank_r = static_cast<std::int64_t>(shapes[1]->dims.size());
      if (lhs[i] < 0 || lhs[i] >= rank_l) return Fail(la->loc, "lhs contracting dim " + std::to_string(lhs[i]) + " is out of range for " + shapes[0]->ToString());
      if (rhs[i] < 0 || rhs[i] >= rank_r) return Fail(ra->loc, "rhs contracting dim " + std::to_string(rhs[i]) + " is out of range for " + shapes[1]->ToString());
      const std::int64_t l = shapes[0]->dims[static_cast<std::size_t>(lhs[i])];
      const std::int64_t r = shapes[1]->dims[static_cast<std::size_t>(rhs[i])];
      if (l != r) {
        return Fail(instr.opcode_loc, "dot contracts lhs %" + instr.operands[0].name + " dim " + std::to_string(lhs[i]) +
                                          " (size " + std::to_string(l) + ") with rhs %" + instr.operands[1].name + " dim " +
                                          std::to_string(rhs[i]) + " (size " + std::to_string(r) + ")");
      }
    }
    return absl::OkStatus();
  }

  const HloModule& m_;
  const std::string& path_;
  std::map<std::string, std::size_t> owner_;
};

}  // namespace

int FindHloComputation(const HloModule& module, const std::string& name) {
  for (std::size_t c = 0; c < module.computations.size(); ++c) {
    if (module.computations[c].name == name) return static_cast<int>(c);
  }
  return -1;
}

HloCallees CalleesOf(const HloInstruction& instr) {
  HloCallees out;
  const auto add = [&](const HloAttribute* a, bool control) {
    if (a == nullptr) return;
    for (std::string& name : NameList(a->value)) {
      (control ? out.control : out.other).push_back(std::move(name));
      (control ? out.control_locs : out.other_locs).push_back(a->loc);
    }
  };
  const std::string& op = instr.opcode;
  if (op == "while") {
    add(instr.Find("condition"), true);
    add(instr.Find("body"), true);
  } else if (op == "conditional") {
    if (const HloAttribute* b = instr.Find("branch_computations")) {
      add(b, true);
    } else {
      add(instr.Find("true_computation"), true);
      add(instr.Find("false_computation"), true);
    }
  } else if (op == "call") {
    add(instr.Find("to_apply"), true);
  } else {
    add(instr.Find("to_apply"), false);
    add(instr.Find("calls"), false);
  }
  return out;
}

std::optional<HloLeafRange> LeafRangeAt(const HloShape& shape, const std::vector<std::int64_t>& index) {
  const HloShape* at = &shape;
  std::size_t first = 0;
  for (std::int64_t i : index) {
    if (!at->is_tuple || i < 0 || static_cast<std::size_t>(i) >= at->elements.size()) return std::nullopt;
    for (std::size_t e = 0; e < static_cast<std::size_t>(i); ++e) first += at->elements[e].LeafCount();
    at = &at->elements[static_cast<std::size_t>(i)];
  }
  return HloLeafRange{first, at->LeafCount(), at};
}

absl::Status CheckHloModule(const HloModule& module, const std::string& path) {
  return Checker(module, path).Run();
}

}  // namespace memplan
