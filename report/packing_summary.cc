#include "report/packing_summary.h"

#include <algorithm>
#include <cstddef>

#include "fmt/format.h"
#include "ir/plural.h"
#include "report/summary.h"

namespace memplan {
namespace {

// "  0.123 s (work 0.100 of 0.700 s allowed)": a member's wall-clock
// seconds (--timings) and the work it counted.
std::string Seconds(const PackMemberReport& member) {
  std::string text = fmt::format("  {:.3f} s", member.seconds);
  if (member.work && member.allowance) {
    // Three significant digits: a fast member's work is well under a
    // millisecond ("0.000 of 0.000" said nothing).
    text += fmt::format(" (work {:#.3g} of {:#.3g} s allowed)", *member.work * kSecondsPerWorkUnit,
                        *member.allowance * kSecondsPerWorkUnit);
  }
  return text;
}

// One member's line: ran (its peak), searched, stopped or skipped (why).
// `chosen`: whether the winner's line has been marked yet.
std::string MemberLine(const PackMemberReport& member, const Plan& plan, std::size_t width,
                       bool with_seconds, bool& chosen) {
  std::string text;
  if (!member.ran) {
    // Finished with no packing of its own, stopped part way (it
    // started) or skipped (it never did): the same width, so the names
    // stay in one column.
    const char* status = MemberSearched(member)  ? "searched"
                         : MemberStopped(member) ? "stopped "
                                                 : "skipped ";
    text += fmt::format("  {} {:<{}}  {}", status, member.name, width, member.reason);
    // A member that searched or was stopped spent time too.
    if (with_seconds && (MemberSearched(member) || MemberStopped(member))) {
      text += Seconds(member);
    }
    return text + "\n";
  }
  text += fmt::format("  ran      {:<{}}  {:>14} {:<5} ({} over)", member.name, width,
                      member.peak, NounFor(member.peak, "byte"),
                      PercentOver(member.peak, plan.lower_bound));
  // A capacity the member chose, not one the user gave: say how to get
  // the same packing.
  if (member.capacity) {
    text += fmt::format(", found at capacity {} (as by --algorithm exact --capacity {})",
                        *member.capacity, *member.capacity);
  }
  if (!member.reason.empty()) text += "; " + member.reason;
  if (with_seconds) text += Seconds(member);
  if (!chosen && member.name == plan.algorithm && member.peak == plan.peak) {
    text += "  <- chosen";
    chosen = true;
  }
  return text + "\n";
}

}  // namespace

std::string PackingLines(const Plan& plan, bool with_seconds) {
  if (!plan.packing) return "";
  const PackReport& report = *plan.packing;
  std::size_t ran = 0, searched = 0, stopped = 0;
  std::size_t width = 0;
  // Whether a line below gives work in seconds: a reason that quotes it, or
  // with --timings a member's count beside its wall-clock seconds.
  bool shows_work = false;
  for (const PackMemberReport& member : report.members) {
    ran += member.ran ? 1 : 0;
    searched += MemberSearched(member) ? 1 : 0;
    stopped += MemberStopped(member) ? 1 : 0;
    width = std::max(width, member.name.size());
    shows_work = shows_work || member.quotes_work ||
                 (with_seconds && member.ran && member.work && member.allowance);
  }
  std::string text = fmt::format(
      "auto (effort {}): {} ran, {}{}{} skipped{}; the lowest peak is chosen, {} over the lower "
      "bound{}\n"
      "  members in the order auto tried them (most expected gain {}){}{}\n",
      report.effort, CountOf(ran, "member"),
      searched > 0 ? fmt::format("{} searched without a lower peak, ", searched) : "",
      stopped > 0 ? fmt::format("{} stopped, ", stopped) : "",
      report.members.size() - ran - searched - stopped, report.time_limited ? " (cut by --time-limit)" : "",
      CountOf(plan.peak - plan.lower_bound, "byte"),
      with_seconds ? fmt::format(" ({:.3f} s)", report.seconds) : "",
      report.effort == "fast" ? "first, among the members near n log n"
                              : "per estimated cost first",
      ran + searched + stopped < report.members.size() ? ", then those it skipped" : "",
      shows_work ? "; work is in estimated seconds of one core, not measured time" : "");
  // Members that started first, in the order auto tried them, then those
  // skipped: a skipped member's reason may name one that ran after its turn
  // ("not needed: best-fit-spatial reached the lower bound"), whose own line
  // then comes first.
  bool chosen = false;
  for (const bool started : {true, false}) {
    for (const PackMemberReport& member : report.members) {
      const bool skipped = !member.ran && !MemberSearched(member) && !MemberStopped(member);
      if (skipped == started) continue;
      text += MemberLine(member, plan, width, with_seconds, chosen);
    }
  }
  return text;
}

}  // namespace memplan
