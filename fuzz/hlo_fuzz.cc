// Fuzz target: HLO text (docs/hlo.md) through memplan's own parser and
// importer, then the `plan` job without and with fast memory (1 MiB on the
// default target, so the memory-space copies of modules after XLA's memory
// space assignment are exercised). Oracles: bad text gets a located
// InvalidArgument from the parser and from the plan job alike; each plan
// verifies, its JSON reads back and verifies, and it executes cleanly
// (fuzz_support.h).
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "fuzz/fuzz_support.h"
#include "io/hlo/parser.h"

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  memplan::fuzz::PreferOneThread();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace memplan;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  // The file name makes the input HLO whatever its first line says.
  const std::string path = fuzz::WriteScratchFile("fuzz.hlo", text);
  absl::StatusOr<HloModule> module = ParseHloModule(text, path);
  fuzz::CheckBadInputError(module.status(), "ParseHloModule", {path});
  if (!module.ok()) return 0;
  fuzz::PlanAndCheck(path, fuzz::FuzzPlanOptions(), "plan (HLO)");
  PlanJobOptions fast = fuzz::FuzzPlanOptions();
  MsaJobOptions msa;
  msa.fast_memory_bytes = Bytes{1} << 20;
  fast.msa = msa;
  fuzz::PlanAndCheck(path, fast, "plan (HLO, 1 MiB of fast memory)");
  return 0;
}
