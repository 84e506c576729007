#include "cli/verify_command.h"

#include <iostream>
#include <map>
#include <optional>

#include "cli/cli_support.h"
#include "cli/commands.h"
#include "cli/saved_plan.h"
#include "driver/csv_solution.h"
#include "driver/plan_job.h"
#include "fmt/format.h"
#include "io/file_io.h"
#include "ir/diagnostic.h"
#include "ir/plural.h"
#include "nlohmann/json.hpp"
#include "report/plan_json.h"

namespace memplan::cli {

namespace {

// `memplan verify X.csv SOLUTION.csv [--capacity N]`: a packing in
// MiniMalloc's output form (driver/csv_solution.h), within `capacity` when
// given (`capacity_text`: as the user spelled it, for the summary).
int RunVerifyCsvSolution(const InputFlags& input_flags, const LoadOptions& load,
                         const std::string& solution_path, std::optional<Bytes> capacity,
                         const std::string& capacity_text, bool quiet) {
  absl::StatusOr<LoadedInput> input = LoadInput(input_flags.input, load);
  if (!input.ok()) return Fail(input.status());
  if (input->format != InputFormat::kLifetimeCsv) {
    return Fail(LocatedError(solution_path, SourceLocation{},
                             fmt::format("a CSV solution solves a lifetime CSV, but the input "
                                         "given is {}",
                                         InputFormatName(input->format))));
  }
  absl::StatusOr<Plan> plan = VerifyCsvSolution(input->buffers, solution_path, capacity);
  if (!plan.ok()) return Fail(plan.status());
  if (quiet) return kExitOk;
  std::cout << solution_path << ": solution verified: "
            << CountOf(input->buffers.buffers.size(), "buffer") << ", extent "
            << CountOf(plan->peak, "byte") << ", lower bound " << CountOf(plan->lower_bound, "byte")
            << (capacity ? ", within --capacity " + capacity_text : "") << "\n";
  return kExitOk;
}

}  // namespace

int RunVerify(const VerifyFlags& verify_flags) {
  const InputFlags& input_flags = verify_flags.input;
  const std::string& plan_path = verify_flags.plan;
  const bool quiet = verify_flags.quiet;
  absl::StatusOr<LoadOptions> flags = ToLoadOptions(input_flags);
  if (!flags.ok()) return Fail(flags.status());
  const bool csv_solution = DetectFormat(plan_path) == InputFormat::kLifetimeCsv;
  std::optional<Bytes> capacity;
  if (Given(verify_flags.capacity_option)) {
    if (!csv_solution) {
      return Fail(UsageError(
          "verify --capacity applies to a CSV solution (memplan verify X.csv SOLUTION.csv "
          "--capacity N); a JSON plan is checked against the capacity it records (plan "
          "--capacity)"));
    }
    absl::StatusOr<Bytes> bytes = SizeFlag("--capacity", verify_flags.capacity);
    if (!bytes.ok()) return Fail(bytes.status());
    capacity = *bytes;
  }
  if (csv_solution) {
    return RunVerifyCsvSolution(input_flags, *flags, plan_path, capacity, verify_flags.capacity,
                                quiet);
  }
  absl::StatusOr<SavedPlan> saved = LoadSavedPlan(input_flags, *flags, plan_path, "verify");
  if (!saved.ok()) return Fail(saved.status());
  const LoadedInput* input = &saved->input;
  const Plan* plan = &saved->plan;
  absl::Status verified = VerifySavedPlan(*input, *plan, saved->machine);
  if (verified.code() == absl::StatusCode::kInvalidArgument) return Fail(verified);
  if (!verified.ok()) {
    PrintError(fmt::format("{}: error: verification failed: {}", plan_path,
                           std::string(verified.message())));
    return kExitPlanningFailure;
  }
  if (quiet) return kExitOk;
  std::cout << plan_path << ": plan verified: " << CountOf(input->buffers.buffers.size(), "buffer")
            << ", transient extent " << CountOf(plan->peak, "byte") << ", lower bound "
            << CountOf(plan->lower_bound, "byte");
  // With fast memory the activations may all be there (transient extent 0):
  // every other space, by its name ("alternate", or a hierarchy's levels).
  for (const SpaceInfo& space : plan->spaces) {
    if (space.id != kDefaultSpace) {
      std::cout << ", " << space.name << " memory used " << CountOf(space.peak, "byte");
    }
  }
  std::cout << "\n";
  return kExitOk;
}

CLI::App* AddVerifyCommand(CLI::App& app, VerifyFlags& flags) {
  CLI::App* verify = app.add_subcommand(
      "verify", "re-check a saved JSON plan (or a CSV solution) against its input");
  AddInputFlags(verify, flags.input);
  verify
      ->add_option("PLAN", flags.plan,
                   "plan JSON written by memplan plan --json, or for a lifetime CSV input a "
                   "solution in MiniMalloc's output form (.csv: the input's rows plus 'offset', "
                   "as memplan plan --csv or MiniMalloc writes it)")
      ->required();
  verify->add_flag("--quiet,-q", flags.quiet, "print nothing on success");
  flags.capacity_option = verify->add_option(
      "--capacity", flags.capacity,
      "with a CSV solution: the bytes it must fit, e.g. 1MiB (no buffer may end above them)");
  return verify;
}

}  // namespace memplan::cli
