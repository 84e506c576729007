#include "regions/region_scope.h"

#include <algorithm>
#include <string>
#include <unordered_map>

#include "ir/diagnostic.h"

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

// A read of a value at or after an in-place write over it sees the new data.
// O(ops + operands) over the covered computations.
absl::Status CheckNoStaleReads(const Program& program, const ProgramAnalysis& analysis,
                               const std::vector<ComputationId>& covered) {
  std::unordered_map<ValueId, OpId> overwritten_by;  // value -> earliest in-place writer
  const auto time_of = [&](OpId o) { return analysis.schedule.op_time[o]; };
  for (ComputationId c : covered) {
    for (OpId o : program.computations[c].ops) {
      for (ValueId r : program.ops[o].results) {
        const Value& result = program.values[r];
        if (result.alias != AliasKind::kTied) continue;
        auto [it, inserted] = overwritten_by.emplace(result.alias_of, o);
        if (!inserted && time_of(o) < time_of(it->second)) it->second = o;
      }
    }
  }
  for (ComputationId c : covered) {
    for (OpId reader : program.computations[c].ops) {
      const Op& op = program.ops[reader];
      for (ValueId u : op.operands) {
        auto it = overwritten_by.find(u);
        if (it == overwritten_by.end() || it->second == reader ||
            time_of(reader) < time_of(it->second)) {
          continue;
        }
        const Op& w = program.ops[it->second];
        ValueId tied = kNoId;
        for (ValueId r : w.results) {
          if (program.values[r].alias == AliasKind::kTied && program.values[r].alias_of == u) tied = r;
        }
        const std::string name = program.values[u].name;
        return LocatedError(program.source, op.loc,
                            "%" + name + " is read by " + op.opcode + " after %" +
                                program.values[tied].name + " overwrote it in place (at " +
                                std::to_string(w.loc.line) + ":" + std::to_string(w.loc.column) +
                                "); clone it first (e.g. %" + name + "_copy = clone(%" + name +
                                ")) and read the clone");
      }
    }
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<RegionScopes> FindRegionScopes(const Program& program,
                                              const ProgramAnalysis& analysis) {
  RegionScopes scopes;
  scopes.owner.assign(analysis.buffers.buffers.size(), kNoId);
  // Execute ops in flattened order; an initializer's are run-once.
  std::vector<bool> in_initializer(program.computations.size(), false);
  for (ComputationId c = 0; c < static_cast<ComputationId>(program.computations.size()); ++c) {
    if (!program.computations[c].initializer) continue;
    std::vector<ComputationId> stack = {c};
    while (!stack.empty()) {
      const ComputationId top = stack.back();
      stack.pop_back();
      in_initializer[top] = true;
      for (OpId o : program.computations[top].ops) {
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
    scope.once = in_initializer[op.computation];
    absl::StatusOr<std::vector<ComputationId>> covered =
        CoveredComputations(program, scope.region);
    if (!covered.ok()) return covered.status();
    scope.computations = *std::move(covered);
    if (absl::Status s = CheckNoStaleReads(program, analysis, scope.computations); !s.ok()) {
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
  return scopes;
}

}  // namespace memplan
