#include "regions/region_resources.h"

#include <algorithm>
#include <map>
#include <numeric>
#include <string>
#include <tuple>
#include <utility>

#include "fmt/format.h"
#include "regions/allocate_regions.h"
#include "regions/allocation_split.h"
#include "regions/captured_copies.h"
#include "regions/fast_slab.h"

namespace memplan {
namespace {

// ":gpu0:gpu1" for "optimal(gpu0,gpu1)", ":gpu1" for "gpu1": resource names
// stay plain IR names (docs/ir.md) in the command form.
std::string AffinitySuffix(const std::string& affinity) {
  std::string devices = affinity;
  if (devices.starts_with("optimal(") && devices.ends_with(")")) {
    devices = devices.substr(8, devices.size() - 9);
  }
  std::replace(devices.begin(), devices.end(), ',', ':');
  return ":" + devices;
}

// A copy chosen for a fast slab, before its place there is known.
struct PendingCopy {
  LayoutItem item;  // its bytes over [first reader's step, last reader's]
  RegionCopy copy;  // resource, offset and to_space still to fill
};

class ResourceBuilder {
 public:
  ResourceBuilder(const Program& program, const ProgramAnalysis& analysis,
                  const RegionScopes& scopes, const ResourceBuildOptions& options,
                  RegionPlan& plan)
      : program_(program), analysis_(analysis), scopes_(scopes), options_(options), plan_(plan) {
    capturing_.resize(analysis.buffers.buffers.size());
    for (std::size_t s = 0; s < scopes.regions.size(); ++s) {
      for (ValueId p : program.computations[scopes.regions[s].region].params) {
        const BufferId b = analysis.value_buffer[p];
        if (b != kNoId) capturing_[b].push_back(s);
      }
    }
  }

  void Run() {
    for (std::size_t s = 0; s < scopes_.regions.size(); ++s) BuildRegion(s);
  }

 private:
  using Group = std::vector<BufferId>;

  std::string RegionAffinity(std::size_t s) const {
    return program_.computations[scopes_.regions[s].region].affinity.value_or("");
  }

  // Devices that produce or use buffer b of region s.
  std::string AffinityOf(std::size_t s, BufferId b) const {
    std::vector<std::string> devices = {RegionAffinity(s)};
    for (ValueId v : analysis_.buffers.buffers[b].values) {
      const OpId producer = program_.values[v].defining_op;
      if (producer == kNoId || program_.ops[producer].opcode != "transfer") continue;
      if (auto target = StringAttribute(program_.ops[producer], "target_affinity")) {
        devices.push_back(*target);
      }
    }
    for (std::size_t other : capturing_[b]) devices.push_back(RegionAffinity(other));
    return JoinAffinities(devices);
  }

  Slice MakeSlice(BufferId b, SizeExpr offset) const {
    const Buffer& buffer = analysis_.buffers.buffers[b];
    Slice slice;
    slice.buffer = b;
    slice.offset = std::move(offset);
    slice.size = BufferSizeExpr(program_, analysis_, b);
    slice.start = buffer.start;
    slice.end = buffer.end;
    return slice;
  }

  std::vector<LayoutItem> Items(const Group& group) const {
    std::vector<LayoutItem> items;
    for (BufferId b : group) {
      const Buffer& buffer = analysis_.buffers.buffers[b];
      items.push_back(LayoutItem{BufferSizeExpr(program_, analysis_, b), buffer.start, buffer.end});
    }
    return items;
  }

