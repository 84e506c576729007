#include "packing/portfolio.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <limits>
#include <optional>
#include <string>
#include <utility>

#include "fmt/format.h"
#include "ir/plural.h"
#include "packing/baselines.h"
#include "packing/best_fit.h"
#include "packing/deadline.h"
#include "packing/exact_member.h"
#include "packing/live_profile.h"
#include "packing/local_search.h"
#include "packing/member_cost.h"
#include "packing/online_best_fit.h"
#include "packing/pack_support.h"
#include "packing/parallel_tasks.h"
#include "packing/skyline.h"
#include "packing/window_search.h"

namespace memplan {
namespace {

using Clock = PackClock;

// The members in the tie-break order (portfolio.h).
constexpr PackingAlgorithm kByRank[] = {
    PackingAlgorithm::kBestFitSpatial,  PackingAlgorithm::kBestFitTemporal,
    PackingAlgorithm::kBestFitBusiest,  PackingAlgorithm::kBestFitStartTime,
    PackingAlgorithm::kInOrder,         PackingAlgorithm::kSkylineLongest,
    PackingAlgorithm::kSkylineArea,     PackingAlgorithm::kSkylineCrowded,
    PackingAlgorithm::kOnlineBestFit};
constexpr int kSearchRank = static_cast<int>(std::size(kByRank));
// The exact member wins only below every other member's peak.
constexpr int kExactRank = kSearchRank + 1;
// Members started under a cap (PlanLanes' second step) come after all
// others in the tie-break, in their own order: they win only below every
// member that fitted its lane, so once some member reaches the lower bound
// none of them can win and none need start.
constexpr int kCappedRank = kExactRank + 1;

// The skyline members' orders.
std::optional<SkylineOrder> SkylineOrderOf(PackingAlgorithm member) {
  switch (member) {
    case PackingAlgorithm::kSkylineLongest:
      return SkylineOrder::kLongestFirst;
    case PackingAlgorithm::kSkylineArea:
      return SkylineOrder::kLargestArea;
    case PackingAlgorithm::kSkylineCrowded:
      return SkylineOrder::kCrowdedFirst;
    default:
      return std::nullopt;
  }
}

int PortfolioRank(PackingAlgorithm member) {
  return static_cast<int>(std::find(std::begin(kByRank), std::end(kByRank), member) -
                          std::begin(kByRank));
}

// Expected gain of a member, relative: how often it wins or comes within
// 0.1 % of the winner on the inputs of docs/packing.md (skyline-area most:
// on the large inputs, where only one or two members fit the budget, it is
// far ahead of spatial best fit (PanGu 0.76 % over the bound against 3.3 %,
// the synthetic 10^5-10^6 programs 0.4 % against 5-15 %); spatial best fit
// next; skyline-longest often, but its stale-floor work varies most with
// the input (0.03 to 0.6 refreshes per overlapping pair); in-order, IREE's
// input order, least).
double MemberGain(PackingAlgorithm member) {
  switch (member) {
    case PackingAlgorithm::kSkylineArea:
      return 1.3;
    case PackingAlgorithm::kSkylineCrowded:
      return 1.2;
    case PackingAlgorithm::kBestFitSpatial:
      return 1.0;
    case PackingAlgorithm::kSkylineLongest:
      return 0.7;
    case PackingAlgorithm::kBestFitBusiest:
      return 0.6;
    case PackingAlgorithm::kBestFitStartTime:
    case PackingAlgorithm::kBestFitTemporal:
      return 0.5;
    default:
      return 0.3;
  }
}

// The report of a member that did not run or did not finish; `quotes_work`:
// the reason gives work in estimated seconds (WorkSeconds).
PackMemberReport SkippedMember(std::string name, std::string reason, bool quotes_work = false) {
  PackMemberReport member;
  member.name = std::move(name);
  member.reason = std::move(reason);
  member.quotes_work = quotes_work;
  return member;
}

// The reason of a search member --time-limit cut: it keeps the best packing
// it found, so it is listed as ran, with how much of its work it did.
std::string SearchCutReason(double work, double allowed) {
  return fmt::format("cut by --time-limit after {} of its {} of work; its best packing so far "
                     "counts (raise --time-limit)",
                     WorkSeconds(work), WorkSeconds(allowed));
}

double SecondsSince(Clock::time_point begin) {
  return std::chrono::duration<double>(Clock::now() - begin).count();
}

// Members run in two lanes of half the member budget each, whatever the
// thread count (one thread runs lane 0, then lane 1).
constexpr int kLanes = 2;
// A member may count up to this many times its estimate (the estimates are
// within 0.5-2x of the measured work, docs/packing.md), never more than
// what its lane has left; the lane is charged its estimate (all that is
// left for a member that does not fit), so the allowances do not depend on
// timing and the counts of a lane add up to about its budget when the
// estimates are right, and never to more than twice it.
constexpr double kAllowanceFactor = 2.0;

// One admitted member's run.
struct MemberRun {
  PackingAlgorithm member = PackingAlgorithm::kOnlineBestFit;
  int lane = 0;
  double estimate = 0;                  // EstimatedWork
  std::optional<PackResult> result;     // unset: not run, or stopped (see below)
  std::vector<std::int32_t> priority;   // skyline members: their priority list
  bool admitted = false;                // it starts (PlanLanes): its lane had work left
  bool capped = false;                  // admitted although its estimate did not fit
  bool started = false;                 // false: cut before it began
  bool hit_deadline = false;            // --time-limit passed before it began
  bool cut_by_deadline = false;         // --time-limit passed while it ran
  double left = 0;                      // work left in its lane when its turn came
  double allowance = 0;                 // work it may count: min(left, 2 x estimate)
  double work = 0;                      // work it counted (online-best-fit: none)
  // Best fit and in-order: the highest top they had placed when they ended
  // (their peak when they finish).
  Bytes top = 0;
  double seconds = 0;
};

// The members that stop once their own packing rises above a bound some
// member has reached (MootWhen::RoseAbove): those that poll with their top.
bool StopsAboveTheBound(PackingAlgorithm member) {
  switch (member) {
    case PackingAlgorithm::kBestFitSpatial:
    case PackingAlgorithm::kBestFitTemporal:
    case PackingAlgorithm::kBestFitBusiest:
    case PackingAlgorithm::kBestFitStartTime:
    case PackingAlgorithm::kInOrder:
      return true;
    default:
      return false;
  }
}

using SkylineRuns = std::array<const MemberRun*, 3>;  // by SkylineOrder; all ran

SkylineStart StartOf(const MemberRun& run) {
  return {run.priority, run.result->offsets, run.result->peak};
}

// The local search's starts from the skyline members' runs, as
// BestSkylineStarts (local_search.h) would pack them.
SearchStarts SearchStartsOf(const SkylineRuns& runs) {
  const MemberRun& longest = *runs[static_cast<std::size_t>(SkylineOrder::kLongestFirst)];
  const MemberRun& area = *runs[static_cast<std::size_t>(SkylineOrder::kLargestArea)];
  const MemberRun& crowded = *runs[static_cast<std::size_t>(SkylineOrder::kCrowdedFirst)];
  return StartsFrom(StartOf(longest), StartOf(area), StartOf(crowded));
}

// The lowest skyline run (the earlier order on ties), as BestSkylineStart.
const MemberRun* LowestSkyline(const SkylineRuns& runs) {
  const MemberRun* lowest = nullptr;
  for (const MemberRun* run : runs) {
    if (run && (!lowest || run->result->peak < lowest->result->peak)) lowest = run;
  }
  return lowest;
}

// The admission step (portfolio.h, 1.): online-best-fit, then the other
// members by expected gain per estimated work; under kFast those whose
// estimate is neither near n log n nor negligible go to `report` as
// skipped, and the rest go by expected gain alone (all are cheap; at 10^6
// items skyline-area's estimate is about twice best-fit-spatial's, its peak
// 5 % lower).
std::vector<PackingAlgorithm> AdmitMembers(const InputShape& shape, const EffortBudget& budget,
                                           PackReport& report) {
  std::vector<PackingAlgorithm> candidates;
  for (PackingAlgorithm member : kByRank) {
    if (member != PackingAlgorithm::kOnlineBestFit) candidates.push_back(member);
  }
  std::vector<double> value(std::size(kByRank));
  for (PackingAlgorithm member : candidates) {
    value[PortfolioRank(member)] =
        MemberGain(member) / (budget.near_linear_factor > 0 ? 1.0 : EstimatedWork(member, shape));
  }
  std::stable_sort(candidates.begin(), candidates.end(), [&](PackingAlgorithm a, PackingAlgorithm b) {
    return value[PortfolioRank(a)] > value[PortfolioRank(b)];
  });

  std::vector<PackingAlgorithm> admitted = {PackingAlgorithm::kOnlineBestFit};
  // A negligible estimate is near enough whatever n log n (member_cost.h).
  const double near_linear =
      std::max(budget.near_linear_factor * NLogN(shape.items), kNegligibleWork);
  for (PackingAlgorithm member : candidates) {
    const double work = EstimatedWork(member, shape);
    if (!budget.every_member && budget.near_linear_factor > 0 && work > near_linear) {
      report.members.push_back(
          SkippedMember(std::string(PackingAlgorithmName(member)),
           fmt::format("not run at --effort fast: estimated {} of work, not near n log n ({} "
                       "of {} live together)",
                       WorkSeconds(work), CountOf(shape.pairs, "pair"),
                       CountOf(shape.items, "buffer")),
           true));
      continue;
    }
    admitted.push_back(member);
  }
  return admitted;
}

// Runs one member within run.allowance work units; skyline members share
// `skyline` and keep their priority list.
void RunMember(const std::vector<PackItem>& items, Bytes alignment, const SkylinePacker* skyline,
               const PackDeadline& deadline, MemberRun& run) {
  const Clock::time_point begin = Clock::now();
  run.started = true;
  // Best fit and in-order count standard placement work (PlacementWork);
  // the run is allowed and charged in the member's own units
  // (BestFitWorkScale), as its estimate is.
  const auto in_own_units = [&](auto pack) {
    const double scale = BestFitWorkScale(run.member);
    double standard_work = 0;
    auto out = pack(run.allowance / scale, &standard_work);
    run.work = standard_work * scale;
    return out;
  };
  std::optional<BestFitOrder> best_fit;
  switch (run.member) {
    case PackingAlgorithm::kSkylineLongest:
    case PackingAlgorithm::kSkylineArea:
    case PackingAlgorithm::kSkylineCrowded: {
      const SkylineOrder order = *SkylineOrderOf(run.member);
      run.priority = SortForSkyline(items, order);
      std::optional<std::vector<Bytes>> offsets = skyline->RunWithin(
          run.priority, std::numeric_limits<Bytes>::max(), run.allowance, &run.work, deadline);
      if (offsets) {
        run.result = MakePackResult(items, *std::move(offsets), std::string(SkylineOrderName(order)));
      }
      break;
    }
    case PackingAlgorithm::kOnlineBestFit:
      run.result = OnlineBestFitPack(items, alignment);
      break;
    case PackingAlgorithm::kInOrder:
      run.result = in_own_units([&](double allowance, double* work) {
        return InOrderPackWithin(items, alignment, allowance, work, deadline);
      });
      break;
    case PackingAlgorithm::kBestFitSpatial:
      best_fit = BestFitOrder::kSpatial;
      break;
    case PackingAlgorithm::kBestFitTemporal:
      best_fit = BestFitOrder::kTemporal;
      break;
    case PackingAlgorithm::kBestFitBusiest:
      best_fit = BestFitOrder::kBusiest;
      break;
    case PackingAlgorithm::kBestFitStartTime:
      best_fit = BestFitOrder::kStartTime;
      break;
    default:
      break;
  }
  if (best_fit) {
    std::optional<std::vector<Bytes>> offsets = in_own_units([&](double allowance, double* work) {
      return BestFitInOrderWithin(items, SortForBestFit(items, *best_fit), alignment, allowance,
                                  work, deadline);
    });
    if (offsets) {
      run.result = MakePackResult(items, *std::move(offsets), std::string(BestFitOrderName(*best_fit)));
    }
  }
  run.cut_by_deadline = !run.result && deadline && Clock::now() >= *deadline;
  run.seconds = SecondsSince(begin);
}

// Plans the lanes before anything runs (so the plan does not depend on
// timing): online-best-fit goes to lane 0 and is charged its estimate (it
// does not count its work: the fallback always finishes). Then, in order,
// each member whose estimate fits the work left in the lane with the most
// left is admitted there, charged its estimate and allowed min(left,
// kAllowanceFactor x its estimate), or, when it fits only what both lanes
// have left together, admitted there too, charged its lane's left and the
// rest to the other lane; then each member that did not fit
// starts anyway in the lane with the most left, capped at all that is left
// there and in the other lane (it may still finish: an estimate is only an
// estimate; a member that fits the whole budget run alone gets that much),
// charged up to its estimate, its own lane first. A member is skipped only
// when both lanes are used up.
// `capped_starts` false (kFast, whose contract is to stay near n log n):
// no member borrows and the second step is left out: a member that does
// not fit its lane is skipped with its estimate. `lane_budget` infinite (every_member): every member is
// admitted without a limit.
void PlanLanes(std::vector<MemberRun>& runs, double lane_budget, bool capped_starts) {
  const bool unlimited = lane_budget == std::numeric_limits<double>::infinity();
  double charged[kLanes] = {0, 0};
  const auto admit = [&](MemberRun& run, bool only_if_it_fits) {
    const int lane = charged[1] < charged[0] ? 1 : 0;
    run.lane = lane;
    run.left = lane_budget - charged[lane];
    run.allowance = run.left;
    // Less than a unit left (what rounding leaves of a lane charged to
    // its budget) is a used-up lane.
    if (run.left < 1) return;
    if (unlimited) {
      run.admitted = true;
      return;
    }
    // A member over what its lane has left may also take what the other
    // lane has left: one that fits the whole budget run alone gets that
    // much, in its place in the gain order (its lane then runs longer than
    // the other; the total stays the budget's). Members that fit their lane
    // keep to it.
    const int other = 1 - lane;
    const double borrowable = run.estimate <= run.left || !capped_starts
                                  ? 0
                                  : std::max(0.0, lane_budget - charged[other]);
    const double left = run.left + borrowable;
    if (only_if_it_fits && run.estimate > left) return;
    run.admitted = true;
    // Started in the second pass (did not fit the work left), it ranks
    // after the members that fitted: once one of those reaches the bound it
    // need not start.
    run.capped = !only_if_it_fits;
    run.allowance = std::min(left, kAllowanceFactor * run.estimate);
    const double charge = std::min(left, run.estimate);
    const double own = std::min(run.left, charge);
    charged[lane] += own;
    charged[other] += charge - own;
    run.left = left;
  };
  runs[0].lane = 0;
  runs[0].admitted = true;
  charged[0] += runs[0].estimate;
  for (std::size_t k = 1; k < runs.size(); ++k) admit(runs[k], true);
  if (!capped_starts) return;
  for (std::size_t k = 1; k < runs.size(); ++k) {
    if (!runs[k].admitted) admit(runs[k], false);
  }
}

// Each lane's share of the members' work (infinite: every member runs).
double LaneBudget(const EffortBudget& budget) {
  return budget.every_member ? std::numeric_limits<double>::infinity()
                             : budget.member_work / kLanes;
}

// The members an effort admits and its lane plan for them, before anything
// runs (AdmitMembers, PlanLanes); the members it does not admit go to
// `report` as skipped.
std::vector<MemberRun> PlannedAt(PackEffort effort, const InputShape& shape, PackReport& report) {
  const EffortBudget budget = BudgetFor(effort, shape);
  std::vector<MemberRun> runs;
  for (PackingAlgorithm member : AdmitMembers(shape, budget, report)) {
    MemberRun run;
    run.member = member;
    run.estimate = EstimatedWork(member, shape);
    runs.push_back(std::move(run));
  }
  PlanLanes(runs, LaneBudget(budget), effort != PackEffort::kFast);
  return runs;
}

// A run's place in the tie-break: its member's, after every other for a
// capped run.
int RankOf(const MemberRun& run) {
  return run.capped ? kCappedRank + PortfolioRank(run.member) : PortfolioRank(run.member);
}

}  // namespace

PackResult AutoPack(const std::vector<PackItem>& items, const PackOptions& options) {
  const Clock::time_point begin = Clock::now();
  const PackDeadline deadline = DeadlineAfter(options.time_limit_seconds);
  const Bytes lower_bound = MaxLiveBytes(items);
  const InputShape shape = ShapeOf(items);
  const EffortBudget budget = BudgetFor(options.effort, shape);

  PackReport report;
  report.effort = std::string(PackEffortName(options.effort));
  std::vector<MemberRun> runs = PlannedAt(options.effort, shape, report);
  const double lane_budget = LaneBudget(budget);
  // The hints quote what --effort max's own lane plan (made the same way,
  // before anything runs) gives the member, so that they say what max does.
  PackReport unused;
  const std::vector<MemberRun> at_max = PlannedAt(PackEffort::kMax, shape, unused);
  const auto max_allowance = [&](PackingAlgorithm member) {
    for (const MemberRun& run : at_max) {
      if (run.member == member) return run.admitted ? run.allowance : 0.0;
    }
    return 0.0;
  };
  // A member skipped for want of work: would max let it run to its estimate?
  const auto hint = [&](const MemberRun& run, const std::string& name) {
    return RaiseEffortHint(options.effort, max_allowance(run.member) >= run.estimate, name);
  };
  // One stopped at its allowance: whether it would finish with more is not
  // known, so the hint says what the max effort allows it, when that is
  // more than it had.
  const auto stopped_hint = [&](const MemberRun& run, const std::string& name) {
    const double at_max_allowance = max_allowance(run.member);
    if (options.effort == PackEffort::kMax || at_max_allowance <= run.allowance) {
      return RaiseEffortHint(PackEffort::kMax, false, name);
    }
    return fmt::format(" (--effort max allows it up to {}; --algorithm {} runs it alone)",
                       WorkSeconds(at_max_allowance), name);
  };

  // The skyline members share one packer (built when one of them fits).
  const bool skyline_admitted = std::any_of(runs.begin(), runs.end(), [](const MemberRun& run) {
    return run.admitted && SkylineOrderOf(run.member).has_value();
  });
  std::optional<SkylinePacker> skyline;
  // The best tie-break rank among the runs that reached the bound: a member
  // of a worse rank can no longer win (nothing is below the bound, and ties
  // go to the better rank), so it need not start, and is reported skipped
  // even if it ran. A member of a better rank always runs, so the winner is
  // the one the whole portfolio would pick.
  std::atomic<int> bound_rank{std::numeric_limits<int>::max()};
  auto reached_bound = [&](const MemberRun& run) {
    if (!run.result || run.result->peak > lower_bound) return;
    const int rank = RankOf(run);
    int seen = bound_rank.load();
    while (rank < seen && !bound_rank.compare_exchange_weak(seen, rank)) {
    }
  };
  const int threads = PackingThreads();
  // online-best-fit (the fallback, O(n log n)) runs first, beside the
  // skyline packer's construction (both O(n log n), 3-5 s each at 10^7).
  RunTasks(kLanes, threads, [&](std::size_t task) {
    if (task == 0) {
      RunMember(items, options.alignment, nullptr, std::nullopt, runs[0]);
      reached_bound(runs[0]);
    } else if (skyline_admitted) {
      skyline.emplace(items, options.alignment);
    }
  });
  RunTasks(kLanes, threads, [&](std::size_t lane) {
    for (std::size_t k = 1; k < runs.size(); ++k) {
      MemberRun& run = runs[k];
      if (run.lane != static_cast<int>(lane) || !run.admitted) continue;
      if (RankOf(run) > bound_rank.load()) continue;
      if (deadline && Clock::now() >= *deadline) {
        run.hit_deadline = true;
        continue;
      }
      // It stops early once a member of a better rank reaches the bound,
      // or once any member has and its own packing is above it: it is then
      // reported not needed, whether it finished or not.
      const PackDeadline stop(deadline.at,
                              MootWhen{&bound_rank, RankOf(run), lower_bound, &run.top});
      RunMember(items, options.alignment, skyline ? &*skyline : nullptr, stop, run);
      reached_bound(run);
    }
  });

  std::optional<PackResult> best;
  int best_rank = 0;
  auto consider = [&](const PackResult& candidate, int rank) {
    if (!best || candidate.peak < best->peak || (candidate.peak == best->peak && rank < best_rank)) {
      best = candidate;
      best_rank = rank;
    }
  };
  const int cut_rank = bound_rank.load();
  std::string cut_by;
  for (const MemberRun& run : runs) {
    if (RankOf(run) == cut_rank) cut_by = std::string(PackingAlgorithmName(run.member));
  }
  // The skyline members that ran, by SkylineOrder: the searches' starts.
  SkylineRuns skyline_runs = {nullptr, nullptr, nullptr};
  std::vector<PackMemberReport> ran;
  for (std::size_t k = 0; k < runs.size(); ++k) {
    MemberRun& run = runs[k];
    const std::string name(PackingAlgorithmName(run.member));
    if (k > 0 && run.admitted && RankOf(run) > cut_rank) {
      ran.push_back(SkippedMember(name,
                            "not needed: " + cut_by + " reached the lower bound and wins ties"));
      continue;
    }
    // Its peak is above the bound (finished) or would be (its packing had
    // passed the bound when it stopped): whether it finished depends on
    // timing, so both read the same.
    if (k > 0 && run.started && cut_rank != std::numeric_limits<int>::max() &&
        StopsAboveTheBound(run.member) &&
        (run.result ? run.result->peak : run.top) > lower_bound) {
      ran.push_back(SkippedMember(name, "not needed: its packing rose above the lower bound, "
                                        "which " + cut_by + " reached"));
      continue;
    }
    if (run.hit_deadline) {
      report.time_limited = true;
      ran.push_back(SkippedMember(name,
                            "earlier members used up --time-limit (raise --time-limit)"));
      continue;
    }
    if (run.cut_by_deadline) {
      report.time_limited = true;
      ran.push_back(
          SkippedMember(name, "stopped by --time-limit before it finished (raise --time-limit)"));
      ran.back().work = run.work;
      ran.back().allowance = run.allowance;
      ran.back().seconds = run.seconds;
      continue;
    }
    if (k > 0 && !run.admitted && cut_rank < kCappedRank + PortfolioRank(run.member)) {
      // It would have started capped, behind the member at the bound.
      ran.push_back(SkippedMember(name,
                                  "not needed: " + cut_by + " reached the lower bound and wins ties"));
      continue;
    }
    if (!run.started) {  // both lanes were used up, or (kFast) it did not fit (PlanLanes)
      const std::string reason =
          run.left <= 0
              ? fmt::format("earlier members used up both lanes' {} work budgets (estimated {}){}",
                            WorkSeconds(lane_budget), WorkSeconds(run.estimate), hint(run, name))
              : fmt::format("estimated {} of work, over the {} left of its lane's {} budget "
                            "at --effort fast{}",
                            WorkSeconds(run.estimate), WorkSeconds(run.left),
                            WorkSeconds(lane_budget), hint(run, name));
      ran.push_back(SkippedMember(name, reason, true));
      continue;
    }
    if (!run.result) {
      ran.push_back(SkippedMember(name, fmt::format("stopped when it had used the {} of work allowed to "
                                              "it (estimated {}){}",
                                              WorkSeconds(run.allowance), WorkSeconds(run.estimate),
                                              stopped_hint(run, name)),
                                  true));
      ran.back().work = run.work;
      ran.back().allowance = run.allowance;
      ran.back().seconds = run.seconds;
      continue;
    }
    ran.push_back(
        {name, true, run.result->peak, "", run.seconds, std::nullopt, std::nullopt, std::nullopt});
    if (k > 0) {  // online-best-fit (k == 0) does not count
      ran.back().work = run.work;
      ran.back().allowance = run.allowance;
    }
    consider(*run.result, RankOf(run));
    if (const std::optional<SkylineOrder> order = SkylineOrderOf(run.member)) {
      skyline_runs[static_cast<std::size_t>(*order)] = &run;
    }
  }
  // Skipped members first in the report's order of consideration: admitted
  // ones in run order, then those the budget skipped.
  ran.insert(ran.end(), report.members.begin(), report.members.end());
  report.members = std::move(ran);

  // The improvement step: the skyline local search where the default
  // effort affords it enough re-packs of every item, else the window search
  // (window_search.h), which re-packs a few thousand items at a time.
  const std::string search_name(kSkylineLocalSearchName);
  const std::string window_name(kSkylineWindowSearchName);
  const std::int64_t default_steps = LocalSearchSteps(items, PackEffort::kDefault);
  bool windows_wanted = false;
  if (best->peak <= lower_bound) {
    report.members.push_back(
        SkippedMember(search_name, "not needed: the best peak is at the lower bound"));
  } else if (budget.search_work <= 0) {
    report.members.push_back(
        SkippedMember(search_name, "not run at --effort fast (it has no search budget)"));
  } else if (std::count(skyline_runs.begin(), skyline_runs.end(), nullptr) > 0) {
    report.members.push_back(SkippedMember(
        search_name, "it starts from the three skyline packings, and not all of them ran"));
  } else if (default_steps == 0) {
    report.members.push_back(SkippedMember(
        search_name, fmt::format("a re-pack of every item is estimated at {} of work, so fewer "
                                 "than {} steps fit the default effort's search budget (which decides this at "
                                 "every --effort); {} runs instead",
                                 WorkSeconds(EstimatedSearchStepWork(shape)), kMinSearchSteps,
                                 window_name)));
    windows_wanted = true;
  } else if (deadline && Clock::now() >= *deadline) {
    report.time_limited = true;
    report.members.push_back(
        SkippedMember(search_name, "earlier members used up --time-limit (raise --time-limit)"));
  } else {
    const std::int64_t steps = LocalSearchSteps(items, options.effort);
    const Clock::time_point search_begin = Clock::now();
    const double search_limit = LocalSearchWorkLimit(shape, options.effort);
    const SearchStarts starts = SearchStartsOf(skyline_runs);
    SearchOutcome searched = SearchSkyline(*skyline, starts, lower_bound, steps, search_limit,
                                           RestartsOnPlateau(options.effort), threads, deadline.at);
    report.time_limited = report.time_limited || searched.time_limited;
    const Bytes peak = searched.improved ? searched.improved->peak : LowestStartPeak(starts);
    const double searches_limit = kSearchesPerBudget * search_limit;  // shared by all

    report.members.push_back({search_name, true, peak,
                              searched.time_limited ? SearchCutReason(searched.work, searches_limit) : "",
                              SecondsSince(search_begin), searched.work, searches_limit,
                              std::nullopt});
    report.members.back().quotes_work = searched.time_limited;
    if (searched.improved) consider(*searched.improved, kSearchRank);
  }
  if (!windows_wanted) {
    const PackMemberReport& local = report.members.back();
    report.members.push_back(SkippedMember(
        window_name, local.ran ? "not needed: " + search_name + " improves inputs this small"
                               : local.reason));
  } else if (deadline && Clock::now() >= *deadline) {
    report.time_limited = true;
    report.members.push_back(
        SkippedMember(window_name, "earlier members used up --time-limit (raise --time-limit)"));
  } else {
    const Clock::time_point window_begin = Clock::now();
    const double window_work = WindowSearchWork(budget);
    WindowSearchOutcome searched =
        SearchWindows(items, LowestSkyline(skyline_runs)->result->offsets, lower_bound,
                      options.alignment, window_work, deadline);
    report.time_limited = report.time_limited || searched.time_limited;
    report.members.push_back({window_name, true, searched.peak,
                              searched.time_limited ? SearchCutReason(searched.work, window_work) : "",
                              SecondsSince(window_begin), searched.work, window_work, std::nullopt});
    report.members.back().quotes_work = searched.time_limited;
    if (searched.offsets) {
      consider(MakePackResult(items, *std::move(searched.offsets), window_name), kSearchRank);
    }
  }
  Bytes proven_bound = lower_bound;
  if (best->peak <= lower_bound) {
    report.members.push_back(SkippedMember(std::string(kExactMemberName),
                                           "not needed: the best peak is at the lower bound"));
  } else {
    ExactMemberOutcome exact =
        RunExactMember(items, options, shape, best->peak, lower_bound, threads, deadline);
    report.time_limited = report.time_limited || exact.time_limited;
    report.members.push_back(std::move(exact.report));
    proven_bound = exact.lower_bound;
    if (exact.packed) consider(*exact.packed, kExactRank);
  }
  best->lower_bound = proven_bound;
  report.seconds = SecondsSince(begin);
  best->report = std::move(report);
  return *std::move(best);
}

}  // namespace memplan
