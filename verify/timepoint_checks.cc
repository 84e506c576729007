// Rule 4 of verify/region_checks.h: timepoints order the host steps.
//
// "A precedes B" is backward reachability over awaits. Awaits only name
// earlier steps, so a walk from B for targets at or after step L never needs
// a step before L: each execute or dealloca step walks once over the steps
// between its earliest target and itself. Cost: O(steps + awaits) per such
// step in the worst case, typically a handful (allocas sit just before their
// executes, executes just before their deallocas).
#include <algorithm>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "verify/region_internal.h"

namespace memplan::region_verify {
namespace {

class StepOrder {
 public:
  explicit StepOrder(std::size_t steps) : awaited_(steps), mark_(steps, 0) {}

  void AddAwait(std::size_t step, std::size_t signaller) { awaited_[step].push_back(signaller); }

  // Marks every step >= min_step that precedes `step`.
  void Walk(std::size_t step, std::size_t min_step) {
    ++generation_;
    std::vector<std::size_t> stack = {step};
    while (!stack.empty()) {
      const std::size_t s = stack.back();
      stack.pop_back();
      for (std::size_t p : awaited_[s]) {
        if (p < min_step || mark_[p] == generation_) continue;
        mark_[p] = generation_;
        stack.push_back(p);
      }
    }
  }

  // Whether the last Walk reached `step`.
  bool Reached(std::size_t step) const { return mark_[step] == generation_; }

 private:
  std::vector<std::vector<std::size_t>> awaited_;  // steps whose signal each step awaits
  std::vector<std::uint64_t> mark_;
  std::uint64_t generation_ = 0;
};

bool NeedsAlloca(ResourceKind kind) {
  return kind == ResourceKind::kSlab || kind == ResourceKind::kResults;
}

class TimepointChecker {
 public:
  explicit TimepointChecker(const RegionContext& ctx)
      : ctx_(ctx),
        steps_(ctx.regions.steps),
        order_(steps_.size()),
        alloca_(ctx.regions.resources.size(), kNone),
        dealloca_(ctx.regions.resources.size(), kNone),
        uploads_(ctx.regions.resources.size()),
        executes_(ctx.regions.resources.size()) {}

  absl::Status Run() {
    for (std::size_t i = 0; i < steps_.size(); ++i) {
      if (absl::Status s = CheckSignals(i); !s.ok()) return s;
      if (absl::Status s = CheckResourceStep(i); !s.ok()) return s;
      if (absl::Status s = CheckCommands(i); !s.ok()) return s;
      if (steps_[i].kind == HostStepKind::kExecute) {
        if (absl::Status s = CheckExecute(i); !s.ok()) return s;
      }
    }
    for (std::size_t r = 0; r < ctx_.regions.resources.size(); ++r) {
      const Resource& res = ctx_.regions.resources[r];
      if (NeedsAlloca(res.kind) && alloca_[r] == kNone) {
        return RuleViolation(4, absl::StrCat(ResourceKindName(res.kind), " resource ", res.name,
                                             " has no alloca step"));
      }
    }
    return absl::OkStatus();
  }

 private:
  static constexpr std::size_t kNone = static_cast<std::size_t>(-1);

  std::string Name(std::int32_t r) const { return ResourceRef(ctx_.regions, r); }

