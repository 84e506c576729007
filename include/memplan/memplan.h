// memplan's public C++ API: build or load a program (memplan/program.h), plan
// it, verify, execute and write the plan (memplan/plan.h). Link with
// `find_package(memplan)` and `memplan::memplan`, or pkg-config `memplan`
// (docs/library.md).
#pragma once

#include "memplan/plan.h"
#include "memplan/program.h"

namespace memplan::api {

// The library's version, "MAJOR.MINOR.PATCH" (CHANGELOG.md).
const char* Version();

}  // namespace memplan::api
