#include "verify/happens_before.h"

#include <random>
#include <string>
#include <utility>
#include <vector>

#include "gtest/gtest.h"

namespace memplan::region_verify {
namespace {

HostStep Step(HostStepKind kind, std::string signal, std::vector<std::string> awaits = {}) {
  HostStep s;
  s.kind = kind;
  s.signal = std::move(signal);
  s.awaits = std::move(awaits);
  return s;
}

TEST(HappensBefore, AwaitsChainAndHostStepsOrderEverythingAfterThem) {
  const std::vector<HostStep> steps = {
      Step(HostStepKind::kAlloca, "a"),                // 0
      Step(HostStepKind::kExecute, "e", {"a"}),        // 1
      Step(HostStepKind::kJoin, "j", {"e"}),           // 2
      Step(HostStepKind::kAlloca, "b"),                // 3
      Step(HostStepKind::kHost, "", {"j"}),            // 4
      Step(HostStepKind::kDealloca, "d"),              // 5
      Step(HostStepKind::kExecute, "f", {"unknown"}),  // 6
  };
  const HappensBefore hb(steps);
  EXPECT_TRUE(hb.Precedes(0, 1));
  EXPECT_TRUE(hb.Precedes(0, 2));   // through the execute
  EXPECT_FALSE(hb.Precedes(0, 3));  // later in step order only
  EXPECT_TRUE(hb.Precedes(1, 4));
  EXPECT_FALSE(hb.Precedes(3, 4));  // the host step does not await it
  EXPECT_TRUE(hb.Precedes(4, 5));   // a host step precedes every later step...
  EXPECT_TRUE(hb.Precedes(4, 6));
  EXPECT_TRUE(hb.Precedes(0, 6));  // ...and what it awaited
  EXPECT_FALSE(hb.Precedes(3, 6));
  EXPECT_FALSE(hb.Precedes(5, 6));
  EXPECT_FALSE(hb.Precedes(1, 1));
  EXPECT_FALSE(hb.Precedes(2, 1));
}

TEST(HappensBefore, ManyStepsSpanSeveralWords) {
  // A chain of 200 non-host steps, each awaiting the one before it, and an
  // unrelated step at the end.
  std::vector<HostStep> steps;
  for (int i = 0; i < 200; ++i) {
    steps.push_back(Step(HostStepKind::kJoin, "s" + std::to_string(i),
                         i == 0 ? std::vector<std::string>{}
                                : std::vector<std::string>{"s" + std::to_string(i - 1)}));
  }
  steps.push_back(Step(HostStepKind::kJoin, "alone"));
  const HappensBefore hb(steps);
  EXPECT_TRUE(hb.Precedes(0, 199));
  EXPECT_TRUE(hb.Precedes(70, 130));
  EXPECT_FALSE(hb.Precedes(130, 70));
  EXPECT_FALSE(hb.Precedes(0, 200));
}

TEST(HappensBefore, ARepeatedSignalStandsForItsFirstStep) {
  const std::vector<HostStep> steps = {
      Step(HostStepKind::kJoin, "t"),
      Step(HostStepKind::kJoin, "t"),
      Step(HostStepKind::kJoin, "u", {"t"}),
  };
  const HappensBefore hb(steps);
  EXPECT_TRUE(hb.Precedes(0, 2));
  EXPECT_FALSE(hb.Precedes(1, 2));
}

// Against reachability computed step by step, on random plans: sparse
// awaits (sets of a few runs) and dense ones (bitsets), with host steps.
TEST(HappensBefore, AgreesWithReachabilityOnRandomPlans) {
  std::mt19937 random(7);
  for (int density : {1, 3, 12}) {
    const int n = 300;
    std::vector<HostStep> steps;
    for (int s = 0; s < n; ++s) {
      const bool host = random() % 17 == 0;
      std::vector<std::string> awaits;
      for (int k = 0; s > 0 && k < density; ++k) {
        // Mostly recent steps, sometimes any earlier one.
        const int back = random() % 4 == 0 ? 1 + random() % s : 1 + random() % std::min(s, 5);
        awaits.push_back("t" + std::to_string(s - back));
      }
      steps.push_back(Step(host ? HostStepKind::kHost : HostStepKind::kExecute,
                           host ? "" : "t" + std::to_string(s), std::move(awaits)));
    }
    // reach[b][a]: a happens before b.
    std::vector<std::vector<bool>> reach(n, std::vector<bool>(n, false));
    for (int b = 0; b < n; ++b) {
      auto inherit = [&](int p) {
        reach[b][p] = true;
        for (int a = 0; a < p; ++a) reach[b][a] = reach[b][a] || reach[p][a];
      };
      for (int p = 0; p < b; ++p) {
        if (steps[p].kind == HostStepKind::kHost) inherit(p);
      }
      for (const std::string& tp : steps[b].awaits) {
        const int p = std::stoi(tp.substr(1));
        if (steps[p].kind != HostStepKind::kHost) inherit(p);
      }
    }
    const HappensBefore hb(steps);
    for (int a = 0; a < n; ++a) {
      for (int b = 0; b < n; ++b) {
        ASSERT_EQ(hb.Precedes(a, b), reach[b][a])
            << "density " << density << ": " << a << ", " << b;
      }
    }
  }
}

}  // namespace
}  // namespace memplan::region_verify
