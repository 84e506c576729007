#include "cli/plan_command.h"

#include <algorithm>
#include <cmath>
#include <iostream>
#include <memory>
#include <optional>
#include <tuple>

#include "cli/cli_support.h"
#include "cli/commands.h"
#include "cli/parse_error.h"
#include "driver/progress.h"
#include "fmt/format.h"
#include "io/file_io.h"
#include "ir/plural.h"
#include "packing/packer.h"

namespace memplan::cli {

namespace {

// --capacity, repeatable: BYTES limits the whole default memory, POOL=BYTES
// the default-memory pools of one lifetime. Errors: a malformed size, an
// unknown pool, `alternate` (that is --fast-memory), a limit given twice.
absl::Status ToCapacities(const std::vector<std::string>& texts, PoolPlanOptions& pools) {
  for (const std::string& text : texts) {
    const std::size_t eq = text.find('=');
    const std::string name = eq == std::string::npos ? "" : text.substr(0, eq);
    const std::string size = eq == std::string::npos ? text : text.substr(eq + 1);
    const std::string spelled = "--capacity " + text;
    if (name == "alternate" || name == "fast") {
      return UsageError(fmt::format(
          "{}: the fast (alternate) memory's size is --fast-memory, not --capacity", spelled));
    }
    std::optional<Lifetime> lifetime;
    if (eq != std::string::npos && name != "default") {
      lifetime = ParseLifetime(name);
      if (!lifetime) {
        return UsageError(fmt::format(
            "--capacity expects BYTES (the whole default memory) or POOL=BYTES with POOL one of "
            "transient, constant, external, variable, staging; got '{}'",
            text));
      }
    }
    absl::StatusOr<Bytes> bytes =
        SizeFlag(name.empty() ? "--capacity" : "--capacity " + name, size);
    if (!bytes.ok()) return bytes.status();
    if (lifetime) {
      auto [it, inserted] = pools.pool_capacity.emplace(*lifetime, CapacityLimit{*bytes, spelled});
      if (!inserted) {
        return UsageError(fmt::format("--capacity {} is given twice ({} and {})", name,
                                      it->second.spelled, spelled));
      }
    } else {
      if (pools.capacity) {
        return UsageError(fmt::format(
            "the default memory's --capacity is given twice ({} and {})",
            pools.capacity_spelled, spelled));
      }
      pools.capacity = *bytes;
      pools.capacity_spelled = spelled;
    }
  }
  return absl::OkStatus();
}

// --effort, --time-limit and --timings tune auto's portfolio; with a fixed
// --algorithm they would be ignored, so they are refused unless they mean
// something for it (the skyline searches: their search budget and deadline;
// exact: its deadline).
absl::Status CheckAutoOnlyFlags(const PlanFlags& flags, PackingAlgorithm algorithm) {
  if (algorithm == PackingAlgorithm::kAuto) return absl::OkStatus();
  const bool searches = algorithm == PackingAlgorithm::kSkylineLocalSearch ||
                        algorithm == PackingAlgorithm::kSkylineWindowSearch;
  const bool exact = algorithm == PackingAlgorithm::kExact;  // --time-limit stops its search
  const std::pair<const CLI::Option*, bool> checked[] = {
      {flags.effort_option, searches}, {flags.time_limit_option, searches || exact},
      {flags.timings_option, false}};
  for (const auto& [option, meaningful] : checked) {
    if (!Given(option) || meaningful) continue;
    return UsageError(fmt::format(
        "{} applies to --algorithm {}; --algorithm {} would ignore it (drop {}, or use "
        "--algorithm auto)",
        option->get_name(),
        option == flags.timings_option  ? "auto (its members' seconds)"
        : option == flags.time_limit_option
            ? "auto, skyline-local-search, skyline-window-search and exact"
            : "auto, skyline-local-search and skyline-window-search",
        PackingAlgorithmName(algorithm), option->get_name()));
  }
  return absl::OkStatus();
}

}  // namespace

// The plan job's options from `flags`. Errors: usage errors (exit 2).
absl::StatusOr<PlanJobOptions> ToPlanJobOptions(const PlanFlags& flags) {
  PlanJobOptions options;
  absl::StatusOr<LoadOptions> load = ToLoadOptions(flags.input);
  if (!load.ok()) return load.status();
  options.load = *load;
  options.load.offline_plan = flags.offline_plan;
  absl::StatusOr<PackingAlgorithm> algorithm = ParsePackingAlgorithm(flags.algorithm);
  if (!algorithm.ok()) return UsageError(std::string(algorithm.status().message()));
  options.pools.algorithm = *algorithm;
  if (absl::Status s = CheckAutoOnlyFlags(flags, *algorithm); !s.ok()) return s;
  absl::StatusOr<PackEffort> effort = ParsePackEffort(flags.effort);
  if (!effort.ok()) return UsageError("--effort: " + std::string(effort.status().message()));
  options.pools.effort = *effort;
  if (!(flags.time_limit >= 0) || flags.time_limit > 1e6) {
    // As the user spelled it ("1e400", not the "inf" it parses to).
    const std::string spelled = Given(flags.time_limit_option)
                                    ? flags.time_limit_option->results().back()
                                    : fmt::format("{}", flags.time_limit);
    if (std::isnan(flags.time_limit)) {
      return UsageError(fmt::format("--time-limit {} is not a number of seconds", spelled));
    }
    return UsageError(fmt::format("--time-limit {} is outside 0 to 10^6 seconds", spelled));
  }
  options.pools.time_limit_seconds = flags.time_limit;
  options.timings = flags.timings;
  absl::StatusOr<Bytes> alignment = SizeFlag("--alignment", flags.alignment);
  if (!alignment.ok()) return alignment.status();
  if (*alignment < 1 || *alignment > kMaxAlignment) {
    return UsageError(fmt::format("--alignment {} is outside the supported range 1 to 2^32 ({})",
                                  *alignment, kMaxAlignment));
  }
  options.pools.alignment = *alignment;
  if (absl::Status s = ToCapacities(flags.capacities, options.pools); !s.ok()) return s;
  if (flags.minimize && *algorithm != PackingAlgorithm::kExact) {
    return UsageError("--minimize applies to --algorithm exact");
  }
  options.pools.minimize = flags.minimize;
  // Output paths: a file name each; only the JSON may go to standard output.
  const std::tuple<const CLI::Option*, const std::string*, std::optional<std::string>*> outputs[] =
      {{flags.json_option, &flags.json, &options.json_path},
       {flags.svg_option, &flags.svg, &options.svg_path},
       {flags.html_option, &flags.html, &options.html_path},
       {flags.profile_option, &flags.profile, &options.profile_path},
       {flags.msa.emit_ir_option, &flags.msa.emit_ir, &options.emit_ir_path},
       {flags.msa.emit_hlo_option, &flags.msa.emit_hlo, &options.emit_hlo_path},
       {flags.csv_option, &flags.csv, &options.csv_path},
       {flags.write_tflite_option, &flags.write_tflite, &options.tflite_path},
       {flags.write_onnx_option, &flags.write_onnx, &options.onnx_path}};
  for (const auto& [option, text, path] : outputs) {
    if (!Given(option)) continue;
    if (absl::Status s = CheckOutputFileName(option->get_name(), *text); !s.ok()) return s;
    if (*text == kStdoutPath && option != flags.json_option) {
      return UsageError(fmt::format(
          "{} cannot write to standard output ('-'); only --json can", option->get_name()));
    }
    *path = *text;
  }
  absl::StatusOr<std::optional<MsaJobOptions>> msa = ToMsaOptions(flags.msa);
  if (!msa.ok()) return msa.status();
  options.msa = *msa;
  absl::StatusOr<RegionPlanOptions> regions = ToRegionOptions(flags.regions);
  if (!regions.ok()) return regions.status();
  options.regions = *regions;
  options.regions.pack_time_limit_seconds = flags.time_limit;
  options.regions_given = std::any_of(flags.regions.given.begin(), flags.regions.given.end(), Given);
  return options;
}

int RunPlan(const PlanFlags& flags) {
  absl::StatusOr<PlanJobOptions> options = ToPlanJobOptions(flags);
  if (!options.ok()) return Fail(options.status());
  // Progress on a terminal's stderr for runs longer than a second; erased
  // before anything else is printed.
  std::unique_ptr<ProgressReporter> progress = ProgressReporter::ForStderr(flags.quiet);
  progress->StartTicker();
  options->progress = progress.get();
  if (!flags.quiet) {
    // The exact search's state about once a second on long runs, as the
    // progress line (a terminal only, rewritten in place; nothing in a pipe).
    options->pools.search_progress = [reporter = progress.get()](const PackProgress& p) {
      reporter->Phase(fmt::format("exact search: best {}, bound {}, gap {:.2f}%, {}",
                                  CountOf(p.best_peak, "byte"), CountOf(p.lower_bound, "byte"),
                                  100.0 * p.gap, CountOf(p.nodes, "node")));
    };
  }
  absl::StatusOr<PlanJobResult> result = RunPlanJob(flags.input.input, *options);
  progress->Finish();
  if (!result.ok()) return Fail(result.status());
  // Warnings go to stderr: --quiet and --json - must not hide them.
  if (result->plan.regions) {
    for (const std::string& warning : result->plan.regions->warnings) {
      PrintError(fmt::format("{}: warning: {}", flags.input.input, warning));
    }
  }
  // With --json -, standard output carries the JSON alone.
  if (result->json_stdout) {
    std::cout << *result->json_stdout;
  } else if (!flags.quiet) {
    std::cout << result->summary;
  }
  return kExitOk;
}

std::string AlgorithmChoices() {
  std::string text;
  for (PackingAlgorithm a : AllPackingAlgorithms()) {
    if (!text.empty()) text += ", ";
    text += PackingAlgorithmName(a);
  }
  return text + ", " + std::string(PackingAlgorithmName(PackingAlgorithm::kExact));
}

CLI::App* AddPlanCommand(CLI::App& app, PlanFlags& plan_flags) {
  CLI::App* plan = app.add_subcommand("plan", "plan buffer offsets, verify, print a summary");
  AddInputFlags(plan, plan_flags.input);
  plan->add_option("--algorithm", plan_flags.algorithm,
                   "packing algorithm: " + AlgorithmChoices() + " (default auto)");
  plan_flags.effort_option = plan->add_option("--effort", plan_flags.effort,
                   "how hard auto works: fast (near n log n members only), default (about 1 s "
                   "for 10^5 buffers), max (every member, 10x the search); deterministic");
  plan_flags.time_limit_option = plan->add_option("--time-limit", plan_flags.time_limit,
                   "wall-clock seconds auto or exact may spend (0: none); a limit that cuts "
                   "work is reported, and the plan may then differ from run to run")
      ->type_name("S");
  plan_flags.timings_option = plan->add_flag("--timings", plan_flags.timings,
                 "also print (and write in the JSON) each auto member's wall-clock seconds");
  plan->add_option("--alignment", plan_flags.alignment, "offset alignment, e.g. 64 (default 1)");
  plan->add_option("--capacity", plan_flags.capacities,
                   "default-memory capacity, e.g. 1MiB, or one pool's: transient=256KiB (the "
                   "activations), constant=4MiB, external, variable, staging; repeatable (exit 1 "
                   "if exceeded; the fast memory's size is --fast-memory)")
      ->type_name("[POOL=]BYTES");
  plan_flags.json_option = plan->add_option(
      "--json", plan_flags.json,
      "write the plan as JSON (memplan.plan/1); - writes it to standard output instead of the "
      "summary");
  plan_flags.svg_option =
      plan->add_option("--svg", plan_flags.svg, "write the memory map as SVG");
  plan_flags.html_option =
      plan->add_option("--html", plan_flags.html, "write the interactive memory map as HTML");
  plan_flags.profile_option = plan->add_option(
      "--profile", plan_flags.profile,
      "write the live bytes per time step (per space and pool, the op, buffers defined and "
      "freed) as CSV");
  plan_flags.csv_option = plan->add_option(
      "--csv", plan_flags.csv,
      "lifetime CSV input: write the packing in MiniMalloc's output form (the input's columns "
      "plus 'offset'), which memplan verify and MiniMalloc's validator read");
  plan_flags.write_tflite_option = plan->add_option(
      "--write-tflite", plan_flags.write_tflite,
      "TFLite input: write a copy of the model with the plan's arena offsets as its "
      "OfflineMemoryAllocation metadata, which TFLite Micro uses as it is");
  plan_flags.write_onnx_option = plan->add_option(
      "--write-onnx", plan_flags.write_onnx,
      "ONNX input: write a copy of the model with its nodes in the plan's order (with "
      "--reorder, the new order); nothing else changes");
  plan->add_flag("--offline-plan", plan_flags.offline_plan,
                 "TFLite input: keep the offsets of the model's OfflineMemoryAllocation plan and "
                 "plan the other tensors around them");
  plan->add_flag("--minimize", plan_flags.minimize,
                 "--algorithm exact: search for the lowest transient peak (without it and with "
                 "--capacity: a packing that fits, or a proof that none does)");
  plan->add_flag("--quiet,-q", plan_flags.quiet,
                 "print nothing on success (and no progress line on a terminal)");
  AddMsaFlags(plan, plan_flags.msa);
  AddRegionFlags(plan, plan_flags.regions);
  return plan;
}

absl::StatusOr<std::pair<std::string, PlanJobOptions>> ParsePlanArguments(
    const std::vector<std::string>& args) {
  CLI::App app;
  PlanFlags flags;
  CLI::App* plan = AddPlanCommand(app, flags);
  // CLI11 parses a reversed argument vector (it pops from the back).
  std::vector<std::string> reversed(args.rbegin(), args.rend());
  reversed.push_back("plan");
  try {
    app.parse(reversed);
  } catch (const CLI::ParseError& e) {
    return UsageError(ParseErrorMessage(e, app, plan->parsed() ? plan : nullptr));
  }
  absl::StatusOr<PlanJobOptions> options = ToPlanJobOptions(flags);
  if (!options.ok()) return options.status();
  return std::make_pair(flags.input.input, *std::move(options));
}

}  // namespace memplan::cli
