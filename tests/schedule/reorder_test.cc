#include "schedule/reorder.h"

#include <algorithm>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "analysis/alias_sets.h"
#include "ir/text_parser.h"
#include "schedule/lower_bound.h"
#include "schedule/order_problem.h"
#include "schedule/strategies.h"
#include "verify/schedule_checks.h"

namespace memplan {
namespace {

Program Parse(std::string_view text) {
  absl::StatusOr<Program> program = ParseProgram(text, "test.ir");
  EXPECT_TRUE(program.ok()) << program.status();
  return program.ok() ? *std::move(program) : Program{};
}

std::vector<OrderProblem> Problems(const Program& p) {
  absl::StatusOr<AliasSets> sets = ComputeAliasSets(p);
  EXPECT_TRUE(sets.ok()) << sets.status();
  return sets.ok() ? BuildOrderProblems(p, *sets) : std::vector<OrderProblem>{};
}

// The entry's ops as result names (opcode for ops without results).
std::vector<std::string> EntryOrder(const Program& p) {
  std::vector<std::string> names;
  for (OpId op : p.computations[p.entry].ops) {
    const Op& o = p.ops[op];
    names.push_back(o.results.empty() ? o.opcode : p.values[o.results.front()].name);
  }
  return names;
}

// The same program with the entry's ops in the order of `names`.
Program WithEntryOrder(const Program& p, const std::vector<std::string>& names) {
  Program q = p;
  std::vector<OpId>& ops = q.computations[q.entry].ops;
  ops.clear();
  for (const std::string& name : names) ops.push_back(p.values[p.FindValue(name)].defining_op);
  return q;
}

// The body of a function of %x: two branches of 1000 bytes each reduced to
// 10. The file computes both big values first (2010 bytes live at %a2), one
// branch at a time needs 1020.
constexpr std::string_view kBadDiamondBody = R"(
    %a = exp(%x) : 1000
    %b = exp(%x) : 1000
    %a2 = negate(%a) : 10
    %b2 = negate(%b) : 10
    %r = add(%a2, %b2) : 16
    return %r
  })";
const std::string kBadDiamond = "entry func @main(%x: 16) {" + std::string(kBadDiamondBody);

TEST(ReorderTest, DiamondInFileOrderIsReorderedToOneBranchAtATime) {
  const Program p = Parse(kBadDiamond);
  ASSERT_NE(p.entry, kNoId);
  absl::StatusOr<ReorderResult> r = ReorderProgram(p);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->input_peak, 2010);
  EXPECT_EQ(r->peak, 1020);
  // At %a2 (or %b2) its own big operand and result: 1010 in every order.
  EXPECT_EQ(r->lower_bound, 1010);
  EXPECT_TRUE(r->optimal);
  EXPECT_EQ(r->exact_proven, 1);
  ASSERT_EQ(r->rows.size(), 9u);
  EXPECT_EQ(r->rows.front().name, "input");
  EXPECT_EQ(r->rows.front().peak, 2010);
  for (const ReorderRow& row : r->rows) EXPECT_GE(row.peak, r->peak) << row.name;
  const std::vector<std::string> order = EntryOrder(r->program);
  const auto at = [&](const std::string& n) { return std::find(order.begin(), order.end(), n) - order.begin(); };
  EXPECT_EQ(std::abs(at("a2") - at("a")), 1) << "a2 right after a";
  EXPECT_EQ(std::abs(at("b2") - at("b")), 1) << "b2 right after b";
  EXPECT_TRUE(VerifyReorderedSchedule(p, r->program).ok());
  absl::StatusOr<Bytes> peak = TransientMaxLive(r->program);
  ASSERT_TRUE(peak.ok());
  EXPECT_EQ(*peak, 1020);
}

TEST(ReorderTest, AGoodOrderIsKept) {
  const Program p = Parse(R"(
    entry func @main(%x: 16) {
      %a = exp(%x) : 1000
      %a2 = negate(%a) : 10
      %b = exp(%x) : 1000
      %b2 = negate(%b) : 10
      %r = add(%a2, %b2) : 16
      return %r
    })");
  ASSERT_NE(p.entry, kNoId);
  absl::StatusOr<ReorderResult> r = ReorderProgram(p);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->input_peak, 1020);
  EXPECT_EQ(r->peak, 1020);
  EXPECT_EQ(r->strategy, "input");
  EXPECT_EQ(EntryOrder(r->program), EntryOrder(p));
}

