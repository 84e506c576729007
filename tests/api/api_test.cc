#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include <unistd.h>

#include "cli/plan_command.h"
#include "driver/plan_job.h"
#include "io/file_io.h"
#include "memplan/memplan.h"

namespace memplan::api {
namespace {

// main(%x: 1 KiB) { %a = exp(%x): 1 KiB; %b = exp(%a): f32[512];
//                   %c = add(%a, %b): 1 KiB; return %c }
Program Chain() {
  ProgramBuilder b("chain");
  const ComputationId main = b.AddFunction("main");
  b.SetEntry(main);
  const ValueId x = b.AddParam(main, "x", 1024);
  const ValueId a = b.AddResult(b.AddOp(main, "exp", {x}), "a", 1024);
  const ValueId bb = b.AddResult(b.AddOp(main, "exp", {a}), "b", "f32", {512});
  const ValueId c = b.AddResult(b.AddOp(main, "add", {a, bb}), "c", 1024);
  b.SetReturn(main, {c});
  absl::StatusOr<Program> program = std::move(b).Build();
  EXPECT_TRUE(program.ok()) << program.status();
  return *std::move(program);
}

const PlannedBuffer& Named(const Result& result, const std::string& name) {
  for (const PlannedBuffer& b : result.buffers) {
    if (b.name == name) return b;
  }
  ADD_FAILURE() << "no buffer " << name;
  return result.buffers.front();
}

TEST(ApiTest, PlansABuiltProgramAtItsLowerBound) {
  const Program program = Chain();
  EXPECT_EQ(program.time_steps(), 3);
  absl::StatusOr<Result> result = Plan(program);
  ASSERT_TRUE(result.ok()) << result.status();
  // %a [0,2] and %b [1,2] are live together: 3 KiB, the max-live bound.
  EXPECT_EQ(result->lower_bound, 3072);
  EXPECT_EQ(result->transient_peak, 3072);
  const PlannedBuffer& a = Named(*result, "a");
  const PlannedBuffer& b = Named(*result, "b");
  EXPECT_EQ(b.size, 2048);
  EXPECT_EQ(a.lifetime, Lifetime::kTransient);
  EXPECT_EQ(Named(*result, "x").lifetime, Lifetime::kExternal);
  ASSERT_EQ(a.segments.size(), 1u);
  ASSERT_EQ(b.segments.size(), 1u);
  EXPECT_EQ(a.segments[0].space, "default");
  EXPECT_EQ(a.segments[0].start, 0);
  EXPECT_EQ(a.segments[0].end, 2);
  EXPECT_EQ(b.segments[0].start, 1);
  EXPECT_EQ(b.segments[0].end, 2);
  // The larger buffer goes first: %b at 0, %a above it.
  EXPECT_EQ(b.segments[0].offset, 0);
  EXPECT_EQ(a.segments[0].offset, 2048);
  EXPECT_EQ(a.pool, "transient");
  EXPECT_TRUE(Verify(program, *result).ok());
  absl::StatusOr<ExecuteReport> ran = Execute(program, *result);
  ASSERT_TRUE(ran.ok()) << ran.status();
  EXPECT_EQ(ran->ops, 3);
}

TEST(ApiTest, TiesAndViewsShareStorage) {
  ProgramBuilder b("ties");
  const ComputationId main = b.AddFunction("main");
  b.SetEntry(main);
  const ValueId x = b.AddParam(main, "x", 4096);
  const ValueId y = b.AddResult(b.AddOp(main, "exp", {x}), "y", 4096);
  const OpId relu = b.AddOp(main, "relu", {y});
  const ValueId z = b.AddResult(relu, "z", 4096);
  b.Tie(z, y);
  const ValueId v = b.AddResult(b.AddOp(main, "slice", {z}), "v", 1024);
  b.View(v, z, 1024);
  const ValueId w = b.AddResult(b.AddOp(main, "exp", {v}), "w", 1024);
  b.SetReturn(main, {w});
  absl::StatusOr<Program> program = std::move(b).Build();
  ASSERT_TRUE(program.ok()) << program.status();
  absl::StatusOr<Result> result = Plan(*program);
  ASSERT_TRUE(result.ok()) << result.status();
  const PlannedBuffer& y_buffer = Named(*result, "y");
  EXPECT_EQ(y_buffer.values, (std::vector<std::string>{"y", "z", "v"}));
  EXPECT_EQ(result->transient_peak, 4096);
}

TEST(ApiTest, MisuseIsReportedByBuild) {
  ProgramBuilder b("bad");
  const ComputationId main = b.AddFunction("main");
  b.SetEntry(main);
  b.AddOp(main, "exp", {7});
  absl::StatusOr<Program> program = std::move(b).Build();
  ASSERT_FALSE(program.ok());
  EXPECT_EQ(program.status().message(),
            "bad: error: AddOp: value id 7 is not one of this builder's");

  ProgramBuilder unknown_dtype("types");
  const ComputationId f = unknown_dtype.AddFunction("main");
  unknown_dtype.AddParam(f, "x", "f33", {4});
  program = std::move(unknown_dtype).Build();
  ASSERT_FALSE(program.ok());
  EXPECT_NE(program.status().message().find("types: error: %x: "), std::string::npos)
      << program.status();

  ProgramBuilder no_entry("empty");
  no_entry.AddFunction("main");
  program = std::move(no_entry).Build();
  ASSERT_FALSE(program.ok());
  EXPECT_NE(program.status().message().find("empty"), std::string::npos) << program.status();
}

TEST(ApiTest, BadOptionsAreInvalidArgument) {
  const Program program = Chain();
  Options options;
  options.algorithm = "best-fit-sideways";
  EXPECT_EQ(Plan(program, options).status().code(), absl::StatusCode::kInvalidArgument);
  options = {};
  options.effort = "extreme";
  EXPECT_EQ(Plan(program, options).status().code(), absl::StatusCode::kInvalidArgument);
  options = {};
  options.capacity = 3000;  // below the 3,072-byte bound
  EXPECT_EQ(Plan(program, options).status().code(), absl::StatusCode::kResourceExhausted);
}

// The JSON `memplan plan FILE ARGS --json -` writes for these arguments.
std::string CliJson(std::vector<std::string> args) {
  args.push_back("--json");
  args.push_back("-");
  auto parsed = cli::ParsePlanArguments(args);
  EXPECT_TRUE(parsed.ok()) << parsed.status();
  absl::StatusOr<PlanJobResult> result = RunPlanJob(parsed->first, parsed->second);
  EXPECT_TRUE(result.ok()) << result.status();
  return result.ok() && result->json_stdout ? *result->json_stdout : "";
}

// The library plans as the command line does, byte for byte, with its
// defaults and with fast memory.
TEST(ApiTest, SameJsonAsTheCommandLine) {
  const std::string dir = std::string(MEMPLAN_SOURCE_DIR) + "/examples/";
  for (const char* file : {"mlp.mpir", "while_loop.mpir", "conditional.mpir", "region.mpir",
                           "mobilenet_v2.onnx"}) {
    SCOPED_TRACE(file);
    absl::StatusOr<Program> program = LoadFile(dir + file);
    ASSERT_TRUE(program.ok()) << program.status();
    absl::StatusOr<Result> plain = Plan(*program);
    ASSERT_TRUE(plain.ok()) << plain.status();
    EXPECT_EQ(plain->json(), CliJson({dir + file}));
    // Region plans with fast memory carry no MSA estimate (estimated_time_s).
    if (std::string(file) == "region.mpir") continue;
    Options fast;
    fast.fast_memory_bytes = 65536;
    absl::StatusOr<Result> with_fast = Plan(*program, fast);
    ASSERT_TRUE(with_fast.ok()) << with_fast.status();
    EXPECT_EQ(with_fast->json(), CliJson({dir + file, "--fast-memory", "65536"}));
    EXPECT_TRUE(with_fast->estimated_time_s.has_value());
    EXPECT_TRUE(Verify(*program, *with_fast).ok());
  }
}

// The C++ builder and the command line give byte-identical JSON for the same
// program: examples/basic.mpir built op by op (as python/tests/
// test_program.py's basic() builds it with memplan.Program, which it checks
// against the command line the same way), and the file planned by the
// command line as "basic" (a built program's input is its name).
TEST(ApiTest, BuiltProgramPlansAsItsTextDoes) {
  ProgramBuilder b("basic");
  const ComputationId main = b.AddFunction("main");
  b.SetEntry(main);
  const ValueId x = b.AddParam(main, "x", "f32", {8, 16});
  const ValueId bias = b.AddParam(main, "bias", "f32", {16});
  b.SetLifetime(bias, Lifetime::kConstant);
  OpCost add_cost;
  add_cost.flops = 128;
  const ValueId g = b.AddResult(b.AddOp(main, "add", {x, bias}, add_cost), "g", "f32", {8, 16});
  const ValueId h = b.AddResult(b.AddOp(main, "relu", {g}), "h", "f32", {8, 16});
  b.Tie(h, g);
  const ValueId flat = b.AddResult(b.AddOp(main, "reshape", {h}), "flat", "f32", {128});
  b.View(flat, h, 0);
  const ValueId row1 = b.AddResult(b.AddOp(main, "slice", {flat}), "row1", "f32", {16});
  b.View(row1, flat, 64);
  OpCost exp_cost;
  exp_cost.transcendentals = 16;
  const ValueId y = b.AddResult(b.AddOp(main, "exp", {row1}, exp_cost), "y", "f32", {16});
  b.SetReturn(main, {y});
  absl::StatusOr<Program> built = std::move(b).Build();
  ASSERT_TRUE(built.ok()) << built.status();

  // This test runs in a process of its own (ctest): moving into a fresh
  // folder touches no other test.
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("memplan_api_basic_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  std::filesystem::copy_file(std::string(MEMPLAN_SOURCE_DIR) + "/examples/basic.mpir", dir / "basic",
                             std::filesystem::copy_options::overwrite_existing);
  const std::filesystem::path was = std::filesystem::current_path();
  std::filesystem::current_path(dir);
  absl::StatusOr<Result> plain = Plan(*built);
  ASSERT_TRUE(plain.ok()) << plain.status();
  EXPECT_EQ(plain->json(), CliJson({"basic"}));
  Options fast;
  fast.fast_memory_bytes = 4096;
  fast.alignment = 64;
  absl::StatusOr<Result> with_fast = Plan(*built, fast);
  ASSERT_TRUE(with_fast.ok()) << with_fast.status();
  EXPECT_EQ(with_fast->json(), CliJson({"basic", "--fast-memory", "4096", "--alignment", "64"}));
  std::filesystem::current_path(was);
  std::filesystem::remove_all(dir);
}

TEST(ApiTest, LoadFileErrorsAreLocated) {
  const std::string path = ::testing::TempDir() + "/api_bad.mpir";
  ASSERT_TRUE(WriteFileAtomically(path, "entry func @main() {\n  %y = exp(%nope) : 4\n}\n").ok());
  absl::StatusOr<Program> program = LoadFile(path);
  ASSERT_FALSE(program.ok());
  EXPECT_EQ(program.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(std::string(program.status().message()).rfind(path + ":2:", 0), 0u)
      << program.status();
}

TEST(ApiTest, WriteJsonWritesTheJson) {
  absl::StatusOr<Result> result = Plan(Chain());
  ASSERT_TRUE(result.ok());
  const std::string path = ::testing::TempDir() + "/api_plan.json";
  ASSERT_TRUE(WriteJson(*result, path).ok());
  absl::StatusOr<std::string> text = ReadFile(path);
  ASSERT_TRUE(text.ok());
  EXPECT_EQ(*text, result->json());
  EXPECT_STREQ(Version(), MEMPLAN_VERSION_FOR_TESTS);
}

// Two branches from %x: each makes a 4 KiB value and shrinks it to 64 B.
// As written both 4 KiB values are live together; reordered, each branch
// finishes before the next starts.
TEST(ApiTest, ReorderLowersThePeakAndReportsTheSchedule) {
  const auto build = [](bool reorder) {
    ProgramBuilder b("branches");
    const ComputationId main = b.AddFunction("main");
    b.SetEntry(main);
    const ValueId x = b.AddParam(main, "x", 64);
    const ValueId a1 = b.AddResult(b.AddOp(main, "exp", {x}), "a1", 4096);
    const ValueId b1 = b.AddResult(b.AddOp(main, "exp", {x}), "b1", 4096);
    const ValueId a2 = b.AddResult(b.AddOp(main, "reduce", {a1}), "a2", 64);
    const ValueId b2 = b.AddResult(b.AddOp(main, "reduce", {b1}), "b2", 64);
    const ValueId y = b.AddResult(b.AddOp(main, "add", {a2, b2}), "y", 64);
    b.SetReturn(main, {y});
    LoadOptions options;
    options.reorder = reorder;
    absl::StatusOr<Program> program = std::move(b).Build(options);
    EXPECT_TRUE(program.ok()) << program.status();
    return *std::move(program);
  };
  const Program written = build(false);
  const Program reordered = build(true);
  EXPECT_EQ(written.schedule(), (std::vector<std::string>{"%a1", "%b1", "%a2", "%b2", "%y"}));
  const std::vector<std::string> order = reordered.schedule();
  ASSERT_EQ(order.size(), 5u);
  EXPECT_EQ(order.back(), "%y");
  absl::StatusOr<Result> before = Plan(written);
  absl::StatusOr<Result> after = Plan(reordered);
  ASSERT_TRUE(before.ok()) << before.status();
  ASSERT_TRUE(after.ok()) << after.status();
  // Written: %a2 is made while %a1 and %b1 are live. Reordered: %b2 is made
  // while %b1 and %a2 are live, the least any order can do.
  EXPECT_EQ(before->transient_peak, 4096 + 4096 + 64);
  EXPECT_EQ(after->transient_peak, 4096 + 64 + 64);
  EXPECT_NE(after->json().find("\"reorder\":true"), std::string::npos);
}

}  // namespace
}  // namespace memplan::api
