// The exact dynamic program against brute force over every topological order
// of 500 random programs of at most 10 ops, with in-place ops, views, scratch
// and side effects.
#include "schedule/exact_order.h"

#include <algorithm>
#include <functional>
#include <random>
#include <vector>

#include <gtest/gtest.h>

#include "analysis/alias_sets.h"
#include "ir/program_builder.h"
#include "ir/validate.h"
#include "schedule/lower_bound.h"
#include "schedule/reorder.h"

namespace memplan {
namespace {

// A random flat program: each op reads one or two earlier values (a recent
// one first, so most programs have few topological orders) and writes a
// fresh result, a result tied to its first operand, a view of it, or nothing
// (a store). Invalid programs (e.g. a read after an in-place write) are
// rejected by the caller.
Program RandomProgram(std::mt19937& rng) {
  const auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  ProgramBuilder b("random");
  const ComputationId main = b.AddComputation("main");
  b.SetEntry(main);
  std::vector<ValueId> values = {b.AddParam(main, "p0", pick(1, 64))};
  if (pick(0, 1)) values.push_back(b.AddParam(main, "p1", pick(1, 64)));
  const int ops = pick(1, 10);
  for (int i = 0; i < ops; ++i) {
    const ValueId first = values[std::max<int>(0, static_cast<int>(values.size()) - pick(1, 3))];
    std::vector<ValueId> operands = {first};
    if (pick(0, 2) == 0) {
      const ValueId second = values[pick(0, static_cast<int>(values.size()) - 1)];
      if (second != first) operands.push_back(second);
    }
    const int kind = pick(0, 9);
    const OpId op = b.AddOp(main, kind == 0 ? "store" : kind <= 2 ? "relu" : kind == 3 ? "view" : "add",
                            operands);
    if (pick(0, 4) == 0) b.op(op).scratch_bytes = pick(1, 40);
    if (kind == 0) continue;
    const std::string name = "v" + std::to_string(i);
    const Bytes operand_size = b.program().values[first].size;
    if (kind <= 2) {
      const ValueId r = b.AddResult(op, name, operand_size);
      b.value(r).alias = AliasKind::kTied;
      b.value(r).alias_of = first;
      values.push_back(r);
    } else if (kind == 3) {
      const Bytes offset = pick(0, static_cast<int>(operand_size) - 1);
      const ValueId r = b.AddResult(op, name, pick(1, static_cast<int>(operand_size - offset)));
      b.value(r).alias = AliasKind::kView;
      b.value(r).alias_of = first;
      b.value(r).view_offset = offset;
      values.push_back(r);
    } else {
      values.push_back(b.AddResult(op, name, pick(1, 100)));
    }
  }
  b.SetReturn(main, {values.back()});
  return std::move(b).Finish();
}

// The lowest ModelPeak over every topological order, by enumeration.
Bytes BruteForcePeak(const OrderProblem& p, std::int64_t* orders) {
  const std::int32_t n = p.size();
  std::vector<std::int32_t> order;
  std::vector<char> done(n, 0);
  Bytes best = -1;
  std::function<void()> extend = [&] {
    if (static_cast<std::int32_t>(order.size()) == n) {
      ++*orders;
      const Bytes peak = ModelPeak(p, order);
      if (best < 0 || peak < best) best = peak;
      return;
    }
    for (std::int32_t u = 0; u < n; ++u) {
      if (done[u]) continue;
      if (!std::all_of(p.preds[u].begin(), p.preds[u].end(), [&](std::int32_t q) { return done[q]; })) continue;
      done[u] = 1;
      order.push_back(u);
      extend();
      order.pop_back();
      done[u] = 0;
    }
  };
  extend();
  return best;
}

TEST(ExactOrderTest, EqualsBruteForceOn500RandomPrograms) {
  std::mt19937 rng(28);
  int checked = 0;
  std::int64_t orders = 0;
  for (int attempt = 0; checked < 500 && attempt < 5000; ++attempt) {
    const Program program = RandomProgram(rng);
    if (!ValidateProgram(program, "random").ok()) continue;
    absl::StatusOr<AliasSets> sets = ComputeAliasSets(program);
    if (!sets.ok()) continue;
    const OrderProblem p = BuildOrderProblems(program, *sets)[program.entry];
    ++checked;
    const Bytes brute = BruteForcePeak(p, &orders);
    const ExactResult exact = ExactOrder(p, kMaxTotalBytes);
    ASSERT_EQ(exact.status, p.size() == 0 ? ExactStatus::kProven : ExactStatus::kImproved) << attempt;
    if (p.size() == 0) continue;
    EXPECT_EQ(exact.peak, brute) << attempt;
    EXPECT_TRUE(IsTopological(p, exact.order)) << attempt;
    EXPECT_EQ(ModelPeak(p, exact.order), exact.peak) << attempt;
    // With the optimum as the bound nothing is below it: proven.
    EXPECT_EQ(ExactOrder(p, brute).status, ExactStatus::kProven) << attempt;
    EXPECT_LE(OrderLowerBound(p), brute) << attempt;
    // Flat programs: the model is the re-analysed transient max-live.
    Program reordered = program;
    for (std::int32_t i = 0; i < p.size(); ++i) reordered.computations[program.entry].ops[i] = p.ops[exact.order[i]];
    EXPECT_TRUE(ValidateProgram(reordered, "random").ok()) << attempt;
    absl::StatusOr<Bytes> real = TransientMaxLive(reordered);
    ASSERT_TRUE(real.ok()) << real.status();
    EXPECT_EQ(*real, exact.peak) << attempt;
  }
  EXPECT_EQ(checked, 500);
  EXPECT_GT(orders, 500);  // programs with more than one order were enumerated
}

}  // namespace
}  // namespace memplan
