#include "regions/region_scope.h"

#include <algorithm>
#include <string>
#include <unordered_map>

#include "ir/diagnostic.h"
#include "regions/region_input_checks.h"

namespace memplan {
namespace {

// The region and every func it calls, transitively (calls only: other
// control flow inside a region is refused).
absl::StatusOr<std::vector<ComputationId>> CoveredComputations(const Program& program,
                                                               ComputationId region) {
  std::vector<ComputationId> covered = {region};
  for (std::size_t i = 0; i < covered.size(); ++i) {
    for (OpId o : program.computations[covered[i]].ops) {
      const Op& op = program.ops[o];
      if (op.kind == OpKind::kWhile || op.kind == OpKind::kConditional ||
          op.kind == OpKind::kExecute) {
        return LocatedError(program.source, op.loc,
                            op.opcode + " inside execution region @" +
                                program.computations[region].name +
                                ": regions hold async commands only; move it to the host "
                                "function around the region");
      }
      for (ComputationId callee : op.callees) covered.push_back(callee);
    }
  }
  return covered;
}

// Which regions' completion each host timepoint value implies, as a bitset
// over scopes: an execute's timepoint results imply it and whatever it
// awaited; any other op's timepoint results imply what its timepoint operands
// do; a parameter of a called func takes its call site's operand, a call's
// result what its callee returns.
class TimepointReach {
 public:
  TimepointReach(const Program& program, const ProgramAnalysis& analysis,
                 const RegionScopes& scopes)
      : program_(program), words_((scopes.regions.size() + 63) / 64) {
    std::unordered_map<OpId, std::size_t> scope_of;
    for (std::size_t s = 0; s < scopes.regions.size(); ++s) scope_of[scopes.regions[s].execute] = s;
    for (const Op& op : program.ops) {
      for (ComputationId callee : op.callees) {
        const std::vector<ValueId>& params = program.computations[callee].params;
        const std::size_t skip = op.kind == OpKind::kConditional ? 1 : 0;
        for (std::size_t i = 0; i < params.size() && i + skip < op.operands.size(); ++i) {
          source_[params[i]] = op.operands[i + skip];
        }
        // A call's results are what its callee returns.
        const std::vector<ValueId>& returned = program.computations[callee].results;
        for (std::size_t i = 0; op.kind == OpKind::kCall && i < returned.size() && i < op.results.size(); ++i) {
          source_[op.results[i]] = returned[i];
        }
      }
    }
    for (OpId o : analysis.schedule.order) {  // definitions before uses
      const Op& op = program.ops[o];
      if (op.kind == OpKind::kCall) continue;  // its results follow source_
      std::vector<std::uint64_t> bits(words_, 0);
      bool any = false;
      for (ValueId v : op.results) any = any || program.values[v].is_timepoint;
      if (!any) continue;
      for (ValueId v : op.operands) {
        if (!program.values[v].is_timepoint) continue;
        const std::vector<std::uint64_t>& in = Of(v);
        for (std::size_t w = 0; w < words_; ++w) bits[w] |= in[w];
      }
      if (auto it = scope_of.find(o); it != scope_of.end()) bits[it->second / 64] |= 1ull << (it->second % 64);
      for (ValueId v : op.results) {
        if (program.values[v].is_timepoint) reach_[v] = bits;
      }
    }
  }

  const std::vector<std::uint64_t>& Of(ValueId v) const {
    static const std::vector<std::uint64_t> kNone;
    for (int depth = 0; depth < 1 << 16; ++depth) {
      if (auto it = reach_.find(v); it != reach_.end()) return it->second;
      auto up = source_.find(v);
      if (up == source_.end()) break;
      v = up->second;
    }
    if (empty_.size() != words_) empty_.assign(words_, 0);
    return empty_;
  }

  bool Implies(const Op& execute, std::size_t scope) const {
    for (ValueId v : execute.operands) {
      if (!program_.values[v].is_timepoint) continue;
      const std::vector<std::uint64_t>& bits = Of(v);
      if (scope / 64 < bits.size() && (bits[scope / 64] >> (scope % 64) & 1)) return true;
    }
    return false;
  }

