#include "msa/cost_model.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <memory>
#include <utility>

namespace memplan {
// Named, not anonymous: CostModel::Impl holds these types, and GCC warns
// (-Wsubobject-linkage) when a class outside the main file of a unity build
// has fields of anonymous-namespace type.
namespace cost_model_detail {

// Sparse table answering "index of the minimum loop depth in [lo, hi]" in
// O(1) after O(T log T) setup. Ties keep the earlier index (deterministic).
class MinDepthTable {
 public:
  explicit MinDepthTable(const std::vector<int>& depth) : depth_(depth) {
    const std::size_t n = depth.size();
    std::vector<std::size_t> level(n);
    for (std::size_t i = 0; i < n; ++i) level[i] = i;
    table_.push_back(std::move(level));
    for (std::size_t width = 2; width <= n; width *= 2) {
      const std::vector<std::size_t>& prev = table_.back();
      std::vector<std::size_t> next(n - width + 1);
      for (std::size_t i = 0; i + width <= n; ++i) next[i] = Better(prev[i], prev[i + width / 2]);
      table_.push_back(std::move(next));
    }
  }

  std::size_t ArgMin(std::size_t lo, std::size_t hi) const {
    std::size_t k = 0;
    while ((std::size_t{2} << k) <= hi - lo + 1) ++k;
    return Better(table_[k][lo], table_[k][hi + 1 - (std::size_t{1} << k)]);
  }

 private:
  std::size_t Better(std::size_t a, std::size_t b) const {
    return depth_[b] < depth_[a] ? b : a;
  }
  const std::vector<int>& depth_;
  std::vector<std::vector<std::size_t>> table_;
};

struct BufferUse {
  OpId op;
  int position;
};

}  // namespace cost_model_detail

struct CostModel::Impl {
  using BufferUse = cost_model_detail::BufferUse;
  using MinDepthTable = cost_model_detail::MinDepthTable;

  const Program* program;
  const ProgramAnalysis* analysis;
  Target target;
  CostModelOptions options;

  std::vector<double> compute_s;     // per op
  std::vector<double> total_bytes;   // per op: bytes accessed
  std::vector<double> share_scale;   // per op: bytes accessed per byte of operand/result size
  std::vector<double> exec_count;    // per op
  std::vector<int> depth_at;         // per time step
  std::vector<double> count_at;      // per time step: execution count of its ops
  std::vector<double> prefix;        // prefix[t] = weighted all-default seconds of steps < t
  std::vector<std::pair<OpId, int>> definition;       // per buffer; {kNoId, 0}: none
  std::vector<std::vector<BufferUse>> uses;           // per buffer, compute ops only
  std::unique_ptr<MinDepthTable> min_depth;

  bool Costless(OpId op) const { return program->ops[op].kind != OpKind::kCompute; }

  double ValueSize(ValueId v) const {
    const Value& value = program->values[v];
    return value.is_timepoint ? 0.0 : static_cast<double>(value.size);
  }

  double OperandBytes(OpId op, int i) const {
    const Op& o = program->ops[op];
    if (Costless(op) || i < 0 || i >= static_cast<int>(o.operands.size())) return 0;
    return ValueSize(o.operands[i]) * share_scale[op];
  }

  double ResultBytes(OpId op, int i) const {
    const Op& o = program->ops[op];
    if (Costless(op) || i < 0 || i >= static_cast<int>(o.results.size())) return 0;
    return ValueSize(o.results[i]) * share_scale[op];
  }

  double MemorySeconds(OpId op, double alternate_bytes) const {
    alternate_bytes = std::min(alternate_bytes, total_bytes[op]);
    return alternate_bytes / target.alternate_bandwidth +
           (total_bytes[op] - alternate_bytes) / target.default_bandwidth;
  }

