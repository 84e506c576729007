// Plans are byte-identical for any thread count (the packing portfolio's
// lanes and local search, memory space assignment's variants): the JSON plan
// with MEMPLAN_THREADS=1, 2 and unset (the default) must not differ. Runs
// under ThreadSanitizer in `make check-tsan` (label threads).
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <unistd.h>

#include <gtest/gtest.h>

#include "driver/plan_job.h"
#include "tests/test_data.h"

namespace memplan {
namespace {

// A dense lifetime CSV: `n` buffers of 1..4096 bytes over 200 steps, from a
// fixed linear congruential sequence, so the portfolio's members disagree
// and the winner is decided by the tie-breaks.
std::string DenseCsvPath(int n) {
  const std::string path = (std::filesystem::temp_directory_path() /
                            ("memplan-dense-" + std::to_string(getpid()) + ".csv")).string();
  std::ofstream out(path);
  out << "id,lower,upper,size\n";
  std::uint64_t x = 12345;
  const auto next = [&x](std::uint64_t m) {
    x = x * 6364136223846793005ULL + 1442695040888963407ULL;
    return (x >> 33) % m;
  };
  for (int i = 0; i < n; ++i) {
    const std::uint64_t lower = next(190);
    out << "b" << i << "," << lower << "," << lower + 1 + next(10) << "," << 1 + next(4096) << "\n";
  }
  return path;
}

// The JSON plan of `path` with MEMPLAN_THREADS set to `threads` (nullopt:
// unset).
std::string PlanJson(const std::string& path, PlanJobOptions options, std::optional<const char*> threads) {
  if (threads) {
    setenv("MEMPLAN_THREADS", *threads, 1);
  } else {
    unsetenv("MEMPLAN_THREADS");
  }
  options.json_path = std::string(kStdoutPath);
  absl::StatusOr<PlanJobResult> result = RunPlanJob(path, options);
  unsetenv("MEMPLAN_THREADS");
  EXPECT_TRUE(result.ok()) << result.status();
  return result.ok() ? *result->json_stdout : "";
}

void ExpectSameForAnyThreads(const std::string& path, const PlanJobOptions& options) {
  const std::string one = PlanJson(path, options, "1");
  ASSERT_FALSE(one.empty());
  EXPECT_EQ(PlanJson(path, options, "2"), one) << path << ": 2 threads differ from 1";
  EXPECT_EQ(PlanJson(path, options, "3"), one) << path << ": 3 threads differ from 1";
  EXPECT_EQ(PlanJson(path, options, std::nullopt), one) << path << ": the default differs from 1 thread";
}

TEST(ThreadDeterminismTest, AutoOnADenseCsv) {
  const std::string path = DenseCsvPath(600);
  PlanJobOptions options;  // kAuto, default effort: every lane and the local search
  ExpectSameForAnyThreads(path, options);
  std::filesystem::remove(path);
}

TEST(ThreadDeterminismTest, AutoAtMaxEffort) {
  const std::string path = DenseCsvPath(200);
  PlanJobOptions options;
  options.pools.effort = PackEffort::kMax;
  ExpectSameForAnyThreads(path, options);
  std::filesystem::remove(path);
}

TEST(ThreadDeterminismTest, ModelWithFastMemory) {
  PlanJobOptions options;
  options.measure_aliasing = false;
  MsaJobOptions msa;  // default mode: the allocator variants run on the threads
  msa.fast_memory_bytes = 256 * 1024;
  options.msa = msa;
  ExpectSameForAnyThreads(ExamplePath("mobilenet_v2.onnx"), options);
  ExpectSameForAnyThreads(ExamplePath("rnn_loop.mpir"), options);
}

}  // namespace
}  // namespace memplan