 private:
  const Program& program_;
  std::size_t words_;
  std::unordered_map<ValueId, ValueId> source_;
  std::unordered_map<ValueId, std::vector<std::uint64_t>> reach_;
  mutable std::vector<std::uint64_t> empty_;
};

// A region reading what another region produced must wait for it: its execute
// awaits (directly or through joins) a timepoint result of the producer's.
absl::Status CheckProducersAwaited(const Program& program, const ProgramAnalysis& analysis,
                                   const RegionScopes& scopes) {
  const TimepointReach reach(program, analysis, scopes);
  for (const RegionScope& scope : scopes.regions) {
    const Op& execute = program.ops[scope.execute];
    for (ValueId v : execute.operands) {
      const BufferId b = analysis.value_buffer[v];
      if (b == kNoId || scopes.owner[b] == kNoId) continue;
      const std::size_t producer = static_cast<std::size_t>(scopes.owner[b]);
      if (scopes.regions[producer].execute == scope.execute || reach.Implies(execute, producer)) {
        continue;
      }
      return LocatedError(program.source, execute.loc,
                          "execute of @" + program.computations[scope.region].name + " reads %" +
                              program.values[v].name + ", produced by region @" +
                              program.computations[scopes.regions[producer].region].name +
                              ", without waiting for it: pass a timepoint result of that "
                              "execute (or a join including it) to this execute");
    }
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<RegionScopes> FindRegionScopes(const Program& program,
                                              const ProgramAnalysis& analysis) {
  RegionScopes scopes;
  scopes.owner.assign(analysis.buffers.buffers.size(), kNoId);
  // Execute ops in flattened order. `once`: the execute runs at most once per
  // run of the program — it is reached from an initializer through calls and
  // conditional branches only; a while's cond and body run once per
  // iteration, so nothing inside a loop is run-once.
  std::vector<bool> run_once(program.computations.size(), false);
  for (ComputationId c = 0; c < static_cast<ComputationId>(program.computations.size()); ++c) {
    if (!program.computations[c].initializer) continue;
    std::vector<ComputationId> stack = {c};
    while (!stack.empty()) {
      const ComputationId top = stack.back();
      stack.pop_back();
      run_once[top] = true;
      for (OpId o : program.computations[top].ops) {
        if (program.ops[o].kind == OpKind::kWhile) continue;
        for (ComputationId callee : program.ops[o].callees) stack.push_back(callee);
      }
    }
  }
  for (OpId o : analysis.schedule.order) {
    const Op& op = program.ops[o];
    if (op.kind != OpKind::kExecute || op.callees.empty()) continue;
    RegionScope scope;
    scope.region = op.callees.front();
    scope.execute = o;
    scope.once = run_once[op.computation];
    absl::StatusOr<std::vector<ComputationId>> covered =
        CoveredComputations(program, scope.region);
    if (!covered.ok()) return covered.status();
    scope.computations = *std::move(covered);
    if (absl::Status s = CheckRegionOps(program, analysis, scope.computations); !s.ok()) {
      return s;
    }
    scopes.regions.push_back(std::move(scope));
  }

  // Role of each buffer in the region whose covered computations define it.
  std::vector<std::int32_t> region_of(program.computations.size(), kNoId);
  for (std::size_t r = 0; r < scopes.regions.size(); ++r) {
    for (ComputationId c : scopes.regions[r].computations) {
      region_of[c] = static_cast<std::int32_t>(r);
    }
  }
  const BufferSet& bs = analysis.buffers;
  struct Role {
    std::int32_t region = kNoId;
    bool captured = false, defined = false, escaping = false, constant = false;
  };
  std::vector<Role> roles;
  for (BufferId b = 0; b < static_cast<BufferId>(bs.buffers.size()); ++b) {
    // A buffer may pass through several regions (produced by one, captured
    // by others); the owner defines it without capturing it.
    roles.clear();
    for (ValueId v : bs.buffers[b].values) {
      const Value& value = program.values[v];
      const std::int32_t vr = region_of[value.computation];
      if (vr == kNoId) continue;
      auto it = std::find_if(roles.begin(), roles.end(),
                             [&](const Role& role) { return role.region == vr; });
      Role& role = it != roles.end() ? *it : roles.emplace_back(Role{vr});
      const Computation& region = program.computations[scopes.regions[vr].region];
      if (value.computation == scopes.regions[vr].region && value.defining_op == kNoId) {
        role.captured = true;
        continue;
      }
      role.defined = true;
      if (value.computation == scopes.regions[vr].region &&
          std::find(region.results.begin(), region.results.end(), v) != region.results.end()) {
        role.escaping = true;
      }
      if (value.defining_op != kNoId && program.ops[value.defining_op].kind == OpKind::kConstant) {
        role.constant = true;
      }
    }
    for (const Role& role : roles) {
      if (!role.defined || role.captured) continue;
      RegionScope& scope = scopes.regions[role.region];
      scopes.owner[b] = role.region;
      if (role.constant) {
        scope.uploads.push_back(b);
        scope.upload_escapes.push_back(role.escaping);
      } else if (role.escaping) {
        scope.results.push_back(b);
      } else {
        scope.slab.push_back(b);
      }
      break;
    }
  }
  // Scratch buffers of the region's ops.
  for (OpId o = 0; o < static_cast<OpId>(program.ops.size()); ++o) {
    const BufferId scratch = analysis.op_buffers[o].scratch;
    const std::int32_t r = region_of[program.ops[o].computation];
    if (scratch == kNoId || r == kNoId) continue;
    scopes.owner[scratch] = r;
    scopes.regions[r].slab.push_back(scratch);
  }
  for (RegionScope& scope : scopes.regions) std::sort(scope.slab.begin(), scope.slab.end());
  if (absl::Status s = CheckProducersAwaited(program, analysis, scopes); !s.ok()) return s;
  return scopes;
}

}  // namespace memplan
