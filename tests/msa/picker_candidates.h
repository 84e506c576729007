// Test helper shared by the prefetch interval picker tests.
#pragma once

#include <vector>

#include "ir/units.h"
#include "msa/prefetch_picker.h"

namespace memplan::testing {

// Every prefetch start step `picker` proposes for `request`, in its order.
inline std::vector<TimeStep> Candidates(PrefetchIntervalPicker& picker,
                                        const PrefetchRequest& request) {
  std::vector<TimeStep> out;
  picker.Begin(request);
  while (!picker.Done()) out.push_back(picker.Next());
  return out;
}

}  // namespace memplan::testing
