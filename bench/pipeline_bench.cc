// End-to-end planning benchmarks: the work of `memplan plan` after loading —
// analysis (alias sets, flattened schedule, live ranges), pools by lifetime
// with the portfolio packer at --effort fast and default, and the independent
// verifier — on
// synthetic programs of 10^3..10^6 ops (bench/synthetic.h), and on every
// lifetime CSV of MEMPLAN_SHARED_DIR/data (packing + verification).
// Counters: buffers, peak_over_lb (transient peak / max-live lower bound).
#include <benchmark/benchmark.h>

#include <filesystem>
#include <string>
#include <vector>

#include "analysis/analyze.h"
#include "bench/shared_data.h"
#include "bench/synthetic.h"
#include "driver/plan_job.h"
#include "driver/pools.h"
#include "io/csv/reader.h"

namespace memplan {
namespace {

void Report(benchmark::State& state, const BufferSet& buffers, const Plan& plan) {
  state.counters["buffers"] = static_cast<double>(buffers.buffers.size());
  state.counters["peak_over_lb"] =
      plan.lower_bound > 0 ? static_cast<double>(plan.peak) / static_cast<double>(plan.lower_bound)
                           : 1.0;
  state.SetLabel(plan.algorithm);
}

// Analysis + packing + verification, as `memplan plan` runs them; the second
// argument is auto's effort (0 fast, 1 default, 2 max).
void BM_PlanSyntheticProgram(benchmark::State& state) {
  SyntheticOptions options;
  options.n = state.range(0);
  PoolPlanOptions pools;
  pools.effort = state.range(1) == 0   ? PackEffort::kFast
                 : state.range(1) == 1 ? PackEffort::kDefault
                                       : PackEffort::kMax;
  const Program program = SyntheticProgram(options);
  Plan plan;
  BufferSet buffers;
  for (auto _ : state) {
    absl::StatusOr<ProgramAnalysis> analysis = AnalyzeProgram(program);
    if (!analysis.ok()) {
      state.SkipWithError(std::string(analysis.status().message()).c_str());
      return;
    }
    absl::StatusOr<Plan> planned = PlanPools(analysis->buffers, pools);
    if (!planned.ok() || !VerifyAgainst(analysis->buffers, *planned).ok()) {
      state.SkipWithError("planning or verification failed");
      return;
    }
    plan = *std::move(planned);
    buffers = std::move(analysis->buffers);
  }
  Report(state, buffers, plan);
}
BENCHMARK(BM_PlanSyntheticProgram)
    ->ArgsProduct({{1000, 10000, 100000, 1000000}, {0, 1}})
    ->ArgNames({"ops", "effort"})
    ->MeasureProcessCPUTime()  // both packing lanes, not the main thread only
    ->Unit(benchmark::kMillisecond);

void RegisterSharedCsvs() {
  const std::vector<std::filesystem::path> files = SharedLifetimeCsvs();
  for (const auto& path : files) {
    absl::StatusOr<BufferSet> buffers = ReadLifetimeCsvFile(path.string());
    if (!buffers.ok()) continue;
    benchmark::RegisterBenchmark(
        ("BM_PlanCsv/" + path.parent_path().filename().string() + "/" + path.filename().string())
            .c_str(),
        [set = *buffers](benchmark::State& state) {
          Plan plan;
          for (auto _ : state) {
            absl::StatusOr<Plan> planned = PlanPools(set, {});
            if (!planned.ok() || !VerifyAgainst(set, *planned).ok()) {
              state.SkipWithError("planning or verification failed");
              return;
            }
            plan = *std::move(planned);
          }
          Report(state, set, plan);
        })
        ->Unit(benchmark::kMillisecond);
  }
}

}  // namespace
}  // namespace memplan

int main(int argc, char** argv) {
  memplan::RegisterSharedCsvs();
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