  absl::Status CheckSignals(std::size_t i) {
    const HostStep& s = steps_[i];
    for (const std::string& tp : s.awaits) {
      auto it = signaller_.find(tp);
      if (it == signaller_.end()) {
        return RuleViolation(4, absl::StrCat(StepRef(ctx_, i), " awaits timepoint '", tp,
                                             "', which no earlier step signals"));
      }
      order_.AddAwait(i, it->second);
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
    if (s.kind == HostStepKind::kDealloca && !executes_[r].empty()) {
      order_.Walk(i, executes_[r].front());
      for (std::size_t e : executes_[r]) {
        if (!order_.Reached(e)) {
          return RuleViolation(
              4, absl::StrCat(StepRef(ctx_, i), " does not await the timepoint '", steps_[e].signal,
                              "' of ", StepRef(ctx_, e), ", which touches ", Name(r),
                              ", directly or through other steps"));
        }
      }
    }
    return absl::OkStatus();
  }

  // No command touches a resource after its dealloca or a slab or results
  // resource before its alloca.
  absl::Status CheckCommands(std::size_t i) {
    for (const Command& c : steps_[i].commands) {
      for (const CommandRange& range : c.ranges) {
        const std::int32_t r = range.resource;
        const Resource& res = ctx_.regions.resources[r];
        if (dealloca_[r] != kNone) {
          return RuleViolation(
              4, absl::StrCat(CommandRef(ctx_.program, c), " in ", StepRef(ctx_, i), " touches ",
                              res.name, " after ", StepRef(ctx_, dealloca_[r])));
        }
        if (NeedsAlloca(res.kind) && alloca_[r] == kNone) {
          return RuleViolation(
              4, absl::StrCat(CommandRef(ctx_.program, c), " in ", StepRef(ctx_, i), " touches ",
                              ResourceKindName(res.kind), " resource ", res.name,
                              " before any alloca step of it"));
        }
      }
    }
    return absl::OkStatus();
  }

  // The execute step awaits the alloca of every slab or results resource and
  // an upload of every upload resource its commands touch.
  absl::Status CheckExecute(std::size_t i) {
    std::vector<std::int32_t> touched;
    for (const Command& c : steps_[i].commands) {
      for (const CommandRange& range : c.ranges) touched.push_back(range.resource);
    }
    std::sort(touched.begin(), touched.end());
    touched.erase(std::unique(touched.begin(), touched.end()), touched.end());
    std::size_t earliest = i;
    for (std::int32_t r : touched) {
      const ResourceKind kind = ctx_.regions.resources[r].kind;
      if (NeedsAlloca(kind)) earliest = std::min(earliest, alloca_[r]);
      if (kind == ResourceKind::kUpload) {
        if (uploads_[r].empty()) {
          return RuleViolation(4, absl::StrCat(StepRef(ctx_, i), " touches upload resource ",
                                               Name(r), " but no earlier step uploads it"));
        }
        earliest = std::min(earliest, uploads_[r].front());
      }
    }
    order_.Walk(i, earliest);
    for (std::int32_t r : touched) {
      const ResourceKind kind = ctx_.regions.resources[r].kind;
      if (NeedsAlloca(kind) && !order_.Reached(alloca_[r])) {
        return RuleViolation(
            4,
            absl::StrCat(StepRef(ctx_, i), " touches ", Name(r),
                         " but does not await the timepoint '", steps_[alloca_[r]].signal, "' of ",
                         StepRef(ctx_, alloca_[r]), ", directly or through other steps"));
      }
      if (kind == ResourceKind::kUpload &&
          std::none_of(uploads_[r].begin(), uploads_[r].end(),
                       [&](std::size_t u) { return order_.Reached(u); })) {
        return RuleViolation(4, absl::StrCat(StepRef(ctx_, i), " touches upload resource ", Name(r),
                                             " but awaits none of its upload steps (",
                                             StepRef(ctx_, uploads_[r].front()),
                                             "), directly or through other steps"));
      }
      executes_[r].push_back(i);
    }
    return absl::OkStatus();
  }

  const RegionContext& ctx_;
  const std::vector<HostStep>& steps_;
  StepOrder order_;
  std::map<std::string, std::size_t, std::less<>> signaller_;
  std::vector<std::size_t> alloca_;                 // per resource: its alloca step, or kNone
  std::vector<std::size_t> dealloca_;               // per resource: its dealloca step, or kNone
  std::vector<std::vector<std::size_t>> uploads_;   // per resource: steps uploading it
  std::vector<std::vector<std::size_t>> executes_;  // per resource: execute steps touching it
};

}  // namespace

absl::Status CheckTimepoints(const RegionContext& ctx) { return TimepointChecker(ctx).Run(); }

}  // namespace memplan::region_verify
