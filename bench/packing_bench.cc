// Packing benchmarks: every algorithm on synthetic DNN-like inputs
// (bench/synthetic.h) of 10^3..10^6 items, auto and online best fit on dense
// inputs (10^4 and 10^5 items all live at once, 10^5 random rows: what
// portfolio.h's pair budget is for), and every algorithm on every CSV under
// MEMPLAN_SHARED_DIR/data (minimalloc, traces) when present. Counters: items,
// pairs (intersecting pairs), peak_over_lb (peak / max-live lower bound).
#include <benchmark/benchmark.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "bench/shared_data.h"
#include "bench/synthetic.h"
#include "io/csv/reader.h"
#include "packing/live_profile.h"
#include "packing/packer.h"

namespace memplan {
namespace {

void RunPack(benchmark::State& state, const std::vector<PackItem>& items,
             PackingAlgorithm algorithm) {
  PackResult result;
  for (auto _ : state) {
    result = Pack(items, algorithm);
    benchmark::DoNotOptimize(result.peak);
  }
  const Bytes lb = MaxLiveBytes(items);
  state.counters["items"] = static_cast<double>(items.size());
  state.counters["pairs"] = static_cast<double>(IntersectingPairs(items));
  state.counters["peak_over_lb"] = lb > 0 ? static_cast<double>(result.peak) / lb : 1.0;
  state.SetLabel(result.algorithm);
}

void RegisterSynthetic() {
  for (std::int64_t n : {1000, 10000, 100000, 1000000}) {
    for (PackingAlgorithm algorithm : AllPackingAlgorithms()) {
      // At 10^6 items only auto, the large-input members (skyline-area is
      // --effort fast's) and online best fit.
      const std::vector<PackingAlgorithm> at_million = {
          PackingAlgorithm::kAuto,           PackingAlgorithm::kBestFitSpatial,
          PackingAlgorithm::kSkylineLongest, PackingAlgorithm::kSkylineArea,
          PackingAlgorithm::kBestFitStartTime, PackingAlgorithm::kOnlineBestFit};
      if (n == 1000000 &&
          std::find(at_million.begin(), at_million.end(), algorithm) == at_million.end()) {
        continue;
      }
      const std::string name = "Pack/" + std::string(PackingAlgorithmName(algorithm)) +
                               "/synthetic/" + std::to_string(n);
      benchmark::RegisterBenchmark(name.c_str(), [n, algorithm](benchmark::State& state) {
        const std::vector<PackItem> items = SyntheticItems({.n = n, .seed = 1});
        RunPack(state, items, algorithm);
      })->Unit(benchmark::kMillisecond);
    }
  }
}

void RegisterDense() {
  struct Case {
    const char* name;
    std::int64_t n;
    std::vector<PackItem> (*make)(std::int64_t, std::uint64_t);
  };
  for (const Case& c : {Case{"all-live", 10'000, AllLiveItems},
                        Case{"all-live", 100'000, AllLiveItems},
                        Case{"random-rows", 100'000, RandomRowItems}}) {
    for (PackingAlgorithm algorithm : {PackingAlgorithm::kAuto, PackingAlgorithm::kOnlineBestFit}) {
      const std::string name = "Pack/" + std::string(PackingAlgorithmName(algorithm)) + "/" +
                               c.name + "/" + std::to_string(c.n);
      benchmark::RegisterBenchmark(name.c_str(), [c, algorithm](benchmark::State& state) {
        RunPack(state, c.make(c.n, 1), algorithm);
      })->Unit(benchmark::kMillisecond);
    }
  }
}

void RegisterCsvFiles() {
  const std::vector<std::filesystem::path> files = SharedLifetimeCsvs();
  for (const auto& file : files) {
    for (PackingAlgorithm algorithm : AllPackingAlgorithms()) {
      const std::string name = "Pack/" + std::string(PackingAlgorithmName(algorithm)) + "/" +
                               file.parent_path().filename().string() + "/" +
                               file.filename().string();
      benchmark::RegisterBenchmark(name.c_str(), [file, algorithm](benchmark::State& state) {
        absl::StatusOr<BufferSet> buffers = ReadLifetimeCsvFile(file.string());
        if (!buffers.ok()) {
          state.SkipWithError(std::string(buffers.status().message()).c_str());
          return;
        }
        RunPack(state, PackItemsOf(*buffers), algorithm);
      })->Unit(benchmark::kMillisecond);
    }
  }
}

}  // namespace
}  // namespace memplan

int main(int argc, char** argv) {
  memplan::RegisterSynthetic();
  memplan::RegisterDense();
  memplan::RegisterCsvFiles();
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
