// Rule 4 of verify/region_checks.h: timepoints order the host steps.
//
// One pass over the steps in order; "happens before" queries go to the
// bitsets of verify/happens_before.h (O(1) each). Then every slab and results
// resource has an alloca step, and resources that share bytes are ordered
// (verify/memory_reuse_checks.cc).
#include <algorithm>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "verify/region_internal.h"

namespace memplan::region_verify {
namespace {

bool NeedsAlloca(ResourceKind kind) {
  return kind == ResourceKind::kSlab || kind == ResourceKind::kResults;
}

class TimepointChecker {
 public:
  TimepointChecker(const RegionContext& ctx, const HappensBefore& hb)
      : ctx_(ctx),
        steps_(ctx.regions.steps),
        hb_(hb),
        alloca_(ctx.regions.resources.size(), kNone),
        dealloca_(ctx.regions.resources.size(), kNone),
        uploads_(ctx.regions.resources.size()),
        touches_(ctx.regions.resources.size()) {}

  absl::Status Run() {
    for (std::size_t i = 0; i < steps_.size(); ++i) {
      if (absl::Status s = CheckSignals(i); !s.ok()) return s;
      if (absl::Status s = CheckResourceStep(i); !s.ok()) return s;
      if (absl::Status s = CheckCommands(i); !s.ok()) return s;
      if (absl::Status s = CheckTouches(i); !s.ok()) return s;
    }
    for (std::size_t r = 0; r < ctx_.regions.resources.size(); ++r) {
      const Resource& res = ctx_.regions.resources[r];
      if (NeedsAlloca(res.kind) && alloca_[r] == kNone) {
        return RuleViolation(4, absl::StrCat(ResourceKindName(res.kind), " resource ", res.name,
                                             " has no alloca step"));
      }
    }
    return CheckMemoryReuse(ctx_, hb_, alloca_, dealloca_);
  }

 private:
  std::string Name(std::int32_t r) const { return ResourceRef(ctx_.regions, r); }

  // "does not await the timepoint 'a0' of step 1 (alloca X), directly or
  // through other steps".
  std::string NotAwaited(std::size_t step) const {
    return absl::StrCat("does not await the timepoint '", steps_[step].signal, "' of ",
                        StepRef(ctx_, step), ", directly or through other steps");
  }

  absl::Status CheckSignals(std::size_t i) {
    const HostStep& s = steps_[i];
    for (const std::string& tp : s.awaits) {
      if (!signaller_.contains(tp)) {
        return RuleViolation(4, absl::StrCat(StepRef(ctx_, i), " awaits timepoint '", tp,
                                             "', which no earlier step signals"));
      }
    }
    if (s.signal.empty()) return absl::OkStatus();  // host steps signal nothing
    if (auto [it, fresh] = signaller_.emplace(s.signal, i); !fresh) {
      return RuleViolation(4, absl::StrCat(StepRef(ctx_, i), " signals timepoint '", s.signal,
                                           "', already signalled by ", StepRef(ctx_, it->second)));
    }
    return absl::OkStatus();
  }

  absl::Status CheckResourceStep(std::size_t i) {
    const HostStep& s = steps_[i];
    if (s.kind != HostStepKind::kAlloca && s.kind != HostStepKind::kUpload &&
        s.kind != HostStepKind::kDealloca) {
      return absl::OkStatus();
    }
    const auto count = static_cast<std::int32_t>(ctx_.regions.resources.size());
    if (s.resource < 0 || s.resource >= count) {
      return RuleViolation(
          4, absl::StrCat(StepRef(ctx_, i), " names no resource (the plan has ", count, ")"));
    }
    const std::int32_t r = s.resource;
    if (s.kind == HostStepKind::kUpload) {
      uploads_[r].push_back(i);
      return absl::OkStatus();
    }
    std::size_t& seen = s.kind == HostStepKind::kAlloca ? alloca_[r] : dealloca_[r];
    if (seen != kNone) {
      return RuleViolation(
          4, absl::StrCat(Name(r), " has two ", HostStepKindName(s.kind),
                          " steps: ", StepRef(ctx_, seen), " and ", StepRef(ctx_, i)));
    }
    seen = i;
    return s.kind == HostStepKind::kAlloca ? CheckAlloca(i, r) : CheckDealloca(i, r);
  }

  // Nothing released or touched the resource before its alloca.
  absl::Status CheckAlloca(std::size_t i, std::int32_t r) const {
    if (dealloca_[r] != kNone) {
      return RuleViolation(
          4, absl::StrCat(StepRef(ctx_, i), " comes after ", StepRef(ctx_, dealloca_[r])));
    }
    if (!touches_[r].empty()) {
      return RuleViolation(
          4, absl::StrCat(StepRef(ctx_, i), " comes after ", StepRef(ctx_, touches_[r].front()),
                          ", which touches ", Name(r)));
    }
    return absl::OkStatus();
  }

