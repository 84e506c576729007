#include "execute/program_layout.h"

#include <algorithm>
#include <deque>
#include <limits>
#include <optional>

#include "fmt/format.h"

namespace memplan {

namespace {

class ScheduleFlattener {
 public:
  explicit ScheduleFlattener(const Program& program)
      : program_(program),
        op_time_(program.ops.size(), kNoId),
        visited_(program.computations.size(), false) {}

  void Flatten(ComputationId id) {
    if (id < 0 || id >= static_cast<ComputationId>(program_.computations.size()) ||
        visited_[static_cast<std::size_t>(id)]) {
      return;
    }
    visited_[static_cast<std::size_t>(id)] = true;
    // Waves are >= 0 (the validator checks); -1 stands for none (a plain
    // integer: GCC 12 -O2 warns an optional one may be used uninitialized).
    std::int64_t previous_wave = -1;
    for (OpId op_id : program_.computations[static_cast<std::size_t>(id)].ops) {
      const Op& op = program_.ops[static_cast<std::size_t>(op_id)];
      if (!op.callees.empty()) {
        for (ComputationId callee : op.callees) Flatten(callee);
        op_time_[static_cast<std::size_t>(op_id)] = time_++;
        previous_wave = -1;
      } else if (op.wave && previous_wave == *op.wave && time_ > 0) {
        op_time_[static_cast<std::size_t>(op_id)] = time_ - 1;
      } else {
        op_time_[static_cast<std::size_t>(op_id)] = time_++;
        previous_wave = op.wave.value_or(-1);
      }
    }
  }

  std::vector<TimeStep> TakeTimes() { return std::move(op_time_); }
  TimeStep time_steps() const { return time_; }

