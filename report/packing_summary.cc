#include "report/packing_summary.h"

#include <algorithm>
#include <cstddef>

#include "fmt/format.h"
#include "report/summary.h"

namespace memplan {

std::string PackingLines(const Plan& plan, bool with_seconds) {
  if (!plan.packing) return "";
  const PackReport& report = *plan.packing;
  std::size_t ran = 0;
  std::size_t width = 0;
  for (const PackMemberReport& member : report.members) {
    ran += member.ran ? 1 : 0;
    width = std::max(width, member.name.size());
  }
  std::string text = fmt::format(
      "auto (effort {}): {} member{} ran, {} skipped{}; the lowest peak is chosen, {} bytes over "
      "the lower bound{}\n"
      "  members in the order auto tried them (most expected gain {}); "
      "work is estimated in seconds of one core\n",
      report.effort, ran, ran == 1 ? "" : "s", report.members.size() - ran,
      report.time_limited ? " (cut by --time-limit)" : "", plan.peak - plan.lower_bound,
      with_seconds ? fmt::format(" ({:.3f} s)", report.seconds) : "",
      report.effort == "fast" ? "first, among the members near n log n"
                              : "per estimated cost first");
  bool chosen = false;
  for (const PackMemberReport& member : report.members) {
    if (!member.ran) {
      text += fmt::format("  skipped  {:<{}}  {}\n", member.name, width, member.reason);
      continue;
    }
    text += fmt::format("  ran      {:<{}}  {:>14} bytes ({} over)", member.name, width,
                        member.peak, PercentOver(member.peak, plan.lower_bound));
    if (with_seconds) {
      text += fmt::format("  {:.3f} s", member.seconds);
      if (member.work && member.allowance) {
        text += fmt::format(" (work {:.3f} of {:.3f} s allowed)", *member.work * 1e-9,
                            *member.allowance * 1e-9);
      }
    }
    if (!chosen && member.name == plan.algorithm && member.peak == plan.peak) {
      text += "  <- chosen";
      chosen = true;
    }
    text += "\n";
  }
  return text;
}

}  // namespace memplan
