#include "regions/region_partition.h"

#include <algorithm>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "ir/diagnostic.h"
#include "ir/program_builder.h"

namespace memplan {
namespace {

class Partitioner {
 public:
  Partitioner(const Program& in, std::int64_t per, std::string affinity)
      : in_(in), per_(per), affinity_(std::move(affinity)), out_(in.name) {
    for (const Value& v : in.values) taken_.insert(v.name);
    for (const Computation& c : in.computations) computation_names_.insert(c.name);
    const Computation& entry = in.computations[in.entry];
    returned_.assign(in.values.size(), false);
    for (ValueId v : entry.results) returned_[v] = true;
  }

  Program Run() {
    const Computation& entry = in_.computations[in_.entry];
    // An op the importer folded to constants (e.g. ONNX ConstantOfShape of a
    // constant shape) is an upload, as a compiler would fold it: like a
    // weight, it appears in the first region that reads it and counts for
    // no region's size. One the entry returns stays in its place.
    folded_.assign(in_.ops.size(), false);
    std::vector<OpId> ops;
    for (OpId o : entry.ops) {
      const Op& op = in_.ops[o];
      const bool constant = !op.results.empty() &&
                            std::all_of(op.results.begin(), op.results.end(), [&](ValueId r) {
                              return in_.values[r].lifetime == Lifetime::kConstant &&
                                     in_.values[r].alias == AliasKind::kNone;
                            });
      const bool returned = std::any_of(op.results.begin(), op.results.end(),
                                        [&](ValueId r) { return returned_[r]; });
      folded_[o] = constant && !returned;
      if (!folded_[o]) ops.push_back(o);
    }
    const std::size_t n = ops.size();
    const std::size_t per = per_ == 0 || static_cast<std::size_t>(per_) >= n
                                ? std::max<std::size_t>(n, 1)
                                : static_cast<std::size_t>(per_);
    const std::size_t chunks = (n + per - 1) / per;

    // Which chunk defines each value (entry params: none) and reads it last.
    std::vector<std::int64_t> defined_in(in_.values.size(), -1);
    std::vector<std::int64_t> last_read(in_.values.size(), -1);
    for (std::size_t i = 0; i < n; ++i) {
      const Op& op = in_.ops[ops[i]];
      for (ValueId v : op.results) defined_in[v] = static_cast<std::int64_t>(i / per);
      for (ValueId v : op.operands) last_read[v] = static_cast<std::int64_t>(i / per);
    }

    const ComputationId main = out_.AddComputation(entry.name);
    out_.SetEntry(main);
    for (ValueId p : entry.params) {
      if (IsWeight(p)) continue;
      host_[p] = Copy(p, out_.AddParam(main, in_.values[p].name, in_.values[p].size));
    }
    // Regions run one after another: each awaits the previous one's timepoint.
    ValueId previous = out_.AddParam(main, Fresh("ready", taken_), 0);
    out_.value(previous).is_timepoint = true;
    std::unordered_set<ValueId> uploaded;  // weights already materialised
    for (std::size_t k = 0; k < chunks; ++k) {
      const ComputationId region =
          out_.AddComputation(Fresh("region" + std::to_string(k), computation_names_),
                              ComputationKind::kRegion);
      out_.computation(region).affinity = affinity_;
      std::unordered_map<ValueId, ValueId> local;  // old -> new inside the region
      std::vector<ValueId> operands;
      const auto use = [&](ValueId v) -> ValueId {
        if (auto it = local.find(v); it != local.end()) return it->second;
        if (IsWeight(v) && !uploaded.count(v)) {
          // First reader: the weight (or folded op) is uploaded here.
          const OpId def = in_.values[v].defining_op;
          const std::vector<ValueId> values =
              def == kNoId ? std::vector<ValueId>{v} : in_.ops[def].results;
          const OpId c = out_.AddOp(region, "constant", {});
          if (def != kNoId) {
            out_.op(c).attributes.push_back(
                {"folded", AttrValue{AttrValue::Kind::kString, 0, 0, in_.ops[def].opcode, {}}});
          }
          for (ValueId w : values) {
            uploaded.insert(w);
            local[w] = Copy(w, out_.AddResult(c, in_.values[w].name, in_.values[w].size));
          }
          return local[v];
        }
        const ValueId param = out_.AddParam(
            region, Fresh(in_.values[v].name + ".in" + std::to_string(k), taken_),
            in_.values[v].size);
        Copy(v, param);
        out_.value(param).lifetime.reset();
        operands.push_back(host_.at(v));
        local[v] = param;
        return param;
      };
      std::vector<ValueId> exported;
      for (std::size_t i = k * per; i < std::min(n, (k + 1) * per); ++i) {
        const Op& op = in_.ops[ops[i]];
        std::vector<ValueId> new_operands;
        for (ValueId v : op.operands) new_operands.push_back(use(v));
        const OpId no = out_.AddOp(region, op.opcode, new_operands);
        Op& copy = out_.op(no);
        CopyOpDetails(op, copy);
        for (ValueId r : op.results) {
          local[r] = Copy(r, out_.AddResult(no, in_.values[r].name, in_.values[r].size), &local);
          if (returned_[r] || last_read[r] > static_cast<std::int64_t>(k)) exported.push_back(r);
        }
      }
      // Weights read later but first uploaded here leave the region too.
      for (ValueId v : uploaded) {
        if (local.count(v) && defined_in[v] < 0 && last_read[v] > static_cast<std::int64_t>(k) &&
            !host_.count(v)) {
          exported.push_back(v);
        }
      }
      std::sort(exported.begin(), exported.end());
      std::vector<ValueId> region_results;
      for (ValueId v : exported) {
        region_results.push_back(local.at(v));
        // The caller's outputs are external through the entry's results.
        if (out_.value(local.at(v)).lifetime != Lifetime::kConstant) {
          out_.value(local.at(v)).lifetime.reset();
        }
      }
      const std::string name = out_.computation(region).name;
      const ValueId await = out_.AddParam(region, Fresh(name + ".await", taken_), 0);
      out_.value(await).is_timepoint = true;
      region_results.push_back(await);
      out_.SetReturn(region, region_results);
      operands.push_back(previous);
      const OpId run = out_.AddOp(main, "execute", operands);
      out_.op(run).callees = {region};
      for (ValueId v : exported) {
        const ValueId r = out_.AddResult(
            run, Fresh(in_.values[v].name + ".out" + std::to_string(k), taken_), in_.values[v].size);
        host_[v] = r;
      }
      previous = out_.AddResult(run, Fresh(name + ".done", taken_), 0);
      out_.value(previous).is_timepoint = true;
    }
    std::vector<ValueId> results;
    for (ValueId v : entry.results) results.push_back(host_.at(v));
    results.push_back(previous);
    out_.SetReturn(main, results);
    Program program = std::move(out_).Finish();
    program.source = in_.source;
    program.dims = in_.dims;
    return program;
  }

