// Test helper: every field of a Program except source locations and
// Program::source, one line per entity, so two models compare structurally
// with a readable diff.
#pragma once

#include <sstream>
#include <string>

#include "ir/dims.h"
#include "ir/program.h"

namespace memplan {

inline std::string DumpAttr(const AttrValue& v) {
  std::ostringstream out;
  out.precision(17);
  out << static_cast<int>(v.kind) << ":" << v.i << ":" << v.f << ":" << v.s << ":[";
  for (const AttrValue& e : v.list) out << DumpAttr(e) << ";";
  out << "]";
  return out.str();
}

inline std::string DumpModel(const Program& p) {
  std::ostringstream out;
  out.precision(17);
  out << "program " << p.name << " entry=" << p.entry << "\n";
  const std::vector<std::string> names = DimNames(p);
  for (const DimDecl& d : p.dims) {
    out << "dim " << d.name << " bound=" << d.bound.value_or(-1) << " binding=" << d.binding.value_or(-1) << "\n";
  }
  for (const Value& v : p.values) {
    out << "value " << v.name << " size=" << v.size << " tp=" << v.is_timepoint;
    if (v.size_expr) out << " expr=" << v.size_expr->ToString(names);
    if (v.type) {
      out << " type=" << v.type->dtype << "[";
      for (std::int64_t d : v.type->dims) out << d << ",";
      out << "]";
    }
    out << " lifetime=" << (v.lifetime ? static_cast<int>(*v.lifetime) : -1)
        << " space=" << (v.space ? *v.space : -1) << " alias=" << static_cast<int>(v.alias)
        << " of=" << v.alias_of << " off=" << v.view_offset << " comp=" << v.computation
        << " def=" << v.defining_op;
    for (const GatheredOperand& g : v.gathers) out << " gathers=" << g.operand << "@" << g.offset;
    out << "\n";
  }
  for (const Op& o : p.ops) {
    out << "op " << o.opcode << " kind=" << static_cast<int>(o.kind) << " comp=" << o.computation << " in=";
    for (ValueId v : o.operands) out << v << ",";
    out << " ranges=";
    for (const std::optional<OperandRange>& r : o.operand_ranges) {
      out << (r ? "[" + r->offset.ToString(names) + " for " + r->length.ToString(names) + "]" : "-") << ",";
    }
    out << " out=";
    for (ValueId v : o.results) out << v << ",";
    out << " callees=";
    for (ComputationId c : o.callees) out << c << ",";
    out << " flops=" << o.cost.flops << " trans=" << o.cost.transcendentals
        << " bytes=" << (o.cost.bytes_accessed ? *o.cost.bytes_accessed : -1) << " scratch=" << o.scratch_bytes
        << " affinity=" << o.affinity.value_or("<none>") << " trip=" << o.trip_count.value_or(-1)
        << " wave=" << o.wave.value_or(-1) << " attrs=";
    for (const Attribute& a : o.attributes) out << a.key << "=" << DumpAttr(a.value) << ";";
    out << "\n";
  }
  for (const Computation& c : p.computations) {
    out << "computation " << c.name << " kind=" << static_cast<int>(c.kind) << " init=" << c.initializer
        << " affinity=" << c.affinity.value_or("<none>") << " params=";
    for (ValueId v : c.params) out << v << ",";
    out << " ops=";
    for (OpId o : c.ops) out << o << ",";
    out << " results=";
    for (ValueId v : c.results) out << v << ",";
    out << "\n";
  }
  return out.str();
}

}  // namespace memplan
