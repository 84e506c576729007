#include "cli/sweep_command.h"

#include <algorithm>
#include <charconv>
#include <iostream>
#include <memory>
#include <tuple>
#include <utility>
#include <vector>

#include "cli/cli_support.h"
#include "cli/commands.h"
#include "driver/progress.h"
#include "driver/sweep_job.h"
#include "fmt/format.h"
#include "io/file_io.h"
#include "ir/diagnostic.h"
#include "report/sweep/sweep_chart.h"
#include "report/sweep/sweep_table.h"

namespace memplan::cli {

namespace {

// Splits "a,b,c" at commas; an empty item is an error naming `flag`.
absl::StatusOr<std::vector<std::string>> SplitList(std::string_view flag, const std::string& text) {
  std::vector<std::string> items;
  size_t begin = 0;
  while (true) {
    const size_t comma = text.find(',', begin);
    items.push_back(text.substr(begin, comma == std::string::npos ? std::string::npos : comma - begin));
    if (items.back().empty()) {
      return UsageError(fmt::format("{} expects a comma-separated list, got '{}'", flag, text));
    }
    if (comma == std::string::npos) return items;
    begin = comma + 1;
  }
}

// --dim NAME=V1,V2,... (repeatable, one per name) as sweep dims, in order.
absl::StatusOr<std::vector<SweepDim>> ToSweepDims(const std::vector<std::string>& bindings) {
  std::vector<SweepDim> dims;
  for (const std::string& binding : bindings) {
    const size_t eq = binding.find('=');
    const auto bad = [&] {
      return UsageError(fmt::format(
          "--dim expects NAME=VALUE[,VALUE...] with positive integers, got '{}'", binding));
    };
    if (eq == 0 || eq == std::string::npos || eq + 1 == binding.size()) return bad();
    SweepDim dim{binding.substr(0, eq), {}};
    absl::StatusOr<std::vector<std::string>> values = SplitList("--dim", binding.substr(eq + 1));
    if (!values.ok()) return bad();
    for (const std::string& text : *values) {
      std::int64_t value = 0;
      const auto [stop, error] = std::from_chars(text.data(), text.data() + text.size(), value);
      if (error != std::errc() || stop != text.data() + text.size() || value <= 0) return bad();
      dim.values.push_back(value);
    }
    for (const SweepDim& other : dims) {
      if (other.name == dim.name) {
        return UsageError(fmt::format("--dim {} is given twice (list its values once: --dim {}=A,B,C)",
                                      dim.name, dim.name));
      }
    }
    dims.push_back(std::move(dim));
  }
  return dims;
}

}  // namespace

int RunSweep(const SweepFlags& flags) {
  if (Given(flags.plan.msa.emit_ir_option)) {
    return Fail(UsageError("sweep does not take --emit-ir (plan one point with memplan plan)"));
  }
  if (Given(flags.plan.msa.emit_hlo_option)) {
    return Fail(UsageError("sweep does not take --emit-hlo (plan one point with memplan plan)"));
  }
  absl::StatusOr<std::vector<SweepDim>> dims = ToSweepDims(flags.plan.input.dims);
  if (!dims.ok()) return Fail(dims.status());
  if (Given(flags.batch_option)) {
    // The leading dim of every graph input, varying slowest.
    absl::StatusOr<std::vector<SweepDim>> batch = ToSweepDims({"batch=" + flags.batch});
    if (!batch.ok()) {
      return Fail(UsageError(fmt::format(
          "--batch expects VALUE[,VALUE...] with positive integers, got '{}'", flags.batch)));
    }
    batch->front().batch = true;
    dims->insert(dims->begin(), batch->front());
  }
  std::vector<Bytes> sizes;
  PlanFlags plan_flags = flags.plan;
  plan_flags.input.dims.clear();  // bound per point
  if (Given(flags.plan.msa.fast_memory_option)) {
    absl::StatusOr<std::vector<std::string>> texts =
        SplitList("--fast-memory", flags.plan.msa.fast_memory);
    if (!texts.ok()) return Fail(texts.status());
    for (const std::string& text : *texts) {
      plan_flags.msa.fast_memory = text;  // validated like plan's
      absl::StatusOr<std::optional<MsaJobOptions>> msa = ToMsaOptions(plan_flags.msa);
      if (!msa.ok()) return Fail(msa.status());
      sizes.push_back(*(*msa)->fast_memory_bytes);
    }
  }
  absl::StatusOr<PlanJobOptions> options = ToPlanJobOptions(plan_flags);
  if (!options.ok()) return Fail(options.status());
  const std::tuple<const CLI::Option*, const std::string*> outputs[] = {
      {flags.csv_option, &flags.csv}, {flags.svg_option, &flags.svg}};
  // Checked before planning: a sweep may take long.
  for (const auto& [option, text] : outputs) {
    if (!Given(option)) continue;
    if (absl::Status s = CheckOutputFileName(option->get_name(), *text); !s.ok()) return Fail(s);
    if (*text == kStdoutPath) {
      if (option == flags.csv_option) continue;
      return Fail(UsageError(fmt::format(
          "{} cannot write to standard output ('-'); only --csv can", option->get_name())));
    }
    if (absl::Status s = CheckOutputPath(*text); !s.ok()) return Fail(s);
    if (SameFile(*text, flags.plan.input.input)) {
      return Fail(LocatedError(*text, SourceLocation{},
                               fmt::format("output path is the input file ({})", option->get_name())));
    }
  }
  if (Given(flags.csv_option) && Given(flags.svg_option) && SameFile(flags.csv, flags.svg)) {
    return Fail(LocatedError(flags.svg, SourceLocation{}, "--csv and --svg name the same file"));
  }
  const std::vector<SweepPoint> points = SweepGrid(*dims, sizes);
  std::unique_ptr<ProgressReporter> progress = ProgressReporter::ForStderr(flags.plan.quiet);
  progress->StartTicker();
  progress->Phase("sweep", static_cast<std::int64_t>(points.size()), "plans");
  absl::StatusOr<std::vector<SweepRow>> rows =
      RunSweepJob(flags.plan.input.input, *options, points,
                  [&](size_t done, size_t) { progress->Advance(static_cast<std::int64_t>(done)); });
  progress->Finish();
  if (!rows.ok()) return Fail(rows.status());
  // Files first, all or none: a failed write leaves no half-written output.
  std::vector<std::pair<std::string, std::string>> files;
  const bool csv_stdout = Given(flags.csv_option) && flags.csv == kStdoutPath;
  if (Given(flags.csv_option) && !csv_stdout) files.emplace_back(flags.csv, FormatSweepCsv(*rows));
  if (Given(flags.svg_option)) {
    files.emplace_back(flags.svg, RenderSweepChart(flags.plan.input.input, *rows));
  }
  if (absl::Status s = WriteFilesAtomically(files); !s.ok()) return Fail(s);
  // With --csv -, standard output carries the CSV alone.
  if (csv_stdout) {
    std::cout << FormatSweepCsv(*rows);
  } else if (!flags.plan.quiet) {
    std::cout << FormatSweepTable(flags.plan.input.input, *rows);
  }
  const bool all_fit = std::none_of(rows->begin(), rows->end(),
                                    [](const SweepRow& row) { return row.over_capacity.has_value(); });
  return all_fit ? kExitOk : kExitPlanningFailure;
}

CLI::App* AddSweepCommand(CLI::App& app, SweepFlags& sweep_flags) {
  CLI::App* sweep = app.add_subcommand(
      "sweep", "plan over lists of --dim values and fast-memory sizes; print a table");
  AddInputFlags(sweep, sweep_flags.plan.input);
  sweep->get_option("--dim")->description(
      "a symbolic dim and the values to sweep, e.g. --dim batch=1,2,4,8 (repeatable, one per "
      "name; the first dim varies slowest; a value given twice is planned once)");
  sweep_flags.batch_option = sweep->add_option(
      "--batch", sweep_flags.batch,
      "ONNX: leading dims to sweep, set on every graph input, e.g. --batch 1,2,4,8 (shapes "
      "re-inferred; varies slowest)");
  sweep->add_option("--algorithm", sweep_flags.plan.algorithm,
                    "packing algorithm: " + AlgorithmChoices() + " (default auto)");
  sweep_flags.plan.time_limit_option =
      sweep->add_option("--time-limit", sweep_flags.plan.time_limit,
                        "wall-clock seconds auto or exact may spend on each point (0: none; "
                        "exact's default is 10 s); the table says when a search stopped at it")
          ->type_name("S");
  sweep->add_option("--alignment", sweep_flags.plan.alignment, "offset alignment (default 1)");
  sweep->add_option("--capacity", sweep_flags.plan.capacities,
                    "default-memory capacity, or one pool's (transient=256KiB); points that do "
                    "not fit are reported (exit 1)");
  sweep_flags.csv_option = sweep->add_option(
      "--csv", sweep_flags.csv, "write the table as CSV; - writes it to standard output instead");
  sweep_flags.svg_option =
      sweep->add_option("--svg", sweep_flags.svg, "write the sweep as an SVG line chart");
  sweep->add_flag("--quiet,-q", sweep_flags.plan.quiet, "print no table");
  AddMsaFlags(sweep, sweep_flags.plan.msa);
  sweep->get_option("--fast-memory")->description(
      "fast (alternate) memory sizes to sweep, e.g. 0,256KiB,1MiB,4MiB (a size given twice, "
      "in any spelling, is planned once); without --target the target is " +
      std::string(kDefaultTarget));
  AddRegionFlags(sweep, sweep_flags.plan.regions);
  return sweep;
}

}  // namespace memplan::cli
