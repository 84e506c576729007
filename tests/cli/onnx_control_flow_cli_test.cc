// ONNX If, Loop and Scan planned end to end through the memplan binary: every
// plan verified, exact peaks and lower bounds (derived by hand below), and the
// subgraph tensors visible by their scoped names in the plan JSON.
//
// Time steps follow the flattened schedule (analysis/schedule.h): a
// conditional's branches, or a while's cond then body, take the steps just
// before the op. Sizes: FLOAT[64] = 256 bytes, the loop counter 8, a
// condition 1.
#include <filesystem>
#include <set>
#include <string>

#include "cli_runner.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "tests/io/onnx/control_flow_models.h"

namespace memplan {
namespace {

namespace fs = std::filesystem;
using testing::DynamicScanLoopModel;
using testing::IfLayerModel;
using ::testing::HasSubstr;
using testing::LoopNextToOuterModel;
using testing::LoopReadsOuterModel;
using testing::NestedIfsModel;
using testing::ScanModel;
using testing::TwoLevelCaptureModel;
using testing::UnusedInBranchModel;
using testing_cli::CliRun;
using testing_cli::FreshDir;
using testing_cli::Memplan;
using testing_cli::Slurp;
using Json = nlohmann::ordered_json;

class OnnxControlFlowCliTest : public ::testing::Test {
 protected:
  void SetUp() override { dir_ = FreshDir(); }
  void TearDown() override { fs::remove_all(dir_); }

  // Plans `model` (with `flags`) and returns the verified JSON plan.
  Json Plan(const std::string& model, const std::string& flags = "") {
    const std::string json = dir_ + "/plan.json";
    CliRun r = Memplan("plan " + model + " " + flags + " --json " + json);
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_THAT(r.out, HasSubstr("plan verified"));
    if (r.exit_code != 0) return Json::object();
    Json plan = Json::parse(Slurp(json));
    EXPECT_EQ(plan["verified"], true);
    return plan;
  }

  // The buffer holding value `name`, or null.
  static Json BufferOf(const Json& plan, const std::string& name) {
    for (const Json& buffer : plan["buffers"]) {
      for (const Json& value : buffer["values"]) {
        if (value == name) return buffer;
      }
    }
    ADD_FAILURE() << "no buffer holds " << name;
    return Json();
  }

  // [start, end] of the buffer holding `name`.
  static std::pair<int, int> Range(const Json& plan, const std::string& name) {
    const Json buffer = BufferOf(plan, name);
    if (buffer.is_null()) return {-1, -1};
    return {buffer["start"].get<int>(), buffer["end"].get<int>()};
  }

