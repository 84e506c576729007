// The `auto` lines of the summary (report/packing_summary.h) and the JSON's
// "packing" object: members that ran, that were stopped part way and that
// were skipped before they started.
#include "report/packing_summary.h"

#include <string>
#include <utility>
#include <vector>

#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "report/plan_json.h"

namespace memplan {
namespace {

PackMemberReport Ran(std::string name, Bytes peak, double work, double allowance) {
  PackMemberReport m;
  m.name = std::move(name);
  m.ran = true;
  m.peak = peak;
  m.work = work;
  m.allowance = allowance;
  return m;
}

PackMemberReport NotRun(std::string name, std::string reason) {
  PackMemberReport m;
  m.name = std::move(name);
  m.reason = std::move(reason);
  return m;
}

// A plan whose `algorithm` auto chose at `peak` bytes over a `lower_bound`,
// with auto's `members` in the order it tried them, at `effort`.
Plan AutoPlan(std::string algorithm, Bytes peak, Bytes lower_bound,
              std::vector<PackMemberReport> members, std::string effort = "default") {
  Plan plan;
  plan.input = "t.csv";
  plan.algorithm = std::move(algorithm);
  plan.peak = peak;
  plan.lower_bound = lower_bound;
  PackReport report;
  report.effort = std::move(effort);
  report.members = std::move(members);
  plan.packing = std::move(report);
  return plan;
}

// The plan's JSON (report/plan_json.h) without buffers or a verifier result.
nlohmann::json PlanJson(const Plan& plan) {
  BufferSet buffers;
  return nlohmann::json::parse(WritePlanJson(plan, buffers, nullptr));
}

// One buffer of 11 bytes; auto's best peak is 1 byte over its bound of 10.
// skyline-longest ran out of its allowance and skyline-area was stopped by
// --time-limit (both counted work); in-order never started.
Plan StoppedPlan() {
  PackMemberReport online = Ran("online-best-fit", 12, 0, 0);
  online.work.reset();
  online.allowance.reset();
  PackMemberReport longest =
      NotRun("skyline-longest", "stopped when it had used the 1.23 s of work allowed to it");
  longest.work = 1.23e9;
  longest.allowance = 1.23e9;
  longest.quotes_work = true;
  PackMemberReport area =
      NotRun("skyline-area", "stopped by --time-limit before it finished (raise --time-limit)");
  area.work = 4e7;
  area.allowance = 1e9;
  Plan plan = AutoPlan(
      "best-fit-spatial", 11, 10,
      {online, Ran("best-fit-spatial", 11, 2.5e8, 5e8), longest, area,
       NotRun("in-order", "earlier members used up --time-limit (raise --time-limit)")});
  plan.packing->time_limited = true;
  return plan;
}

TEST(PackingLinesTest, StoppedMembersAreNotCalledSkipped) {
  EXPECT_EQ(PackingLines(StoppedPlan(), false),
            "auto (effort default): 2 members ran, 2 stopped, 1 skipped (cut by --time-limit); the "
            "lowest peak is chosen, 1 byte over the lower bound\n"
            "  members in the order auto tried them (most expected gain per estimated cost "
            "first), then those it skipped; work is in estimated seconds of one core, not "
            "measured time\n"
            "  ran      online-best-fit               12 bytes (20.00% over)\n"
            "  ran      best-fit-spatial              11 bytes (10.00% over)  <- chosen\n"
            "  stopped  skyline-longest   stopped when it had used the 1.23 s of work allowed to "
            "it\n"
            "  stopped  skyline-area      stopped by --time-limit before it finished (raise "
            "--time-limit)\n"
            "  skipped  in-order          earlier members used up --time-limit (raise "
            "--time-limit)\n");
}

// A search --time-limit cut keeps its best packing: it ran, and its line
// says how much of its work it did; the header says what those seconds are.
TEST(PackingLinesTest, ASearchCutByTheTimeLimitRanAndSaysSo) {
  PackMemberReport search = Ran("skyline-local-search", 11, 1.9e8, 3.4e8);
  search.reason =
      "cut by --time-limit after 0.19 s of its 0.34 s of work; its best packing so far counts "
      "(raise --time-limit)";
  search.quotes_work = true;
  Plan plan = AutoPlan("skyline-local-search", 11, 10, {Ran("online-best-fit", 12, 0, 0), search});
  plan.packing->time_limited = true;
  EXPECT_EQ(PackingLines(plan, false),
            "auto (effort default): 2 members ran, 0 skipped (cut by --time-limit); the lowest "
            "peak is chosen, 1 byte over the lower bound\n"
            "  members in the order auto tried them (most expected gain per estimated cost "
            "first); work is in estimated seconds of one core, not measured time\n"
            "  ran      online-best-fit                   12 bytes (20.00% over)\n"
            "  ran      skyline-local-search              11 bytes (10.00% over); cut by "
            "--time-limit after 0.19 s of its 0.34 s of work; its best packing so far counts "
            "(raise --time-limit)  <- chosen\n");
}

// auto tried skyline-area before skyline-longest ran and reached the bound,
// so skyline-area is skipped "not needed: skyline-longest reached ...": its
// line comes after skyline-longest's own, never above it.
TEST(PackingLinesTest, ASkippedMemberComesAfterTheMemberItsReasonNames) {
  const Plan plan =
      AutoPlan("skyline-longest", 10, 10,
               {Ran("online-best-fit", 12, 1e6, 1e9),
                NotRun("skyline-area", "not needed: skyline-longest reached the lower bound"),
                Ran("skyline-longest", 10, 1e6, 1e9),
                NotRun("exact", "not needed: the best peak is at the lower bound")});
  EXPECT_EQ(PackingLines(plan, false),
            "auto (effort default): 2 members ran, 2 skipped; the lowest peak is chosen, 0 "
            "bytes over the lower bound\n"
            "  members in the order auto tried them (most expected gain per estimated cost "
            "first), then those it skipped\n"
            "  ran      online-best-fit              12 bytes (20.00% over)\n"
            "  ran      skyline-longest              10 bytes (0.00% over)  <- chosen\n"
            "  skipped  skyline-area     not needed: skyline-longest reached the lower bound\n"
            "  skipped  exact            not needed: the best peak is at the lower bound\n");
}

TEST(PackingLinesTest, OneMemberAndOneByteAreSingular) {
  PackMemberReport online;
  online.name = "online-best-fit";
  online.ran = true;
  online.peak = 1;
  const Plan plan = AutoPlan("online-best-fit", 1, 1, {online}, "fast");
  EXPECT_EQ(PackingLines(plan, false),
            "auto (effort fast): 1 member ran, 0 skipped; the lowest peak is chosen, 0 bytes over "
            "the lower bound\n"
            "  members in the order auto tried them (most expected gain first, among the members "
            "near n log n)\n"
            "  ran      online-best-fit               1 byte  (0.00% over)  <- chosen\n");
}

TEST(PackingLinesTest, TimingsGiveWorkInSeconds) {
  Plan plan = StoppedPlan();
  plan.packing->members.resize(2);
  plan.packing->members[1].seconds = 0.5;
  const std::string text = PackingLines(plan, true);
  EXPECT_NE(text.find("  ran      best-fit-spatial              11 bytes (10.00% over)  0.500 s "
                      "(work 0.250 of 0.500 s allowed)  <- chosen\n"),
            std::string::npos)
      << text;
  // A fast member's work, well under a millisecond, keeps three digits.
  plan.packing->members[1].work = 1.234e5;
  plan.packing->members[1].allowance = 6e5;
  const std::string small = PackingLines(plan, true);
  EXPECT_NE(small.find("(work 0.000123 of 0.000600 s allowed)"), std::string::npos) << small;
}

// A member stopped part way spent time too: --timings gives it; a member
// that never started has none.
TEST(PackingLinesTest, TimingsGiveStoppedMembersTheirSecondsToo) {
  Plan plan = StoppedPlan();
  plan.packing->members[2].seconds = 1.5;
  const std::string text = PackingLines(plan, true);
  EXPECT_NE(text.find("  stopped  skyline-longest   stopped when it had used the 1.23 s of work "
                      "allowed to it  1.500 s (work 1.23 of 1.23 s allowed)\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("  skipped  in-order          earlier members used up --time-limit (raise "
                      "--time-limit)\n"),
            std::string::npos)
      << text;
}

// The note on work seconds comes only with a line that gives work in
// seconds: a reason that quotes it, or --timings' counts.
TEST(PackingLinesTest, WorkSecondsAreExplainedOnlyWhereALineGivesThem) {
  const std::string note = "; work is in estimated seconds of one core, not measured time\n";
  // Members that ran and one not needed: no work figure anywhere.
  Plan plan = StoppedPlan();
  plan.packing->members.resize(2);
  plan.packing->members.push_back(
      NotRun("in-order", "not needed: best-fit-spatial reached the lower bound and wins ties"));
  std::string text = PackingLines(plan, false);
  EXPECT_NE(text.find("  members in the order auto tried them (most expected gain per estimated "
                      "cost first), then those it skipped\n"),
            std::string::npos)
      << text;
  EXPECT_EQ(text.find(note), std::string::npos) << text;
  // --timings shows best-fit-spatial's count in seconds.
  text = PackingLines(plan, true);
  EXPECT_NE(text.find("(most expected gain per estimated cost first), then those it skipped" +
                      note),
            std::string::npos)
      << text;
  // A budget in a reason.
  PackMemberReport over =
      NotRun("skyline-area", "estimated 1.28 s of work, over the 1.23 s left of its lane's "
                             "1.25 s budget (raise --effort)");
  over.quotes_work = true;
  plan.packing->members.push_back(over);
  text = PackingLines(plan, false);
  EXPECT_NE(text.find("(most expected gain per estimated cost first), then those it skipped" +
                      note),
            std::string::npos)
      << text;
}

TEST(PackingJsonTest, StoppedIsItsOwnKey) {
  const nlohmann::json doc = PlanJson(StoppedPlan());
  const nlohmann::json& members = doc["packing"]["members"];
  ASSERT_EQ(members.size(), 5u);
  EXPECT_EQ(members[1]["stopped"], false);
  EXPECT_DOUBLE_EQ(members[1]["work_seconds"].get<double>(), 0.25);
  EXPECT_DOUBLE_EQ(members[1]["allowed_work_seconds"].get<double>(), 0.5);
  EXPECT_EQ(members[2]["ran"], false);
  EXPECT_EQ(members[2]["stopped"], true);
  EXPECT_DOUBLE_EQ(members[2]["work_seconds"].get<double>(), 1.23);
  EXPECT_EQ(members[3]["stopped"], true);
  EXPECT_DOUBLE_EQ(members[3]["work_seconds"].get<double>(), 0.04);
  EXPECT_EQ(members[4]["stopped"], false);
  EXPECT_TRUE(members[4]["work_seconds"].is_null());
}

// The exact member names the capacity it found its packing at, in the
// summary and the JSON (`--algorithm exact --capacity` that reproduces it).
TEST(PackingLinesTest, TheExactMemberNamesItsCapacity) {
  PackMemberReport exact = Ran("exact", 10, 2e6, 1.5e9);
  exact.capacity = 10;
  const Plan plan = AutoPlan("exact", 10, 10, {exact});
  EXPECT_NE(PackingLines(plan, false)
                .find("  ran      exact              10 bytes (0.00% over), found at "
                      "capacity 10 (as by --algorithm exact --capacity 10)  <- chosen\n"),
            std::string::npos)
      << PackingLines(plan, false);
  EXPECT_EQ(PlanJson(plan)["packing"]["members"][0]["capacity_bytes"], 10);
  EXPECT_FALSE(PlanJson(StoppedPlan())["packing"]["members"][1].contains("capacity_bytes"));
}

// An exact member whose budget ended before it proved its peak the lowest
// says so, and how to search more, on its line and in the JSON.
TEST(PackingLinesTest, AnExactPeakNotProvenTheLowestSaysSo) {
  PackMemberReport exact = Ran("exact", 11, 2e6, 2e6);
  exact.capacity = 11;
  exact.reason = "its node budget ended before it proved this peak the lowest (raise --effort)";
  const Plan plan = AutoPlan("exact", 11, 10, {exact});
  EXPECT_NE(PackingLines(plan, false)
                .find("  ran      exact              11 bytes (10.00% over), found at capacity 11 "
                      "(as by --algorithm exact --capacity 11); its node budget ended before it "
                      "proved this peak the lowest (raise --effort)  <- chosen\n"),
            std::string::npos)
      << PackingLines(plan, false);
  EXPECT_EQ(PlanJson(plan)["packing"]["members"][0]["reason"], exact.reason);
}

// An exact member that did all its work without a lower peak (here it
// proved the best optimal) is `searched`: not stopped, not skipped.
TEST(PackingLinesTest, AMemberThatFinishedWithoutALowerPeakIsSearched) {
  PackMemberReport exact = NotRun("exact", "proved the best peak, 10 bytes, optimal");
  exact.work = 3e6;
  exact.allowance = 1e9;
  exact.finished = true;
  const Plan plan =
      AutoPlan("best-fit-spatial", 10, 10, {Ran("best-fit-spatial", 10, 2e6, 1.5e9), exact});
  EXPECT_EQ(PackingLines(plan, false),
            "auto (effort default): 1 member ran, 1 searched without a lower peak, 0 skipped; "
            "the lowest peak is chosen, 0 bytes over the lower bound\n"
            "  members in the order auto tried them (most expected gain per estimated cost "
            "first)\n"
            "  ran      best-fit-spatial              10 bytes (0.00% over)  <- chosen\n"
            "  searched exact             proved the best peak, 10 bytes, optimal\n");
  const nlohmann::json doc = PlanJson(plan);
  const nlohmann::json& member = doc["packing"]["members"][1];
  EXPECT_EQ(member["ran"], false);
  EXPECT_EQ(member["searched"], true);
  EXPECT_EQ(member["stopped"], false);
  EXPECT_EQ(doc["packing"]["members"][0]["searched"], false);
}

}  // namespace
}  // namespace memplan
