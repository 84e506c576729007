// A Buffer for hand-built buffer sets in tests of any layer.
#pragma once

#include <string>
#include <utility>

#include "ir/buffer_set.h"

namespace memplan {

// `size` bytes live during [start, end] with `lifetime`.
inline Buffer Make(std::string name, Bytes size, TimeStep start, TimeStep end,
                   Lifetime lifetime = Lifetime::kTransient) {
  Buffer b;
  b.name = std::move(name);
  b.size = size;
  b.start = start;
  b.end = end;
  b.lifetime = lifetime;
  return b;
}

}  // namespace memplan
