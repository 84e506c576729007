#include "report/summary.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <optional>
#include <string_view>
#include <utility>
#include <vector>

#include "analysis/live_profile.h"
#include "report/captured_copy_lines.h"
#include "report/packing_summary.h"
#include "report/peak_attribution.h"
#include "report/space_peaks.h"
#include "report/space_view.h"
#include "absl/functional/function_ref.h"
#include "fmt/format.h"
#include "fmt/ranges.h"
#include "io/byte_size.h"
#include "ir/dims.h"
#include "ir/plural.h"

namespace memplan {
namespace {

std::string Header(const SummaryInput& input) {
  std::string text = fmt::format(
      "{}: {}, {}", input.buffers.input,
      CountOf(input.buffers.buffers.size(), "buffer"),
      CountOf(input.buffers.time_steps, "time step"));
  if (input.program) {
    text += ", " + CountOf(input.program->ops.size(), "op");
  }
  return text + "\n";
}

// Transient buffers of the default memory (not pinned to another space).
bool IsTransient(const Buffer& b) {
  return b.lifetime == Lifetime::kTransient && (!b.space || *b.space == kDefaultSpace);
}

// " (op %y = conv)" for the op at `step`, "" without a program or op there.
std::string OpAt(const SummaryInput& input, TimeStep step) {
  if (!input.program || !input.schedule) return "";
  const std::optional<std::string> op = DescribeOpAt(*input.program, *input.schedule, step);
  return op ? fmt::format(" (op {})", *op) : "";
}

// Where the selected buffers peak and the largest ones live there, e.g.
//   activation peak: 12 bytes live at step 1 (op %b = exp) in 2 buffers:
//      66.67%  b: 8 bytes (8 B)
//      33.33%  a: 4 bytes (4 B)
// `label` starts the first line ("activation peak", "alternate memory
// activation peak"); `in_space` (>= 0) adds how many of the selection have a
// segment in the space: "in 2 buffers (of 6 with bytes there)".
std::string PeakLines(const SummaryInput& input, const BufferSet& buffers,
                      absl::FunctionRef<bool(const Buffer&)> include, std::string_view label,
                      std::int64_t in_space = -1) {
  constexpr std::size_t kTop = 5;
  const PeakAttribution peak = AttributePeak(buffers, include, kTop);
  if (peak.step == kNoId) return "";
  std::string text =
      fmt::format("{}: {} live at step {}{} in {}{}{}:\n", label, CountOf(peak.live_bytes, "byte"),
                  peak.step, OpAt(input, peak.step), CountOf(peak.live_buffers, "buffer"),
                  in_space >= 0 ? fmt::format(" (of {} with bytes there)", in_space) : "",
                  peak.live_buffers > static_cast<std::int64_t>(kTop)
                      ? fmt::format("; the {} largest", kTop)
                      : "");
  for (BufferId id : peak.largest) {
    const Buffer& b = buffers.buffers[id];
    const Bytes held = HeldBytesAt(b, peak.step);
    text += fmt::format("  {:>6.2f}%  {}: {}\n",
                        100.0 * static_cast<double>(held) / static_cast<double>(peak.live_bytes),
                        b.name, BytesAndHuman(held));
  }
  return text;
}

// The activations (transient buffers) a space other than the default one
// holds (with fast memory: what memory space assignment put there): where
// they peak and the largest there, e.g.
//   alternate memory activation peak: 48 bytes live at step 2 (op %n2 =
//   negate) in 2 buffers (of 8 with bytes there):
// (one line). No extent or "% over" of their own: memory space assignment
// packs the space as a whole, weights and program inputs among the
// activations, so the space's line ("alternate memory: ... used, max live
// ...") compares its extent with its bound.
std::string OtherSpaceLines(const SummaryInput& input, const Plan& plan, const SpacePeak& peak) {
  if (peak.transient_buffers == 0) return "";
  const std::string name = SpaceNameIn(plan, peak.space);
  const SpaceView view = ViewSpace(input.buffers, plan, peak.space);
  const auto transient = [](const Buffer& b) { return b.lifetime == Lifetime::kTransient; };
  std::int64_t copies = 0;
  const BufferSet with_copies =
      WithCapturedCopies(view.segments(), plan, input.program, peak.space, copies);
  if (copies == 0) {
    return PeakLines(input, view.segments(), transient, name + " memory activation peak",
                     peak.transient_buffers);
  }
  // Region copies hold slab bytes too: counted, like the space's max live.
  return PeakLines(input, with_copies, transient,
                   name + " memory activation peak (" + CountOf(copies, "copy", "copies") +
                       " of captured values included)",
                   peak.transient_buffers + copies);
}

// "a", "a and b", "a, b and c".
std::string JoinWithAnd(const std::vector<std::string>& names) {
  std::string text;
  for (std::size_t i = 0; i < names.size(); ++i) {
    text += (i == 0 ? "" : i + 1 == names.size() ? " and " : ", ") + names[i];
  }
  return text;
}

// A space's max live after its "used", like with like: when it has pools
// laid out once for the whole run (weights, inputs and outputs), those held
// at every step as the plan holds them, then what freeing each buffer after
// its last use would give, which no plan of these pools reaches, e.g.
//   , max live 270831252 bytes (258.28 MiB) at step 102 (0.00% over) with
//   the constant and external pools held for the whole run, as in the plan
//   (never reused); 197015444 bytes (187.89 MiB) at step 8 if each buffer
//   were freed after its last use
std::string MaxLiveText(const SpaceInfo& space, const SpacePeak& peak) {
  if (peak.resident_bytes == 0 || peak.resident_max_live_bytes == peak.max_live_bytes) {
    return fmt::format(", max live {} at step {} ({} over)", BytesAndHuman(peak.max_live_bytes),
                       peak.peak_step, PercentOver(space.peak, peak.max_live_bytes));
  }
  return fmt::format(
      ", max live {} at step {} ({} over) with the {} {} held for the whole run, as in the "
      "plan (never reused); {} at step {} if each buffer were freed after its last use",
      BytesAndHuman(peak.resident_max_live_bytes), peak.resident_peak_step,
      PercentOver(space.peak, peak.resident_max_live_bytes), JoinWithAnd(peak.resident_pools),
      peak.resident_pools.size() == 1 ? "pool" : "pools", BytesAndHuman(peak.max_live_bytes),
      peak.peak_step);
}

// The default-memory transient figures: the pool's extent and bound (with
// fast memory also how many of the pool's buffers have bytes in default
// memory, the count the JSON's spaces[0].transient.buffers gives), or, when
// fast memory holds every activation, that the pool is empty.
std::string DefaultTransientLine(const SummaryInput& input, const Plan& plan,
                                 const std::vector<SpacePeak>& peaks) {
  std::int64_t elsewhere = 0, here = 0;
  for (const SpacePeak& p : peaks) {
    if (p.space != kDefaultSpace) elsewhere += p.transient_buffers;
    if (p.space == kDefaultSpace) here = p.transient_buffers;
  }
  if (plan.peak == 0 && elsewhere > 0) {
    std::int64_t transient = 0;
    for (const Buffer& b : input.buffers.buffers) transient += IsTransient(b) && b.size > 0;
    if (plan.spaces.size() <= 2) {
      return fmt::format(
          "transient pool in {} memory: empty (its {} are held in fast memory only)\n",
          SpaceNameIn(plan, kDefaultSpace), CountOf(transient, "buffer"));
    }
    // A hierarchy: say which levels hold them (a buffer may have bytes in
    // more than one).
    std::vector<std::string> held;
    for (const SpacePeak& p : peaks) {
      if (p.space != kDefaultSpace && p.transient_buffers > 0) {
        held.push_back(fmt::format("{} in {}", p.transient_buffers, SpaceNameIn(plan, p.space)));
      }
    }
    return fmt::format("transient pool in {} memory: empty (its {} are held in other levels "
                       "only: {})\n",
                       SpaceNameIn(plan, kDefaultSpace), CountOf(transient, "buffer"),
                       fmt::join(held, ", "));
  }
  std::string text =
      fmt::format("transient extent {}, lower bound {} ({} over)", BytesAndHuman(plan.peak),
                  BytesAndHuman(plan.lower_bound), PercentOver(plan.peak, plan.lower_bound));
  if (elsewhere > 0) {
    std::int64_t pool_buffers = 0;
    for (const PoolInfo& pool : plan.pools) {
      if (pool.space == kDefaultSpace && pool.lifetime == Lifetime::kTransient) {
        pool_buffers += pool.buffers;
      }
    }
    text += fmt::format("; {} of the pool's {} {} bytes in {} memory", here,
                        CountOf(pool_buffers, "buffer"), here == 1 ? "has" : "have",
                        SpaceNameIn(plan, kDefaultSpace));
  }
  text += "\n";
  if (!plan.search_status.empty()) {
    text += fmt::format("exact search: {}, proven lower bound {} (gap {}), {}\n",
                        plan.search_status, BytesAndHuman(plan.proven_lower_bound),
                        PercentOver(plan.peak, plan.proven_lower_bound),
                        CountOf(plan.search_nodes, "node"));
    // The search places a movable buffer over its whole range: its proof
    // does not cover packings that use the bytes a buffer frees.
    if (ExactSearchReadsGapsAsLive(input.buffers)) {
      text += "exact search: it reads movable buffers as live over their dead gaps and windows "
              "(conservative), so its proof holds for that reading only\n";
    }
    if (plan.search_status == "stopped") {
      // The default limit is one the user may not know of; a given one
      // they can raise. Where a clock stops the search depends on the
      // machine and its load, so the plan may differ between runs.
      text += fmt::format(
          "exact search stopped at its {}time limit of {} s (so this plan may differ between "
          "runs); {} searches longer\n",
          plan.search_default_time_limit ? "default " : "", plan.search_time_limit_seconds,
          plan.search_default_time_limit ? "--time-limit S" : "a higher --time-limit");
    }
  }
  return text;
}

// What the transient figures cover in a plan with regions: its transient
// pools of the default space (ir/plan.h), e.g. "the region slabs and
// transient result reservations".
std::string TransientCoverage(const Plan& plan) {
  bool pool = false;
  for (const PoolInfo& p : plan.pools) {
    pool |= p.space == kDefaultSpace && !p.start && p.name == "transient";
  }
  bool slabs = false, results = false;
  for (const Resource& r : plan.regions->resources) {
    slabs |= r.kind == ResourceKind::kSlab;
    results |= r.kind == ResourceKind::kResults && r.lifetime == Lifetime::kTransient;
  }
  std::vector<std::string> parts;
  if (pool) parts.push_back("the program's transient pool");
  if (slabs) parts.push_back("the region slabs");
  if (results) parts.push_back("the transient result reservations");
  if (parts.empty()) return "no transient allocations";
  std::string text = parts.front();
  for (std::size_t i = 1; i < parts.size(); ++i) {
    text += (i + 1 == parts.size() ? " and " : ", ") + parts[i];
  }
  return text;
}

// "24576 bytes", or "align(4*%n, 64) + 8192 = 24576 bytes at n=4096" for a
// symbolic size (its dims at the evaluation point).
std::string SizeText(const SizeExpr& size, Bytes bytes, const Program& program) {
  if (size.IsConstant()) return CountOf(bytes, "byte");
  const std::vector<std::string> names = DimNames(program);
  const std::vector<std::int64_t> point = EvaluationPoint(program);
  std::vector<std::string> at;
  for (DimId d : size.Dims()) {
    if (d < static_cast<DimId>(names.size())) {
      at.push_back(fmt::format("{}={}", names[d], point[d]));
    }
  }
  return fmt::format("{} = {} at {}", size.ToString(names), CountOf(bytes, "byte"),
                     fmt::join(at, ", "));
}

// Steps of commands that run one after another: a wave (adjacent commands
// with the same concurrent >= 0) is one step, a command that runs alone one.
std::size_t Steps(const std::vector<Command>& commands) {
  std::size_t waves = 0;
  for (std::size_t i = 0; i < commands.size(); ++i) {
    const bool joins = i > 0 && commands[i].concurrent >= 0 &&
                       commands[i].concurrent == commands[i - 1].concurrent;
    if (!joins) ++waves;
  }
  return waves;
}

// How much faster `estimated` is than `baseline`: "40.00% faster"; a
// saving that rounds to 0.00% gives its seconds, "9.92e-07 s faster, under
// 0.01%", so a slice moved for it does not seem to save nothing.
std::string Faster(double estimated, double baseline) {
  const double percent = baseline > 0 ? 100.0 * (baseline - estimated) / baseline : 0.0;
  if (estimated < baseline && fmt::format("{:.2f}", percent) == "0.00") {
    return fmt::format("{:.3g} s faster, under 0.01%", baseline - estimated);
  }
  return fmt::format("{:.2f}% faster", percent);
}

// "  copies: 1 (4096 bytes dram -> scratchpad), saves 1.372e-06 s": the
// region's captured copies, their bytes per (from, to) pair of spaces, and
// the net seconds they save a run; "" without copies.
std::string CopiesLine(const Plan& plan, const RegionInfo& info) {
  if (info.copies.empty()) return "";
  std::vector<std::pair<std::pair<MemorySpace, MemorySpace>, Bytes>> moved;
  double saves = 0;
  for (const RegionCopy& c : info.copies) {
    saves += c.saves_s;
    const auto key = std::pair(c.from_space, c.to_space);
    auto it = std::find_if(moved.begin(), moved.end(), [&](const auto& m) { return m.first == key; });
    if (it == moved.end()) {
      moved.push_back({key, c.bytes});
    } else {
      it->second += c.bytes;
    }
  }
  std::vector<std::string> parts;
  for (const auto& [spaces, bytes] : moved) {
    parts.push_back(fmt::format("{} {} -> {}", CountOf(bytes, "byte"),
                                SpaceNameIn(plan, spaces.first), SpaceNameIn(plan, spaces.second)));
  }
  return fmt::format("  copies: {} ({}), saves {:.4g} s\n", info.copies.size(),
                     fmt::join(parts, ", "), saves);
}

// "  fast slab stage.fast: 16384 bytes in alternate memory, 2 slices (zeros,
// t1); estimated 1.2e-06 s, 2.0e-06 s all in default memory (40.00% faster)",
// then a line per further level's slab without the times ("  fast slab
// stage.sram: 8192 bytes in sram memory, 2 slices (c, d)"); or "  fast slab:
// none (no slice fits ...)" / "(the region has no slab slices)" / "(gpu0 may
// access none of the levels ...)". Spaces go by their names in `plan` (a
// hierarchy's levels: "scratchpad", "dram").
std::string FastSlabLines(const Plan& plan, const RegionInfo& info, const BufferSet& buffers,
                          const Program& program) {
  const RegionPlan& rp = *plan.regions;
  const RegionFastMemory& fast = *rp.options.fast_memory;
  const auto times = fmt::format("estimated {:.4g} s, {:.4g} s all in {} memory ({})",
                                 info.estimated_s, info.all_default_s,
                                 SpaceNameIn(plan, kDefaultSpace),
                                 Faster(info.estimated_s, info.all_default_s));
  std::size_t slab_slices = 0;
  for (const Resource& r : rp.resources) {
    if (r.region == info.name && r.kind == ResourceKind::kSlab) slab_slices += r.slices.size();
  }
  if (slab_slices == 0 && info.copies.empty()) {
    return fmt::format("  fast slab: none (the region has no slab slices); {}\n", times);
  }
  std::string text;
  for (const RegionFastLevel& level : fast.levels) {
    for (std::size_t i = 0; i < rp.resources.size(); ++i) {
      const Resource& r = rp.resources[i];
      if (r.region != info.name || r.space != level.space) continue;
      std::vector<std::string> names, copied, held;
      for (const Slice& slice : r.slices) names.push_back(buffers.buffers[slice.buffer].name.str());
      for (const RegionCopy& c : info.copies) {
        if (c.resource == static_cast<std::int32_t>(i)) copied.push_back(program.values[c.value].name);
      }
      if (!names.empty() || copied.empty()) {
        held.push_back(fmt::format("{} ({})", CountOf(names.size(), "slice"), fmt::join(names, ", ")));
      }
      if (!copied.empty()) {
        held.push_back(fmt::format("{} ({})", CountOf(copied.size(), "copy", "copies"), fmt::join(copied, ", ")));
      }
      text += fmt::format("  fast slab {}: {} in {} memory, {}{}\n", r.name,
                          CountOf(r.size_bytes, "byte"), SpaceNameIn(plan, r.space),
                          fmt::join(held, ", "), text.empty() ? "; " + times : "");
    }
  }
  if (!text.empty()) return text + CopiesLine(plan, info);
  std::vector<std::string> usable, barred;
  for (const RegionFastLevel& level : fast.levels) {
    if (!RegionMayUse(level, info.affinity)) {
      barred.push_back(SpaceNameIn(plan, level.space));
      continue;
    }
    usable.push_back(fast.levels.size() == 1
                         ? CountOf(level.capacity, "byte") + " of fast memory"
                         : CountOf(level.capacity, "byte") + " of " + SpaceNameIn(plan, level.space));
  }
  if (usable.empty()) {
    return fmt::format("  fast slab: none ({} may access none of {}); {}\n",
                       info.affinity.empty() ? "the host" : info.affinity,
                       fmt::join(barred, ", "), times);
  }
  return fmt::format("  fast slab: none (no slice both saves time and fits the {}); {}\n",
                     fmt::join(usable, " or the "), times);
}

// One line per region (slab, results, uploads, commands). Warnings are not
// part of the summary: the CLI prints them on stderr, where --quiet and
// --json - do not hide them.
std::string RegionLines(const Plan& plan, const Program& program, const BufferSet& buffers) {
  const RegionPlan& rp = *plan.regions;
  std::string text;
  for (std::size_t i = 0; i < rp.regions.size(); ++i) {
    const RegionInfo& info = rp.regions[i];
    Bytes results = 0, uploads = 0;
    std::size_t result_allocations = 0, upload_allocations = 0;
    for (const Resource& r : rp.resources) {
      if (r.region != info.name) continue;
      if (r.kind == ResourceKind::kResults) results += r.size_bytes, ++result_allocations;
      if (r.kind == ResourceKind::kUpload) uploads += r.size_bytes, ++upload_allocations;
    }
    std::size_t commands = 0, waves = 0;
    for (const HostStep& step : rp.steps) {
      const bool runs = step.kind == HostStepKind::kExecute &&
                        step.region == static_cast<std::int32_t>(i);
      if (!runs) continue;
      commands += step.commands.size();
      waves += Steps(step.commands);
    }
    const auto amount = [](Bytes bytes, std::size_t allocations) {
      if (allocations == 0) return CountOf(bytes, "byte");
      return fmt::format("{} in {}", CountOf(bytes, "byte"),
                         CountOf(allocations, "allocation"));
    };
    text += fmt::format(
        "region @{}{}{}: slab {} (lower bound {}, {} over), results {}, uploads {}, {} in {}\n",
        info.name, info.affinity.empty() ? "" : " on " + info.affinity,
        info.once ? " (run once)" : "", SizeText(info.slab_size, info.slab_bytes, program),
        info.slab_lower_bound, PercentOver(info.slab_bytes, info.slab_lower_bound),
        amount(results, result_allocations), amount(uploads, upload_allocations),
        CountOf(commands, "command"),
        CountOf(waves, "step"));
    if (rp.options.fast_memory) text += FastSlabLines(plan, info, buffers, program);
  }
  if (rp.options.fast_memory) {
    text += fmt::format("fast slabs: estimated {:.4g} s per run, {:.4g} s with every slice in "
                        "{} memory ({})\n",
                        rp.estimated_s, rp.all_default_s, SpaceNameIn(plan, kDefaultSpace),
                        Faster(rp.estimated_s, rp.all_default_s));
  }
  return text;
}

// One line per lifetime whose default-memory pools have a capacity
// (--capacity POOL=BYTES), e.g. "transient pool: 300 bytes (300 B) used of
// 1024 bytes (1.00 KiB) capacity (29.30%)": the pools' extent, lowest offset
// to highest end ("used" as for a space).
std::string PoolCapacityLines(const Plan& plan) {
  std::string text;
  for (const auto& [lifetime, capacity] : plan.pool_capacity) {
    std::optional<Bytes> low;
    Bytes high = 0;
    for (const PoolInfo& pool : plan.pools) {
      if (pool.space != kDefaultSpace || pool.lifetime != lifetime) continue;
      low = std::min(low.value_or(pool.offset), pool.offset);
      high = std::max(high, pool.offset + pool.size);
    }
    const Bytes used = low ? high - *low : 0;
    text += fmt::format("{} pool: {} used of {} capacity ({:.2f}%)\n", LifetimeName(lifetime),
                        BytesAndHuman(used), BytesAndHuman(capacity),
                        capacity > 0 ? 100.0 * static_cast<double>(used) /
                                           static_cast<double>(capacity)
                                     : 0.0);
  }
  return text;
}

}  // namespace

std::string PercentOver(Bytes peak, Bytes bound) {
  if (bound <= 0) return "0.00%";
  return fmt::format("{:.2f}%", 100.0 * static_cast<double>(peak - bound) / static_cast<double>(bound));
}

std::string FormatPlanSummary(const SummaryInput& input, const Plan& plan,
                              std::optional<AliasingSaving> aliasing, bool with_seconds) {
  std::string text = Header(input);
  // The name column is as wide as the widest pool name (region allocations
  // have long ones), at least 10.
  std::size_t name_width = 10;
  for (const PoolInfo& pool : plan.pools) name_width = std::max(name_width, pool.name.size());
  text += fmt::format("{:<{}} {:<9} {:>8} {:>14} {:>14} {:>14} {:>8}\n", "pool", name_width,
                      "space", "buffers", "bytes", "extent", "lower bound", "over");
  for (const PoolInfo& pool : plan.pools) {
    text += fmt::format("{:<{}} {:<9} {:>8} {:>14} {:>14} {:>14} {:>8}\n", pool.name,
                        name_width, SpaceNameIn(plan, pool.space), pool.buffers, pool.total_bytes,
                        pool.size, pool.lower_bound, PercentOver(pool.size, pool.lower_bound));
    text += PoolCopiesNote(plan, input.program, pool);
  }
  const std::vector<SpacePeak> peaks = ComputeSpacePeaks(input.buffers, plan);
  text += DefaultTransientLine(input, plan, peaks);
  if (plan.regions) {
    text += fmt::format(
        "  (transient: {}, packed over time; allocations never alive together share bytes)\n",
        TransientCoverage(plan));
  }
  const bool other_spaces = std::any_of(peaks.begin(), peaks.end(), [](const SpacePeak& p) {
    return p.space != kDefaultSpace && p.transient_buffers > 0;
  });
  std::int64_t default_transient = 0;
  for (const SpacePeak& p : peaks) {
    if (p.space == kDefaultSpace) default_transient = p.transient_buffers;
  }
  const DerivedBufferSet in_default = DefaultMemoryView(input.buffers, plan);
  text += other_spaces ? PeakLines(input, in_default.get(), IsTransient,
                                   SpaceNameIn(plan, kDefaultSpace) + " memory activation peak",
                                   default_transient)
                       : PeakLines(input, in_default.get(), IsTransient, "activation peak");
  for (const SpacePeak& peak : peaks) {
    if (peak.space != kDefaultSpace) text += OtherSpaceLines(input, plan, peak);
  }
  if (aliasing) {
    const std::string saving =
        aliasing->unaliased_peak > aliasing->aliased_peak
            ? fmt::format("saves {}", FormatBytes(aliasing->unaliased_peak - aliasing->aliased_peak))
            : std::string("no saving");
    if (aliasing->without_fast_memory) {
      text += fmt::format(
          "aliasing (both planned without fast memory): transient extent {} without views and "
          "in-place reuse, {} with them ({})\n",
          BytesAndHuman(aliasing->unaliased_peak), BytesAndHuman(aliasing->aliased_peak), saving);
    } else {
      text += fmt::format("aliasing: transient extent {} without views and in-place reuse ({})\n",
                          BytesAndHuman(aliasing->unaliased_peak), saving);
    }
  }
  if (plan.regions && input.program) text += RegionLines(plan, *input.program, input.buffers);
  // Each space: its extent from address 0 ("used": weights, inputs and
  // activations together) against the most bytes live there at one step.
  for (std::size_t i = 0; i < plan.spaces.size(); ++i) {
    const SpaceInfo& space = plan.spaces[i];
    text += fmt::format("{} memory: {} used", space.name, BytesAndHuman(space.peak));
    if (space.capacity) text += fmt::format(" of {} capacity", BytesAndHuman(*space.capacity));
    if (i < peaks.size() && peaks[i].peak_step != kNoId) text += MaxLiveText(space, peaks[i]);
    text += "\n";
  }
  text += PoolCapacityLines(plan);
  const std::string region_alignment =
      plan.regions ? fmt::format(" (region slices: offsets {}, sizes padded to {})",
                                 plan.regions->options.offset_alignment,
                                 plan.regions->options.range_alignment)
                   : "";
  text += fmt::format("algorithm: {}; alignment {}{}; plan {}\n", plan.algorithm, plan.alignment,
                      region_alignment,
                      plan.verified ? "verified" : "NOT verified");
  text += PackingLines(plan, with_seconds);
  return text;
}

std::string CapacityPeakText(const SummaryInput& input) {
  constexpr std::size_t kTop = 3;
  const PeakAttribution peak = AttributePeak(input.buffers, IsTransient, kTop);
  if (peak.step == kNoId) return "";
  std::string text = fmt::format("; the activations peak at step {}{} with {} live in {}",
                                 peak.step, OpAt(input, peak.step), BytesAndHuman(peak.live_bytes),
                                 CountOf(peak.live_buffers, "buffer"));
  if (peak.live_buffers == 1) return text + ": " + input.buffers.buffers[peak.largest[0]].name;
  text += ", largest first:";
  for (std::size_t i = 0; i < peak.largest.size(); ++i) {
    const Buffer& b = input.buffers.buffers[peak.largest[i]];
    text += fmt::format("{} {} {}", i ? "," : "", b.name, BytesAndHuman(HeldBytesAt(b, peak.step)));
  }
  return text;
}

std::string FormatStats(const SummaryInput& input) {
  const BufferSet& set = input.buffers;
  std::string text = Header(input);
  Bytes total = 0;
  std::array<std::pair<std::int64_t, Bytes>, 5> by_lifetime{};
  for (const Buffer& b : set.buffers) {
    total += b.size;
    auto& slot = by_lifetime[static_cast<size_t>(b.lifetime)];
    ++slot.first;
    slot.second += b.size;
  }
  text += fmt::format("total bytes: {}\n", BytesAndHuman(total));
  for (size_t l = 0; l < by_lifetime.size(); ++l) {
    if (by_lifetime[l].first == 0) continue;
    // The nouns padded to their plural's width keep the columns aligned.
    text += fmt::format("  {:<10} {:>8} {:<7} {:>14} {}\n",
                        LifetimeName(static_cast<Lifetime>(l)), by_lifetime[l].first,
                        NounFor(by_lifetime[l].first, "buffer"), by_lifetime[l].second,
                        NounFor(by_lifetime[l].second, "byte"));
  }
  LiveProfile all = ComputeLiveProfile(set, [](const Buffer&) { return true; });
  LiveProfile transient = ComputeLiveProfile(set, IsTransient);
  const auto where = [&](const LiveProfile& profile, std::int64_t buffers, const char* none) {
    return buffers == 0 ? fmt::format("({})", none)
                        : fmt::format("at step {}{}", profile.peak_time, OpAt(input, profile.peak_time));
  };
  const std::int64_t transient_buffers =
      by_lifetime[static_cast<size_t>(Lifetime::kTransient)].first;
  const std::int64_t buffers = static_cast<std::int64_t>(set.buffers.size());
  text += fmt::format("lower bound (max live activations): {} {}\n", BytesAndHuman(transient.peak),
                      where(transient, transient_buffers, "no transient buffers"));
  text += fmt::format("max live (all buffers, weights included): {} {}\n", BytesAndHuman(all.peak),
                      where(all, buffers, "no buffers"));
  text += PeakLines(input, input.buffers, IsTransient, "activation peak");

  // A coarse profile: the transient live bytes in up to 16 equal time bands
  // (the max within each band), drawn as bars. Band b covers steps
  // [b * steps / bands, (b + 1) * steps / bands), computed without overflow.
  const TimeStep steps = transient.time_steps;
  if (steps > 0 && transient.peak > 0) {
    const TimeStep bands = std::min<TimeStep>(16, steps);
    const auto band_start = [&](TimeStep band) {
      return band * (steps / bands) + band * (steps % bands) / bands;
    };
    // Columns as wide as their widest entry (at least 7 and 14 characters),
    // so every bar starts at the same column.
    const TimeStep last_step = band_start(bands) - 1;
    const int time_width = std::max<int>(7, static_cast<int>(fmt::formatted_size("{}", last_step)));
    const int bytes_width =
        std::max<int>(14, static_cast<int>(fmt::formatted_size("{}", transient.peak)));
    text += "live bytes over time (activations, max per band):\n";
    for (TimeStep band = 0; band < bands; ++band) {
      const TimeStep first = band_start(band), last = band_start(band + 1) - 1;
      const Bytes peak = MaxLiveIn(transient, first, last);
      int width = static_cast<int>(40 * static_cast<double>(peak) / static_cast<double>(transient.peak));
      text += fmt::format("  [{:>{}}, {:>{}}] {:>{}} {}\n", first, time_width, last, time_width,
                          peak, bytes_width, std::string(width, '#'));
    }
  }
  return text;
}

}  // namespace memplan
