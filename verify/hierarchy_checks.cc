// Rule 15 of verify/verifier.h: plans on a memory hierarchy.
#include <algorithm>
#include <cstddef>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "verify/checks.h"
#include "verify/describe.h"
#include "verify/program_liveness.h"

namespace memplan::verify_internal {
namespace {

bool MayAccess(const HierarchySpaceRule& space, const std::string& device) {
  if (space.devices.empty()) return true;
  return std::any_of(space.devices.begin(), space.devices.end(),
                     [&](const std::string& d) { return d == "*" || d == device; });
}

// The segment of buffer `id` that serves an access at step t: one outside
// its home space covering t, else its home segment covering t; null if none.
const Allocation* ServingSegment(const AllocationList& segs, MemorySpace home, TimeStep t) {
  const Allocation* home_seg = nullptr;
  for (const Allocation& a : segs) {
    if (a.start > t || a.end < t) continue;
    if (a.space != home) return &a;
    home_seg = &a;
  }
  return home_seg;
}

absl::Status CheckLinks(const BufferSet& buffers, const Plan& plan, const HierarchyRules& rules,
                        const std::map<MemorySpace, const HierarchySpaceRule*>& spaces) {
  std::map<std::pair<MemorySpace, MemorySpace>, const HierarchyLinkRule*> links;
  for (const HierarchyLinkRule& l : rules.links) links[{l.from, l.to}] = &l;
  // Per link: (time, +1 at start / -1 after done).
  std::map<std::pair<MemorySpace, MemorySpace>, std::vector<std::pair<TimeStep, int>>> events;
  for (std::size_t i = 0; i < plan.copies.size(); ++i) {
    const AsyncCopy& c = plan.copies[i];
    // A staged copy's legs: from -> via, via -> to; each is outstanding on
    // its link over the copy's [start, done].
    std::vector<std::pair<MemorySpace, MemorySpace>> legs;
    if (c.via) {
      legs = {{c.from_space, c.via->space}, {c.via->space, c.to_space}};
    } else {
      legs = {{c.from_space, c.to_space}};
    }
    for (const auto& [from, into] : legs) {
      auto to = spaces.find(into);
      if (to != spaces.end() && !to->second->writable) {
        return Violation(absl::StrCat(CopyRef(buffers, plan, i), " copies into read-only space '",
                                      to->second->name, "'"));
      }
      auto link = links.find({from, into});
      if (link == links.end()) {
        return Violation(absl::StrCat(CopyRef(buffers, plan, i),
                                      c.via ? absl::StrCat(": its leg from space ", from,
                                                           " to space ", into)
                                            : std::string(),
                                      " uses no link of the hierarchy"));
      }
      if (link->second->max_outstanding) {
        auto& e = events[{from, into}];
        e.emplace_back(c.start, 1);
        e.emplace_back(std::max(c.start, c.done) + 1, -1);
      }
    }
  }
  for (auto& [key, e] : events) {
    std::sort(e.begin(), e.end());
    std::int64_t open = 0;
    const std::int64_t limit = *links[key]->max_outstanding;
    for (const auto& [time, delta] : e) {
      open += delta;
      if (open > limit) {
        return Violation(absl::StrCat(open, " copies are outstanding at time ", time,
                                      " on the link from space ", key.first, " to space ",
                                      key.second, ", above its max_outstanding ", limit));
      }
    }
  }
  return absl::OkStatus();
}

absl::Status CheckAccesses(const BufferSet& buffers, const Plan& plan, const Program& program,
                           const std::map<MemorySpace, const HierarchySpaceRule*>& spaces) {
  std::vector<BufferId> buffer_of(program.values.size(), kNoId);
  for (BufferId id = 0; id < static_cast<BufferId>(buffers.buffers.size()); ++id) {
    for (ValueId v : buffers.buffers[id].values) {
      if (static_cast<std::size_t>(v) < buffer_of.size()) buffer_of[v] = id;
    }
  }
  const ProgramSteps steps = NumberProgram(program);
  const HomeSpaces homes(buffers, plan);
  for (OpId op = 0; op < static_cast<OpId>(program.ops.size()); ++op) {
    const Op& o = program.ops[op];
    const TimeStep t = steps.op[op];
    if (t < 0 || o.kind != OpKind::kCompute) continue;
    const std::string device = o.affinity ? *o.affinity : std::string("host");
    auto check = [&](ValueId v, bool write) -> absl::Status {
      const BufferId id = static_cast<std::size_t>(v) < buffer_of.size() ? buffer_of[v] : kNoId;
      if (id == kNoId) return absl::OkStatus();
      const AllocationList& segs = plan.placements[id].allocations;
      const Allocation* serving = ServingSegment(segs, homes(id), t);
      if (serving == nullptr) return absl::OkStatus();  // coverage is rule 2's
      auto space = spaces.find(serving->space);
      if (space == spaces.end()) return absl::OkStatus();  // reported by CheckHierarchy
      if (!MayAccess(*space->second, device)) {
        return Violation(absl::StrCat("op '", program.OpName(op), "' at time ", t, " on device '",
                                      device, "' ", write ? "writes " : "reads ",
                                      BufferRef(buffers, id), " in space '", space->second->name,
                                      "', which that device cannot access"),
                         id);
      }
      if (!write) return absl::OkStatus();
      for (const Allocation& a : segs) {
        auto in = spaces.find(a.space);
        if (in != spaces.end() && !in->second->writable && a.start <= t && t <= a.end) {
          return Violation(absl::StrCat("op '", program.OpName(op), "' writes ",
                                        BufferRef(buffers, id), " at time ", t,
                                        " while it lies in read-only space '", in->second->name,
                                        "'"),
                           id);
        }
      }
      return absl::OkStatus();
    };
    for (ValueId v : o.operands) {
      if (absl::Status s = check(v, false); !s.ok()) return s;
    }
    for (ValueId v : o.results) {
      if (absl::Status s = check(v, true); !s.ok()) return s;
    }
  }
  return absl::OkStatus();
}

}  // namespace

absl::Status CheckHierarchy(const BufferSet& buffers, const Plan& plan,
                            const HierarchyRules& rules, const Program* program) {
  std::map<MemorySpace, const HierarchySpaceRule*> spaces;
  for (const HierarchySpaceRule& s : rules.spaces) spaces[s.id] = &s;
  auto known = [&](MemorySpace id, const std::string& what) -> absl::Status {
    if (spaces.count(id)) return absl::OkStatus();
    return Violation(absl::StrCat(what, " uses memory space ", id,
                                  ", which is not a level of the hierarchy"));
  };
  for (const SpaceInfo& s : plan.spaces) {
    if (absl::Status st = known(s.id, absl::StrCat("the plan's space '", s.name, "'")); !st.ok()) {
      return st;
    }
    const HierarchySpaceRule& rule = *spaces[s.id];
    if (s.peak > rule.capacity) {
      return Violation(absl::StrCat("space '", rule.name, "' (", s.id, ") peaks at ", s.peak,
                                    " bytes, beyond its capacity ", rule.capacity));
    }
  }
  for (BufferId id = 0; id < static_cast<BufferId>(buffers.buffers.size()); ++id) {
    for (const Allocation& a : plan.placements[id].allocations) {
      if (absl::Status st = known(a.space, BufferRef(buffers, id)); !st.ok()) return st;
    }
  }
  if (absl::Status st = CheckLinks(buffers, plan, rules, spaces); !st.ok()) return st;
  if (absl::Status st = CheckStagingChunks(buffers, plan, &rules); !st.ok()) return st;
  if (program == nullptr) return absl::OkStatus();
  return CheckAccesses(buffers, plan, *program, spaces);
}

}  // namespace memplan::verify_internal
