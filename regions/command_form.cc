#include "regions/command_form.h"

#include <algorithm>
#include <map>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "ir/program_builder.h"

namespace memplan {
namespace {

AttrValue Str(std::string s) {
  AttrValue v;
  v.kind = AttrValue::Kind::kString;
  v.s = std::move(s);
  return v;
}

AttrValue True() {
  AttrValue v;
  v.kind = AttrValue::Kind::kBool;
  v.i = 1;
  return v;
}

AttrValue StrList(const std::vector<std::string>& items) {
  AttrValue v;
  v.kind = AttrValue::Kind::kList;
  for (const std::string& s : items) v.list.push_back(Str(s));
  return v;
}

class CommandFormBuilder {
 public:
  CommandFormBuilder(const Program& program, const ProgramAnalysis& analysis, const Plan& plan)
      : in_(program), analysis_(analysis), rp_(*plan.regions), out_(program.name) {}

  Program Run() {
    std::vector<bool> device(in_.computations.size(), false);
    for (const RegionInfo& region : rp_.regions) MarkDevice(region.computation, device);
    for (std::size_t s = 0; s < rp_.regions.size(); ++s) region_of_execute_[rp_.regions[s].execute] = s;

    // Host computations first (same names), then one rebuilt region per execute.
    std::vector<ComputationId> host;
    for (ComputationId c = 0; c < static_cast<ComputationId>(in_.computations.size()); ++c) {
      if (device[c]) continue;
      const Computation& comp = in_.computations[c];
      const ComputationId nc = out_.AddComputation(comp.name, ComputationKind::kFunction);
      out_.computation(nc).initializer = comp.initializer;
      if (c == in_.entry) out_.SetEntry(nc);
      comp_map_[c] = nc;
      host.push_back(c);
    }
    for (ComputationId c : host) {
      const ComputationId nc = comp_map_[c];
      for (ValueId p : in_.computations[c].params) CopyValue(p, out_.AddParam(nc, Name(p), 0));
      for (OpId o : in_.computations[c].ops) {
        if (auto it = region_of_execute_.find(o); it != region_of_execute_.end()) {
          Execute(nc, it->second);
        } else {
          CopyOp(nc, o);
        }
      }
      ReleaseResults(nc);
      std::vector<ValueId> results;
      for (ValueId r : in_.computations[c].results) results.push_back(map_.at(r));
      out_.SetReturn(nc, results);
    }
    Program program = std::move(out_).Finish();
    program.source = in_.source;
    program.dims = in_.dims;
    for (DimDecl& d : program.dims) d.binding.reset();
    return program;
  }

 private:
  void MarkDevice(ComputationId c, std::vector<bool>& device) const {
    std::vector<ComputationId> stack = {c};
    while (!stack.empty()) {
      const ComputationId top = stack.back();
      stack.pop_back();
      device[top] = true;
      for (OpId o : in_.computations[top].ops) {
        for (ComputationId callee : in_.ops[o].callees) stack.push_back(callee);
      }
    }
  }

  const std::string& Name(ValueId v) const { return in_.values[v].name; }

  // A name for a generated value, unused by the input and earlier ones
  // (`name`, else `name.1`, `name.2`, ...).
  std::string Fresh(const std::string& name) {
    if (taken_.empty()) {
      for (const Value& v : in_.values) taken_.insert(v.name);
    }
    std::string candidate = name;
    for (int i = 1; taken_.count(candidate); ++i) candidate = name + "." + std::to_string(i);
    taken_.insert(candidate);
    return candidate;
  }

  // Gives new value `nv` the storage properties of old value `v`.
  void CopyValue(ValueId v, ValueId nv) {
    const Value& old = in_.values[v];
    Value& value = out_.value(nv);
    CopyStorageShape(old, value);
    value.alias = old.alias;
    value.view_offset = old.view_offset;
    value.view_offset_expr = old.view_offset_expr;
    if (old.alias != AliasKind::kNone) value.alias_of = map_.at(old.alias_of);
    value.gathers = old.gathers;
    for (GatheredOperand& g : value.gathers) g.operand = map_.at(g.operand);
    map_[v] = nv;
  }

