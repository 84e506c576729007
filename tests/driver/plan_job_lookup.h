// Finding buffers of a plan job's result by name, for driver tests.
#pragma once

#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "driver/plan_job.h"

namespace memplan {

// The id of the buffer called `name` in `r`'s input; records a test failure
// and returns kNoId when there is none.
inline BufferId Find(const PlanJobResult& r, const std::string& name) {
  const std::vector<Buffer>& buffers = r.input.buffers.buffers;
  for (BufferId id = 0; id < static_cast<BufferId>(buffers.size()); ++id) {
    if (buffers[id].name == name) return id;
  }
  ADD_FAILURE() << "no buffer " << name;
  return kNoId;
}

}  // namespace memplan
