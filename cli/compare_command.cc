#include "cli/compare_command.h"

#include <iostream>
#include <memory>

#include "cli/cli_support.h"
#include "cli/commands.h"
#include "cli/input_flags.h"
#include "driver/compare_job.h"
#include "driver/progress.h"
#include "fmt/format.h"

namespace memplan::cli {

// `memplan compare`: the table on stdout (or the JSON alone with --json -);
// exit 1 when a strategy's placement failed verification.
int RunCompare(const CompareFlags& flags) {
  CompareJobOptions options;
  absl::StatusOr<LoadOptions> load = ToLoadOptions(flags.input);
  if (!load.ok()) return Fail(load.status());
  options.load = *load;
  absl::StatusOr<Bytes> alignment = SizeFlag("--alignment", flags.alignment);
  if (!alignment.ok()) return Fail(alignment.status());
  if (*alignment < 1 || *alignment > kMaxAlignment) {
    return Fail(UsageError(fmt::format(
        "--alignment {} is outside the supported range 1 to 2^32 ({})", *alignment, kMaxAlignment)));
  }
  options.alignment = *alignment;
  options.timings = flags.timings;
  if (flags.timings && !flags.input.reorder) {
    return Fail(UsageError("--timings times the reordering strategies; it needs --reorder"));
  }
  absl::StatusOr<std::optional<MsaJobOptions>> msa = ToMsaOptions(flags.msa);
  if (!msa.ok()) return Fail(msa.status());
  options.msa = *std::move(msa);
  if (Given(flags.json_option)) {
    if (absl::Status s = CheckOutputFileName("--json", flags.json); !s.ok()) return Fail(s);
    options.json_path = flags.json;
  }
  // Progress on a terminal's stderr for runs longer than a second; erased
  // before anything else is printed.
  std::unique_ptr<ProgressReporter> progress = ProgressReporter::ForStderr(flags.quiet);
  progress->StartTicker();
  options.progress = progress.get();
  absl::StatusOr<CompareJobResult> result = RunCompareJob(flags.input.input, options);
  progress->Finish();
  if (!result.ok()) return Fail(result.status());
  // With --json -, standard output carries the JSON alone, --quiet or not.
  if (result->json_stdout) {
    std::cout << *result->json_stdout;
  } else if (!flags.quiet) {
    std::cout << result->text;
  }
  for (const std::string& failure : result->failures) {
    PrintError(fmt::format("{}: error: verification failed: {}", flags.input.input, failure));
  }
  if (!result->does_not_fit.empty()) {
    PrintError(fmt::format("{}: error: {}", flags.input.input, result->does_not_fit));
  }
  return result->failures.empty() && result->does_not_fit.empty() ? kExitOk
                                                                   : kExitPlanningFailure;
}

CLI::App* AddCompareCommand(CLI::App& app, CompareFlags& compare_flags) {
  CLI::App* compare = app.add_subcommand(
      "compare",
      "the arena other planners' strategies need (TFLite, TFLite Micro, ONNX Runtime, IREE, "
      "XLA, no reuse) beside memplan's plan and the lower bound");
  compare->add_option("INPUT", compare_flags.input.input,
                      kInputHelp)
      ->required();
  compare->add_option("--dim", compare_flags.input.dims,
                      "bind a symbolic dim, e.g. --dim batch=8 (repeatable, one per name)");
  compare->add_flag("--no-alias", compare_flags.input.no_alias,
                    "ONNX: no views or in-place reuse (every tensor gets its own buffer)");
  compare->add_flag("--reorder", compare_flags.input.reorder,
                    "compare on memplan's reordered schedule, with a row per reordering strategy "
                    "(its transient max-live) and the order-independent bound (docs/reorder.md)");
  compare->add_flag("--timings", compare_flags.timings,
                    "with --reorder: also each reordering strategy's wall-clock seconds");
  compare->add_option("--alignment", compare_flags.alignment,
                      "offset alignment for every strategy, e.g. 64 (default 1)");
  compare_flags.msa.target_option = compare->add_option(
      "--target", compare_flags.msa.target,
      "also compare estimated times on this target (a preset, memplan targets, or a JSON "
      "file): memplan's plan, ExecuTorch's banked strategy on a hierarchy, XLA's 2021 pass on "
      "two spaces, and the time bound");
  compare_flags.msa.fast_memory_option = compare->add_option(
      "--fast-memory", compare_flags.msa.fast_memory,
      "with the estimated times: the size of the fast memory (the fastest level), e.g. 1MiB");
  compare_flags.json_option = compare->add_option(
      "--json", compare_flags.json,
      "write the table as JSON (memplan.compare/1); - writes it to standard output instead");
  compare->add_flag("--quiet,-q", compare_flags.quiet,
                    "print no table (and no progress line on a terminal); errors still go to stderr");
  return compare;
}

}  // namespace memplan::cli
