// The `memplan._core` extension module behind the Python package
// (python/memplan/__init__.py): plans an input file or CSV text with the
// command line's own option parsing and plan job, and verifies the JSON it
// reports; and binds the public C++ API (include/memplan/) for programs built
// in Python (memplan.Program). Failures come back as (exit_code, message)
// pairs, which the package raises as memplan.Error; the one C++ exception that
// can cross into Python is pybind11's ValueError for a builder used after its
// build(), which the package's Program prevents.
#include <cstdint>
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
#include "io/byte_size.h"
#include "io/csv/reader.h"
#include "memplan/memplan.h"
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

// A memplan::api::ProgramBuilder that Build() may consume once; later calls
// are refused instead of reaching a moved-from builder.
struct BuilderHandle {
  explicit BuilderHandle(std::string name) : builder(std::in_place, std::move(name)) {}
  std::optional<api::ProgramBuilder> builder;

  api::ProgramBuilder& get() {
    if (!builder) throw py::value_error("memplan: error: this Program is already built");
    return *builder;
  }
};

std::variant<api::Program, Failure> BuildProgram(BuilderHandle& handle, bool reorder,
                                                 std::optional<std::int64_t> regions_per) {
  api::LoadOptions options;
  options.reorder = reorder;
  options.regions_per = regions_per;
  api::ProgramBuilder builder = std::move(handle.get());
  handle.builder.reset();
  absl::StatusOr<api::Program> program = std::move(builder).Build(options);
  if (!program.ok()) return FailureOf(program.status());
  return *std::move(program);
}

std::variant<api::Result, Failure> PlanProgram(const api::Program& program,
                                               const api::Options& options) {
  absl::StatusOr<api::Result> result = api::Plan(program, options);
  if (!result.ok()) return FailureOf(result.status());
  return *std::move(result);
}

std::optional<Failure> VerifyResult(const api::Program& program, const api::Result& result) {
  absl::Status verified = api::Verify(program, result);
  if (verified.ok()) return std::nullopt;
  return Failure{1, "error: verification failed: " + std::string(verified.message())};
}

std::variant<std::int64_t, Failure> ByteSize(const std::string& text) {
  absl::StatusOr<Bytes> bytes = ParseByteSize(text);
  if (!bytes.ok()) return Failure{2, "memplan: error: " + std::string(bytes.status().message())};
  return static_cast<std::int64_t>(*bytes);
}

void BindApi(py::module_& m) {
  py::enum_<api::Lifetime>(m, "Lifetime")
      .value("transient", api::Lifetime::kTransient)
      .value("external", api::Lifetime::kExternal)
      .value("constant", api::Lifetime::kConstant)
      .value("variable", api::Lifetime::kVariable)
      .value("staging", api::Lifetime::kStaging);
  using B = BuilderHandle;
  py::class_<B>(m, "ProgramBuilder")
      .def(py::init<std::string>())
      .def("add_function", [](B& b, std::string name) { return b.get().AddFunction(name); })
      .def("set_entry", [](B& b, api::ComputationId c) { b.get().SetEntry(c); })
      .def("add_param_bytes",
           [](B& b, api::ComputationId c, std::string name, std::int64_t bytes) {
             return b.get().AddParam(c, std::move(name), bytes);
           })
      .def("add_param_typed",
           [](B& b, api::ComputationId c, std::string name, std::string dtype,
              std::vector<std::int64_t> dims) {
             return b.get().AddParam(c, std::move(name), std::move(dtype), std::move(dims));
           })
      .def("add_op",
           [](B& b, api::ComputationId c, std::string opcode, std::vector<api::ValueId> operands,
              double flops, double transcendentals, std::optional<std::int64_t> bytes_accessed) {
             return b.get().AddOp(c, std::move(opcode), std::move(operands),
                                  api::OpCost{flops, transcendentals, bytes_accessed});
           })
      .def("add_result_bytes",
           [](B& b, api::OpId op, std::string name, std::int64_t bytes) {
             return b.get().AddResult(op, std::move(name), bytes);
           })
      .def("add_result_typed",
           [](B& b, api::OpId op, std::string name, std::string dtype,
              std::vector<std::int64_t> dims) {
             return b.get().AddResult(op, std::move(name), std::move(dtype), std::move(dims));
           })
      .def("set_return", [](B& b, api::ComputationId c,
                            std::vector<api::ValueId> results) { b.get().SetReturn(c, results); })
      .def("tie", [](B& b, api::ValueId r, api::ValueId o) { b.get().Tie(r, o); })
      .def("view", [](B& b, api::ValueId r, api::ValueId o,
                      std::int64_t offset) { b.get().View(r, o, offset); })
      .def("set_lifetime",
           [](B& b, api::ValueId v, api::Lifetime l) { b.get().SetLifetime(v, l); })
      .def("set_scratch", [](B& b, api::OpId op, std::int64_t bytes) { b.get().SetScratch(op, bytes); })
      .def("add_while",
           [](B& b, api::ComputationId c, std::vector<api::ValueId> operands,
              api::ComputationId cond, api::ComputationId body,
              std::optional<std::int64_t> trip_count) {
             return b.get().AddWhile(c, std::move(operands), cond, body, trip_count);
           })
      .def("add_call",
           [](B& b, api::ComputationId c, api::ComputationId callee,
              std::vector<api::ValueId> operands) {
             return b.get().AddCall(c, callee, std::move(operands));
           })
      .def("build", &BuildProgram);
  py::class_<api::Program>(m, "Program")
      .def("to_text", &api::Program::ToText)
      .def_property_readonly("buffer_count", &api::Program::buffer_count)
      .def_property_readonly("time_steps", &api::Program::time_steps)
      .def_property_readonly("schedule", &api::Program::schedule);
  py::class_<api::Options>(m, "Options")
      .def(py::init<>())
      .def_readwrite("algorithm", &api::Options::algorithm)
      .def_readwrite("effort", &api::Options::effort)
      .def_readwrite("time_limit_seconds", &api::Options::time_limit_seconds)
      .def_readwrite("alignment", &api::Options::alignment)
      .def_readwrite("capacity", &api::Options::capacity)
      .def_readwrite("transient_capacity", &api::Options::transient_capacity)
      .def_readwrite("fast_memory_bytes", &api::Options::fast_memory_bytes)
      .def_readwrite("target", &api::Options::target);
  py::class_<api::Result>(m, "Result")
      .def_property_readonly("json", &api::Result::json)
      .def_property_readonly("summary", &api::Result::summary);
  m.def(
      "plan_program",
      [](const api::Program& program, const api::Options& options) {
        py::gil_scoped_release release;
        return PlanProgram(program, options);
      },
      "Plans a built Program with the public API; returns a Result or (exit_code, message).");
  m.def(
      "verify_result",
      [](const api::Program& program, const api::Result& result) {
        py::gil_scoped_release release;
        return VerifyResult(program, result);
      },
      "Verifies a Result against its Program; None or (exit_code, message).");
  m.def("byte_size", &ByteSize, "Parses '2MiB' etc.; an int or (exit_code, message).");
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
  memplan::BindApi(m);
}
