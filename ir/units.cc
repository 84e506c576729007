#include "ir/units.h"

#include <algorithm>
#include <numeric>

namespace memplan {

std::string SpaceName(MemorySpace space) {
  if (space == kDefaultSpace) return "default";
  if (space == kAlternateSpace) return "alternate";
  return "space" + std::to_string(space);
}

std::string_view LifetimeName(Lifetime lifetime) {
  switch (lifetime) {
    case Lifetime::kTransient: return "transient";
    case Lifetime::kExternal: return "external";
    case Lifetime::kConstant: return "constant";
    case Lifetime::kVariable: return "variable";
    case Lifetime::kStaging: return "staging";
  }
  return "transient";
}

std::optional<Lifetime> ParseLifetime(std::string_view keyword) {
  for (Lifetime l : {Lifetime::kTransient, Lifetime::kExternal, Lifetime::kConstant,
                     Lifetime::kVariable, Lifetime::kStaging}) {
    if (LifetimeName(l) == keyword) return l;
  }
  return std::nullopt;
}

bool IsReusable(Lifetime lifetime) {
  return lifetime == Lifetime::kTransient || lifetime == Lifetime::kStaging;
}

std::optional<Bytes> AlignmentLcm(Bytes a, Bytes b) {
  a = std::max<Bytes>(1, a);
  b = std::max<Bytes>(1, b);
  const Bytes factor = b / std::gcd(a, b);
  if (factor > kMaxAlignment / a) return std::nullopt;
  return a * factor;
}

}  // namespace memplan
