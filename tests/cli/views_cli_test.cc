// Views that save memory, end to end through the binary: an outer-axis
// Concat whose producers write into its result, an outer-axis Split whose
// pieces are views of its input, an outer-axis Slice of a live input that
// is a view of it, cases that stay copies, and
// constant-only ops that take no step (tests/data/onnx/README.md has the
// models).
#include <filesystem>
#include <fstream>
#include <map>
#include <string>

#include "cli_runner.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"

namespace memplan {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;
using ::testing::Not;
using testing_cli::CliRun;
using testing_cli::FreshDir;
using testing_cli::Memplan;
using testing_cli::Slurp;

const std::string kViewModels = MEMPLAN_SOURCE_DIR "/tests/data/onnx/";

// Plans `input` with `flags`, re-verifies the saved plan, returns its JSON.
nlohmann::json Plan(const std::string& input, const std::string& flags = "") {
  const std::string dir = FreshDir();
  const std::string json = dir + "/plan.json";
  CliRun run = Memplan("plan " + input + " --json " + json + " " + flags);
  EXPECT_EQ(run.exit_code, 0) << run.err;
  nlohmann::json plan;
  if (run.exit_code == 0) {
    plan = nlohmann::json::parse(Slurp(json));
    CliRun v = Memplan("verify " + input + " " + json + " " + flags);
    EXPECT_EQ(v.exit_code, 0) << v.err;
  }
  fs::remove_all(dir);
  return plan;
}

std::map<std::string, nlohmann::json> BuffersByName(const nlohmann::json& plan) {
  std::map<std::string, nlohmann::json> out;
  for (const nlohmann::json& b : plan["buffers"]) out[b["name"].get<std::string>()] = b;
  return out;
}

// x[1,1024] -> a = Exp, b = Neg -> c = Concat(a, b) along axis 1 -> y =
// Sigmoid (graph output). As a copy, a (4 KiB), b (4 KiB) and c (8 KiB) are
// live at the concat; as views, {a, b, c} is one 8 KiB buffer live from a's
// definition, and the Sigmoid writes it in place into y: the caller's
// buffer, so no transient memory at all.
TEST(ViewsCli, OuterConcatPlansAtHalfTheMemoryOfTheCopy) {
  const nlohmann::json views = Plan(kViewModels + "concat_outer.onnx");
  EXPECT_EQ(views["peak_bytes"], 0);
  EXPECT_EQ(views["lower_bound_bytes"], 0);
  const auto buffers = BuffersByName(views);
  ASSERT_TRUE(buffers.contains("a"));
  EXPECT_EQ(buffers.at("a")["values"], nlohmann::json::parse(R"(["a", "b", "c", "y"])"));
  EXPECT_EQ(buffers.at("a")["value_offsets"], nlohmann::json::parse("[0, 4096, 0, 0]"));
  EXPECT_EQ(buffers.at("a")["size"], 8192);
  EXPECT_EQ(buffers.at("a")["lifetime"], "external");

  const nlohmann::json copy = Plan(kViewModels + "concat_outer.onnx", "--no-alias");
  EXPECT_EQ(copy["peak_bytes"], 16384);
  EXPECT_EQ(copy["lower_bound_bytes"], 16384);
  EXPECT_EQ(copy["buffers"].size(), 5u);  // x, a, b, c, y
}

// The same along an inner axis ([2,512] pieces of [2,1024]): each input is
// two separate byte ranges of the result, so the concat copies; only the
// Sigmoid writes in place into the output: a and b (8 KiB) stay transient.
TEST(ViewsCli, InnerConcatStaysACopy) {
  const nlohmann::json plan = Plan(kViewModels + "concat_inner.onnx");
  EXPECT_EQ(plan["peak_bytes"], 8192);
  const auto buffers = BuffersByName(plan);
  ASSERT_TRUE(buffers.contains("a"));
  EXPECT_EQ(buffers.at("a")["values"], nlohmann::json::parse(R"(["a"])"));
  ASSERT_TRUE(buffers.contains("c"));
  EXPECT_EQ(buffers.at("c")["values"], nlohmann::json::parse(R"(["c", "y"])"));
  const nlohmann::json copy = Plan(kViewModels + "concat_inner.onnx", "--no-alias");
  EXPECT_EQ(copy["peak_bytes"], 16384);
  EXPECT_EQ(copy["buffers"].size(), 5u);
}

// e = Exp(x)[1,2048] -> Split along axis 1 -> s1, s2 [1,1024] -> t1 = Neg(s1),
// t2 = Neg(s2) -> y = Add(t1, t2) (graph output). As views, s1 and s2 are
// bytes [0, 4096) and [4096, 8192) of e, and t2 is written in place over
// s2: {e, s1, s2, t2} is 8 KiB; t1 is written in place into y, the caller's
// buffer: 8 KiB. As copies, e, s1 and s2 are live at the split: 16 KiB.
TEST(ViewsCli, OuterSplitPiecesAreViewsOfTheInput) {
  const nlohmann::json views = Plan(kViewModels + "split_outer.onnx");
  EXPECT_EQ(views["peak_bytes"], 8192);
  const auto buffers = BuffersByName(views);
  ASSERT_TRUE(buffers.contains("e"));
  EXPECT_EQ(buffers.at("e")["values"], nlohmann::json::parse(R"(["e", "s1", "s2", "t2"])"));
  EXPECT_EQ(buffers.at("e")["size"], 8192);
  ASSERT_TRUE(buffers.contains("t1"));
  EXPECT_EQ(buffers.at("t1")["values"], nlohmann::json::parse(R"(["t1", "y"])"));
  EXPECT_EQ(Plan(kViewModels + "split_outer.onnx", "--no-alias")["peak_bytes"], 16384);
}

// e = Exp(x)[1,1024] -> y = e[:, -768:768] (elements [256, 768)) -> r =
// ReduceSum(y) -> o = Add(e, r) (graph output). e is read after r, so y is a
// view of e at byte 1024, and the Add writes in place into o: {e, y, o} is
// the caller's buffer and only r (4 B) is transient. As a copy, e (4 KiB),
// y (2 KiB) and r are live at r's step: 6148 B.
TEST(ViewsCli, OuterSliceOfALiveInputIsAView) {
  const nlohmann::json views = Plan(kViewModels + "slice_outer.onnx");
  EXPECT_EQ(views["peak_bytes"], 4);
  EXPECT_EQ(views["lower_bound_bytes"], 4);
  const auto buffers = BuffersByName(views);
  ASSERT_TRUE(buffers.contains("e"));
  EXPECT_EQ(buffers.at("e")["values"], nlohmann::json::parse(R"(["e", "y", "o"])"));
  EXPECT_EQ(buffers.at("e")["value_offsets"], nlohmann::json::parse("[0, 1024, 0]"));
  EXPECT_EQ(buffers.at("e")["size"], 4096);
  EXPECT_EQ(Plan(kViewModels + "slice_outer.onnx", "--no-alias")["peak_bytes"], 6148);
}

// e = Exp(x)[1,1024] -> y = e[:, 0:256] -> g = Neg(x), s = ReduceSum(g) ->
// r = ReduceSum(y) -> o = Add(s, r) (graph output). e dies at the slice; a
// view would keep its 4 KiB beside g (8196 B at s's step); the copy holds
// y's 1 KiB there: 5124 B without aliasing, 5120 B with it (the Add writes
// in place into o, so s is the caller's buffer).
TEST(ViewsCli, SliceOfADyingInputStaysACopy) {
  for (const std::string flags : {"", "--no-alias"}) {
    SCOPED_TRACE(flags);
    const nlohmann::json plan = Plan(kViewModels + "slice_dead_input.onnx", flags);
    EXPECT_EQ(plan["peak_bytes"], flags.empty() ? 5120 : 5124);
    const auto buffers = BuffersByName(plan);
    ASSERT_TRUE(buffers.contains("y"));
    EXPECT_EQ(buffers.at("y")["values"], nlohmann::json::parse(R"(["y"])"));
    EXPECT_EQ(buffers.at("y")["size"], 1024);
  }
}

// A program whose slice view sits at the wrong byte: the verifier (rule 12)
// refuses the plan.
TEST(ViewsCli, WrongSliceOffsetIsRefused) {
  const std::string dir = FreshDir();
  const std::string input = dir + "/slice.mpir";
  testing_cli::WriteText(input, R"(entry func @g(%x: f32[1,1024] external, %s: i64[1] constant) {
  %e = onnx.Exp(%x) : f32[1,1024]
  %y = onnx.Slice(%e, %s) : f32[1,512] view(%e, 512) {starts = [0, 256]}
  %r = onnx.ReduceSum(%y) : f32[1,1]
  %o = onnx.Add(%e, %r) : f32[1,1024] external
  return %o
}
)");
  CliRun run = Memplan("plan " + input);
  EXPECT_EQ(run.exit_code, 1);
  EXPECT_THAT(run.err, HasSubstr("%y = onnx.Slice(%e) is a view at byte 512, but the window at "
                                 "starts [0, 256] begins at byte 1024, not at byte 512"));
  // A text-IR program may be hand-written: the message points at its claims
  // before calling it a bug in memplan.
  EXPECT_THAT(run.err, HasSubstr("error: the plan failed verification: "));
  EXPECT_THAT(run.err, HasSubstr("; check the program's ties, views and `starts` attributes"));
  EXPECT_THAT(run.err, Not(HasSubstr("internal error")));
  fs::remove_all(dir);
}

