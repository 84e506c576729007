#include "report/space_peaks.h"

#include <algorithm>

#include "analysis/live_profile.h"
#include "report/space_view.h"

namespace memplan {

std::vector<SpacePeak> ComputeSpacePeaks(const BufferSet& buffers, const Plan& plan) {
  std::vector<SpacePeak> peaks;
  for (const SpaceInfo& info : plan.spaces) {
    SpacePeak peak;
    peak.space = info.id;
    const SpaceView view = ViewSpace(buffers, plan, info.id);
    const BufferSet& segments = view.segments();
    const LivePeak all = ComputeLivePeak(segments, [](const Buffer&) { return true; });
    if (all.peak > 0) {
      peak.max_live_bytes = all.peak;
      peak.peak_step = all.peak_time;
    }
    const auto transient = [](const Buffer& b) { return b.lifetime == Lifetime::kTransient; };
    // With only activations holding bytes here (a lifetime CSV) their peak
    // is the one above: not swept again.
    const bool only_transient =
        std::none_of(segments.buffers.begin(), segments.buffers.end(), [&](const Buffer& b) {
          return !transient(b) && b.size > 0 && !b.inside;
        });
    const LivePeak activations = only_transient ? all : ComputeLivePeak(segments, transient);
    // Segments come in buffer order: a buffer's are adjacent.
    std::int64_t distinct = 0;
    BufferId last = kNoId;
    Bytes highest_end = 0;
    for (std::size_t i = 0; i < view.size(); ++i) {
      const Buffer& s = segments.buffers[i];
      // A view that is the input holds buffers without bytes here too.
      if (!transient(s) || s.size <= 0 || s.inside) continue;
      if (view.origin(i) != last) ++distinct;
      last = view.origin(i);
      highest_end = std::max(highest_end, view.offset(i) + s.size);
    }
    peak.transient_buffers = distinct;
    if (activations.peak > 0) peak.transient_step = activations.peak_time;
    if (info.id == kDefaultSpace) {
      peak.transient_peak = plan.peak;
      peak.transient_lower_bound = plan.lower_bound;
    } else {
      peak.transient_peak = highest_end;
      peak.transient_lower_bound = activations.peak;
    }
    peaks.push_back(peak);
  }
  return peaks;
}

}  // namespace memplan
