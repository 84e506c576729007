// Fuzz target: HLO text (docs/hlo.md) through memplan's own parser and
// importer, then the `plan` job without and with fast memory (1 MiB on the
// default target, so the memory-space copies of modules after XLA's memory
// space assignment are exercised), and `plan --emit-hlo`. Oracles: bad text
// gets a located InvalidArgument from the parser and from the plan job
// alike; each plan verifies, its JSON reads back and verifies, and it
// executes cleanly (fuzz_support.h); a module written by --emit-hlo plans
// again to the same placements, copies and estimated time.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "fmt/format.h"
#include "fuzz/fuzz_support.h"
#include "io/hlo/parser.h"

namespace {

using namespace memplan;

// The first difference between two plans of one program, or "".
std::string HloPlanDifference(const Plan& a, const Plan& b) {
  if (a.placements.size() != b.placements.size()) {
    return fmt::format("{} buffers, then {}", a.placements.size(), b.placements.size());
  }
  for (std::size_t i = 0; i < a.placements.size(); ++i) {
    if (!(a.placements[i].pool == b.placements[i].pool) ||
        !(a.placements[i].allocations == b.placements[i].allocations)) {
      return fmt::format("buffer {} is placed differently", i);
    }
  }
  if (a.copies.size() != b.copies.size()) {
    return fmt::format("{} copies, then {}", a.copies.size(), b.copies.size());
  }
  for (std::size_t i = 0; i < a.copies.size(); ++i) {
    const AsyncCopy& x = a.copies[i];
    const AsyncCopy& y = b.copies[i];
    if (x.buffer != y.buffer || x.kind != y.kind || x.start != y.start || x.done != y.done ||
        x.bytes != y.bytes || x.from_space != y.from_space || x.to_space != y.to_space) {
      return fmt::format("copy {} differs", i);
    }
  }
  if (a.msa.has_value() != b.msa.has_value() ||
      (a.msa && a.msa->estimated_time_s != b.msa->estimated_time_s)) {
    return "the estimated time differs";
  }
  return "";
}

// `plan --emit-hlo` with `options`, then the written module planned again.
void CheckEmitHloRoundTrip(const std::string& path, PlanJobOptions options) {
  const std::string emitted = fuzz::WriteScratchFile("emitted.hlo", "");
  options.emit_hlo_path = emitted;
  absl::StatusOr<PlanJobResult> first = RunPlanJob(path, options);
  fuzz::CheckPlanningError(first.status(), "plan --emit-hlo", {path});
  if (!first.ok()) return;
  options.emit_hlo_path.reset();
  // --emit-hlo plans without sliced or window prefetches (it writes
  // whole-buffer copies only, driver/msa_job.cc); the re-plan must take
  // neither.
  if (options.msa) {
    options.msa->msa.sliced_prefetch.max_slices = 0;
    options.msa->msa.auto_window_prefetch = false;
  }
  absl::StatusOr<PlanJobResult> again = RunPlanJob(emitted, options);
  if (!again.ok()) fuzz::Fail("the module --emit-hlo wrote does not plan", again.status().ToString());
  const std::string difference = HloPlanDifference(first->plan, again->plan);
  if (!difference.empty()) fuzz::Fail("the module --emit-hlo wrote plans differently", difference);
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  memplan::fuzz::PreferOneThread();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
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
  CheckEmitHloRoundTrip(path, fast);
  return 0;
}