  // Every step touching the resource, and its alloca, happen before the release.
  absl::Status CheckDealloca(std::size_t i, std::int32_t r) const {
    for (std::size_t t : touches_[r]) {
      if (!hb_.Precedes(t, i)) {
        return RuleViolation(
            4, absl::StrCat(StepRef(ctx_, i), " does not await the timepoint '", steps_[t].signal,
                            "' of ", StepRef(ctx_, t), ", which touches ", Name(r),
                            ", directly or through other steps"));
      }
    }
    if (alloca_[r] != kNone && !hb_.Precedes(alloca_[r], i)) {
      return RuleViolation(4, absl::StrCat(StepRef(ctx_, i), " ", NotAwaited(alloca_[r])));
    }
    return absl::OkStatus();
  }

  // No command touches a resource after its dealloca or a slab or results
  // resource before its alloca (in step order).
  absl::Status CheckCommands(std::size_t i) const {
    const std::vector<Command>& commands = steps_[i].commands;
    for (std::size_t j = 0; j < commands.size(); ++j) {
      const Command& c = commands[j];
      for (const CommandRange& range : c.ranges) {
        const std::int32_t r = range.resource;
        const Resource& res = ctx_.regions.resources[r];
        if (dealloca_[r] != kNone) {
          return CommandViolation(
              ctx_, i, j, 4,
              absl::StrCat(CommandRef(ctx_.program, c), " in ", StepRef(ctx_, i), " touches ",
                           res.name, " after ", StepRef(ctx_, dealloca_[r])));
        }
        if (NeedsAlloca(res.kind) && alloca_[r] == kNone) {
          return CommandViolation(
              ctx_, i, j, 4,
              absl::StrCat(CommandRef(ctx_.program, c), " in ", StepRef(ctx_, i), " touches ",
                           ResourceKindName(res.kind), " resource ", res.name,
                           " before any alloca step of it"));
        }
      }
    }
    return absl::OkStatus();
  }

  // The step touches each resource after its alloca in HB; an execute step
  // also after an upload of every upload resource it touches.
  absl::Status CheckTouches(std::size_t i) {
    std::vector<std::int32_t> touched;
    for (const Command& c : steps_[i].commands) {
      for (const CommandRange& range : c.ranges) touched.push_back(range.resource);
    }
    std::sort(touched.begin(), touched.end());
    touched.erase(std::unique(touched.begin(), touched.end()), touched.end());
    const bool execute = steps_[i].kind == HostStepKind::kExecute;
    for (std::int32_t r : touched) {
      if (alloca_[r] != kNone && !hb_.Precedes(alloca_[r], i)) {
        return RuleViolation(4, absl::StrCat(StepRef(ctx_, i), " touches ", Name(r), " but ",
                                             NotAwaited(alloca_[r])));
      }
      if (execute && ctx_.regions.resources[r].kind == ResourceKind::kUpload) {
        if (absl::Status s = CheckUploaded(i, r); !s.ok()) return s;
      }
      touches_[r].push_back(i);
    }
    return absl::OkStatus();
  }

  absl::Status CheckUploaded(std::size_t i, std::int32_t r) const {
    const std::vector<std::size_t>& uploads = uploads_[r];
    if (uploads.empty()) {
      return RuleViolation(4, absl::StrCat(StepRef(ctx_, i), " touches upload resource ", Name(r),
                                           " but no earlier step uploads it"));
    }
    if (std::none_of(uploads.begin(), uploads.end(),
                     [&](std::size_t u) { return hb_.Precedes(u, i); })) {
      return RuleViolation(
          4, absl::StrCat(StepRef(ctx_, i), " touches upload resource ", Name(r),
                          " but awaits none of its upload steps (", StepRef(ctx_, uploads.front()),
                          "), directly or through other steps"));
    }
    return absl::OkStatus();
  }

  const RegionContext& ctx_;
  const std::vector<HostStep>& steps_;
  const HappensBefore& hb_;
  std::map<std::string, std::size_t, std::less<>> signaller_;
  std::vector<std::size_t> alloca_;                // per resource: its alloca step, or kNone
  std::vector<std::size_t> dealloca_;              // per resource: its dealloca step, or kNone
  std::vector<std::vector<std::size_t>> uploads_;  // per resource: steps uploading it
  std::vector<std::vector<std::size_t>> touches_;  // per resource: steps whose commands touch it
};

}  // namespace

absl::Status CheckTimepoints(const RegionContext& ctx, const HappensBefore& hb) {
  return TimepointChecker(ctx, hb).Run();
}

}  // namespace memplan::region_verify
