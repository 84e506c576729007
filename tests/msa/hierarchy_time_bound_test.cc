// The time bound over a memory hierarchy (msa/hierarchy_simulator.h,
// HierarchyTimeBound) is sound: on 200 small random programs and random
// three-level targets it is never above the best plan found by enumerating
// every residency with free copies, nor above any candidate memplan plans.
#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "fmt/format.h"
#include "gtest/gtest.h"
#include "msa/hierarchy.h"
#include "msa/hierarchy_simulator.h"
#include "msa/target_spaces.h"
#include "nlohmann/json.hpp"
#include "tests/msa/msa_test_util.h"
#include "tests/msa/random_program.h"

namespace memplan {
namespace {

using testing::Alt;
using testing::Analyze;
using testing::Analyzed;
using testing::BuffersAccessedAt;
using testing::EmptyResult;
using testing::RandomProgram;

// Three levels: a small fast one, a middle one of random size, a large
// slow one; random bandwidths, fastest first; links both ways between the
// first and each other level.
Target RandomTarget(std::mt19937& rng, Bytes total) {
  auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  const int slow = pick(1, 2) * 50;
  const int mid = slow + pick(1, 4) * 50;
  const int fast = mid + pick(0, 4) * 100;
  const Bytes fast_bytes = std::uniform_int_distribution<Bytes>(0, total)(rng);
  const Bytes mid_bytes = std::uniform_int_distribution<Bytes>(0, total)(rng);
  auto space = [&](const char* name, Bytes bytes, int bw) {
    return nlohmann::json{{"name", name}, {"capacity_bytes", bytes},
                          {"read_bandwidth", bw}, {"write_bandwidth", bw - pick(0, 1) * 25}};
  };
  nlohmann::json doc = {
      {"name", "random-3level"},
      {"flops_per_second", 1000},
      {"transcendentals_per_second", 100},
      {"spaces",
       {space("l0", fast_bytes, fast), space("l1", mid_bytes, mid), space("l2", 1 << 20, slow)}},
      {"links",
       {{{"from", "l1"}, {"to", "l0"}, {"bandwidth", 50}},
        {{"from", "l0"}, {"to", "l1"}, {"bandwidth", 50}},
        {{"from", "l2"}, {"to", "l0"}, {"bandwidth", 50}},
        {{"from", "l0"}, {"to", "l2"}, {"bandwidth", 50}}}}};
  absl::StatusOr<Target> t = HierarchyTargetFromJson(doc, doc.dump(), "random.json");
  EXPECT_TRUE(t.ok()) << t.status() << "\n" << doc.dump();
  return t.ok() ? *t : Target{};
}

// Max over steps of the bytes of the buffers homed at `space` live then.
Bytes MaxLiveIn(const Analyzed& a, const std::vector<MemorySpace>& home, MemorySpace space) {
  Bytes most = 0;
  for (TimeStep t = 0; t < a.analysis.schedule.time_steps; ++t) {
    Bytes live = 0;
    for (std::size_t b = 0; b < home.size(); ++b) {
      const Buffer& buffer = a.analysis.buffers.buffers[b];
      if (home[b] == space && buffer.start <= t && t <= buffer.end) live += buffer.size;
    }
    most = std::max(most, live);
  }
  return most;
}

// The best simulated time over every residency with free copies: every
// buffer homed in level 1 or 2 (level 1's live bytes within its capacity),
// and at each step any set of the step's buffers that fits level 0 sits
// there for that step only. Steps are independent without copies, so each
// step's best set combines into the best plan for those homes.
double BestFreeCopyTime(const Analyzed& a, const CostModel& cost, const Target& target) {
  const std::size_t n = a.analysis.buffers.buffers.size();
  const MemorySpace mid = SpaceIdOfLevel(target, 1);
  const MemorySpace slow = SpaceIdOfLevel(target, 2);
  double best = SimulateHierarchy(a.analysis, cost, target, EmptyResult(a),
                                  std::vector<MemorySpace>(n, slow))
                    .elapsed_s;
  for (std::uint32_t homes = 0; homes < (1u << n); ++homes) {
    std::vector<MemorySpace> home(n, slow);
    for (std::size_t b = 0; b < n; ++b) {
      if (homes >> b & 1) home[b] = mid;
    }
    if (MaxLiveIn(a, home, mid) > target.spaces[1].capacity_bytes) continue;
    MsaResult plan = EmptyResult(a);
    for (TimeStep t = 0; t < a.analysis.schedule.time_steps; ++t) {
      const std::vector<BufferId> accessed = BuffersAccessedAt(a, t);
      double step_best = SimulateHierarchy(a.analysis, cost, target, plan, home).elapsed_s;
      std::uint32_t best_mask = 0;
      for (std::uint32_t mask = 1; mask < (1u << accessed.size()); ++mask) {
        Bytes used = 0;
        MsaResult trial = plan;
        for (std::size_t k = 0; k < accessed.size(); ++k) {
          if (!(mask >> k & 1)) continue;
          used += a.analysis.buffers.buffers[accessed[k]].size;
          trial.alternate[accessed[k]].push_back(Alt(0, t, t));
        }
        if (used > target.spaces[0].capacity_bytes) continue;
        const double time = SimulateHierarchy(a.analysis, cost, target, trial, home).elapsed_s;
        if (time < step_best) {
          step_best = time;
          best_mask = mask;
        }
      }
      for (std::size_t k = 0; k < accessed.size(); ++k) {
        if (best_mask >> k & 1) plan.alternate[accessed[k]].push_back(Alt(0, t, t));
      }
    }
    best = std::min(best, SimulateHierarchy(a.analysis, cost, target, plan, home).elapsed_s);
  }
  return best;
}

TEST(HierarchyTimeBoundTest, NeverAboveTheBestFreeCopyPlanNorAnyCandidate) {
  std::mt19937 rng(270);
  constexpr double kSlack = 1e-9;  // the bound and the simulator sum bytes in different orders
  int candidates = 0;
  for (int round = 0; round < 200; ++round) {
    const std::string text = RandomProgram(rng, 5);
    SCOPED_TRACE(text);
    auto a = Analyze(text);
    ASSERT_NE(a, nullptr);
    Bytes total = 0;
    for (const Buffer& b : a->analysis.buffers.buffers) total += b.size;
    const Target target = RandomTarget(rng, total);
    ASSERT_EQ(target.spaces.size(), 3u);
    SCOPED_TRACE(fmt::format("capacities {} / {}", target.spaces[0].capacity_bytes,
                             target.spaces[1].capacity_bytes));
    CostModel cost(a->program, a->analysis, target);
    const double bound = HierarchyTimeBound(a->analysis, cost, target);
    // (It may lie below HierarchyTimeAllFastest: each level charges
    // max(read, write) bandwidth for every byte here.)
    EXPECT_LE(bound, BestFreeCopyTime(*a, cost, target) * (1 + kSlack));

    MsaOptions options;
    options.fast_memory_bytes = target.spaces[0].capacity_bytes;
    absl::StatusOr<std::vector<HierarchyCandidate>> planned =
        HierarchyCandidates(a->program, a->analysis, cost, target, options, 1);
    ASSERT_TRUE(planned.ok()) << planned.status();
    for (const HierarchyCandidate& c : *planned) {
      if (!c.fits) continue;
      SCOPED_TRACE(c.name);
      EXPECT_LE(bound,
                SimulateHierarchy(a->analysis, cost, target, c.fast, c.home).elapsed_s *
                    (1 + kSlack));
      ++candidates;
    }
  }
  EXPECT_GT(candidates, 200);  // most rounds plan several candidates that fit
}

}  // namespace
}  // namespace memplan
