// A Buffer for hand-built verifier inputs.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "ir/buffer_set.h"

namespace memplan::testing_verify {

// `size` bytes live during [start, end], read at `uses` (sorted time steps).
inline Buffer MakeBuffer(std::string name, Bytes size, TimeStep start, TimeStep end,
                         std::vector<TimeStep> uses = {}) {
  Buffer b;
  b.name = std::move(name);
  b.size = size;
  b.start = start;
  b.end = end;
  b.mutable_use_times() = std::move(uses);
  return b;
}

}  // namespace memplan::testing_verify
