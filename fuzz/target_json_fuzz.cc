// Fuzz target: a custom target JSON (msa/target.h, `--target FILE`), then
// memory space assignment with it on examples/mlp.mpir. Oracles: a bad file
// gets a located InvalidArgument; a file ResolveTarget accepts passes
// ValidateTarget; the plan verifies and its JSON reads back and verifies
// (extreme rates and sizes must not overflow the cost model or simulator).
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "fuzz/fuzz_support.h"
#include "msa/target.h"

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  memplan::fuzz::PreferOneThread();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace memplan;
  const std::string path =
      fuzz::WriteScratchFile("target.json", std::string_view(reinterpret_cast<const char*>(data), size));
  absl::StatusOr<Target> target = ResolveTarget(path);
  fuzz::CheckBadInputError(target.status(), "ResolveTarget", {path});
  if (!target.ok()) return 0;
  if (absl::Status valid = ValidateTarget(*target); !valid.ok()) {
    fuzz::Fail("ResolveTarget accepted a target that ValidateTarget refuses", valid.ToString());
  }
  PlanJobOptions options = fuzz::FuzzPlanOptions();
  MsaJobOptions msa;
  msa.target = path;
  options.msa = msa;
  fuzz::PlanAndCheck(std::string(MEMPLAN_SOURCE_DIR) + "/examples/mlp.mpir", options, "plan --target FILE");
  return 0;
}