  double Benefit(OpId op, double alternate_bytes) const {
    const double compute = compute_s[op];
    const double memory = MemorySeconds(op, 0);
    if (memory > compute) return (memory - MemorySeconds(op, alternate_bytes)) * exec_count[op];
    return memory - compute;
  }
};

namespace {

// Execution count per computation: the product of the trip counts of the
// while ops enclosing it. Unreachable computations run 0 times.
std::vector<double> ComputationCounts(const Program& program, const FlatSchedule& schedule,
                                      const CostModelOptions& options) {
  const std::size_t n = program.computations.size();
  std::vector<OpId> caller(n, kNoId);
  for (OpId op : schedule.order) {
    for (ComputationId c : program.ops[op].callees) {
      if (c >= 0 && static_cast<std::size_t>(c) < n) caller[c] = op;
    }
  }
  std::vector<double> count(n, -1);
  if (program.entry >= 0 && static_cast<std::size_t>(program.entry) < n) count[program.entry] = 1;
  for (std::size_t c = 0; c < n; ++c) {
    // Walk up to a computation with a known count, then unwind.
    std::vector<ComputationId> chain;
    ComputationId at = static_cast<ComputationId>(c);
    while (count[at] < 0 && caller[at] != kNoId) {
      chain.push_back(at);
      at = program.ops[caller[at]].computation;
    }
    double base = count[at] < 0 ? 0 : count[at];
    if (count[at] < 0) count[at] = 0;
    for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
      const Op& call = program.ops[caller[*it]];
      if (call.kind == OpKind::kWhile) {
        base *= static_cast<double>(
            std::max<std::int64_t>(0, call.trip_count.value_or(options.default_trip_count)));
      }
      count[*it] = base;
    }
  }
  return count;
}

}  // namespace

CostModel::CostModel(const Program& program, const ProgramAnalysis& analysis,
                     const Target& target, CostModelOptions options) {
  auto impl = std::make_shared<Impl>();
  impl->program = &program;
  impl->analysis = &analysis;
  impl->target = target;
  impl->options = options;

  const std::size_t ops = program.ops.size();
  const std::vector<double> computation_count =
      ComputationCounts(program, analysis.schedule, options);
  impl->compute_s.assign(ops, 0);
  impl->total_bytes.assign(ops, 0);
  impl->share_scale.assign(ops, 0);
  impl->exec_count.assign(ops, 0);
  for (std::size_t i = 0; i < ops; ++i) {
    const Op& op = program.ops[i];
    const OpId id = static_cast<OpId>(i);
    if (analysis.schedule.op_time[i] != kNoId) impl->exec_count[i] = computation_count[op.computation];
    if (impl->Costless(id)) continue;
    impl->compute_s[i] = std::max(op.cost.flops / target.flops_per_second,
                                  op.cost.transcendentals / target.transcendentals_per_second);
    double sizes = 0;
    for (ValueId v : op.operands) sizes += impl->ValueSize(v);
    for (ValueId v : op.results) sizes += impl->ValueSize(v);
    if (op.cost.bytes_accessed) {
      impl->total_bytes[i] = static_cast<double>(*op.cost.bytes_accessed);
      impl->share_scale[i] = sizes > 0 ? impl->total_bytes[i] / sizes : 0;
    } else {
      impl->total_bytes[i] = sizes;
      impl->share_scale[i] = 1;
    }
  }

  // Per time step: loop depth, execution count and the weighted elapsed time
  // of the step (ops sharing a step run concurrently: the longest counts).
  const std::size_t steps =
      static_cast<std::size_t>(std::max<TimeStep>(1, analysis.schedule.time_steps));
  impl->depth_at.assign(steps, 0);
  impl->count_at.assign(steps, 1);
  std::vector<double> step_elapsed(steps, 0);
  for (OpId op : analysis.schedule.order) {
    const auto t = static_cast<std::size_t>(analysis.schedule.op_time[op]);
    impl->depth_at[t] = analysis.schedule.loop_depth[op];
    impl->count_at[t] = impl->exec_count[op];
    const double elapsed =
        std::max(impl->compute_s[op], impl->MemorySeconds(op, 0)) * impl->exec_count[op];
    step_elapsed[t] = std::max(step_elapsed[t], elapsed);
  }
  impl->prefix.assign(steps + 1, 0);
  for (std::size_t t = 0; t < steps; ++t) impl->prefix[t + 1] = impl->prefix[t] + step_elapsed[t];
  impl->min_depth = std::make_unique<cost_model_detail::MinDepthTable>(impl->depth_at);

  // The defining op of each buffer (the earliest op writing it) and its
  // reads by compute ops, in schedule order.
  const std::size_t buffers = analysis.buffers.buffers.size();
  impl->definition.assign(buffers, {kNoId, 0});
  impl->uses.assign(buffers, {});
  for (OpId op : analysis.schedule.order) {
    const OpBuffers& ob = analysis.op_buffers[op];
    for (std::size_t r = 0; r < ob.results.size(); ++r) {
      const BufferId b = ob.results[r];
      if (b != kNoId && impl->definition[b].first == kNoId) {
        impl->definition[b] = {op, static_cast<int>(r)};
      }
    }
    if (impl->Costless(op)) continue;
    for (std::size_t u = 0; u < ob.operands.size(); ++u) {
      if (ob.operands[u] != kNoId) impl->uses[ob.operands[u]].push_back({op, static_cast<int>(u)});
    }
  }
  impl_ = std::move(impl);
}