  void CopyOp(ComputationId nc, OpId o) {
    const Op& op = in_.ops[o];
    std::vector<ValueId> operands;
    for (ValueId v : op.operands) operands.push_back(map_.at(v));
    // Host loads and stores read and write resources directly.
    const bool resource_op = op.opcode == "load" || op.opcode == "store";
    const OpId no = out_.AddOp(nc, resource_op ? "resource." + op.opcode : op.opcode, operands);
    Op& copy = out_.op(no);
    CopyOpDetails(op, copy);
    for (ComputationId callee : op.callees) copy.callees.push_back(comp_map_.at(callee));
    for (ValueId r : op.results) CopyValue(r, out_.AddResult(no, Name(r), 0));
  }

  // The timeline's deallocas of result reservations allocated in host
  // computation `nc`: each right after the last op of `nc` that uses the
  // reservation or a value in it, awaiting what the timeline's step awaits.
  void ReleaseResults(ComputationId nc) {
    std::unordered_map<ValueId, BufferId> buffer_of;  // new value -> its old buffer
    for (const auto& [old, nv] : map_) buffer_of[nv] = analysis_.value_buffer[old];
    std::vector<OpId>& ops = out_.computation(nc).ops;
    std::vector<std::pair<std::size_t, OpId>> releases;  // (after position, dealloca)
    for (const HostStep& step : rp_.steps) {
      if (step.kind != HostStepKind::kDealloca) continue;
      const Resource& res = rp_.resources[step.resource];
      auto value = resource_value_.find(step.resource);
      if (res.kind != ResourceKind::kResults || value == resource_value_.end() ||
          out_.program().values[value->second].computation != nc) {
        continue;
      }
      std::unordered_set<BufferId> held;
      for (const Slice& slice : res.slices) held.insert(slice.buffer);
      std::size_t last = 0;
      for (std::size_t i = 0; i < ops.size(); ++i) {
        for (ValueId u : out_.program().ops[ops[i]].operands) {
          auto b = buffer_of.find(u);
          if (u == value->second || (b != buffer_of.end() && held.count(b->second))) last = i;
        }
      }
      // It reads the reservation, or, once a host op wrote part of it in
      // place, the latest value of each buffer it holds (reading the
      // overwritten one is refused).
      std::vector<ValueId> operands = {value->second};
      std::map<BufferId, ValueId> latest;
      bool overwritten = false;
      for (std::size_t i = 0; i <= last && i < ops.size(); ++i) {
        for (ValueId r : out_.program().ops[ops[i]].results) {
          auto b = buffer_of.find(r);
          if (b == buffer_of.end() || !held.count(b->second)) continue;
          latest[b->second] = r;
          overwritten = overwritten || out_.program().values[r].alias == AliasKind::kTied;
        }
      }
      if (overwritten) {
        operands.clear();
        for (const auto& [b, v] : latest) operands.push_back(v);
      }
      for (const std::string& signal : step.awaits) {
        const ValueId t = SignalValue(signal);
        if (t != kNoId && out_.program().values[t].computation == nc) operands.push_back(t);
      }
      const OpId free = out_.AddOp(nc, "resource.dealloca", operands);
      Timepoint(free, step.signal);
      ops.pop_back();
      releases.emplace_back(last, free);
    }
    std::stable_sort(releases.begin(), releases.end(),
                     [](const auto& a, const auto& b) { return a.first < b.first; });
    std::vector<OpId> ordered;
    std::size_t next = 0;
    for (std::size_t i = 0; i < ops.size(); ++i) {
      ordered.push_back(ops[i]);
      for (; next < releases.size() && releases[next].first == i; ++next) {
        ordered.push_back(releases[next].second);
      }
    }
    ops = std::move(ordered);
  }

  // A timepoint result of `op` for the timeline's signal `name`.
  ValueId Timepoint(OpId op, const std::string& name) {
    const ValueId v = out_.AddResult(op, Fresh(name), 0);
    out_.value(v).is_timepoint = true;
    signal_[name] = v;
    return v;
  }

  // The command-form value of a timeline signal: a generated timepoint, or
  // the program's own timepoint of that name; kNoId when it has none.
  ValueId SignalValue(const std::string& name) const {
    if (auto it = signal_.find(name); it != signal_.end()) return it->second;
    const ValueId old = in_.FindValue(name);
    if (old == kNoId) return kNoId;
    auto it = map_.find(old);
    return it == map_.end() ? kNoId : it->second;
  }

