#include "analysis/lifetimes.h"

namespace memplan {
namespace {

int Rank(Lifetime lifetime) {
  switch (lifetime) {
    case Lifetime::kTransient: return 0;
    case Lifetime::kStaging: return 1;
    case Lifetime::kConstant: return 2;
    case Lifetime::kVariable: return 3;
    case Lifetime::kExternal: return 4;
  }
  return 0;
}

}  // namespace

std::vector<Lifetime> ValueLifetimes(const Program& program) {
  std::vector<Lifetime> lifetimes(program.values.size(), Lifetime::kTransient);
  for (const Op& op : program.ops) {
    if (op.kind != OpKind::kConstant) continue;
    for (ValueId v : op.results) lifetimes[v] = Lifetime::kConstant;
  }
  for (const Computation& comp : program.computations) {
    if (!comp.initializer) continue;
    for (ValueId v : comp.results) lifetimes[v] = Lifetime::kVariable;
  }
  if (program.entry >= 0 && program.entry < static_cast<ComputationId>(program.computations.size())) {
    const Computation& entry = program.computations[program.entry];
    for (ValueId v : entry.params) lifetimes[v] = Lifetime::kExternal;
    for (ValueId v : entry.results) lifetimes[v] = Lifetime::kExternal;
  }
  for (ValueId v = 0; v < static_cast<ValueId>(program.values.size()); ++v) {
    if (program.values[v].lifetime) lifetimes[v] = *program.values[v].lifetime;
  }
  return lifetimes;
}

Lifetime DominantLifetime(Lifetime a, Lifetime b) { return Rank(a) >= Rank(b) ? a : b; }

}  // namespace memplan
