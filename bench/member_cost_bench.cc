// Fits and checks the portfolio's cost model (packing/member_cost.h): runs
// every member of `auto` once on inputs of several shapes (synthetic
// DNN-like 10^3..10^5, dense all-live and random rows, the shared CSVs) and
// prints, per member and input, n, the overlapping pairs p, the measured
// CPU seconds, the estimated seconds (work units x 10^-9), their ratio, and the
// work the member counts as it runs (best fit and skyline, which a budget
// can stop part way), in the same seconds.
// Members whose estimate is over 20 s are not run.
//
// Usage: build/bench/member_cost_bench [--quick] [FILE.csv ...]   (release
// build); the CSV files (e.g. bench/trace_families.py's) are read as well.
#include <ctime>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <limits>
#include <string>
#include <vector>

#include "bench/shared_data.h"
#include "bench/synthetic.h"
#include "io/csv/reader.h"
#include "packing/best_fit.h"
#include "packing/live_profile.h"
#include "packing/member_cost.h"
#include "packing/pack_support.h"
#include "packing/packer.h"
#include "packing/skyline.h"

namespace memplan {
namespace {

struct Input {
  std::string name;
  std::vector<PackItem> items;
};

std::vector<Input> Inputs(bool quick, const std::vector<std::string>& csvs) {
  std::vector<Input> inputs;
  for (std::int64_t n : {1000, 10000, 100000}) {
    if (quick && n > 10000) break;
    inputs.push_back({"synthetic-" + std::to_string(n), SyntheticItems({.n = n, .seed = 1})});
  }
  inputs.push_back({"all-live-3000", AllLiveItems(3000, 1)});
  inputs.push_back({"all-live-10000", AllLiveItems(10000, 1)});
  inputs.push_back({"random-rows-10000", RandomRowItems(10000, 1)});
  if (!quick) inputs.push_back({"random-rows-30000", RandomRowItems(30000, 1)});
  for (const auto& file : SharedLifetimeCsvs()) {
    absl::StatusOr<BufferSet> buffers = ReadLifetimeCsvFile(file.string());
    if (buffers.ok()) inputs.push_back({file.filename().string(), PackItemsOf(*buffers)});
  }
  for (const std::string& csv : csvs) {
    absl::StatusOr<BufferSet> buffers = ReadLifetimeCsvFile(csv);
    if (!buffers.ok()) {
      std::fprintf(stderr, "%s\n", std::string(buffers.status().message()).c_str());
      std::exit(2);
    }
    inputs.push_back({std::filesystem::path(csv).filename().string(), PackItemsOf(*buffers)});
  }
  return inputs;
}

// CPU seconds of this process: a member's time that other jobs on the
// machine barely change (wall time under load doubled some rows).
double CpuSeconds() {
  timespec t{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}

// The work a member counts (best fit and skyline count; others: 0).
double CountedWork(const std::vector<PackItem>& items, PackingAlgorithm member) {
  const double unlimited = std::numeric_limits<double>::infinity();
  double work = 0;
  switch (member) {
    case PackingAlgorithm::kBestFitSpatial:
      BestFitInOrderWithin(items, SortForBestFit(items, BestFitOrder::kSpatial), 1, unlimited, &work);
      break;
    case PackingAlgorithm::kBestFitTemporal:
      BestFitInOrderWithin(items, SortForBestFit(items, BestFitOrder::kTemporal), 1, unlimited, &work);
      break;
    case PackingAlgorithm::kBestFitBusiest:
      BestFitInOrderWithin(items, SortForBestFit(items, BestFitOrder::kBusiest), 1, unlimited, &work);
      break;
    case PackingAlgorithm::kBestFitStartTime:
      BestFitInOrderWithin(items, SortForBestFit(items, BestFitOrder::kStartTime), 1, unlimited, &work);
      break;
    case PackingAlgorithm::kSkylineLongest:
    case PackingAlgorithm::kSkylineArea:
    case PackingAlgorithm::kSkylineCrowded: {
      const SkylineOrder order = member == PackingAlgorithm::kSkylineLongest ? SkylineOrder::kLongestFirst
                                 : member == PackingAlgorithm::kSkylineArea  ? SkylineOrder::kLargestArea
                                                                             : SkylineOrder::kCrowdedFirst;
      const SkylinePacker packer(items, 1);
      packer.RunWithin(SortForSkyline(items, order), std::numeric_limits<Bytes>::max(), unlimited,
                       &work);
      break;
    }
    default:
      break;
  }
  return work;
}

int Main(bool quick, const std::vector<std::string>& csvs) {
  const PackingAlgorithm members[] = {
      PackingAlgorithm::kOnlineBestFit,  PackingAlgorithm::kBestFitSpatial,
      PackingAlgorithm::kBestFitTemporal, PackingAlgorithm::kBestFitBusiest,
      PackingAlgorithm::kBestFitStartTime, PackingAlgorithm::kInOrder,
      PackingAlgorithm::kSkylineLongest,  PackingAlgorithm::kSkylineArea,
      PackingAlgorithm::kSkylineCrowded};
  std::printf("%-24s %-20s %9s %12s %10s %10s %6s %10s\n", "input", "member", "n", "pairs",
              "measured", "estimate", "ratio", "counted");
  for (const Input& input : Inputs(quick, csvs)) {
    const InputShape shape = ShapeOf(input.items);
    for (PackingAlgorithm member : members) {
      const double estimate = EstimatedWork(member, shape) * 1e-9;
      if (estimate > 20) continue;
      const double begin = CpuSeconds();
      const PackResult result = Pack(input.items, member, PackOptions{});
      const double seconds = CpuSeconds() - begin;
      std::printf("%-24s %-20s %9lld %12lld %10.4f %10.4f %6.2f %10.4f  peak/lb %.4f\n",
                  input.name.c_str(), result.algorithm.c_str(),
                  static_cast<long long>(shape.items), static_cast<long long>(shape.pairs), seconds,
                  estimate, seconds / estimate, CountedWork(input.items, member) * 1e-9,
                  result.lower_bound > 0 ? static_cast<double>(result.peak) / result.lower_bound : 1.0);
    }
  }
  return 0;
}

}  // namespace
}  // namespace memplan

int main(int argc, char** argv) {
  bool quick = false;
  std::vector<std::string> csvs;
  for (int k = 1; k < argc; ++k) {
    if (std::strcmp(argv[k], "--quick") == 0) {
      quick = true;
    } else {
      csvs.emplace_back(argv[k]);
    }
  }
  return memplan::Main(quick, csvs);
}