const Target& CostModel::target() const { return impl_->target; }

double CostModel::OpElapsed(OpId op, std::span<const int> operands_in_alternate,
                            std::span<const int> results_in_alternate) const {
  double alternate_bytes = 0;
  for (int i : operands_in_alternate) alternate_bytes += impl_->OperandBytes(op, i);
  for (int i : results_in_alternate) alternate_bytes += impl_->ResultBytes(op, i);
  return OpElapsedWithAlternateBytes(op, alternate_bytes);
}

double CostModel::OpElapsedWithAlternateBytes(OpId op, double alternate_bytes) const {
  return std::max(impl_->compute_s[op], impl_->MemorySeconds(op, alternate_bytes));
}

double CostModel::OpElapsedAllDefault(OpId op) const {
  return std::max(impl_->compute_s[op], impl_->MemorySeconds(op, 0));
}

double CostModel::OpElapsedAllAlternate(OpId op) const {
  return std::max(impl_->compute_s[op], impl_->MemorySeconds(op, impl_->total_bytes[op]));
}

double CostModel::ComputeSeconds(OpId op) const { return impl_->compute_s[op]; }

double CostModel::OperandBytesAccessed(OpId op, int i) const { return impl_->OperandBytes(op, i); }

double CostModel::ResultBytesAccessed(OpId op, int i) const { return impl_->ResultBytes(op, i); }

double CostModel::TotalBytesAccessed(OpId op) const { return impl_->total_bytes[op]; }

double CostModel::ExecutionCount(OpId op) const { return impl_->exec_count[op]; }

int CostModel::LoopDepthAt(TimeStep t) const {
  if (t < 0 || t >= static_cast<TimeStep>(impl_->depth_at.size())) return 0;
  return impl_->depth_at[t];
}

double CostModel::CopySeconds(Bytes bytes) const {
  return static_cast<double>(bytes) / impl_->target.copy_bandwidth;
}

double CostModel::ElapsedBetween(TimeStep start, TimeStep end) const {
  const auto steps = static_cast<TimeStep>(impl_->depth_at.size());
  start = std::max<TimeStep>(start, -1);
  end = std::min(end, steps);
  if (end - start < 2) return 0;
  const double total = impl_->prefix[end] - impl_->prefix[start + 1];
  const auto lo = static_cast<std::size_t>(std::max<TimeStep>(start, 0));
  const auto hi = static_cast<std::size_t>(std::min(end, steps - 1));
  const double normaliser = impl_->count_at[impl_->min_depth->ArgMin(lo, hi)];
  return normaliser > 0 ? total / normaliser : 0;
}

double CostModel::UseBenefit(OpId op, int operand) const {
  return impl_->Benefit(op, impl_->OperandBytes(op, operand));
}

double CostModel::DefinitionBenefit(OpId op, int result) const {
  return impl_->Benefit(op, impl_->ResultBytes(op, result));
}

double CostModel::MemoryBoundedness(BufferId buffer) const {
  const Buffer& b = impl_->analysis->buffers.buffers[buffer];
  if (b.size <= 0) return 0;
  const auto [def_op, def_result] = impl_->definition[buffer];
  double benefit = def_op == kNoId ? 0 : DefinitionBenefit(def_op, def_result);
  for (const cost_model_detail::BufferUse& use : impl_->uses[buffer]) {
    const double use_benefit = UseBenefit(use.op, use.position);
    if (benefit > 0 && use_benefit > 0) {
      benefit += use_benefit;
    } else {
      benefit = std::max(benefit, use_benefit);
    }
  }
  return benefit / std::sqrt(static_cast<double>(b.size));
}

}  // namespace memplan
