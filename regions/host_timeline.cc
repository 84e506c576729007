#include "regions/host_timeline.h"

#include <algorithm>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <utility>

#include "regions/captured_copies.h"
#include "regions/lowering.h"

namespace memplan {
namespace {

class TimelineBuilder {
 public:
  TimelineBuilder(const Program& program, const ProgramAnalysis& analysis,
                  const RegionScopes& scopes, RegionPlan& plan)
      : program_(program), analysis_(analysis), scopes_(scopes), plan_(plan) {
    region_of_.assign(program.computations.size(), kNoId);
    for (std::size_t s = 0; s < scopes.regions.size(); ++s) {
      for (ComputationId c : scopes.regions[s].computations) {
        region_of_[c] = static_cast<std::int32_t>(s);
      }
      scope_of_execute_[scopes.regions[s].execute] = s;
    }
    context_.value_lifetime.assign(program.values.size(), Lifetime::kTransient);
    for (ValueId v = 0; v < static_cast<ValueId>(program.values.size()); ++v) {
      const BufferId b = analysis.value_buffer[v];
      if (b != kNoId) context_.value_lifetime[v] = analysis.buffers.buffers[b].lifetime;
    }
    // A called computation's parameter takes its timepoint from the call site.
    for (const Op& op : program.ops) {
      for (ComputationId callee : op.callees) {
        const std::vector<ValueId>& params = program.computations[callee].params;
        const std::size_t skip = op.kind == OpKind::kConditional ? 1 : 0;  // the predicate
        for (std::size_t i = 0; i < params.size() && i + skip < op.operands.size(); ++i) {
          param_source_[params[i]] = op.operands[i + skip];
        }
        // A call's timepoint results are what its callee returns.
        const std::vector<ValueId>& returned = program.computations[callee].results;
        for (std::size_t i = 0; op.kind == OpKind::kCall && i < returned.size() && i < op.results.size(); ++i) {
          param_source_[op.results[i]] = returned[i];
        }
      }
    }
  }

  void Run() {
    const Computation& entry = program_.computations[program_.entry];
    HostStep input;
    input.commands.push_back(WholeValues(CommandKind::kInput, entry.params, 0, Access::kWrite));
    for (ValueId p : entry.params) {
      if (!program_.values[p].is_timepoint) continue;
      HostStep join;
      join.kind = HostStepKind::kJoin;
      join.signal = program_.values[p].name;
      names_[p] = join.signal;
      plan_.steps.push_back(std::move(join));
    }
    AddHostStep(std::move(input));

    for (OpId o : analysis_.schedule.order) {
      const Op& op = program_.ops[o];
      if (region_of_[op.computation] != kNoId) continue;  // inside a region
      if (auto it = scope_of_execute_.find(o); it != scope_of_execute_.end()) {
        Execute(it->second);
        continue;
      }
      Host(o);
    }

    std::vector<ValueId> outputs;
    for (ValueId r : entry.results) outputs.push_back(r);
    for (const Computation& c : program_.computations) {
      if (c.initializer) outputs.insert(outputs.end(), c.results.begin(), c.results.end());
    }
    HostStep output;
    output.commands.push_back(WholeValues(CommandKind::kOutput, outputs,
                                          analysis_.buffers.time_steps - 1, Access::kRead));
    AddHostStep(std::move(output));
    AddReleases();
    ExtendForConcurrency();
  }

 private:
  Command WholeValues(CommandKind kind, const std::vector<ValueId>& values, TimeStep time,
                      Access access) const {
    Command c;
    c.kind = kind;
    c.time = time;
    std::unordered_set<BufferId> seen;  // a buffer returned twice is written once
    for (ValueId v : values) {
      const Value& value = program_.values[v];
      const BufferId b = analysis_.value_buffer[v];
      if (value.is_timepoint || b == kNoId || !seen.insert(b).second) continue;
      CommandRange range;
      range.length = SizeExprOf(value);
      range.access = access;
      range.value = v;
      if (range.length == SizeExpr()) continue;
      c.ranges.push_back(std::move(range));
    }
    return c;
  }

