// Fuzz target: the MiniMalloc lifetime CSV reader, then the `plan` job with
// the default packer (the kAuto portfolio). Oracles: bad rows get a located
// InvalidArgument; the plan verifies and its JSON reads back and verifies.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "fuzz/fuzz_support.h"
#include "io/csv/reader.h"

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  memplan::fuzz::PreferOneThread();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace memplan;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  absl::StatusOr<BufferSet> buffers = ReadLifetimeCsv(text, "fuzz.csv");
  fuzz::CheckBadInputError(buffers.status(), "ReadLifetimeCsv", {"fuzz.csv"});
  if (!buffers.ok()) return 0;
  const std::string path = fuzz::WriteScratchFile("fuzz.csv", text);
  fuzz::PlanAndCheck(path, fuzz::FuzzPlanOptions(), "plan (CSV)");
  return 0;
}