 private:
  // A weight (constant entry parameter) the entry does not return, or a
  // result of a folded op.
  bool IsWeight(ValueId v) const {
    const Value& value = in_.values[v];
    if (value.defining_op != kNoId) return folded_[value.defining_op];
    return value.lifetime == Lifetime::kConstant && !returned_[v];
  }

  // Gives `nv` the type, size and lifetime of `v`; with `local`, also its
  // aliasing (the aliased operand is in the same region).
  ValueId Copy(ValueId v, ValueId nv, const std::unordered_map<ValueId, ValueId>* local = nullptr) {
    const Value& old = in_.values[v];
    Value& value = out_.value(nv);
    CopyStorageShape(old, value);
    if (local && old.alias != AliasKind::kNone) {
      value.alias = old.alias;
      value.alias_of = local->at(old.alias_of);
      value.view_offset = old.view_offset;
      value.view_offset_expr = old.view_offset_expr;
    }
    return nv;
  }

  static std::string Fresh(std::string name, std::unordered_set<std::string>& taken) {
    std::string candidate = name;
    for (int i = 1; taken.count(candidate); ++i) candidate = name + "." + std::to_string(i);
    taken.insert(candidate);
    return candidate;
  }

  const Program& in_;
  std::int64_t per_;
  std::string affinity_;
  ProgramBuilder out_;
  std::unordered_set<std::string> taken_;              // value names in use
  std::unordered_set<std::string> computation_names_;  // region names in use
  std::unordered_map<ValueId, ValueId> host_;          // old -> its value in the entry
  std::vector<bool> returned_;                         // per old value: the entry returns it
  std::vector<bool> folded_;                           // per old op: folded to constants
};

}  // namespace

absl::StatusOr<Program> PartitionIntoRegions(const Program& program, std::int64_t ops_per_region,
                                             const std::string& affinity) {
  const auto refuse = [&](const std::string& why) {
    return LocatedError(program.source, SourceLocation{}, "--regions: " + why);
  };
  if (ops_per_region < 0) return refuse("--regions-per must be >= 0");
  if (program.entry == kNoId) return refuse("the program has no entry computation");
  if (program.computations.size() != 1) {
    return refuse(
        "the program has several computations (control flow or regions); --regions wraps a flat "
        "program");
  }
  return Partitioner(program, ops_per_region, affinity).Run();
}

}  // namespace memplan
