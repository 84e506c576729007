#include "msa/user_overrides.h"

#include <algorithm>
#include <map>
#include <regex>
#include <string>
#include <unordered_map>

#include "fmt/format.h"

namespace memplan {
namespace {

std::string PinText(const MsaPin& pin) {
  return fmt::format("--pin {}{}={}", pin.value, pin.user.empty() ? "" : "@" + pin.user,
                     pin.space == kAlternateSpace ? "alternate" : "default");
}

absl::Status Bad(const MsaPin& pin, const std::string& why) {
  return absl::InvalidArgumentError(fmt::format("{}: {}", PinText(pin), why));
}

// Why buffer `b` can never use alternate memory, or "" if it may.
std::string NeverAlternate(const Buffer& buffer, const MsaBuffer& b, Bytes fast_memory_bytes) {
  if (b.policy == AltPolicy::kAnywhere || b.policy == AltPolicy::kReadCopies ||
      b.policy == AltPolicy::kPinnedAlternate) {
    return "";
  }
  if (buffer.space) return fmt::format("the program pins its buffer to space {}", *buffer.space);
  if (b.size <= 0) return "its buffer has no bytes";
  if (b.size > fast_memory_bytes) {
    return fmt::format("its buffer ({} bytes) is larger than the fast memory ({} bytes)", b.size,
                       fast_memory_bytes);
  }
  return "its buffer crosses into or out of an execution region or an async start/done pair, "
         "which stays in default memory";
}

}  // namespace

absl::StatusOr<PinnedUses> ApplyUserOverrides(const Program& program,
                                              const ProgramAnalysis& analysis,
                                              const MsaOptions& options, MsaProblem& problem) {
  const std::vector<Buffer>& buffers = analysis.buffers.buffers;
  if (!options.assign_first.empty()) {
    std::regex pattern;
    try {
      pattern = std::regex(options.assign_first, std::regex::ECMAScript);
    } catch (const std::regex_error& e) {
      return absl::InvalidArgumentError(fmt::format(
          "--assign-first '{}' is not a valid regular expression ({})", options.assign_first,
          e.what()));
    }
    for (std::size_t b = 0; b < buffers.size() && b < problem.buffers.size(); ++b) {
      problem.buffers[b].assign_first = std::any_of(
          buffers[b].values.begin(), buffers[b].values.end(),
          [&](ValueId v) { return std::regex_match(program.values[v].name, pattern); });
    }
  }
  if (options.pins.empty()) return PinnedUses{};

  std::unordered_map<std::string, ValueId> value_of;
  for (ValueId v = static_cast<ValueId>(program.values.size()); v-- > 0;) {
    value_of[program.values[v].name] = v;  // the first value of a name wins
  }
  std::unordered_map<std::string, OpId> op_of;
  for (OpId op = static_cast<OpId>(program.ops.size()); op-- > 0;) op_of[program.OpName(op)] = op;

  // Space each buffer (whole) or (buffer, time) is pinned to, to refuse
  // contradictions.
  std::map<BufferId, std::pair<MemorySpace, const MsaPin*>> whole;
  std::map<std::pair<BufferId, TimeStep>, std::pair<MemorySpace, const MsaPin*>> uses;
  PinnedUses alternate_uses;
  for (const MsaPin& pin : options.pins) {
    if (pin.space != kDefaultSpace && pin.space != kAlternateSpace) {
      return Bad(pin, fmt::format("space {} is neither default (0) nor alternate (1)", pin.space));
    }
    auto v = value_of.find(pin.value);
    if (v == value_of.end()) return Bad(pin, fmt::format("the program has no value %{}", pin.value));
    const BufferId b = analysis.value_buffer[v->second];
    if (b == kNoId || b >= static_cast<BufferId>(problem.buffers.size())) {
      return Bad(pin, fmt::format("%{} has no storage of its own", pin.value));
    }
    MsaBuffer& mb = problem.buffers[b];
    const Buffer& buffer = buffers[b];
    if (pin.user.empty()) {
      auto [it, inserted] = whole.emplace(b, std::make_pair(pin.space, &pin));
      if (!inserted && it->second.first != pin.space) {
        return Bad(pin, fmt::format("contradicts {} (same buffer)", PinText(*it->second.second)));
      }
      if (pin.space == kDefaultSpace) {
        if (mb.policy == AltPolicy::kPinnedAlternate && buffer.space == kAlternateSpace) {
          return Bad(pin, "the program pins its buffer to the alternate space 1");
        }
        if (mb.policy == AltPolicy::kOtherSpace) {
          return Bad(pin, fmt::format("the program pins its buffer to space {}", *buffer.space));
        }
        mb.policy = AltPolicy::kDefaultOnly;
        continue;
      }
      if (std::string why = NeverAlternate(buffer, mb, options.fast_memory_bytes); !why.empty()) {
        return Bad(pin, why);
      }
      if (mb.policy == AltPolicy::kReadCopies) {
        return Bad(pin,
                   "its buffer is an entry parameter or result, a constant or a variable, whose "
                   "home is default memory; pin its uses instead (--pin VALUE@OP=alternate)");
      }
      mb.policy = AltPolicy::kPinnedAlternate;
      continue;
    }
    auto op = op_of.find(pin.user);
    if (op == op_of.end()) return Bad(pin, fmt::format("the program has no op %{}", pin.user));
    const Op& user = program.ops[op->second];
    if (std::find(user.operands.begin(), user.operands.end(), v->second) == user.operands.end()) {
      return Bad(pin, fmt::format("op %{} does not read %{}", pin.user, pin.value));
    }
    const TimeStep t = analysis.schedule.op_time[op->second];
    auto access = std::find_if(mb.accesses.begin(), mb.accesses.end(),
                               [&](const BufferAccess& a) { return a.time == t; });
    auto [it, inserted] = uses.emplace(std::make_pair(b, t), std::make_pair(pin.space, &pin));
    if (!inserted && it->second.first != pin.space) {
      return Bad(pin, fmt::format("contradicts {} (same read)", PinText(*it->second.second)));
    }
    if (pin.space == kDefaultSpace) {
      if (mb.policy == AltPolicy::kPinnedAlternate) {
        return Bad(pin, "its buffer is pinned to the alternate space for its whole live range");
      }
      if (access != mb.accesses.end()) access->alternate_ok = false;
      continue;
    }
    if (auto w = whole.find(b); w != whole.end() && w->second.first == kDefaultSpace) {
      return Bad(pin, fmt::format("contradicts {} (same buffer)", PinText(*w->second.second)));
    }
    if (std::string why = NeverAlternate(buffer, mb, options.fast_memory_bytes); !why.empty()) {
      return Bad(pin, why);
    }
    if (access == mb.accesses.end() || !access->alternate_ok) {
      return Bad(pin, fmt::format("op %{} writes %{}'s buffer, and an entry parameter or result, "
                                  "constant or variable is written in default memory",
                                  pin.user, pin.value));
    }
    mb.assign_first = true;
    alternate_uses.emplace_back(b, t);
  }
  // A whole-buffer default pin after a use pin to alternate memory.
  for (const auto& [b, t] : alternate_uses) {
    if (problem.buffers[b].policy == AltPolicy::kDefaultOnly) {
      return Bad(*whole.at(b).second, fmt::format("contradicts {} (same buffer)",
                                                  PinText(*uses.at({b, t}).second)));
    }
  }
  std::sort(alternate_uses.begin(), alternate_uses.end());
  alternate_uses.erase(std::unique(alternate_uses.begin(), alternate_uses.end()),
                       alternate_uses.end());
  return alternate_uses;
}

absl::Status CheckPinnedUses(const MsaProblem& problem, const PinnedUses& uses,
                             const MsaResult& result) {
  for (const auto& [b, t] : uses) {
    const std::vector<Allocation>& segs = result.alternate[b];
    const bool covered = std::any_of(segs.begin(), segs.end(), [t = t](const Allocation& a) {
      return a.start <= t && t <= a.end;
    });
    if (covered) continue;
    return absl::ResourceExhaustedError(fmt::format(
        "buffer %{} is pinned to the alternate memory space at time step {} (--pin) but no "
        "chunk of the fast memory could serve it there",
        problem.buffers[b].name, t));
  }
  return absl::OkStatus();
}

}  // namespace memplan
