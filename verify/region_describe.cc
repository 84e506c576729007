// Context and message fragments of the execution-region checks, so every
// rule names values, resources, commands and steps the same way.
#include <functional>
#include <map>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "verify/region_internal.h"

namespace memplan::region_verify {

RegionContext MakeContext(const Program& program, const BufferSet& buffers, const Plan& plan,
                          RegionFailureSite* site) {
  RegionContext ctx{program, buffers, plan, *plan.regions, {}, {}, site};
  // First pool of each (name, space) (the plan verifier rejects repeats).
  std::map<std::pair<std::string, MemorySpace>, std::int32_t, std::less<>> pools;
  for (std::size_t i = 0; i < plan.pools.size(); ++i) {
    pools.emplace(std::pair(plan.pools[i].name, plan.pools[i].space), static_cast<std::int32_t>(i));
  }
  for (const Resource& r : ctx.regions.resources) {
    auto it = pools.find(std::pair(r.name, r.space));
    ctx.pool_of.push_back(it == pools.end() ? -1 : it->second);
  }
  ctx.buffer_of.assign(program.values.size(), kNoId);
  for (BufferId b = 0; b < static_cast<BufferId>(buffers.buffers.size()); ++b) {
    for (ValueId v : buffers.buffers[b].values) {
      if (v >= 0 && v < static_cast<ValueId>(ctx.buffer_of.size())) ctx.buffer_of[v] = b;
    }
  }
  return ctx;
}

absl::Status RuleViolation(int rule, const std::string& message) {
  static constexpr const char* kNames[] = {
      "",           "resources",        "slices", "command ranges", "timepoints",
      "shadow execution", "captured copies"};
  return absl::FailedPreconditionError(
      absl::StrCat("region rule ", rule, " (", kNames[rule], "): ", message));
}

absl::Status CommandViolation(const RegionContext& ctx, std::size_t step, std::size_t command,
                              int rule, const std::string& message) {
  if (ctx.site) *ctx.site = RegionFailureSite{step, command, true};
  return RuleViolation(rule, message);
}

std::string ValueRef(const Program& program, ValueId value) {
  if (value < 0 || value >= static_cast<ValueId>(program.values.size())) {
    return absl::StrCat("value #", value);
  }
  return absl::StrCat("%", program.values[value].name);
}

std::string ResourceRef(const RegionPlan& regions, std::int32_t resource) {
  if (resource < 0 || resource >= static_cast<std::int32_t>(regions.resources.size())) {
    return absl::StrCat("resource #", resource);
  }
  return regions.resources[resource].name;
}

std::string ByteRange(Bytes begin, Bytes end) { return absl::StrCat("[", begin, ", ", end, ")"); }

namespace {

bool ValidOp(const Program& program, OpId op) {
  return op >= 0 && op < static_cast<OpId>(program.ops.size());
}

std::string OpIdRef(const Program& program, OpId op) {
  return absl::StrCat(program.ops[op].opcode, "#", op);
}

}  // namespace

std::string CommandShortRef(const Program& program, const Command& command) {
  const char* kind = CommandKindName(command.kind);
  if (command.op == kNoId) return kind;
  if (!ValidOp(program, command.op)) return absl::StrCat(kind, " (op #", command.op, ")");
  const Op& op = program.ops[command.op];
  if (op.results.empty()) return absl::StrCat(kind, " ", OpIdRef(program, command.op));
  return absl::StrCat(kind, " ", ValueRef(program, op.results.front()));
}

std::string CommandRef(const Program& program, const Command& command) {
  if (!ValidOp(program, command.op) || program.ops[command.op].results.empty()) {
    return CommandShortRef(program, command);
  }
  return absl::StrCat(CommandShortRef(program, command), " (op ", OpIdRef(program, command.op),
                      ")");
}

std::string RangePlace(const RegionContext& ctx, const CommandRange& range) {
  // Ranges are described before they are range-checked: do not overflow.
  Bytes end = 0;
  const std::string bytes = CheckedAdd(range.offset_bytes, range.length_bytes, end)
                                ? ByteRange(range.offset_bytes, end)
                                : absl::StrCat("[", range.offset_bytes, ", ", range.offset_bytes,
                                               "+", range.length_bytes, ")");
  const std::string what = range.value == kNoId ? "scratch" : ValueRef(ctx.program, range.value);
  return absl::StrCat(what, " at ", ResourceRef(ctx.regions, range.resource), " ", bytes);
}

std::string RangeRef(const RegionContext& ctx, const CommandRange& range) {
  return absl::StrCat(AccessName(range.access), " ", RangePlace(ctx, range));
}

std::string StepRef(const RegionContext& ctx, std::size_t step) {
  const HostStep& s = ctx.regions.steps[step];
  std::string what = HostStepKindName(s.kind);
  switch (s.kind) {
    case HostStepKind::kAlloca:
    case HostStepKind::kUpload:
    case HostStepKind::kDealloca:
      absl::StrAppend(&what, " ", ResourceRef(ctx.regions, s.resource));
      break;
    case HostStepKind::kExecute:
      if (s.region >= 0 && s.region < static_cast<std::int32_t>(ctx.regions.regions.size())) {
        absl::StrAppend(&what, " @", ctx.regions.regions[s.region].name);
      } else {
        absl::StrAppend(&what, " region #", s.region);
      }
      break;
    case HostStepKind::kJoin:
    case HostStepKind::kHost: break;
  }
  return absl::StrCat("step ", step, " (", what, ")");
}

bool CheckedAdd(Bytes a, Bytes b, Bytes& sum) { return !__builtin_add_overflow(a, b, &sum); }

}  // namespace memplan::region_verify
