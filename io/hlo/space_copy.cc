#include "io/hlo/space_copy.h"

namespace memplan {

bool IsMemorySpaceCopyStart(const HloInstruction& in) {
  if (in.opcode != "copy-start" || in.operands.size() != 1) return false;
  const HloShape& s = in.shape;
  if (!s.is_tuple || s.elements.size() != 3) return false;
  const HloShape& dst = s.elements[0];
  const HloShape& src = s.elements[1];
  if (dst.is_tuple || src.is_tuple || !dst.SameAs(src)) return false;
  return dst.memory_space.value_or(0) != src.memory_space.value_or(0);
}

std::map<std::string, std::size_t> FoldedSpaceCopies(const HloComputation& comp) {
  std::map<std::string, const HloShape*> shapes;
  std::map<std::string, std::size_t> starts;
  for (std::size_t k = 0; k < comp.instructions.size(); ++k) {
    const HloInstruction& in = comp.instructions[k];
    shapes.emplace(in.name, &in.shape);
    // The source must be an array defined before (the checker reports others).
    const auto source = in.operands.empty() ? shapes.end() : shapes.find(in.operands[0].name);
    if (IsMemorySpaceCopyStart(in) && source != shapes.end() && !source->second->is_tuple &&
        source->second->SameAs(in.shape.elements[1])) {
      starts.emplace(in.name, k);
    }
  }
  std::map<std::string, int> reads;
  std::map<std::string, bool> by_done;
  for (const HloInstruction& in : comp.instructions) {
    for (const HloOperand& o : in.operands) {
      if (!starts.contains(o.name)) continue;
      ++reads[o.name];
      by_done[o.name] = in.opcode == "copy-done" && in.operands.size() == 1;
    }
  }
  const HloInstruction& root = comp.instructions[comp.root];
  std::map<std::string, std::size_t> out;
  for (const auto& [name, k] : starts) {
    if (reads[name] == 1 && by_done[name] && root.name != name) out.emplace(name, k);
  }
  return out;
}

}  // namespace memplan
