// Fuzz target: ONNX model bytes through the importer (protobuf parse, model
// checks, shape inference in a child process, folding, aliasing), then the
// `plan` job. Oracles: bad bytes get a located InvalidArgument; the plan
// verifies and its JSON reads back and verifies.
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
      fuzz::WriteScratchFile("fuzz.onnx", std::string_view(reinterpret_cast<const char*>(data), size));
  fuzz::PlanAndCheck(path, fuzz::FuzzPlanOptions(), "plan (ONNX)");
  return 0;
}