  const HostStep& ExecuteStep(std::size_t s) const {
    for (const HostStep& step : rp_.steps) {
      if (step.kind == HostStepKind::kExecute && step.region == static_cast<std::int32_t>(s)) {
        return step;
      }
    }
    return rp_.steps.front();  // unreachable: every region has its execute step
  }

  ValueId Join(ComputationId nc, const std::vector<ValueId>& awaits, const std::string& name) {
    return Timepoint(out_.AddOp(nc, "timepoint.join", awaits), name);
  }

  // Gives new value `nv` the size of resource r.
  void SetSize(ValueId nv, const Resource& r) {
    Value& value = out_.value(nv);
    value.size = r.size_bytes;
    if (!r.size.IsConstant()) value.size_expr = r.size;
  }

  void Execute(ComputationId nc, std::size_t s) {
    const RegionInfo& info = rp_.regions[s];
    const Op& execute = in_.ops[info.execute];
    std::vector<ValueId> awaits;
    for (ValueId v : execute.operands) {
      if (in_.values[v].is_timepoint) awaits.push_back(map_.at(v));
    }
    // The timeline's execute step: what it awaits and which resources its
    // commands touch. An upload the region does not read is not awaited nor
    // passed in; its ready timepoint joins the downstream one (as in IREE).
    const HostStep& step = ExecuteStep(s);
    std::unordered_set<std::int32_t> touched;
    for (const Command& c : step.commands) {
      for (const CommandRange& range : c.ranges) touched.insert(range.resource);
    }
    // The region's own resources: uploads, then allocas, then subviews.
    std::vector<std::int32_t> allocated;  // every own resource
    std::vector<std::int32_t> own;        // those passed in: touched by the commands
    std::unordered_map<std::int32_t, ValueId> resource_value;
    std::vector<ValueId> ready = awaits;
    std::vector<ValueId> unread_uploads;
    std::vector<ValueId> slabs;
    for (std::int32_t r : info.resources) {
      const Resource& res = rp_.resources[r];
      if (res.kind == ResourceKind::kPool || res.region != info.name) continue;
      allocated.push_back(r);
      if (touched.count(r)) own.push_back(r);
      const bool upload = res.kind == ResourceKind::kUpload;
      const OpId op = out_.AddOp(nc, upload ? "resource.constants" : "resource.alloca",
                                 upload ? std::vector<ValueId>{} : awaits);
      const ValueId value = out_.AddResult(op, Fresh(res.name), 0);
      SetSize(value, res);
      out_.value(value).lifetime = res.lifetime;
      const ValueId signal = Timepoint(op, res.name + ".ready");
      const bool awaited = std::find(step.awaits.begin(), step.awaits.end(), res.name + ".ready") !=
                           step.awaits.end();
      (awaited ? ready : unread_uploads).push_back(signal);
      if (!res.affinity.empty()) out_.op(op).affinity = res.affinity;
      if (upload) {
        std::vector<std::string> names;
        for (const Slice& slice : res.slices) {
          names.push_back(analysis_.buffers.buffers[slice.buffer].name.str());
        }
        out_.op(op).attributes.push_back({"values", StrList(names)});
      }
      resource_value[r] = value;
      resource_value_[r] = value;
      if (res.kind == ResourceKind::kSlab) slabs.push_back(value);
    }
    // Escaping results become subviews of their resource.
    for (ValueId x : execute.results) {
      if (in_.values[x].is_timepoint) continue;
      const BufferId b = analysis_.value_buffer[x];
      for (std::int32_t r : allocated) {
        for (const Slice& slice : rp_.resources[r].slices) {
          if (slice.buffer != b) continue;
          const SizeExpr offset = slice.offset + ValueOffsetExpr(analysis_, x);
          const Value& old = in_.values[x];
          const bool symbolic = !offset.IsConstant() || old.size_expr ||
                                !rp_.resources[r].size.IsConstant();
          const OpId op = out_.AddOp(nc, "resource.subview", {resource_value[r]});
          const ValueId view = out_.AddResult(op, Name(x), old.size);
          out_.value(view).size_expr = old.size_expr;
          if (symbolic) {
            // A view's offset is a number: a symbolic one is shown as a range.
            out_.op(op).operand_ranges = {OperandRange{offset, SizeExprOf(old)}};
          } else {
            out_.value(view).alias = AliasKind::kView;
            out_.value(view).alias_of = resource_value[r];
            out_.value(view).view_offset = *offset.ConstantValue();
          }
          map_[x] = view;
        }
      }
    }
    const ValueId await = Join(nc, ready, info.name + ".await");

    // Captured operands follow the own resources.
    std::vector<ValueId> operands;
    for (std::int32_t r : own) operands.push_back(resource_value[r]);
    std::vector<ValueId> captured;
    for (ValueId v : execute.operands) {
      if (in_.values[v].is_timepoint || analysis_.value_buffer[v] == kNoId) continue;
      captured.push_back(v);
      operands.push_back(map_.at(v));
    }
    operands.push_back(await);
    const ComputationId region = BuildRegion(s, own, captured);
    const OpId run = out_.AddOp(nc, "execute", operands);
    out_.op(run).callees = {region};
    if (info.once) out_.op(run).attributes.push_back({"once", True()});
    const ValueId done = Timepoint(run, info.name + ".done");

    std::vector<ValueId> joined = {done};
    joined.insert(joined.end(), unread_uploads.begin(), unread_uploads.end());
    for (ValueId slab : slabs) {
      joined.push_back(Timepoint(out_.AddOp(nc, "resource.dealloca", {slab, done}),
                                 out_.program().values[slab].name + ".freed"));
    }
    const ValueId downstream = joined.size() > 1 ? Join(nc, joined, info.name + ".joined") : done;
    for (ValueId x : execute.results) {
      if (in_.values[x].is_timepoint) {
        map_[x] = downstream;
      } else if (!map_.count(x)) {
        // Tied or passed through: the captured operand's storage, through a
        // subview when the result sits at another offset (a view's tie).
        for (ValueId v : captured) {
          if (analysis_.value_buffer[v] != analysis_.value_buffer[x] || map_.count(x)) continue;
          const SizeExpr delta = OffsetBetween(v, x);
          if (delta == SizeExpr() && in_.values[x].size == in_.values[v].size) {
            map_[x] = map_.at(v);
            continue;
          }
          const OpId op = out_.AddOp(nc, "resource.subview", {map_.at(v)});
          const ValueId view = out_.AddResult(op, Name(x), in_.values[x].size);
          out_.value(view).size_expr = in_.values[x].size_expr;
          if (!delta.IsConstant()) {
            // Outside regions a view's offset is a number: a symbolic one is shown as a range.
            out_.op(op).operand_ranges = {OperandRange{delta, SizeExprOf(in_.values[x])}};
          } else {
            out_.value(view).alias = AliasKind::kView;
            out_.value(view).alias_of = map_.at(v);
            out_.value(view).view_offset = *delta.ConstantValue();
          }
          map_[x] = view;
        }
      }
    }
  }