  // Host code runs synchronously: a host step first waits for every execute
  // or upload that touched a buffer it touches (IREE's host waits on a
  // timepoint).
  void AddHostStep(HostStep step) {
    std::erase_if(step.commands, [](const Command& c) { return c.ranges.empty(); });
    if (step.commands.empty()) return;
    for (BufferId b : Buffers(step)) {
      auto it = touched_by_.find(b);
      if (it == touched_by_.end()) continue;
      for (const std::string& signal : it->second) AddOnce(step.awaits, signal);
    }
    RecordTouches(step);
    plan_.steps.push_back(std::move(step));
  }

  static void AddOnce(std::vector<std::string>& list, const std::string& item) {
    if (std::find(list.begin(), list.end(), item) == list.end()) list.push_back(item);
  }

  // Buffers the step's commands touch, in first-touch order.
  std::vector<BufferId> Buffers(const HostStep& step) const {
    std::vector<BufferId> buffers;
    std::unordered_set<BufferId> seen;
    for (const Command& c : step.commands) {
      for (const CommandRange& r : c.ranges) {
        const BufferId b = r.value == kNoId ? kNoId : analysis_.value_buffer[r.value];
        if (b != kNoId && seen.insert(b).second) buffers.push_back(b);
      }
    }
    return buffers;
  }

  // Notes which step (about to be appended) last touches each buffer, and
  // which asynchronous steps (executes, uploads) touch it.
  void RecordTouches(const HostStep& step) {
    for (BufferId b : Buffers(step)) {
      last_step_[b] = plan_.steps.size();
      if (step.kind == HostStepKind::kExecute || step.kind == HostStepKind::kUpload) {
        AddOnce(touched_by_[b], step.signal);
      }
    }
  }

  // A transient (or staging) result reservation is released after the last
  // step that touches it, once every execute that touched it is done.
  void AddReleases() {
    std::vector<std::pair<std::size_t, HostStep>> releases;  // (after step, dealloca)
    for (std::size_t r = 0; r < plan_.resources.size(); ++r) {
      const Resource& resource = plan_.resources[r];
      if (resource.kind != ResourceKind::kResults ||
          (resource.lifetime != Lifetime::kTransient && resource.lifetime != Lifetime::kStaging)) {
        continue;
      }
      HostStep free;
      free.kind = HostStepKind::kDealloca;
      free.resource = static_cast<std::int32_t>(r);
      free.signal = resource.name + ".freed";
      std::size_t last = 0;
      for (const Slice& slice : resource.slices) {
        if (auto it = last_step_.find(slice.buffer); it != last_step_.end()) {
          last = std::max(last, it->second);
        }
        if (auto it = touched_by_.find(slice.buffer); it != touched_by_.end()) {
          for (const std::string& signal : it->second) AddOnce(free.awaits, signal);
        }
      }
      releases.emplace_back(last, std::move(free));
    }
    std::stable_sort(releases.begin(), releases.end(),
                     [](const auto& a, const auto& b) { return a.first < b.first; });
    std::vector<HostStep> steps;
    std::size_t next = 0;
    for (std::size_t i = 0; i < plan_.steps.size(); ++i) {
      steps.push_back(std::move(plan_.steps[i]));
      for (; next < releases.size() && releases[next].first == i; ++next) {
        steps.push_back(std::move(releases[next].second));
      }
    }
    plan_.steps = std::move(steps);
  }

