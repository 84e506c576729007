// Packing benchmarks: every algorithm on synthetic DNN-like inputs
// (bench/synthetic.h) of 10^3..10^6 items, and on every CSV under
// MEMPLAN_SHARED_DIR/data (minimalloc, traces) when present. Counters: items,
// peak_over_lb (peak / max-live lower bound).
#include <benchmark/benchmark.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "bench/synthetic.h"
#include "packing/packer.h"

namespace memplan {
namespace {

// Reads an `id,lower,upper,size` CSV with half-open [lower, upper) ranges into
// closed-range items; empty on any malformed line.
std::vector<PackItem> ReadIntervalCsv(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::string line;
  std::getline(in, line);  // header
  std::vector<PackItem> items;
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    std::stringstream fields(line);
    std::string id, lower, upper, size;
    if (!std::getline(fields, id, ',') || !std::getline(fields, lower, ',') ||
        !std::getline(fields, upper, ',') || !std::getline(fields, size, ',')) {
      return {};
    }
    PackItem item;
    item.start = std::stoll(lower);
    item.end = std::stoll(upper) - 1;
    item.size = std::stoll(size);
    items.push_back(item);
  }
  return items;
}

void RunPack(benchmark::State& state, const std::vector<PackItem>& items,
             PackingAlgorithm algorithm) {
  PackResult result;
  for (auto _ : state) {
    result = Pack(items, algorithm);
    benchmark::DoNotOptimize(result.peak);
  }
  const Bytes lb = MaxLiveBytes(items);
  state.counters["items"] = static_cast<double>(items.size());
  state.counters["peak_over_lb"] = lb > 0 ? static_cast<double>(result.peak) / lb : 1.0;
  state.SetLabel(result.algorithm);
}

void RegisterSynthetic() {
  for (std::int64_t n : {1000, 10000, 100000, 1000000}) {
    for (PackingAlgorithm algorithm : AllPackingAlgorithms()) {
      if (n == 1000000 && algorithm != PackingAlgorithm::kAuto &&
          algorithm != PackingAlgorithm::kBestFitSpatial) {
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

void RegisterCsvFiles() {
  const std::filesystem::path data = std::filesystem::path(MEMPLAN_SHARED_DIR) / "data";
  std::vector<std::filesystem::path> files;
  for (const char* folder : {"minimalloc", "traces"}) {
    std::error_code error;
    for (const auto& entry : std::filesystem::directory_iterator(data / folder, error)) {
      if (entry.path().extension() == ".csv") files.push_back(entry.path());
    }
  }
  std::sort(files.begin(), files.end());
  for (const auto& file : files) {
    for (PackingAlgorithm algorithm : AllPackingAlgorithms()) {
      const std::string name = "Pack/" + std::string(PackingAlgorithmName(algorithm)) + "/" +
                               file.parent_path().filename().string() + "/" +
                               file.filename().string();
      benchmark::RegisterBenchmark(name.c_str(), [file, algorithm](benchmark::State& state) {
        const std::vector<PackItem> items = ReadIntervalCsv(file);
        RunPack(state, items, algorithm);
      })->Unit(benchmark::kMillisecond);
    }
  }
}

}  // namespace
}  // namespace memplan

int main(int argc, char** argv) {
  memplan::RegisterSynthetic();
  memplan::RegisterCsvFiles();
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
