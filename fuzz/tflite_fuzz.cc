// Fuzz target: TFLite flatbuffer bytes through the parser, the offline-plan
// metadata reader and the importer, then the `plan` job (with
// --offline-plan when the first byte is odd). Oracles: bad bytes get a
// located InvalidArgument; the plan verifies and its JSON reads back and
// verifies.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "fuzz/fuzz_support.h"

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  memplan::fuzz::PreferOneThread();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace memplan;
  const std::string path =
      fuzz::WriteScratchFile("fuzz.tflite", std::string_view(reinterpret_cast<const char*>(data), size));
  PlanJobOptions options = fuzz::FuzzPlanOptions();
  fuzz::PlanAndCheck(path, options, "plan (TFLite)");
  options.load.offline_plan = true;
  fuzz::PlanAndCheck(path, options, "plan --offline-plan (TFLite)");
  return 0;
}