// --emit-ir (with fast memory) prints the gathering concat; the printed
// program parses and plans again.
TEST(ViewsCli, EmitIrShowsGathersAndRoundTrips) {
  const std::string dir = FreshDir();
  const std::string ir = dir + "/concat.mpir";
  CliRun run = Memplan("plan " + kViewModels + "concat_outer.onnx --target tpu-like --emit-ir " + ir);
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const std::string text = Slurp(ir);
  EXPECT_THAT(text, HasSubstr(" = onnx.Concat(%a, %b) : f32[1,2048] gathers(%a, 0, %b, 4096)"));
  CliRun again = Memplan("plan " + ir);
  EXPECT_EQ(again.exit_code, 0) << again.err;
  EXPECT_THAT(again.out, HasSubstr("plan verified"));
  fs::remove_all(dir);
}

// The bundled example plans at its documented 8 KiB.
TEST(ViewsCli, ConcatViewsExample) {
  const nlohmann::json plan = Plan(MEMPLAN_SOURCE_DIR "/examples/concat_views.mpir");
  EXPECT_EQ(plan["peak_bytes"], 8192);
  EXPECT_EQ(plan["time_steps"], 4);
}

// A body that returns a concat gathering into the loop-carried storage while
// the parameter still holds data: the planner's buffer is one alias set, and
// the independent verifier refuses the plan (rule 11).
TEST(ViewsCli, GatherIntoLiveLoopCarriedStorageIsRefused) {
  const std::string dir = FreshDir();
  const std::string input = dir + "/loop.mpir";
  testing_cli::WriteText(input, R"(entry func @main(%x: 8) {
  %w = while(%x) : 8 {cond = @cond, body = @body}
  return %w
}
func @cond(%cp: 8) { %k = compare(%cp) : pred[]  return %k }
func @body(%p: 8) {
  %a = exp(%p) : 4
  %b = negate(%p) : 4
  %c = concatenate(%a, %b) : 8 gathers(%a, 0, %b, 4)
  return %c
}
)");
  CliRun run = Memplan("plan " + input);
  EXPECT_NE(run.exit_code, 0);
  EXPECT_THAT(run.err, HasSubstr("holds data in it at time 1, while the operands %c gathers at "
                                 "time 3 are being written there (from time 1)"));
  fs::remove_all(dir);
}

}  // namespace
}  // namespace memplan

namespace memplan {
namespace {

// Every value's address is in the plan (the buffer's offset plus its value
// offset), and `verify` refuses a plan that moves a concatenated operand.
TEST(ViewsCli, AValueMovedInsideItsBufferFailsVerification) {
  const std::string dir = FreshDir();
  const std::string input = kViewModels + "concat_outer.onnx";
  const std::string json = dir + "/plan.json";
  ASSERT_EQ(Memplan("plan " + input + " --json " + json).exit_code, 0);
  nlohmann::json plan = nlohmann::json::parse(Slurp(json));
  for (nlohmann::json& b : plan["buffers"]) {
    if (b["name"] == "a") b["value_offsets"][1] = 0;  // %b onto %a
  }
  const std::string edited = dir + "/edited.json";
  std::ofstream(edited) << plan.dump();
  CliRun v = Memplan("verify " + input + " " + edited);
  EXPECT_EQ(v.exit_code, 1);
  EXPECT_EQ(v.err, edited + ": error: verification failed: %b is gathered into %c at +4096 bytes, so "
                            "its address must be %c's (byte 0 of buffer 'a') + 4096 = 4096, but the "
                            "plan puts it at byte 0\n");
  fs::remove_all(dir);
}

}  // namespace
}  // namespace memplan
