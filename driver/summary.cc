#include "driver/summary.h"

#include <algorithm>
#include <array>
#include <vector>

#include "driver/pools.h"
#include "fmt/format.h"
#include "io/byte_size.h"

namespace memplan {
namespace {

std::string Header(const LoadedInput& input) {
  std::string text = fmt::format("{}: {} buffers, {} time steps", input.buffers.input,
                                 input.buffers.buffers.size(), input.buffers.time_steps);
  if (input.program) text += fmt::format(", {} ops", input.program->ops.size());
  return text + "\n";
}

std::string ExactAndHuman(Bytes bytes) {
  return fmt::format("{} bytes ({})", bytes, FormatBytes(bytes));
}

}  // namespace

std::string PercentOver(Bytes peak, Bytes bound) {
  if (bound <= 0) return "0.00%";
  return fmt::format("{:.2f}%", 100.0 * static_cast<double>(peak - bound) / static_cast<double>(bound));
}

std::string FormatPlanSummary(const LoadedInput& input, const Plan& plan,
                              std::optional<Bytes> peak_without_alias) {
  std::string text = Header(input);
  text += fmt::format("{:<10} {:<9} {:>8} {:>14} {:>14} {:>14} {:>8}\n", "pool", "space",
                      "buffers", "bytes", "peak", "lower bound", "over");
  for (const PoolInfo& pool : plan.pools) {
    text += fmt::format("{:<10} {:<9} {:>8} {:>14} {:>14} {:>14} {:>8}\n", pool.name,
                        SpaceName(pool.space), pool.buffers, pool.total_bytes, pool.size,
                        pool.lower_bound, PercentOver(pool.size, pool.lower_bound));
  }
  text += fmt::format("transient peak {}, lower bound {} ({} over)\n",
                      ExactAndHuman(plan.peak), ExactAndHuman(plan.lower_bound),
                      PercentOver(plan.peak, plan.lower_bound));
  if (peak_without_alias) {
    text += fmt::format("aliasing: transient peak {} without views and in-place reuse ({})\n",
                        ExactAndHuman(*peak_without_alias),
                        *peak_without_alias > plan.peak
                            ? fmt::format("saves {}", FormatBytes(*peak_without_alias - plan.peak))
                            : std::string("no saving"));
  }
  for (const SpaceInfo& space : plan.spaces) {
    text += fmt::format("{} memory: {} used", space.name, ExactAndHuman(space.peak));
    if (space.capacity) text += fmt::format(" of {} capacity", ExactAndHuman(*space.capacity));
    text += "\n";
  }
  text += fmt::format("algorithm: {}; alignment {}; plan {}\n", plan.algorithm, plan.alignment,
                      plan.verified ? "verified" : "NOT verified");
  return text;
}

std::string FormatStats(const LoadedInput& input) {
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
  text += fmt::format("total bytes: {}\n", ExactAndHuman(total));
  for (size_t l = 0; l < by_lifetime.size(); ++l) {
    if (by_lifetime[l].first == 0) continue;
    text += fmt::format("  {:<10} {:>8} buffers {:>14} bytes\n",
                        LifetimeName(static_cast<Lifetime>(l)), by_lifetime[l].first,
                        by_lifetime[l].second);
  }
  LiveProfile all = ComputeLiveProfile(set, [](const Buffer&) { return true; });
  LiveProfile transient =
      ComputeLiveProfile(set, [](const Buffer& b) { return b.lifetime == Lifetime::kTransient; });
  const auto where = [](const LiveProfile& profile, std::int64_t buffers, const char* none) {
    return buffers == 0 ? fmt::format("({})", none) : fmt::format("at time {}", profile.peak_time);
  };
  const std::int64_t transient_buffers =
      by_lifetime[static_cast<size_t>(Lifetime::kTransient)].first;
  const std::int64_t buffers = static_cast<std::int64_t>(set.buffers.size());
  text += fmt::format("lower bound (max live, transient): {} {}\n", ExactAndHuman(transient.peak),
                      where(transient, transient_buffers, "no transient buffers"));
  text += fmt::format("max live (all buffers): {} {}\n", ExactAndHuman(all.peak),
                      where(all, buffers, "no buffers"));

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
    text += "live bytes over time (transient, max per band):\n";
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
