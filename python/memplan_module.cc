// The `memplan._core` extension module behind the Python package
// (python/memplan/__init__.py): plans an input file or CSV text with the
// command line's own option parsing and plan job, and verifies the JSON it
// reports. Failures come back as (exit_code, message) pairs, which the
// package raises as memplan.Error; no C++ exception crosses into Python.
#include <optional>
#include <variant>
#include <string>
#include <utility>
#include <vector>

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include "absl/status/status.h"
#include "cli/cli_support.h"
#include "cli/plan_command.h"
#include "driver/plan_job.h"
#include "driver/recorded_machine.h"
#include "io/csv/reader.h"
#include "report/plan_json.h"

namespace py = pybind11;

namespace memplan {
namespace {

// A planned input: what Result.verify() needs to check the reported JSON.
struct PlannedInput {
  LoadedInput input;
  std::string name;     // the input's path, or the name given to CSV text
  std::string json;     // the plan as `memplan plan --json -` writes it
  std::string summary;  // the summary `memplan plan` prints
};

using Failure = std::pair<int, std::string>;  // (exit code, message)

Failure FailureOf(const absl::Status& status) {
  return {cli::ExitCodeFor(status), std::string(status.message())};
}

// Plans `args` (memplan plan's arguments); with `csv_text`, the input is that
// lifetime CSV named args[0] instead of a file.
std::variant<PlannedInput, Failure> PlanArguments(std::vector<std::string> args,
                                                  const std::optional<std::string>& csv_text) {
  args.push_back("--json");
  args.push_back("-");
  absl::StatusOr<std::pair<std::string, PlanJobOptions>> parsed = cli::ParsePlanArguments(args);
  if (!parsed.ok()) return FailureOf(parsed.status());
  auto& [name, options] = *parsed;
  std::optional<LoadedInput> loaded;
  if (csv_text) {
    absl::StatusOr<BufferSet> buffers = ReadLifetimeCsv(*csv_text, name);
    if (!buffers.ok()) return FailureOf(buffers.status());
    loaded.emplace();
    loaded->format = InputFormat::kLifetimeCsv;
    loaded->buffers = *std::move(buffers);
  }
  absl::StatusOr<PlanJobResult> result = RunPlanJob(name, options, std::move(loaded));
  if (!result.ok()) return FailureOf(result.status());
  return PlannedInput{std::move(result->input), name, std::move(*result->json_stdout),
                      std::move(result->summary)};
}

// Reads `planned.json` back and checks it against the input as loaded, as
// `memplan verify` does. nullopt when it verifies.
std::optional<Failure> VerifyPlanned(const PlannedInput& planned) {
  const Program* program = planned.input.program ? &*planned.input.program : nullptr;
  absl::StatusOr<memplan::Plan> plan =
      ReadPlanJson(planned.json, planned.name, planned.input.buffers, "", program);
  if (!plan.ok()) return FailureOf(plan.status());
  // As `memplan verify`: the machine the plan names is resolved again.
  absl::StatusOr<std::optional<RecordedMachine>> machine =
      ReadRecordedMachine(planned.json, planned.name);
  if (!machine.ok()) return FailureOf(machine.status());
  absl::Status verified = VerifySavedPlan(planned.input, *plan, *machine);
  if (verified.ok()) return std::nullopt;
  if (verified.code() == absl::StatusCode::kInvalidArgument) return FailureOf(verified);
  return Failure{1, planned.name + ": error: verification failed: " +
                        std::string(verified.message())};
}

}  // namespace
}  // namespace memplan

PYBIND11_MODULE(_core, m) {
  using memplan::PlannedInput;
  m.doc() = "memplan's C++ core; use the memplan package, not this module.";
  py::class_<PlannedInput>(m, "PlannedInput")
      .def_readonly("name", &PlannedInput::name)
      .def_readonly("json", &PlannedInput::json)
      .def_readonly("summary", &PlannedInput::summary);
  m.def(
      "plan",
      [](const std::vector<std::string>& args, std::optional<std::string> csv_text) {
        py::gil_scoped_release release;
        return memplan::PlanArguments(args, csv_text);
      },
      py::arg("args"), py::arg("csv_text") = py::none(),
      "Plans with `memplan plan ARGS --json -`; returns a PlannedInput or (exit_code, message).");
  m.def(
      "verify",
      [](const PlannedInput& planned) {
        py::gil_scoped_release release;
        return memplan::VerifyPlanned(planned);
      },
      py::arg("planned"),
      "Verifies a PlannedInput's JSON against its input; None or (exit_code, message).");
}