// %r reads %a before %t overwrites it in place: %t must stay after %r (and
// after %s, which reads a view of %a), whatever it would save.
constexpr std::string_view kInPlace = R"(
  entry func @main(%x: 16) {
    %a = exp(%x) : 100
    %v = view(%a) : 50 view(%a, 50)
    %big = exp(%x) : 1000
    %r = mul(%a, %big) : 10
    %s = negate(%v) : 10
    %t = relu(%a) : 100 tied(%a)
    %o = add(%t, %r, %s) : 16
    return %o
  })";

TEST(ReorderTest, InPlaceOpStaysLastReaderOfItsOperandAndItsViews) {
  const Program p = Parse(kInPlace);
  ASSERT_NE(p.entry, kNoId);
  const std::vector<OrderProblem> problems = Problems(p);
  const OrderProblem& main = problems[p.entry];
  // Units in file order: a v big r s t o.
  EXPECT_EQ(main.preds[5], (std::vector<std::int32_t>{0, 1, 3, 4}));
  for (const PeerStrategy& peer : PeerStrategies()) {
    const UnitOrder order = peer.order(main);
    EXPECT_TRUE(IsTopological(main, order)) << peer.name;
  }
  absl::StatusOr<ReorderResult> r = ReorderProgram(p);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_TRUE(VerifyReorderedSchedule(p, r->program).ok());
  // The verifier refuses %t before a reader of %a's storage.
  const absl::Status moved =
      VerifyReorderedSchedule(p, WithEntryOrder(p, {"a", "v", "big", "r", "t", "s", "o"}));
  EXPECT_EQ(moved.message(),
            "schedule: @main: %s changed its order relative to %t, which writes the storage of %a "
            "in place (an in-place op must stay the last reader of its operand's storage)");
}

TEST(ReorderTest, SideEffectsKeepTheirOrder) {
  const Program p = Parse(R"(
    entry func @main(%x: 16) {
      %a = exp(%x) : 100
      %b = exp(%x) : 100
      store(%b)
      store(%a)
      %c = negate(%x) : 16
      return %c
    })");
  ASSERT_NE(p.entry, kNoId);
  const std::vector<OrderProblem> problems = Problems(p);
  EXPECT_EQ(problems[p.entry].preds[3], (std::vector<std::int32_t>{0, 2}));
  absl::StatusOr<ReorderResult> r = ReorderProgram(p);
  ASSERT_TRUE(r.ok()) << r.status();
  // Each value right before its store: 100 bytes at a time, not 200.
  EXPECT_EQ(r->input_peak, 200);
  EXPECT_EQ(r->peak, 100);
  Program swapped = p;
  std::swap(swapped.computations[p.entry].ops[2], swapped.computations[p.entry].ops[3]);
  EXPECT_EQ(VerifyReorderedSchedule(p, swapped).message(),
            "schedule: @main: ops with side effects store#2 and store#3 changed their order");
}

TEST(ReorderTest, VerifierRefusesAUseBeforeItsDefinition) {
  const Program p = Parse(kBadDiamond);
  ASSERT_NE(p.entry, kNoId);
  EXPECT_EQ(VerifyReorderedSchedule(p, WithEntryOrder(p, {"a2", "a", "b", "b2", "r"})).message(),
            "schedule: @main: %a2 runs before %a, which defines its operand %a");
}

TEST(ReorderTest, CalleesAreReorderedInside) {
  const Program p = Parse(R"(
    entry func @main(%in: 16) {
      %y = call(%in) : 16 {callee = @f}
      return %y
    }
    func @f(%x: 16) {)" + std::string(kBadDiamondBody));
  ASSERT_NE(p.entry, kNoId);
  absl::StatusOr<ReorderResult> r = ReorderProgram(p);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->input_peak, 2010);
  EXPECT_EQ(r->peak, 1020);
  EXPECT_TRUE(VerifyReorderedSchedule(p, r->program).ok());
}

}  // namespace
}  // namespace memplan
