#include "driver/tflite_summary.h"

#include <vector>

#include "fmt/format.h"
#include "io/byte_size.h"
#include "ir/plural.h"
#include "packing/peers/tflite_micro_greedy.h"

namespace memplan {
TfliteArenaFigures TfliteArenaFiguresOf(const std::vector<TfliteHeadTensor>& head,
                                        const Plan& plan) {
  std::vector<PackItem> items;
  for (const TfliteHeadTensor& t : head) items.push_back(PackItem{t.bytes, 1, t.first, t.last});
  TfliteArenaFigures figures;
  figures.memplan_head = plan.peak;
  figures.greedy_head = peers::TfliteMicroGreedyPack(items, kTfliteMicroAlignment).peak;
  figures.lower_bound = plan.lower_bound;
  return figures;
}

std::string FormatTfliteArenaSummary(const TfliteArenaFigures& figures) {
  return fmt::format(
      "TFLite Micro arena head: memplan {}, TFLite Micro's greedy planner {} ({}-byte "
      "alignment), lower bound {}\n",
      BytesAndHuman(figures.memplan_head), BytesAndHuman(figures.greedy_head),
      kTfliteMicroAlignment, BytesAndHuman(figures.lower_bound));
}

}  // namespace memplan