 private:
  const Program& program_;
  std::vector<TimeStep> op_time_;
  std::vector<bool> visited_;
  TimeStep time_ = 0;
};

// offset(to) = offset(from) + delta.
struct StorageLink {
  ValueId to = kNoId;
  Bytes delta = 0;
};

void LinkValues(std::vector<std::vector<StorageLink>>& links, ValueId from, ValueId to,
                Bytes delta) {
  if (from == kNoId || to == kNoId) return;
  links[static_cast<std::size_t>(from)].push_back({to, delta});
  links[static_cast<std::size_t>(to)].push_back({from, -delta});
}

std::vector<std::vector<StorageLink>> StorageLinks(const Program& program) {
  std::vector<std::vector<StorageLink>> links(program.values.size());
  const auto at = [](const std::vector<ValueId>& ids, std::size_t i) {
    return i < ids.size() ? ids[i] : kNoId;
  };
  for (std::size_t v = 0; v < program.values.size(); ++v) {
    const Value& value = program.values[v];
    const ValueId id = static_cast<ValueId>(v);
    if (value.alias == AliasKind::kTied) LinkValues(links, value.alias_of, id, 0);
    if (value.alias == AliasKind::kView) LinkValues(links, value.alias_of, id, value.view_offset);
    for (const GatheredOperand& g : value.gathers) LinkValues(links, id, g.operand, g.offset);
  }
  for (const Op& op : program.ops) {
    const auto comp = [&](std::size_t i) -> const Computation* {
      return i < op.callees.size() && op.callees[i] >= 0 &&
                     op.callees[i] < static_cast<ComputationId>(program.computations.size())
                 ? &program.computations[static_cast<std::size_t>(op.callees[i])]
                 : nullptr;
    };
    switch (op.kind) {
      case OpKind::kWhile: {
        const Computation* cond = comp(0);
        const Computation* body = comp(1);
        for (std::size_t i = 0; i < op.operands.size(); ++i) {
          const ValueId init = op.operands[i];
          if (cond) LinkValues(links, init, at(cond->params, i), 0);
          if (body) {
            LinkValues(links, init, at(body->params, i), 0);
            LinkValues(links, init, at(body->results, i), 0);
          }
          LinkValues(links, init, at(op.results, i), 0);
        }
        break;
      }
      case OpKind::kConditional:
        for (std::size_t b = 0; b < op.callees.size(); ++b) {
          const Computation* branch = comp(b);
          if (!branch) continue;
          for (std::size_t i = 1; i < op.operands.size(); ++i) {
            LinkValues(links, op.operands[i], at(branch->params, i - 1), 0);
          }
          for (std::size_t j = 0; j < op.results.size(); ++j) {
            LinkValues(links, op.results[j], at(branch->results, j), 0);
          }
        }
        break;
      case OpKind::kCall:
      case OpKind::kExecute:
        if (const Computation* callee = comp(0)) {
          for (std::size_t i = 0; i < op.operands.size(); ++i) {
            LinkValues(links, op.operands[i], at(callee->params, i), 0);
          }
          for (std::size_t j = 0; j < op.results.size(); ++j) {
            LinkValues(links, op.results[j], at(callee->results, j), 0);
          }
        }
        break;
      case OpKind::kAsyncDone:
        for (std::size_t i = 0; i < op.results.size(); ++i) {
          LinkValues(links, op.results[i], at(op.operands, i), 0);
        }
        break;
      default:
        break;
    }
  }
  return links;
}

}  // namespace

absl::StatusOr<ProgramLayout> LayOutProgram(const Program& program, const BufferSet& buffers) {
  ProgramLayout layout;
  ScheduleFlattener flattener(program);
  for (std::size_t c = 0; c < program.computations.size(); ++c) {
    if (program.computations[c].initializer) flattener.Flatten(static_cast<ComputationId>(c));
  }
  flattener.Flatten(program.entry);
  layout.op_time = flattener.TakeTimes();
  layout.time_steps = flattener.time_steps();

  const std::size_t n = program.values.size();
  layout.buffer_of.assign(n, kNoId);
  layout.offset_in_buffer.assign(n, 0);
  for (std::size_t b = 0; b < buffers.buffers.size(); ++b) {
    for (ValueId v : buffers.buffers[b].values) {
      if (v >= 0 && static_cast<std::size_t>(v) < n) {
        layout.buffer_of[static_cast<std::size_t>(v)] = static_cast<BufferId>(b);
      }
    }
  }
  const std::vector<std::vector<StorageLink>> links = StorageLinks(program);
  const auto name = [&](ValueId v) { return program.values[static_cast<std::size_t>(v)].name; };
  std::vector<bool> placed(n, false);
  for (std::size_t root = 0; root < n; ++root) {
    if (placed[root]) continue;
    // Breadth-first over the links: every value reached shares storage with the root.
    std::vector<ValueId> members{static_cast<ValueId>(root)};
    placed[root] = true;
    layout.offset_in_buffer[root] = 0;
    for (std::size_t next = 0; next < members.size(); ++next) {
      const ValueId from = members[next];
      for (const StorageLink& link : links[static_cast<std::size_t>(from)]) {
        const std::size_t to = static_cast<std::size_t>(link.to);
        const Bytes offset = layout.offset_in_buffer[static_cast<std::size_t>(from)] + link.delta;
        if (layout.buffer_of[to] != layout.buffer_of[static_cast<std::size_t>(from)]) {
          return absl::InvalidArgumentError(fmt::format(
              "%{} and %{} share storage, but the plan puts them in different buffers", name(from),
              name(link.to)));
        }
        if (placed[to]) {
          if (layout.offset_in_buffer[to] != offset) {
            return absl::InvalidArgumentError(fmt::format(
                "%{} would sit at two byte offsets in its buffer", name(link.to)));
          }
          continue;
        }
        placed[to] = true;
        layout.offset_in_buffer[to] = offset;
        members.push_back(link.to);
      }
    }
    Bytes lowest = std::numeric_limits<Bytes>::max();
    for (ValueId v : members) lowest = std::min(lowest, layout.offset_in_buffer[static_cast<std::size_t>(v)]);
    for (ValueId v : members) layout.offset_in_buffer[static_cast<std::size_t>(v)] -= lowest;
  }
  return layout;
}

}  // namespace memplan
