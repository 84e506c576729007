// ProgramRun's region commands: a wave of lowered commands (ir/region_plan.h)
// on the machine's bytes.
#include <algorithm>
#include <set>
#include <string>

#include "execute/program_run.h"
#include "fmt/format.h"
#include "fmt/ranges.h"

namespace memplan {

namespace {

struct RangePlace {
  MemorySpace space = kDefaultSpace;
  Bytes address = 0;  // absolute in the space
};

// Where `range` lies: its resource's pool (same name) offset plus its offset.
absl::StatusOr<RangePlace> PlaceOfRange(const Plan& plan, const CommandRange& range) {
  const RegionPlan& regions = *plan.regions;
  if (range.resource < 0 || static_cast<std::size_t>(range.resource) >= regions.resources.size()) {
    return absl::InvalidArgumentError("a command range names no resource of the plan");
  }
  const std::string& name = regions.resources[static_cast<std::size_t>(range.resource)].name;
  for (const PoolInfo& pool : plan.pools) {
    if (pool.name == name) return RangePlace{pool.space, pool.offset + range.offset_bytes};
  }
  return absl::FailedPreconditionError(
      fmt::format("resource '{}' has no pool in the plan (nowhere to run its commands)", name));
}

// The region's captured copy (RegionCopy) whose fast range holds `range`
// (same resource and value, inside its bytes), or null.
const RegionCopy* FastCopyOf(const RegionPlan& regions, const CommandRange& range) {
  for (const RegionInfo& info : regions.regions) {
    for (const RegionCopy& c : info.copies) {
      if (c.resource == range.resource && c.value == range.value &&
          range.offset_bytes >= c.offset_bytes &&
          range.offset_bytes + range.length_bytes <= c.offset_bytes + c.bytes) {
        return &c;
      }
    }
  }
  return nullptr;
}

}  // namespace

absl::Status ProgramRun::RunCommandWave(const std::vector<const Command*>& wave,
                                        const std::string& device) {
  const Plan& plan = machine_.plan();
  const RegionPlan& regions = *plan.regions;
  if (absl::Status s = machine_.AdvanceTo(wave.front()->time); !s.ok()) return s;
  machine_.report().commands += static_cast<std::int64_t>(wave.size());
  const auto label = [&](const Command& c) {
    return c.op == kNoId ? fmt::format("the {} command", CommandKindName(c.kind))
                         : fmt::format("the {} command of op %{} (step {})",
                                       CommandKindName(c.kind), program_.OpName(c.op), c.time);
  };
  // Every range lies in memory the running device may access.
  for (const Command* c : wave) {
    for (const CommandRange& range : c->ranges) {
      if (range.resource < 0 || static_cast<std::size_t>(range.resource) >= regions.resources.size()) {
        continue;  // PlaceOfRange reports it
      }
      const Resource& r = regions.resources[static_cast<std::size_t>(range.resource)];
      const bool may = r.devices.empty() ||
                       std::any_of(r.devices.begin(), r.devices.end(),
                                   [&](const std::string& d) { return d == "*" || d == device; });
      if (!may) {
        return absl::FailedPreconditionError(fmt::format(
            "{} runs on {}, which may not access resource '{}' ({} memory; only {} may)", label(*c),
            device, r.name, SpaceName(r.space), fmt::join(r.devices, ", ")));
      }
    }
  }
  // Checks one read range: the value's bytes there hold what was last written.
  const auto check = [&](const Command& c, const CommandRange& range) -> absl::Status {
    absl::StatusOr<RangePlace> place = PlaceOfRange(plan, range);
    if (!place.ok()) return place.status();
    const BufferId buffer = layout_.buffer_of[static_cast<std::size_t>(range.value)];
    const Allocation* segment = machine_.SegmentAt(buffer, machine_.now());
    const Bytes base = layout_.offset_in_buffer[static_cast<std::size_t>(range.value)];
    // A read of a captured copy finds the value at the copy's fast range.
    Allocation fast;
    if (const RegionCopy* copy = FastCopyOf(regions, range)) {
      fast = Allocation{place->space, place->address - range.offset_bytes + copy->offset_bytes - base,
                        machine_.now(), machine_.now()};
      segment = &fast;
    }
    const Bytes size = program_.values[static_cast<std::size_t>(range.value)].size;
    const Bytes at = segment == nullptr ? 0 : segment->offset + base;
    if (segment == nullptr || segment->space != place->space || place->address < at ||
        place->address + range.length_bytes > at + size) {
      return absl::FailedPreconditionError(fmt::format(
          "{} reads {} at bytes [{}, {}) of resource '{}' ({} memory [{}, {})), but {} is not "
          "there at step {}{}",
          label(c), ValueLabel(range.value), range.offset_bytes,
          range.offset_bytes + range.length_bytes,
          regions.resources[static_cast<std::size_t>(range.resource)].name,
          SpaceName(place->space), place->address, place->address + range.length_bytes,
          ValueLabel(range.value), machine_.now(),
          segment == nullptr ? "" : fmt::format(" (it is at [{}, {}))", at, at + size)));
    }
    const Bytes lo = place->address - segment->offset;
    return machine_.CheckRaw(place->space, place->address, buffer, lo, lo + range.length_bytes,
                             label(c), ValueLabel(range.value),
                             uninitialised_storage_.count(buffer) > 0);
  };
  const auto is_read = [](const CommandRange& r) { return r.access != Access::kWrite; };
  const auto is_write = [](const CommandRange& r) { return r.access != Access::kRead; };
  const auto has_value = [&](const CommandRange& r) { return r.value != kNoId && HasStorage(r.value); };
  // In order (the commands of one op run one after another, e.g. a transfer's
  // copy and flush), each command's reads before its writes.
  std::set<BufferId> written;
  for (const Command* c : wave) {
    for (const CommandRange& range : c->ranges) {
      if (!is_read(range) || !has_value(range)) continue;
      if (absl::Status s = check(*c, range); !s.ok()) return s;
    }
    for (const CommandRange& range : c->ranges) {
      if (!is_write(range)) continue;
      absl::StatusOr<RangePlace> place = PlaceOfRange(plan, range);
      if (!place.ok()) return place.status();
      const std::string by = c->op == kNoId ? label(*c) : fmt::format(
          "the {} command of op %{} at step {}", CommandKindName(c->kind), program_.OpName(c->op), c->time);
      if (!has_value(range)) {
        // A dispatch's scratch: data no one reads afterwards.
        const std::int64_t writer = machine_.NewWriter("scratch", by);
        if (absl::Status s = machine_.WriteRaw(place->space, place->address, range.length_bytes, 0, writer);
            !s.ok()) {
          return s;
        }
        continue;
      }
      const BufferId buffer = layout_.buffer_of[static_cast<std::size_t>(range.value)];
      if (c->kind == CommandKind::kCopy && FastCopyOf(regions, range) != nullptr) {
        // A captured copy: the value's bytes move from its home segment.
        const Allocation* home = machine_.SegmentAt(buffer, machine_.now());
        if (home == nullptr) {
          return absl::FailedPreconditionError(fmt::format(
              "{} copies {}, which has no segment at step {}", label(*c), ValueLabel(range.value),
              machine_.now()));
        }
        const Bytes base = layout_.offset_in_buffer[static_cast<std::size_t>(range.value)];
        if (absl::Status s = machine_.CopyRaw(home->space, home->offset + base, place->space,
                                              place->address, range.length_bytes, label(*c));
            !s.ok()) {
          return s;
        }
        continue;
      }
      written.insert(buffer);
      const std::int64_t writer = machine_.NewWriter(ValueLabel(range.value), by);
      const Allocation* segment = machine_.SegmentAt(buffer, machine_.now());
      // Written where the command says; the value's data is what lands inside its buffer.
      const Bytes lo = segment == nullptr ? 0 : place->address - segment->offset;
      if (absl::Status s = machine_.WriteRaw(place->space, place->address, range.length_bytes, lo, writer);
          !s.ok()) {
        return s;
      }
      if (segment != nullptr && segment->space == place->space) {
        const Bytes size = machine_.buffers().buffers[static_cast<std::size_t>(buffer)].size;
        machine_.SetContent(buffer, std::max<Bytes>(lo, 0), std::min(lo + range.length_bytes, size), writer);
      }
    }
  }
  // The commands of a wave run at once: every read still finds its data
  // after all of the wave's writes.
  for (const Command* c : wave) {
    for (const CommandRange& range : c->ranges) {
      if (!is_read(range) || !has_value(range)) continue;
      if (written.count(layout_.buffer_of[static_cast<std::size_t>(range.value)])) continue;
      if (absl::Status s = check(*c, range); !s.ok()) return s;
    }
  }
  return absl::OkStatus();
}

}  // namespace memplan
