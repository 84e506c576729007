#include "ir/text_printer.h"

#include <charconv>
#include <cmath>
#include <string_view>
#include <vector>

#include "ir/dims.h"
#include "ir/text_syntax.h"

namespace memplan {
namespace {

// Shortest text that reads back as exactly `f`.
std::string ShortestDouble(double f) {
  char buffer[64];
  const auto result = std::to_chars(buffer, buffer + sizeof(buffer), f);
  return std::string(buffer, result.ptr);
}

// A cost: integral values below 2^53 print as integers (flops = 86704128).
std::string CostText(double f) {
  if (f == std::floor(f) && std::fabs(f) < 9007199254740992.0) {
    return std::to_string(static_cast<std::int64_t>(f));
  }
  return ShortestDouble(f);
}

// A float attribute always carries a '.' or exponent, so it reads back as a float.
std::string FloatText(double f) {
  std::string text = ShortestDouble(f);
  if (text.find_first_of(".e") == std::string::npos) text += ".0";
  return text;
}

std::string Quoted(std::string_view text) { return "\"" + EscapeText(text) + "\""; }

std::string AttrText(const AttrValue& value) {
  switch (value.kind) {
    case AttrValue::Kind::kInt: return std::to_string(value.i);
    case AttrValue::Kind::kFloat: return FloatText(value.f);
    case AttrValue::Kind::kString: return Quoted(value.s);
    case AttrValue::Kind::kBool: return value.i != 0 ? "true" : "false";
    case AttrValue::Kind::kSymbol: return SigilName('@', value.s);
    case AttrValue::Kind::kList: {
      std::string text = "[";
      for (std::size_t i = 0; i < value.list.size(); ++i) {
        if (i > 0) text += ", ";
        text += AttrText(value.list[i]);
      }
      return text + "]";
    }
  }
  return "";
}

class Printer {
 public:
  explicit Printer(const Program& program) : p_(program), dim_names_(DimNames(program)) {}

  std::string Run() {
    if (!p_.name.empty()) out_ += "program " + SigilName('@', p_.name) + "\n";
    for (const DimDecl& dim : p_.dims) {
      out_ += "dim " + SigilName('%', dim.name);
      if (dim.bound) out_ += " <= " + std::to_string(*dim.bound);
      out_ += "\n";
    }
    for (ComputationId c = 0; c < static_cast<ComputationId>(p_.computations.size()); ++c) {
      if (!out_.empty()) out_ += "\n";
      PrintComputation(c);
    }
    return std::move(out_);
  }

 private:
  std::string ValueName(ValueId v) const { return SigilName('%', p_.values[v].name); }
  std::string CompName(ComputationId c) const { return SigilName('@', p_.computations[c].name); }

  // `%x`, or `%x[OFFSET for LENGTH]` for operand i with a range.
  std::string OperandList(const Op& op) const {
    std::string text;
    for (std::size_t i = 0; i < op.operands.size(); ++i) {
      if (i > 0) text += ", ";
      text += ValueName(op.operands[i]);
      if (i < op.operand_ranges.size() && op.operand_ranges[i]) {
        const OperandRange& range = *op.operand_ranges[i];
        text += "[" + range.offset.ToString(dim_names_) + " for " + range.length.ToString(dim_names_) + "]";
      }
    }
    return text;
  }

  std::string NameList(const std::vector<ValueId>& values) const {
    std::string text;
    for (std::size_t i = 0; i < values.size(); ++i) {
      if (i > 0) text += ", ";
      text += ValueName(values[i]);
    }
    return text;
  }