  std::string dir_;
};

TEST_F(OnnxControlFlowCliTest, NestedIfsWithAnOutputLiveAcrossTheNextIf) {
  // t0 if2/then relu t, t1 if2/else neg e, t2 if2, t3 if1/else sigmoid s,
  // t4 if1 -> a, t5 if3/then add p, t6 if3/else mul q, t7 if3 -> b, t8 z = a + b.
  // {t, e, a2, s, a, if3's a params} [0, 8] (a is read at t8, across if3) is
  // written in place into the graph output z, so the only transient buffer
  // is {p, q, b} [5, 8]: 256 bytes from t5 to t8.
  const Json plan = Plan(NestedIfsModel("nested_ifs_cli.onnx"));
  EXPECT_EQ(plan["time_steps"], 9);
  EXPECT_EQ(plan["lower_bound_bytes"], 256);
  EXPECT_EQ(plan["peak_bytes"], 256);
  EXPECT_EQ(BufferOf(plan, "z"), BufferOf(plan, "a"));
  EXPECT_EQ(BufferOf(plan, "z")["lifetime"], "external");
  EXPECT_EQ(Range(plan, "if1/then/if2/then/t"), std::make_pair(0, 8));
  EXPECT_EQ(BufferOf(plan, "a"), BufferOf(plan, "if3/else/a"));
  EXPECT_EQ(Range(plan, "if3/then/p"), std::make_pair(5, 8));
  EXPECT_EQ(BufferOf(plan, "b"), BufferOf(plan, "if3/else/q"));
}

TEST_F(OnnxControlFlowCliTest, LoopThatOnlyReadsAnOuterValue) {
  // t0 w = relu, t1 h0 = neg, t2 iota (counter), t3 copy(yes) (condition),
  // t4 cond compare, t5 identity, t6 acc add, t7 counter add, t8 while, t9 z.
  // Transient: w [0, 8] (captured: read by the while), h0/h [1, 9], counter
  // [2, 8] 8 B, condition [3, 8] 1 B, continue [4, 4] 1 B: 522 bytes at t4,
  // but z = Sigmoid(h) writes in place into h's buffer, the graph output's:
  // 266 bytes.
  const Json plan = Plan(LoopReadsOuterModel("loop_reads_cli.onnx"));
  EXPECT_EQ(plan["time_steps"], 10);
  EXPECT_EQ(plan["lower_bound_bytes"], 266);
  EXPECT_EQ(plan["peak_bytes"], 266);
  EXPECT_EQ(Range(plan, "w"), std::make_pair(0, 8));
  EXPECT_EQ(BufferOf(plan, "w")["values"],
            Json::parse(R"(["w", "loop1/cond/w", "loop1/w", "loop1/w.final"])"));
  EXPECT_EQ(BufferOf(plan, "h")["values"],
            Json::parse(R"(["h0", "loop1/cond/h_in", "loop1/h_in", "loop1/h_out", "h", "z"])"));
  EXPECT_EQ(Range(plan, "loop1/cond/continue"), std::make_pair(4, 4));
}

TEST_F(OnnxControlFlowCliTest, LoopBodyNextToAnOuterValueLiveAcrossTheLoop) {
  // t0 u = relu, t1 h0 = neg, t2 iota, t3 broadcast (condition), t4 compare,
  // t5 t = exp, t6 tanh, t7 counter add, t8 while, t9 z = h + u.
  // u [0, 9] and h [1, 9] span the loop; the body's t [5, 6] comes on top:
  // 256 + 256 + 256 + 8 + 1 = 777 bytes at t5, less h's 256, which z = h + u
  // takes into the graph output: 521 bytes.
  const Json plan = Plan(LoopNextToOuterModel("loop_next_cli.onnx"));
  EXPECT_EQ(plan["lower_bound_bytes"], 521);
  EXPECT_EQ(plan["peak_bytes"], 521);
  EXPECT_EQ(Range(plan, "u"), std::make_pair(0, 9));
  EXPECT_EQ(Range(plan, "loop1/t"), std::make_pair(5, 6));
}

TEST_F(OnnxControlFlowCliTest, UnusedResultInsideABranch) {
  // t0 d = neg (nothing reads it), t1 r = relu, t2 s = sigmoid, t3 if1 -> y.
  // {r, s, y} is the external output; the only transient is d, live [0, 0].
  const Json plan = Plan(UnusedInBranchModel("unused_cli.onnx"));
  EXPECT_EQ(plan["time_steps"], 4);
  EXPECT_EQ(plan["lower_bound_bytes"], 256);
  EXPECT_EQ(plan["peak_bytes"], 256);
  EXPECT_EQ(Range(plan, "if1/then/d"), std::make_pair(0, 0));
  EXPECT_EQ(BufferOf(plan, "y")["values"], Json::parse(R"(["if1/then/r", "if1/else/s", "y"])"));
}

TEST_F(OnnxControlFlowCliTest, Scan) {
  // t0 iota, t1 copy(s0), t2 broadcast (ys accumulator), t3 compare,
  // t4 x_t (a view of x), t5 s_out = add, t6 y_t = relu, t7 counter add,
  // t8 dynamic-update-slice, t9 while. s and ys are outputs (external), x an
  // input; transient: counter [0, 9] 8 B, continue [3, 3] 1 B and y_t [6, 8]
  // 64 B: 8 + 64 = 72 bytes.
  const Json plan = Plan(ScanModel("scan_cli.onnx"));
  EXPECT_EQ(plan["time_steps"], 10);
  EXPECT_EQ(plan["lower_bound_bytes"], 72);
  EXPECT_EQ(plan["peak_bytes"], 72);
  EXPECT_EQ(Range(plan, "scan1/y_t"), std::make_pair(6, 8));
  EXPECT_EQ(
      BufferOf(plan, "ys")["values"],
      Json::parse(R"(["scan1/ys.init", "scan1/cond/ys", "scan1/ys", "scan1/ys.next", "ys"])"));
  EXPECT_EQ(BufferOf(plan, "ys")["size"], 256);
  EXPECT_EQ(BufferOf(plan, "x"), BufferOf(plan, "scan1/x_t"));
}

TEST_F(OnnxControlFlowCliTest, CapturesAtTwoLevels) {
  // t0 w = relu, t1 h0 = neg, t2 iota, t3 broadcast, t4 compare, t5 v = exp,
  // t6 then add, t7 else mul, t8 if1, t9 counter add, t10 while.
  // w [0, 10] (captured by the loop and by the If in it), counter [2, 10],
  // condition [3, 10], v [5, 8]: 256 + 8 + 1 + 256 = 521 bytes at t5.
  const Json plan = Plan(TwoLevelCaptureModel("two_level_cli.onnx"));
  EXPECT_EQ(plan["time_steps"], 11);
  EXPECT_EQ(plan["lower_bound_bytes"], 521);
  EXPECT_EQ(plan["peak_bytes"], 521);
  EXPECT_EQ(
      BufferOf(plan, "w")["values"],
      Json::parse(
          R"(["w", "loop1/cond/w", "loop1/w", "loop1/if1/then/w", "loop1/if1/else/w", "loop1/w.final"])"));
  EXPECT_EQ(Range(plan, "loop1/v"), std::make_pair(5, 8));
}

TEST_F(OnnxControlFlowCliTest, FastMemoryPlansVerify) {
  for (const std::string& model :
       {NestedIfsModel("nested_ifs_fast.onnx"), LoopNextToOuterModel("loop_next_fast.onnx"),
        ScanModel("scan_fast.onnx")}) {
    SCOPED_TRACE(model);
    const Json plan = Plan(model, "--fast-memory 64KiB");
    EXPECT_TRUE(plan.contains("msa"));
  }
}

TEST_F(OnnxControlFlowCliTest, FastMemoryThroughAnIf) {
  // t0 mm0, t1 relu (g, in place over h), t2 mm1, t3 then_relu, t4 mm2,
  // t5 else_sigmoid, t6 if1, t7 mm3, t8 sum. g, read by both branches and
  // after the If, stays in fast memory from its definition to its last
  // read; the If's result y = a = s is produced in fast memory by both
  // branches at one offset; w3 is prefetched across the If (start and done
  // outside it); w0 is the cross-program prefetch.
  const Json plan = Plan(IfLayerModel("if_layer_fast.onnx"), "--target edge-npu --fast-memory 128KiB");
  const Json alt = Json::parse(R"([{"space": 1, "offset": 32768, "start": 0, "end": 8}])");
  EXPECT_EQ(BufferOf(plan, "g")["allocations"][0], alt[0]);
  EXPECT_EQ(BufferOf(plan, "g")["allocations"].size(), 1u);
  const Json y = BufferOf(plan, "y");
  EXPECT_EQ(y["values"], Json::parse(R"(["if1/then/a", "if1/else/s", "y"])"));
  EXPECT_EQ(y["allocations"], Json::parse(R"([{"space": 1, "offset": 33280, "start": 3, "end": 7}])"));
  EXPECT_EQ(plan["async_copies"].size(), 2u);
  EXPECT_EQ(plan["async_copies"][1]["buffer"], BufferOf(plan, "w3")["id"]);
  EXPECT_EQ(plan["async_copies"][1]["start"], 1);
  EXPECT_EQ(plan["async_copies"][1]["done"], 7);
  // 4.788 us against 8.736 us all default and 1.092 us all fast: 51.6% of
  // the possible speed-up. z = Add(m, g) writes in place into m, so mm3
  // writes the graph output in default memory (4.732 us when m had a
  // transient buffer of its own, in fast memory, and the Add copied it out). The
  // reference run issues w1's and w2's prefetches before the first op too,
  // where they share mm0's time with w0 and x and stall (29.4%): default mode
  // keeps the variant that starts copies from the first op on.
  EXPECT_EQ(plan["msa"]["variant"], "reference-from-the-first-op");
  EXPECT_NEAR(plan["msa"]["estimated_time_s"].get<double>(), 4.788e-06, 1e-12);
  EXPECT_NEAR(plan["msa"]["time_all_default_s"].get<double>(), 8.736e-06, 1e-12);
  EXPECT_NEAR(plan["msa"]["time_all_fast_s"].get<double>(), 1.092e-06, 1e-12);
}

TEST_F(OnnxControlFlowCliTest, DynamicScanOutputIsRefused) {
  const std::string model = DynamicScanLoopModel("dynamic_cli.onnx");
  const std::string json = dir_ + "/plan.json";
  CliRun r = Memplan("plan " + model + " --json " + json);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, model +
                       ": error: node 'loop1' (Loop): scan output 'ys' grows by one element "
                       "per iteration, but the trip count M 'n' is not a constant; the "
                       "length of a scan output is then only known at run time (memplan "
                       "plans static sizes: give M as an initializer or a constant, or "
                       "return the values as loop-carried tensors)\n");
  EXPECT_FALSE(fs::exists(json));
}

TEST_F(OnnxControlFlowCliTest, BundledRnnLoop) {
  const std::string model = MEMPLAN_SOURCE_DIR "/examples/rnn_loop.onnx";
  const Json plan = Plan(model);
  // 66 before shape folding and constant hoisting: the body's gate-split
  // index arithmetic (Shape -> Gather -> Div -> Slice bounds), small Constants
  // and constant-only ops take no step.
  EXPECT_EQ(plan["time_steps"], 45);
  EXPECT_EQ(plan["lower_bound_bytes"], 10249);
  EXPECT_EQ(plan["peak_bytes"], 10249);
  // The body's gate activations are there by their scoped names.
  EXPECT_EQ(BufferOf(plan, "/Loop//cell/Tanh_output_0")["size"], 1024);
  const Json fast = Plan(model, "--fast-memory 64KiB");
  EXPECT_TRUE(fast.contains("msa"));
  EXPECT_GT(fast["msa"]["prefetches"].get<int>(), 0);
}

}  // namespace
}  // namespace memplan