  ComputationId BuildRegion(std::size_t s, const std::vector<std::int32_t>& own,
                            const std::vector<ValueId>& captured) {
    const RegionInfo& info = rp_.regions[s];
    const ComputationId rc = out_.AddComputation(info.name, ComputationKind::kRegion);
    if (!info.affinity.empty()) out_.computation(rc).affinity = info.affinity;
    std::unordered_map<std::int32_t, ValueId> own_param;
    for (std::int32_t r : own) {
      const Resource& res = rp_.resources[r];
      own_param[r] = out_.AddParam(rc, Fresh(info.name + "/" + res.name), 0);
      SetSize(own_param[r], res);
    }
    // Per buffer, its captured operands as (old, new) pairs.
    std::unordered_map<BufferId, std::vector<std::pair<ValueId, ValueId>>> captured_param;
    for (ValueId v : captured) {
      const ValueId p = out_.AddParam(rc, Fresh(info.name + "/" + Name(v)), in_.values[v].size);
      out_.value(p).size_expr = in_.values[v].size_expr;
      captured_param[analysis_.value_buffer[v]].emplace_back(v, p);
    }
    // The captured operand a value lies in: the one starting last at or
    // before it in their common buffer.
    const auto holder = [&](ValueId v) {
      const std::vector<std::pair<ValueId, ValueId>>& candidates =
          captured_param.at(analysis_.value_buffer[v]);
      std::pair<ValueId, ValueId> best = candidates.front();
      for (const auto& candidate : candidates) {
        const Bytes at = analysis_.value_offset[candidate.first];
        const Bytes best_at = analysis_.value_offset[best.first];
        if (at <= analysis_.value_offset[v] && (best_at > analysis_.value_offset[v] || at > best_at)) {
          best = candidate;
        }
      }
      return best;
    };
    const ValueId await = out_.AddParam(rc, Fresh(info.name + "/await"), 0);
    out_.value(await).is_timepoint = true;

    for (const HostStep& step : rp_.steps) {
      if (step.kind != HostStepKind::kExecute || step.region != static_cast<std::int32_t>(s)) continue;
      for (const Command& c : step.commands) {
        std::vector<ValueId> operands;
        std::vector<std::optional<OperandRange>> ranges;
        std::vector<std::string> access, values;
        for (const CommandRange& range : c.ranges) {
          if (auto it = own_param.find(range.resource); it != own_param.end()) {
            operands.push_back(it->second);
            ranges.push_back(OperandRange{range.offset, range.length});
          } else {
            // Relative to the captured operand holding the value's buffer,
            // kept symbolic: the value's place in the operand is a constant.
            const auto [old, param] = holder(range.value);
            operands.push_back(param);
            const Value& held = in_.values[old];
            const SizeExpr offset = range.value_offset + OffsetBetween(old, range.value);
            if (offset == SizeExpr() && range.length == SizeExprOf(held)) {
              ranges.push_back(OperandRange{SizeExpr(), SizeExprOf(held)});  // the whole operand
            } else {
              ranges.push_back(OperandRange{offset, range.length});
            }
          }
          access.push_back(AccessName(range.access));
          values.push_back(range.value == kNoId ? in_.OpName(c.op) + ".scratch" : Name(range.value));
        }
        const OpId op = out_.AddOp(rc, std::string("cmd.") + CommandKindName(c.kind), operands);
        Op& cmd = out_.op(op);
        cmd.operand_ranges = std::move(ranges);
        if (c.concurrent >= 0) cmd.wave = c.concurrent;
        cmd.attributes.push_back({"access", StrList(access)});
        cmd.attributes.push_back({"values", StrList(values)});
        if (!c.detail.empty()) {
          const char* key = c.kind == CommandKind::kCall         ? "function"
                            : c.kind == CommandKind::kCollective ? "collective"
                            : c.kind == CommandKind::kDispatch   ? "op"
                                                                 : "device";
          cmd.attributes.push_back({key, Str(c.detail)});
        }
      }
    }
    out_.SetReturn(rc, {await});
    return rc;
  }