  // Lays out `group` (split at the size limit) with `layout` and appends the
  // resources, in `space`.
  // `copies` (fast slabs only) are laid out after the group's slices and
  // recorded in the region's RegionInfo::copies.
  void AddResources(std::size_t s, const Group& group, ResourceKind kind, Lifetime lifetime,
                    std::string affinity, const std::string& name, bool escaping,
                    MemorySpace space = kDefaultSpace, const LayoutOptions* layout = nullptr,
                    const std::vector<PendingCopy>& copies = {}) {
    const LayoutOptions& lo = layout ? *layout : options_.layout;
    std::vector<LayoutItem> items = Items(group);
    for (const PendingCopy& c : copies) items.push_back(c.item);
    const bool packed = kind == ResourceKind::kSlab;
    std::vector<SplitGroup> parts;
    if (options_.max_allocation_size) {
      parts = packed ? SplitPacked(items, lo, *options_.max_allocation_size)
                     : SplitStacked(items, lo, *options_.max_allocation_size);
    } else {
      SplitGroup all;
      for (std::size_t i = 0; i < items.size(); ++i) all.items.push_back(i);
      parts.push_back(std::move(all));
    }
    const ComputationSpan span = analysis_.schedule.spans[scopes_.regions[s].region];
    for (std::size_t p = 0; p < parts.size(); ++p) {
      const SplitGroup& part = parts[p];
      std::vector<LayoutItem> part_items;
      for (std::size_t i : part.items) part_items.push_back(items[i]);
      LayoutResult layout = Layout(part_items, packed, lo);
      if (packed && options_.max_allocation_size && !part.over_limit &&
          layout.total.Evaluate(lo.planning_point).value_or(0) > *options_.max_allocation_size) {
        layout = OrientedLayout(part_items, part.planning_offsets, lo, "first-fit");
      }
      Resource r;
      r.name = parts.size() == 1 ? name : fmt::format("{}.part{}", name, p + 1);
      r.kind = kind;
      r.lifetime = lifetime;
      r.affinity = affinity;
      r.region = program_.computations[scopes_.regions[s].region].name;
      r.space = space;
      r.size = layout.total;
      r.escaping = escaping;
      r.over_limit = part.over_limit;
      for (std::size_t k = 0; k < part.items.size(); ++k) {
        const std::size_t i = part.items[k];
        if (i < group.size()) {
          r.slices.push_back(MakeSlice(group[i], layout.offsets[k]));
          continue;
        }
        RegionCopy copy = copies[i - group.size()].copy;
        copy.resource = static_cast<std::int32_t>(plan_.resources.size());
        copy.offset = layout.offsets[k];
        copy.to_space = space;
        plan_.regions[s].copies.push_back(std::move(copy));
      }
      r.start = kind == ResourceKind::kUpload ? 0 : span.first;
      r.end = analysis_.buffers.time_steps - 1;
      if (kind == ResourceKind::kSlab) r.end = std::max(span.first, span.last);
      if (kind == ResourceKind::kResults) {
        r.end = r.start;
        for (const Slice& slice : r.slices) r.end = std::max(r.end, slice.end);
      }
      if (layout.search_stopped) {
        plan_.warnings.push_back(fmt::format(
            "{}: the exact search of its layout stopped at its {}time limit of {} s (the best "
            "layout found, not proven optimal); --time-limit S searches longer",
            r.name, layout.search_default_time_limit ? "default " : "",
            layout.search_time_limit_seconds));
      }
      if (part.over_limit) {
        plan_.warnings.push_back(fmt::format(
            "{} holds {} alone: it needs {} bytes{}, more than --max-allocation-size {}", r.name,
            analysis_.buffers.buffers[r.slices.front().buffer].name,
            PlanningBytes(part_items.front(), lo),
            program_.dims.empty() ? "" : " at the dims' bounds", *options_.max_allocation_size));
      }
      if (kind == ResourceKind::kSlab) plan_.regions[s].slab_size += r.size;
      plan_.regions[s].resources.push_back(static_cast<std::int32_t>(plan_.resources.size()));
      plan_.resources.push_back(std::move(r));
    }
  }

  LayoutResult Layout(const std::vector<LayoutItem>& items, bool packed,
                      const LayoutOptions& layout) const {
    if (!packed) return StackLayout(items, layout);
    if (options_.in_order) return InOrderLayout(items, layout);
    return PackedLayout(items, options_.algorithm, layout);
  }

  // The copies level `level` offers region s (regions/captured_copies.h),
  // those a faster level took (`copied`) left out.
  std::vector<PendingCopy> CopyItems(std::size_t s, const RegionFastLevel& level,
                                     const std::vector<ValueId>& copied) const {
    std::vector<PendingCopy> out;
    for (const CopyCandidate& c : level.copies) {
      if (c.region != scopes_.regions[s].region || c.saves_s <= 0 ||
          std::find(copied.begin(), copied.end(), c.value) != copied.end()) {
        continue;
      }
      const auto [first, last] = ReaderSteps(program_, analysis_, c.region, c.value);
      if (last < first) continue;
      PendingCopy p;
      p.item = LayoutItem{SizeExpr::Constant(c.bytes), first, last};
      p.copy.value = c.value;
      p.copy.buffer = c.buffer;
      p.copy.bytes = c.bytes;
      p.copy.start = first;
      p.copy.end = last;
      p.copy.copy_s = c.copy_s;
      p.copy.saves_s = c.saves_s;
      out.push_back(std::move(p));
    }
    return out;
  }

