// Fuzz target: `memplan verify` — a plan JSON read back (ReadPlanJson) and
// checked (VerifySavedPlan) against one of a few fixed inputs: a program
// with a conditional, one with fast memory, one with execution regions, one
// with gathers, and a lifetime CSV. The first byte picks the input, the rest
// is the JSON. Oracles: malformed JSON or a wrong schema gets a located
// InvalidArgument; a plan either verifies or is refused with
// FailedPrecondition, never anything else; and a plan `verify` accepts runs
// under `memplan execute` without a clobber (two independent checks agree).
//
// MEMPLAN_FUZZ_WRITE_SEEDS=DIR: write each input's own plan to DIR as a seed
// (fuzz/corpus/plan_json/ was made so).
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <string_view>
#include <vector>

#include "driver/recorded_machine.h"
#include "fuzz/fuzz_support.h"
#include "report/plan_json.h"

namespace {

struct VerifyInput {
  const char* file;  // under the source tree
  bool fast_memory;
};

constexpr VerifyInput kInputs[] = {
    {"examples/conditional.mpir", false}, {"examples/mlp.mpir", true},
    {"examples/region_ops.mpir", false},  {"tests/data/csv/compare_peers.csv", false},
    {"examples/concat_views.mpir", false}, {"tests/data/mpir/evict_then_prefetch.mpir", true},
};

std::vector<memplan::LoadedInput>& Loaded() {
  static std::vector<memplan::LoadedInput> loaded;
  return loaded;
}

memplan::PlanJobOptions SeedOptions(const VerifyInput& input) {
  memplan::PlanJobOptions options = memplan::fuzz::FuzzPlanOptions();
  if (input.fast_memory) {
    memplan::MsaJobOptions msa;
    msa.fast_memory_bytes = 1024;
    options.msa = msa;
  }
  return options;
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  using namespace memplan;
  fuzz::PreferOneThread();
  const char* seeds = std::getenv("MEMPLAN_FUZZ_WRITE_SEEDS");
  for (std::size_t i = 0; i < std::size(kInputs); ++i) {
    const std::string path = std::string(MEMPLAN_SOURCE_DIR) + "/" + kInputs[i].file;
    absl::StatusOr<LoadedInput> input = LoadInput(path, LoadOptions{});
    if (!input.ok()) fuzz::Fail("cannot load a verify input", input.status().ToString());
    Loaded().push_back(*std::move(input));
    if (seeds == nullptr) continue;
    absl::StatusOr<PlanJobResult> plan = RunPlanJob(path, SeedOptions(kInputs[i]));
    if (!plan.ok()) fuzz::Fail("cannot plan a verify input", plan.status().ToString());
    std::ofstream out(std::string(seeds) + "/" + std::to_string(i) + ".json", std::ios::binary);
    out << static_cast<char>(i) << *plan->json_stdout;
  }
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace memplan;
  if (size == 0) return 0;
  const LoadedInput& input = Loaded()[data[0] % Loaded().size()];
  const std::string_view text(reinterpret_cast<const char*>(data + 1), size - 1);
  const Program* program = input.program ? &*input.program : nullptr;
  absl::StatusOr<Plan> plan = ReadPlanJson(text, "fuzz.plan.json", input.buffers, "", program);
  fuzz::CheckBadInputError(plan.status(), "ReadPlanJson", {"fuzz.plan.json"});
  if (!plan.ok()) return 0;
  absl::StatusOr<std::optional<RecordedMachine>> machine = ReadRecordedMachine(text, "fuzz.plan.json");
  fuzz::CheckBadInputError(machine.status(), "ReadRecordedMachine", {"fuzz.plan.json"});
  if (!machine.ok()) return 0;
  const absl::Status verified = VerifySavedPlan(input, *plan, *machine);
  if (!verified.ok() && verified.code() != absl::StatusCode::kFailedPrecondition &&
      verified.code() != absl::StatusCode::kInvalidArgument) {
    fuzz::Fail("VerifySavedPlan: neither verified nor refused", verified.ToString());
  }
  if (!verified.ok()) return 0;
  fuzz::CheckExecutes(input, *plan, "a plan memplan verify accepts");
  return 0;
}
