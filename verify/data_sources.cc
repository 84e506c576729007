#include "verify/data_sources.h"

#include <cstddef>

namespace memplan::region_verify {
namespace {

bool Valid(const std::vector<Value>& values, ValueId v) {
  return v >= 0 && v < static_cast<ValueId>(values.size());
}

const Computation* Callee(const Program& program, ComputationId c) {
  if (c < 0 || c >= static_cast<ComputationId>(program.computations.size())) return nullptr;
  return &program.computations[c];
}

// Element i of `ids`, or kNoId past its end (malformed programs stay safe).
ValueId At(const std::vector<ValueId>& ids, std::size_t i) {
  return i < ids.size() ? ids[i] : kNoId;
}

}  // namespace

DataSources::DataSources(const Program& program)
    : parents_(program.values.size()), seen_(program.values.size(), 0) {
  for (ValueId v = 0; v < static_cast<ValueId>(program.values.size()); ++v) {
    if (program.values[v].alias != AliasKind::kNone) AddParent(v, program.values[v].alias_of);
  }
  for (const Op& op : program.ops) {
    switch (op.kind) {
      case OpKind::kCall:
      case OpKind::kExecute:
        if (const Computation* callee =
                Callee(program, op.callees.empty() ? kNoId : op.callees[0])) {
          for (std::size_t i = 0; i < callee->params.size(); ++i) {
            AddParent(callee->params[i], At(op.operands, i));
          }
          for (std::size_t i = 0; i < op.results.size(); ++i) {
            AddParent(op.results[i], At(callee->results, i));
          }
        }
        break;
      case OpKind::kWhile: {
        // callees = {cond, body}; both take the carried values, which come
        // from the operands on the first iteration and from the body's
        // results on later ones.
        const Computation* body = Callee(program, op.callees.size() > 1 ? op.callees[1] : kNoId);
        for (ComputationId c : op.callees) {
          const Computation* callee = Callee(program, c);
          if (!callee) continue;
          for (std::size_t i = 0; i < callee->params.size(); ++i) {
            AddParent(callee->params[i], At(op.operands, i));
            if (body) AddParent(callee->params[i], At(body->results, i));
          }
        }
        if (body) {
          for (std::size_t i = 0; i < op.results.size(); ++i) {
            AddParent(op.results[i], At(body->results, i));
          }
        }
        break;
      }
      case OpKind::kConditional:
        // operands = {pred, args...}; any branch may have run.
        for (ComputationId c : op.callees) {
          const Computation* branch = Callee(program, c);
          if (!branch) continue;
          for (std::size_t i = 0; i < branch->params.size(); ++i) {
            AddParent(branch->params[i], At(op.operands, i + 1));
          }
          for (std::size_t i = 0; i < op.results.size(); ++i) {
            AddParent(op.results[i], At(branch->results, i));
          }
        }
        break;
      case OpKind::kAsyncDone: {
        // The done's operands are the start's results.
        const ValueId first = At(op.operands, 0);
        if (!Valid(program.values, first)) break;
        const OpId start = program.values[first].defining_op;
        if (start < 0 || start >= static_cast<OpId>(program.ops.size()) ||
            program.ops[start].kind != OpKind::kAsyncStart) {
          break;
        }
        for (std::size_t i = 0; i < op.results.size(); ++i) {
          AddParent(op.results[i], At(program.ops[start].results, i));
        }
        break;
      }
      case OpKind::kCompute:
      case OpKind::kConstant:
      case OpKind::kAsyncStart: break;
    }
  }
}

void DataSources::AddParent(ValueId child, ValueId parent) {
  const auto n = static_cast<ValueId>(parents_.size());
  if (child < 0 || child >= n || parent < 0 || parent >= n || child == parent) return;
  parents_[child].push_back(parent);
}

bool DataSources::IsSource(ValueId source, ValueId value) {
  if (source == value) return true;
  const auto n = static_cast<ValueId>(parents_.size());
  if (source < 0 || source >= n || value < 0 || value >= n) return false;
  const std::uint64_t key =
      (static_cast<std::uint64_t>(value) << 32) | static_cast<std::uint32_t>(source);
  if (auto it = cache_.find(key); it != cache_.end()) return it->second;
  const bool found = Walk(source, value);
  cache_.emplace(key, found);
  return found;
}

bool DataSources::Walk(ValueId source, ValueId value) {
  ++generation_;
  std::vector<ValueId> stack = {value};
  seen_[value] = generation_;
  while (!stack.empty()) {
    const ValueId v = stack.back();
    stack.pop_back();
    for (ValueId p : parents_[v]) {
      if (p == source) return true;
      if (seen_[p] == generation_) continue;
      seen_[p] = generation_;
      stack.push_back(p);
    }
  }
  return false;
}

}  // namespace memplan::region_verify