  // Splits `slab` into the slices level `level`'s slab holds
  // (ChooseFastSlices, with the copies `offered` competing for its bytes)
  // and the rest, which stays in `slab`; `copies` gets the copies taken.
  Group TakeFastSlices(const RegionFastLevel& level, Group& slab,
                       const std::vector<PendingCopy>& offered,
                       std::vector<PendingCopy>& copies) const {
    std::vector<double> benefit;
    for (BufferId b : slab) {
      benefit.push_back(static_cast<std::size_t>(b) < level.benefit.size() ? level.benefit[b] : 0);
    }
    std::vector<LayoutItem> items = Items(slab);
    for (const PendingCopy& c : offered) {
      items.push_back(c.item);
      benefit.push_back(c.copy.saves_s);
    }
    const FastSlabChoice choice = ChooseFastSlices(items, benefit, level.capacity,
                                                   FastLayout(level), options_.in_order,
                                                   options_.algorithm);
    Group taken, rest;
    std::size_t k = 0;
    for (std::size_t i = 0; i < items.size(); ++i) {
      const bool chosen = k < choice.fast.size() && choice.fast[k] == i;
      if (chosen) ++k;
      if (i >= slab.size()) {
        if (chosen) copies.push_back(offered[i - slab.size()]);
      } else {
        (chosen ? taken : rest).push_back(slab[i]);
      }
    }
    slab = std::move(rest);
    return taken;
  }

  // The slab layout with offsets also multiples of the level's alignment.
  LayoutOptions FastLayout(const RegionFastLevel& level) const {
    LayoutOptions layout = options_.layout;
    layout.offset_alignment =
        std::lcm(layout.offset_alignment, std::max<Bytes>(1, level.alignment));
    return layout;
  }

  // "<region>.<suffix>", or with ".fast" appended while that names a
  // resource already (a level called "slab").
  std::string FastSlabName(const std::string& region, const std::string& suffix) const {
    std::string name = region + "." + suffix;
    const auto taken = [&](const std::string& n) {
      return std::any_of(plan_.resources.begin(), plan_.resources.end(),
                         [&](const Resource& r) { return r.name == n || r.name.starts_with(n + ".part"); });
    };
    while (taken(name)) name += ".fast";
    return name;
  }

