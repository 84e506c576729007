#include "cli/schedule_command.h"

#include <iostream>

#include "cli/cli_support.h"
#include "cli/commands.h"
#include "driver/input.h"
#include "fmt/format.h"
#include "io/byte_size.h"
#include "ir/diagnostic.h"
#include "ir/plural.h"
#include "report/reorder_summary.h"
#include "schedule/exact_order.h"
#include "schedule/reorder.h"
#include "verify/schedule_checks.h"

namespace memplan::cli {
namespace {

std::string FormatTable(const ReorderResult& r, bool timings) {
  std::string text = fmt::format("{:<16}{:>32}{:>10}{}\n", "strategy", "transient max-live", "change",
                                 timings ? "   seconds" : "");
  for (const ReorderRow& row : r.rows) {
    const double change = r.input_peak == 0 ? 0.0
                                            : 100.0 * static_cast<double>(row.peak - r.input_peak) /
                                                  static_cast<double>(r.input_peak);
    text += fmt::format("{:<16}{:>32}{:>9.1f}%{}\n", row.name, BytesAndHuman(row.peak), change,
                        timings ? fmt::format("{:>10.3f}", row.seconds) : "");
  }
  text += fmt::format("{:<16}{:>32}\n", "lower bound", BytesAndHuman(r.lower_bound));
  text += fmt::format(
      "exact: {} proven optimal for the peak model, {} too large (over {} ops), {} stopped at "
      "{} states{}\n",
      CountOf(r.exact_proven, "computation"), r.exact_too_large, kExactMaxUnits,
      r.exact_state_limit, kExactMaxStates, r.optimal ? "; the order kept is optimal" : "");
  return text;
}

std::string FormatOrder(const Program& program) {
  std::string text = "order:\n";
  for (const Computation& c : program.computations) {
    text += fmt::format("  @{}:\n", c.name);
    for (OpId op : c.ops) {
      const Op& o = program.ops[op];
      text += o.results.empty() ? fmt::format("    {}\n", o.opcode)
                                : fmt::format("    %{} = {}\n", program.values[o.results.front()].name, o.opcode);
    }
  }
  return text;
}

}  // namespace

int RunSchedule(const ScheduleFlags& flags) {
  absl::StatusOr<LoadOptions> load = ToLoadOptions(flags.input);
  if (!load.ok()) return Fail(load.status());
  if (load->reorder) return Fail(UsageError("schedule reorders already; drop --reorder"));
  absl::StatusOr<LoadedInput> input = LoadInput(flags.input.input, *load);
  if (!input.ok()) return Fail(input.status());
  if (!input->program) {
    return Fail(LocatedError(flags.input.input, SourceLocation{},
                             "schedule needs a program (ONNX or TFLite model, memplan text IR); a "
                             "lifetime CSV has no ops to reorder"));
  }
  absl::StatusOr<ReorderResult> reordered = ReorderProgram(*input->program);
  if (!reordered.ok()) return Fail(reordered.status());
  if (absl::Status s = VerifyReorderedSchedule(*input->program, reordered->program); !s.ok()) {
    return Fail(absl::InternalError(fmt::format(
        "{}: error: the reordered schedule fails verification (a bug in memplan): {}",
        flags.input.input, std::string(s.message()))));
  }
  std::cout << FormatTable(*reordered, flags.timings)
            << FormatReorderLine(reordered->strategy, reordered->input_peak, reordered->peak,
                                 reordered->lower_bound)
            << FormatOrder(reordered->program);
  return kExitOk;
}

CLI::App* AddScheduleCommand(CLI::App& app, ScheduleFlags& flags) {
  CLI::App* schedule = app.add_subcommand(
      "schedule", "reorder the ops for a lower transient max-live: each strategy's peak and the "
                  "order kept");
  AddInputFlags(schedule, flags.input);
  schedule->add_flag("--timings", flags.timings, "also print each strategy's wall-clock seconds");
  return schedule;
}

}  // namespace memplan::cli
