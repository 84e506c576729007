#include "ir/region_plan.h"

#include <algorithm>

namespace memplan {

const char* ResourceKindName(ResourceKind kind) {
  switch (kind) {
    case ResourceKind::kPool: return "pool";
    case ResourceKind::kUpload: return "upload";
    case ResourceKind::kResults: return "results";
    case ResourceKind::kSlab: return "slab";
  }
  return "pool";
}

const char* AccessName(Access access) {
  switch (access) {
    case Access::kRead: return "read";
    case Access::kWrite: return "write";
    case Access::kReadWrite: return "read-write";
  }
  return "read";
}

const char* CommandKindName(CommandKind kind) {
  switch (kind) {
    case CommandKind::kFill: return "fill";
    case CommandKind::kCopy: return "copy";
    case CommandKind::kDispatch: return "dispatch";
    case CommandKind::kCall: return "call";
    case CommandKind::kCollective: return "collective";
    case CommandKind::kBarrier: return "barrier";
    case CommandKind::kInvalidate: return "invalidate";
    case CommandKind::kFlush: return "flush";
    case CommandKind::kLoad: return "load";
    case CommandKind::kStore: return "store";
    case CommandKind::kUpload: return "upload";
    case CommandKind::kInput: return "input";
    case CommandKind::kOutput: return "output";
  }
  return "dispatch";
}

const char* HostStepKindName(HostStepKind kind) {
  switch (kind) {
    case HostStepKind::kAlloca: return "alloca";
    case HostStepKind::kUpload: return "upload";
    case HostStepKind::kExecute: return "execute";
    case HostStepKind::kDealloca: return "dealloca";
    case HostStepKind::kJoin: return "join";
    case HostStepKind::kHost: return "host";
  }
  return "host";
}

bool RegionMayUse(const RegionFastLevel& level, const std::string& affinity) {
  const std::string device = affinity.empty() ? "host" : affinity;
  return level.devices.empty() ||
         std::any_of(level.devices.begin(), level.devices.end(),
                     [&](const std::string& d) { return d == "*" || d == device; });
}

}  // namespace memplan