  void BuildRegion(std::size_t s) {
    const RegionScope& scope = scopes_.regions[s];
    const Computation& region = program_.computations[scope.region];
    RegionInfo info;
    info.name = region.name;
    info.computation = scope.region;
    info.execute = scope.execute;
    info.affinity = region.affinity.value_or("");
    info.once = scope.once;
    plan_.regions.push_back(std::move(info));
    const std::string& here = plan_.regions[s].affinity;
    const auto suffix = [&](Lifetime lifetime, Lifetime usual, const std::string& affinity) {
      std::string text;
      if (lifetime != usual) text += "." + std::string(LifetimeName(lifetime));
      if (affinity != here) text += AffinitySuffix(affinity);
      return text;
    };

    // Uploads: constant before variable, escaping before local.
    std::map<std::tuple<int, int, std::string>, Group> uploads;
    for (std::size_t i = 0; i < scope.uploads.size(); ++i) {
      const BufferId b = scope.uploads[i];
      // The constant op's own lifetime (constant unless declared variable),
      // not the buffer's, which an entry result would make external.
      bool variable = false;
      for (ValueId v : analysis_.buffers.buffers[b].values) {
        const OpId def = program_.values[v].defining_op;
        if (def != kNoId && program_.ops[def].kind == OpKind::kConstant &&
            program_.values[v].lifetime == Lifetime::kVariable) {
          variable = true;
        }
      }
      const int rank = variable ? 1 : 0;
      const bool escaping = scope.upload_escapes[i];
      uploads[{rank, escaping ? 0 : 1, escaping ? AffinityOf(s, b) : here}].push_back(b);
    }
    for (const auto& [key, group] : uploads) {
      const auto& [rank, local, affinity] = key;
      const Lifetime lifetime = rank == 0 ? Lifetime::kConstant : Lifetime::kVariable;
      AddResources(s, group, ResourceKind::kUpload, lifetime, affinity,
                   region.name + ".upload." + std::string(LifetimeName(lifetime)) +
                       (local ? ".local" : "") + (affinity != here ? AffinitySuffix(affinity) : ""),
                   local == 0);
    }

    // Result reservations per (affinity, lifetime), in first-result order.
    std::vector<std::pair<std::pair<std::string, Lifetime>, Group>> results;
    for (BufferId b : scope.results) {
      const auto key = std::make_pair(AffinityOf(s, b), analysis_.buffers.buffers[b].lifetime);
      auto it = std::find_if(results.begin(), results.end(),
                             [&](const auto& entry) { return entry.first == key; });
      if (it == results.end()) {
        results.push_back({key, {b}});
      } else {
        it->second.push_back(b);
      }
    }
    for (const auto& [key, group] : results) {
      AddResources(s, group, ResourceKind::kResults, key.second, key.first,
                   region.name + ".results" + suffix(key.second, Lifetime::kTransient, key.first),
                   true);
    }

    // Each level, fastest first, takes the best of what the faster ones left.
    Group slab = scope.slab;
    struct FastGroup {
      const RegionFastLevel* level;
      Group slices;
      std::vector<PendingCopy> copies;
    };
    std::vector<FastGroup> fast;
    std::vector<ValueId> copied;  // by a faster level
    if (options_.fast_memory) {
      for (const RegionFastLevel& level : options_.fast_memory->levels) {
        if (!RegionMayUse(level, here)) continue;
        const std::vector<PendingCopy> offered = CopyItems(s, level, copied);
        if (slab.empty() && offered.empty()) continue;
        FastGroup group{&level, {}, {}};
        group.slices = TakeFastSlices(level, slab, offered, group.copies);
        for (const PendingCopy& c : group.copies) copied.push_back(c.copy.value);
        if (!group.slices.empty() || !group.copies.empty()) fast.push_back(std::move(group));
      }
    }
    if (!slab.empty()) {
      AddResources(s, slab, ResourceKind::kSlab, Lifetime::kTransient, here,
                   region.name + ".slab", false);
    }
    for (const FastGroup& group : fast) {
      const RegionFastLevel* level = group.level;
      const LayoutOptions layout = FastLayout(*level);
      const std::size_t first = plan_.resources.size();
      AddResources(s, group.slices, ResourceKind::kSlab, Lifetime::kTransient, here,
                   FastSlabName(region.name, level->suffix), false, level->space, &layout,
                   group.copies);
      for (std::size_t r = first; r < plan_.resources.size(); ++r) {
        plan_.resources[r].devices = level->devices;
      }
    }
    // In command order: by the copy's step, then value.
    std::vector<RegionCopy>& copies = plan_.regions[s].copies;
    std::stable_sort(copies.begin(), copies.end(), [](const RegionCopy& a, const RegionCopy& b) {
      return std::pair(a.start, a.value) < std::pair(b.start, b.value);
    });
  }

  const Program& program_;
  const ProgramAnalysis& analysis_;
  const RegionScopes& scopes_;
  const ResourceBuildOptions& options_;
  RegionPlan& plan_;
  std::vector<std::vector<std::size_t>> capturing_;  // per buffer: scopes with it as a param
};

}  // namespace

std::string JoinAffinities(const std::vector<std::string>& affinities) {
  std::vector<std::string> distinct;
  for (const std::string& a : affinities) {
    if (!a.empty() && std::find(distinct.begin(), distinct.end(), a) == distinct.end()) {
      distinct.push_back(a);
    }
  }
  if (distinct.empty()) return "";
  if (distinct.size() == 1) return distinct.front();
  std::string joined = "optimal(";
  for (std::size_t i = 0; i < distinct.size(); ++i) joined += (i ? "," : "") + distinct[i];
  return joined + ")";
}

void BuildRegionResources(const Program& program, const ProgramAnalysis& analysis,
                          const RegionScopes& scopes, const ResourceBuildOptions& options,
                          RegionPlan& plan) {
  ResourceBuilder(program, analysis, scopes, options, plan).Run();
}

}  // namespace memplan