  // Bytes from `outer`'s start to `inner`'s in their common buffer, kept
  // symbolic when a subview at a dynamic offset lies between them; the
  // number at the evaluation point when no expression is found (one of
  // them at a symbolic offset the other is not a constant away from).
  SizeExpr OffsetBetween(ValueId outer, ValueId inner) const {
    const Bytes at_point = analysis_.value_offset[inner] - analysis_.value_offset[outer];
    const SizeExpr from = ValueOffsetExpr(analysis_, outer);
    const SizeExpr to = ValueOffsetExpr(analysis_, inner);
    if (at_point >= 0 && from + SizeExpr::Constant(at_point) == to) return SizeExpr::Constant(at_point);
    if (std::optional<Bytes> c = from.ConstantValue()) {
      if (std::optional<SizeExpr> delta = to.MinusConstant(*c)) return *delta;
    }
    return SizeExpr::Constant(at_point);
  }

  const Program& in_;
  const ProgramAnalysis& analysis_;
  const RegionPlan& rp_;
  ProgramBuilder out_;
  std::unordered_map<ComputationId, ComputationId> comp_map_;
  std::unordered_map<ValueId, ValueId> map_;  // old -> new
  std::unordered_map<OpId, std::size_t> region_of_execute_;
  std::unordered_set<std::string> taken_;     // value names in use
  std::unordered_map<std::string, ValueId> signal_;  // timeline signal -> its timepoint
  std::unordered_map<std::int32_t, ValueId> resource_value_;  // resource -> its alloca'd value
};

}  // namespace

Program CommandProgram(const Program& program, const ProgramAnalysis& analysis, const Plan& plan) {
  return CommandFormBuilder(program, analysis, plan).Run();
}

}  // namespace memplan
