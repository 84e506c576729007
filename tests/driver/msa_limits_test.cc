// Outstanding-copy limits hold end to end (plan job, including the
// verifier), in both modes and with both pickers: regressions from a user
// test where the cross-program prefetch was not counted against
// --max-outstanding-prefetches and `memplan plan` ended in "the plan failed
// verification".
#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <string>

#include "driver/plan_job.h"
#include "gtest/gtest.h"
#include "tests/test_data.h"

namespace memplan {
namespace {

// Most copies of `kind` outstanding at one step ([start, done] closed).
std::int64_t MostOutstanding(const Plan& plan, CopyKind kind) {
  std::int64_t most = 0;
  for (const AsyncCopy& c : plan.copies) {
    if (c.kind != kind) continue;
    std::int64_t n = 0;
    for (const AsyncCopy& d : plan.copies) {
      if (d.kind == kind && d.start <= c.start && c.start <= d.done) ++n;
    }
    most = std::max(most, n);
  }
  return most;
}

// Plans `path` with `fast` bytes of fast memory and the given limits in both
// modes; every plan must verify and keep the limits.
void ExpectLimitsHold(const std::string& path, Bytes fast, PickerKind picker,
                      std::int64_t prefetches, std::int64_t evictions) {
  for (MsaMode mode : {MsaMode::kReference, MsaMode::kDefault}) {
    PlanJobOptions options;
    options.msa.emplace();
    options.msa->fast_memory_bytes = fast;
    options.msa->msa.mode = mode;
    options.msa->msa.picker = picker;
    options.msa->msa.max_outstanding_prefetches = prefetches;
    options.msa->msa.max_outstanding_evictions = evictions;
    const std::string what = path + (mode == MsaMode::kReference ? " reference" : " default");
    absl::StatusOr<PlanJobResult> r = RunPlanJob(path, options);
    ASSERT_TRUE(r.ok()) << what << ": " << r.status();
    EXPECT_TRUE(r->plan.verified) << what;
    if (prefetches >= 0) {
      EXPECT_LE(MostOutstanding(r->plan, CopyKind::kPrefetch), prefetches) << what;
    }
    if (evictions >= 0) {
      EXPECT_LE(MostOutstanding(r->plan, CopyKind::kEviction), evictions) << what;
    }
    const MsaStats& s = *r->plan.msa;
    EXPECT_LE(s.estimated_time_s, s.time_all_default_s) << what;
  }
}

std::string SharedOnnx(const char* name) {
  return std::string(MEMPLAN_SHARED_DIR) + "/data/onnx/zoo-light/" + name;
}

TEST(MsaLimitsTest, MlpOnePrefetchWithCrossProgramPrefetch) {
  ExpectLimitsHold(ExamplePath("mlp.mpir"), 1 << 20, PickerKind::kCostAnalysis, 1, -1);
  ExpectLimitsHold(ExamplePath("mlp.mpir"), 1 << 20, PickerKind::kInstructionCount, 1, -1);
}

TEST(MsaLimitsTest, MlpInstructionCountPickerTwoPrefetches) {
  ExpectLimitsHold(ExamplePath("mlp.mpir"), 1 << 20, PickerKind::kInstructionCount, 2, -1);
  ExpectLimitsHold(ExamplePath("mlp.mpir"), 256 << 10, PickerKind::kInstructionCount, 2, 2);
}

TEST(MsaLimitsTest, ZooInceptionAndVggInstructionCountPickerTwoPrefetches) {
  for (const char* model : {"light_inception_v1.onnx", "light_vgg19.onnx"}) {
    const std::string path = SharedOnnx(model);
    if (!std::filesystem::exists(path)) GTEST_SKIP() << path << " not present";
    for (Bytes fast : {Bytes{256} << 10, Bytes{1} << 20}) {
      ExpectLimitsHold(path, fast, PickerKind::kInstructionCount, 2, -1);
    }
  }
}

}  // namespace
}  // namespace memplan