  // Type and qualifiers of a parameter or result.
  std::string TypeText(ValueId v) const {
    const Value& value = p_.values[v];
    std::string text;
    if (value.type) {
      text = value.type->dtype + "[";
      for (std::size_t i = 0; i < value.type->dims.size(); ++i) {
        if (i > 0) text += ",";
        text += std::to_string(value.type->dims[i]);
      }
      text += "]";
    } else if (value.is_timepoint) {
      text = "timepoint";
    } else if (value.size_expr && !value.size_expr->IsConstant()) {
      text = "(" + value.size_expr->ToString(dim_names_) + ")";
    } else {
      text = std::to_string(value.size);
    }
    if (value.alias == AliasKind::kTied) text += " tied(" + ValueName(value.alias_of) + ")";
    if (value.alias == AliasKind::kView) {
      const std::string offset = value.view_offset_expr
                                     ? value.view_offset_expr->ToString(dim_names_)
                                     : std::to_string(value.view_offset);
      text += " view(" + ValueName(value.alias_of) + ", " + offset + ")";
    }
    if (!value.gathers.empty()) {
      text += " gathers(";
      for (std::size_t i = 0; i < value.gathers.size(); ++i) {
        if (i > 0) text += ", ";
        text += ValueName(value.gathers[i].operand) + ", " + std::to_string(value.gathers[i].offset);
      }
      text += ")";
    }
    if (value.space) text += " space(" + std::to_string(*value.space) + ")";
    if (value.lifetime) text += " " + std::string(LifetimeName(*value.lifetime));
    return text;
  }

  std::vector<std::string> Attributes(const Op& op) const {
    std::vector<std::string> attrs;
    switch (op.kind) {
      case OpKind::kWhile:
        attrs.push_back("cond = " + CompName(op.callees[0]));
        attrs.push_back("body = " + CompName(op.callees[1]));
        break;
      case OpKind::kConditional: {
        std::string list;
        for (std::size_t i = 0; i < op.callees.size(); ++i) list += (i > 0 ? ", " : "") + CompName(op.callees[i]);
        attrs.push_back("branches = [" + list + "]");
        break;
      }
      case OpKind::kCall:
      case OpKind::kExecute:
        attrs.push_back("callee = " + CompName(op.callees[0]));
        break;
      default:
        break;
    }
    if (op.trip_count) attrs.push_back("trip_count = " + std::to_string(*op.trip_count));
    if (op.wave) attrs.push_back("wave = " + std::to_string(*op.wave));
    if (op.affinity) attrs.push_back("affinity = " + Quoted(*op.affinity));
    if (op.cost.flops != 0) attrs.push_back("flops = " + CostText(op.cost.flops));
    if (op.cost.transcendentals != 0) attrs.push_back("transcendentals = " + CostText(op.cost.transcendentals));
    if (op.cost.bytes_accessed) attrs.push_back("bytes_accessed = " + std::to_string(*op.cost.bytes_accessed));
    if (op.scratch_bytes != 0) attrs.push_back("scratch = " + std::to_string(op.scratch_bytes));
    for (const Attribute& attr : op.attributes) attrs.push_back(attr.key + " = " + AttrText(attr.value));
    return attrs;
  }

  void PrintOp(OpId o) {
    const Op& op = p_.ops[o];
    out_ += "  ";
    if (!op.results.empty()) out_ += NameList(op.results) + " = ";
    out_ += op.opcode + "(" + OperandList(op) + ")";
    for (std::size_t i = 0; i < op.results.size(); ++i) {
      out_ += i == 0 ? " : " : ", ";
      out_ += TypeText(op.results[i]);
    }
    const std::vector<std::string> attrs = Attributes(op);
    for (std::size_t i = 0; i < attrs.size(); ++i) {
      out_ += i == 0 ? " {" : ", ";
      out_ += attrs[i];
    }
    if (!attrs.empty()) out_ += "}";
    out_ += "\n";
  }

  void PrintComputation(ComputationId c) {
    const Computation& comp = p_.computations[c];
    if (c == p_.entry) out_ += "entry ";
    if (comp.initializer) out_ += "initializer ";
    out_ += comp.kind == ComputationKind::kRegion ? "region " : "func ";
    out_ += CompName(c) + "(";
    for (std::size_t i = 0; i < comp.params.size(); ++i) {
      if (i > 0) out_ += ", ";
      out_ += ValueName(comp.params[i]) + ": " + TypeText(comp.params[i]);
    }
    out_ += ")";
    if (comp.affinity) out_ += " affinity(" + Quoted(*comp.affinity) + ")";
    out_ += " {\n";
    for (OpId o : comp.ops) PrintOp(o);
    if (!comp.results.empty()) out_ += "  return " + NameList(comp.results) + "\n";
    out_ += "}\n";
  }

  const Program& p_;
  const std::vector<std::string> dim_names_;  // per DimId, for size expressions
  std::string out_;
};

}  // namespace

std::string PrintProgram(const Program& program) { return Printer(program).Run(); }

}  // namespace memplan
