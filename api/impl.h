// What the public API's handles hold (include/memplan/): the internal loaded
// input and plan. Internal to the library; never installed.
#pragma once

#include <string>

#include "driver/input.h"
#include "ir/plan.h"
#include "ir/units.h"
#include "memplan/plan.h"
#include "memplan/program.h"

namespace memplan::api {

struct Program::Impl {
  LoadedInput input;
  memplan::LoadOptions load;  // how it was loaded (LoadFile), for the plan's input_options
};

struct Result::Impl {
  memplan::Plan plan;  // verified
  std::string summary;
  std::string json;
};

memplan::Lifetime InternalLifetime(Lifetime lifetime);
Lifetime PublicLifetime(memplan::Lifetime lifetime);

}  // namespace memplan::api