  // Allocations share memory only if one is released before the other is
  // allocated in timepoint order. Time ranges follow the program's text
  // order, which regions that may run concurrently do not: a released
  // allocation's range is extended to the start of every later allocation
  // whose alloca does not wait for the release. Happens-before: awaits, and a
  // host step before every later step; per step, a bitset of the releases
  // that happen before it. O(steps * releases / 64 + allocations^2).
  void ExtendForConcurrency() {
    std::vector<std::int32_t> release_of(plan_.resources.size(), kNoId);
    std::vector<std::size_t> release_step;  // release index -> step
    std::unordered_map<std::string, std::size_t> step_of_signal;
    for (std::size_t i = 0; i < plan_.steps.size(); ++i) {
      const HostStep& step = plan_.steps[i];
      if (!step.signal.empty()) step_of_signal[step.signal] = i;
      if (step.kind == HostStepKind::kDealloca) {
        release_of[step.resource] = static_cast<std::int32_t>(release_step.size());
        release_step.push_back(i);
      }
    }
    const std::size_t words = (release_step.size() + 63) / 64;
    std::vector<std::vector<std::uint64_t>> before(plan_.steps.size(),
                                                   std::vector<std::uint64_t>(words, 0));
    std::vector<std::uint64_t> host(words, 0);  // releases before the last host step
    std::vector<std::int64_t> release_index(plan_.steps.size(), -1);
    for (std::size_t k = 0; k < release_step.size(); ++k) release_index[release_step[k]] = k;
    for (std::size_t i = 0; i < plan_.steps.size(); ++i) {
      std::vector<std::uint64_t>& bits = before[i];
      for (std::size_t w = 0; w < words; ++w) bits[w] |= host[w];
      for (const std::string& signal : plan_.steps[i].awaits) {
        auto it = step_of_signal.find(signal);
        if (it == step_of_signal.end() || it->second >= i) continue;
        const std::size_t p = it->second;
        for (std::size_t w = 0; w < words; ++w) bits[w] |= before[p][w];
        if (release_index[p] >= 0) bits[release_index[p] / 64] |= 1ull << (release_index[p] % 64);
      }
      if (plan_.steps[i].kind == HostStepKind::kHost) host = bits;
    }
    for (std::size_t i = 0; i < plan_.steps.size(); ++i) {
      const HostStep& step = plan_.steps[i];
      if (step.kind != HostStepKind::kAlloca) continue;
      const Resource& later = plan_.resources[step.resource];
      for (std::size_t r = 0; r < plan_.resources.size(); ++r) {
        Resource& earlier = plan_.resources[r];
        const std::int32_t k = release_of[r];
        if (k < 0 || static_cast<std::int32_t>(r) == step.resource || later.start <= earlier.end) {
          continue;
        }
        if (!(before[i][k / 64] >> (k % 64) & 1)) earlier.end = later.start;
      }
    }
  }

  // The timepoint name a value stands for, "" when none is known.
  std::string NameOf(ValueId v) const {
    for (int depth = 0; depth < 1024; ++depth) {  // call nesting is far shallower
      if (auto it = names_.find(v); it != names_.end()) return it->second;
      auto source = param_source_.find(v);
      if (source == param_source_.end()) return "";
      v = source->second;
    }
    return "";
  }

  std::vector<std::string> TimepointOperands(const Op& op) const {
    std::vector<std::string> awaits;
    for (ValueId v : op.operands) {
      if (!program_.values[v].is_timepoint) continue;
      std::string name = NameOf(v);
      if (!name.empty() && std::find(awaits.begin(), awaits.end(), name) == awaits.end()) {
        awaits.push_back(std::move(name));
      }
    }
    return awaits;
  }

  void Execute(std::size_t s) {
    const RegionScope& scope = scopes_.regions[s];
    const Op& execute = program_.ops[scope.execute];
    const Computation& region = program_.computations[scope.region];
    const std::vector<std::string> awaits = TimepointOperands(execute);

    // Values the region's ops read, to tell which uploads it waits on.
    std::unordered_set<ValueId> read;
    for (ComputationId c : scope.computations) {
      for (OpId o : program_.computations[c].ops) {
        for (ValueId v : program_.ops[o].operands) read.insert(v);
      }
    }
    HostStep run;
    run.kind = HostStepKind::kExecute;
    run.region = static_cast<std::int32_t>(s);
    run.signal = region.name + ".done";
    run.awaits = awaits;
    std::vector<std::string> joined = {run.signal};
    std::vector<std::int32_t> slabs;
    for (std::int32_t r : plan_.regions[s].resources) {
      const Resource& resource = plan_.resources[r];
      HostStep step;
      step.resource = r;
      step.signal = resource.name + ".ready";
      if (resource.kind == ResourceKind::kUpload) {
        step.kind = HostStepKind::kUpload;
        bool used = false;
        for (const Slice& slice : resource.slices) {
          for (ValueId v : analysis_.buffers.buffers[slice.buffer].values) {
            used = used || read.count(v) > 0;
            const OpId def = program_.values[v].defining_op;
            if (def == kNoId || program_.ops[def].kind != OpKind::kConstant) continue;
            Command c = WholeValues(CommandKind::kUpload, {v}, analysis_.schedule.op_time[def],
                                    Access::kWrite);
            c.op = def;
            step.commands.push_back(std::move(c));
          }
        }
        (used ? run.awaits : joined).push_back(step.signal);
        RecordTouches(step);
      } else {
        step.kind = HostStepKind::kAlloca;
        step.awaits = awaits;
        run.awaits.push_back(step.signal);
        if (resource.kind == ResourceKind::kSlab) slabs.push_back(r);
      }
      plan_.steps.push_back(std::move(step));
    }
    LoweringContext context = context_;
    context.affinity = plan_.regions[s].affinity;
    for (OpId o : region.ops) {
      std::vector<Command> commands =
          LowerOp(program_, o, analysis_.schedule.op_time[o], context);
      for (Command& c : commands) run.commands.push_back(std::move(c));
    }
    InsertCopyCommands(plan_.regions[s].copies, run.commands);
    RecordTouches(run);
    plan_.steps.push_back(std::move(run));
    for (std::int32_t r : slabs) {
      HostStep free;
      free.kind = HostStepKind::kDealloca;
      free.resource = r;
      free.signal = plan_.resources[r].name + ".freed";
      free.awaits = {region.name + ".done"};
      joined.push_back(free.signal);
      plan_.steps.push_back(std::move(free));
    }
    std::string downstream = region.name + ".done";
    if (joined.size() > 1) {
      HostStep join;
      join.kind = HostStepKind::kJoin;
      join.signal = region.name + ".joined";
      join.awaits = joined;
      downstream = join.signal;
      plan_.steps.push_back(std::move(join));
    }
    plan_.regions[s].downstream = downstream;
    for (ValueId v : execute.results) {
      if (program_.values[v].is_timepoint) names_[v] = downstream;
    }
  }

  void Host(OpId o) {
    const Op& op = program_.ops[o];
    const TimeStep time = analysis_.schedule.op_time[o];
    bool has_timepoint = false;
    for (ValueId v : op.results) has_timepoint = has_timepoint || program_.values[v].is_timepoint;
    has_timepoint = has_timepoint && op.kind != OpKind::kCall;  // named through its callee
    if (has_timepoint) {
      HostStep join;
      join.kind = HostStepKind::kJoin;
      for (ValueId v : op.results) {
        if (!program_.values[v].is_timepoint) continue;
        if (join.signal.empty()) join.signal = program_.values[v].name;
        names_[v] = join.signal;
      }
      join.awaits = TimepointOperands(op);
      plan_.steps.push_back(std::move(join));
    }
    if (op.kind == OpKind::kCall) return;  // its callee's ops carry the work
    HostStep step;
    if (op.kind == OpKind::kConstant) {
      Command c = WholeValues(CommandKind::kUpload, op.results, time, Access::kWrite);
      c.op = o;
      step.commands.push_back(std::move(c));
    } else {
      step.commands = LowerOp(program_, o, time, context_);
    }
    // A host op that takes timepoints waits for them before it runs.
    step.awaits = TimepointOperands(op);
    AddHostStep(std::move(step));
  }

  const Program& program_;
  const ProgramAnalysis& analysis_;
  const RegionScopes& scopes_;
  RegionPlan& plan_;
  LoweringContext context_;
  std::vector<std::int32_t> region_of_;
  std::unordered_map<OpId, std::size_t> scope_of_execute_;
  std::unordered_map<ValueId, ValueId> param_source_;
  std::unordered_map<ValueId, std::string> names_;
  std::unordered_map<BufferId, std::size_t> last_step_;                 // last step touching it
  std::unordered_map<BufferId, std::vector<std::string>> touched_by_;  // executes touching it
};

}  // namespace

void BuildHostTimeline(const Program& program, const ProgramAnalysis& analysis,
                       const RegionScopes& scopes, RegionPlan& plan) {
  TimelineBuilder(program, analysis, scopes, plan).Run();
}

}  // namespace memplan
