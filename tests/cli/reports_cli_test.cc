// Per-pool capacities (`--capacity POOL=BYTES`), the per-step profile
// (`--profile FILE.csv`) and the fast-memory summary, end to end through the
// binary, with every figure computed by hand.
#include <filesystem>
#include <string>

#include "cli_runner.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"

namespace memplan {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;
using testing_cli::CliRun;
using testing_cli::FreshDir;
using testing_cli::Memplan;
using testing_cli::Slurp;
using testing_cli::WriteText;

const std::string kData = MEMPLAN_SOURCE_DIR "/tests/data";

// A weight w (4096 B constant, live [0,3]) read by the first and last op,
// activations a, b (2048 B each, [1,2] and [2,3]), input x and output y
// (1024 B external). Transient pool: a and b live together at step 2, 4096 B;
// constant pool 4096 B; external pool 2048 B; default memory 10240 B.
constexpr char kModel[] =
    "entry func @main(%x: 1024) {\n"
    "  %w = constant() : 4096\n"
    "  %a = matmul(%x, %w) : 2048\n"
    "  %b = relu(%a) : 2048\n"
    "  %y = add(%b, %w) : 1024\n"
    "  return %y\n"
    "}\n";

struct Scratch {
  std::string dir = FreshDir();
  std::string model = dir + "/m.mpir";
  Scratch() { WriteText(model, kModel); }
  ~Scratch() { fs::remove_all(dir); }
};

TEST(PoolCapacityCliTest, ActivationsFitTheirArenaWhateverTheWeightsTake) {
  Scratch s;
  // The whole default memory (10240 B) is above 4 KiB; only the arena counts.
  CliRun r = Memplan("plan " + s.model + " --capacity transient=4KiB");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("transient pool: 4096 bytes (4.00 KiB) used of 4096 bytes "
                               "(4.00 KiB) capacity (100.00%)\n"));
  // Like with like: the plan holds the constant (4 KiB) and external (2 KiB)
  // pools for the whole run, and a and b (4 KiB) are live together at step
  // 2: 10 KiB, what the pools span, 0% over. Freeing each buffer after its
  // last use (w, a and b live at step 2) would need 8 KiB, which no plan of
  // these pools reaches.
  EXPECT_THAT(r.out, HasSubstr("default memory: 10240 bytes (10.00 KiB) used, max live 10240 "
                               "bytes (10.00 KiB) at step 2 (0.00% over) with the constant and "
                               "external pools held for the whole run, as in the plan (never "
                               "reused); 8192 bytes (8.00 KiB) at step 2 if each buffer were "
                               "freed after its last use\n"));
}

TEST(PoolCapacityCliTest, ExitOneNamesTheLimitAndByHowMuch) {
  Scratch s;
  const std::string json = s.dir + "/plan.json";
  CliRun r = Memplan("plan " + s.model + " --capacity transient=3KiB --json " + json);
  EXPECT_EQ(r.exit_code, 1);
  // The failure also says that no plan can fit (a and b, 4 KiB, are live
  // together) and where: the step, its op and the buffers live there.
  EXPECT_EQ(r.err, s.model +
                       ": error: plan does not fit: transient pool needs 4.00 KiB (4096 bytes), "
                       "1.00 KiB (1024 bytes) over --capacity transient=3KiB; no plan can fit: "
                       "every plan needs at least the lower bound, 4.00 KiB (4096 bytes); the "
                       "activations peak at step 2 (op %b = relu) with 4096 bytes (4.00 KiB) "
                       "live in 2 buffers, largest first: a 2048 bytes (2.00 KiB), b 2048 bytes "
                       "(2.00 KiB)\n");
  EXPECT_FALSE(fs::exists(json));
}

TEST(PoolCapacityCliTest, EveryFailedLimitIsNamed) {
  Scratch s;
  CliRun r = Memplan("plan " + s.model + " --capacity 8KiB --capacity constant=2KiB "
                     "--capacity transient=1MiB");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err, s.model +
                       ": error: plan does not fit: default memory needs 10.00 KiB (10240 "
                       "bytes), 2.00 KiB (2048 bytes) over --capacity 8KiB (transient extent 4096 "
                       "bytes, lower bound 4096 bytes); no plan can fit: every plan needs at "
                       "least the lower bound, 10.00 KiB (10240 bytes); constant pool needs 4.00 "
                       "KiB (4096 bytes), 2.00 KiB (2048 bytes) over --capacity constant=2KiB; no "
                       "plan can fit: every plan needs at least the lower bound, 4.00 KiB (4096 "
                       "bytes); the activations peak at step 2 (op %b = relu) with 4096 bytes "
                       "(4.00 KiB) live in 2 buffers, largest first: a 2048 bytes (2.00 KiB), b "
                       "2048 bytes (2.00 KiB)\n");
}

// Whether any plan could fit: kModel's pools need at least 10240 bytes
// (weights 4 KiB, inputs/outputs 2 KiB, activations' max live 4 KiB), so
// 10239 is out of reach. Three 4-byte buffers live in turn, packed without
// reuse (naive: 12 bytes), have a lower bound of 8: a 10-byte capacity fails
// for this packing, yet another plan may meet it.
TEST(PoolCapacityCliTest, TheFailureSaysWhetherAnyPlanCouldFit) {
  Scratch s;
  CliRun r = Memplan("plan " + s.model + " --capacity 10239");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_THAT(r.err, HasSubstr("; no plan can fit: every plan needs at least the lower bound, "
                               "10.00 KiB (10240 bytes); the activations peak at step 2"));
  const std::string csv = s.dir + "/chain.csv";
  WriteText(csv, "id,lower,upper,size\na,0,2,4\nb,1,3,4\nc,2,4,4\n");
  r = Memplan("plan " + csv + " --algorithm naive --capacity 10");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err, csv +
                       ": error: plan does not fit: default memory needs 12 bytes, 2 bytes over "
                       "--capacity 10 (transient extent 12 bytes, lower bound 8 bytes); a plan "
                       "within it may exist: the lower bound, 8 bytes, 2 bytes under it; the "
                       "activations peak at step 1 with 8 bytes live in 2 buffers, largest "
                       "first: a 4 bytes, b 4 bytes\n");
  r = Memplan("plan " + csv + " --algorithm naive --capacity transient=10");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_THAT(r.err, HasSubstr("over --capacity transient=10; a plan within it may exist: the "
                               "lower bound, 8 bytes, 2 bytes under it; the activations peak"));
}

// The limit is recorded in the JSON plan and `verify` holds the plan to it.
TEST(PoolCapacityCliTest, RecordedAndVerified) {
  Scratch s;
  const std::string json = s.dir + "/plan.json";
  CliRun r = Memplan("plan " + s.model + " --capacity external=2KiB --json " + json);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  nlohmann::json plan = nlohmann::json::parse(Slurp(json));
  for (const auto& pool : plan["pools"]) {
    if (pool["name"] == "external") {
      EXPECT_EQ(pool["capacity_bytes"], 2048);
    } else {
      EXPECT_FALSE(pool.contains("capacity_bytes")) << pool.dump();
    }
  }
  EXPECT_EQ(Memplan("verify " + s.model + " " + json).exit_code, 0);
  for (auto& pool : plan["pools"]) {
    if (pool["name"] == "external") pool["capacity_bytes"] = 2047;
  }
  WriteText(json, plan.dump());
  CliRun v = Memplan("verify " + s.model + " " + json);
  EXPECT_EQ(v.exit_code, 1);
  EXPECT_THAT(v.err, HasSubstr("the external pools of space 0 span 2048 bytes (bytes [8192, "
                               "10240)), beyond their capacity 2047"));
}

TEST(PoolCapacityCliTest, BadFormsAreUsageErrors) {
  Scratch s;
  const std::pair<std::string, std::string> cases[] = {
      {"--capacity foo=1",
       "memplan: error: --capacity expects BYTES (the whole default memory) or POOL=BYTES with "
       "POOL one of transient, constant, external, variable, staging; got 'foo=1'\n"},
      {"--capacity =1",
       "memplan: error: --capacity expects BYTES (the whole default memory) or POOL=BYTES with "
       "POOL one of transient, constant, external, variable, staging; got '=1'\n"},
      {"--capacity transient=abc", "memplan: error: --capacity transient: invalid byte size"},
      {"--capacity alternate=1MiB",
       "memplan: error: --capacity alternate=1MiB: the fast (alternate) memory's size is "
       "--fast-memory, not --capacity\n"},
      {"--capacity transient=1KiB --capacity transient=2KiB",
       "memplan: error: --capacity transient is given twice (--capacity transient=1KiB and "
       "--capacity transient=2KiB)\n"},
      {"--capacity 1MiB --capacity default=2MiB",
       "memplan: error: the default memory's --capacity is given twice (--capacity 1MiB and "
       "--capacity default=2MiB)\n"},
  };
  for (const auto& [flags, message] : cases) {
    CliRun r = Memplan("plan " + s.model + " " + flags);
    EXPECT_EQ(r.exit_code, 2) << flags;
    EXPECT_THAT(r.err, ::testing::StartsWith(message)) << flags;
  }
}

// Every row by hand (the live ranges above): the transient column's max,
// 4096 at step 2, is the summary's peak row.
TEST(ProfileCliTest, ExactRowsOfASmallProgram) {
  Scratch s;
  const std::string csv = s.dir + "/profile.csv";
  CliRun r = Memplan("plan " + s.model + " --profile " + csv);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("activation peak: 4096 bytes live at step 2 (op %b = relu) in 2 buffers:\n"));
  EXPECT_EQ(Slurp(csv),
            "step,op,default.live_bytes,default.transient.live_bytes,"
            "default.constant.live_bytes,default.external.live_bytes,defined,freed\n"
            "0,%w = constant,5120,0,4096,1024,x;w,\n"
            "1,%a = matmul,7168,2048,4096,1024,a,x\n"
            "2,%b = relu,8192,4096,4096,0,b,a\n"
            "3,%y = add,7168,2048,4096,1024,y,w;b;y\n");
}

TEST(ProfileCliTest, PathRules) {
  Scratch s;
  CliRun to_stdout = Memplan("plan " + s.model + " --profile -");
  EXPECT_EQ(to_stdout.exit_code, 2);
  EXPECT_THAT(to_stdout.err, HasSubstr("--profile cannot write to standard output"));
  const std::string same = s.dir + "/out";
  CliRun clash = Memplan("plan " + s.model + " --json " + same + " --profile " + same);
  EXPECT_EQ(clash.exit_code, 2);
  EXPECT_THAT(clash.err, HasSubstr("--json and --profile name the same file"));
  CliRun input = Memplan("plan " + s.model + " --profile " + s.model);
  EXPECT_EQ(input.exit_code, 2);
  EXPECT_THAT(input.err, HasSubstr("output path is the input file (--profile)"));
}

// negate_chain.mpir: p0, p1 (24 B external) and seven 24-byte activations
// n0..n6, each live from its op to the next; with fast memory at alignment 1
// all activations are produced there, two at a time at most (48 B, first at
// step 1: n0 and n1), the default transient pool is empty, and p1 (read by
// the last op) is prefetched into fast memory at step 2.
TEST(FastMemoryReportCliTest, ActivationsAllInFastMemory) {
  const std::string dir = FreshDir();
  const std::string json = dir + "/plan.json", csv = dir + "/profile.csv";
  const std::string input = kData + "/mpir/negate_chain.mpir";
  CliRun r = Memplan("plan " + input + " --fast-memory 1MiB --fast-memory-alignment 1 --json " +
                     json + " --profile " + csv);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr(
      "transient  default          7            168              0              0    0.00%\n"
      "external   default          3             72             72             72    0.00%\n"
      "transient pool in default memory: empty (its 7 buffers are held in fast memory only)\n"
      "alternate memory activation peak: 48 bytes live at step 1 (op %n1 = negate) in 2 "
      "buffers (of 7 with bytes there):\n"
      "   50.00%  n0: 24 bytes\n"
      "   50.00%  n1: 24 bytes\n"
      // The external pool (p0, p1, add; no reuse) spans 72 B; at most two of
      // them are live at once (p0 and p1 at step 0).
      // Like with like: the external pool is held for the whole run.
      "default memory: 72 bytes used, max live 72 bytes at step 0 (0.00% over) with the external "
      "pool held for the whole run, as in the plan (never reused); 48 bytes at step 0 if each "
      "buffer were freed after its last use\n"
      "alternate memory: 72 bytes used of 1048576 bytes (1.00 MiB) capacity, max live 72 "
      "bytes at step 2 (0.00% over)\n"));
  EXPECT_THAT(r.out, ::testing::Not(HasSubstr("transient extent 0 bytes")));

  const nlohmann::json plan = nlohmann::json::parse(Slurp(json));
  EXPECT_EQ(plan["spaces"][0]["transient"],
            nlohmann::json::parse(R"({"peak_bytes":0,"lower_bound_bytes":0,"peak_step":null,)"
                                  R"("peak_op":null,"buffers":0})"));
  EXPECT_EQ(plan["spaces"][1]["transient"],
            nlohmann::json::parse(R"({"peak_bytes":48,"lower_bound_bytes":48,"peak_step":1,)"
                                  R"("peak_op":"%n1 = negate","buffers":7})"));
  // Everything fast memory holds peaks at step 2: n1, n2 and p1 (prefetched).
  EXPECT_EQ(plan["spaces"][1]["max_live_bytes"], 72);
  EXPECT_EQ(plan["spaces"][1]["peak_step"], 2);
  EXPECT_EQ(plan["spaces"][1]["peak_op"], "%n2 = negate");

  EXPECT_EQ(Slurp(csv),
            "step,op,default.live_bytes,default.transient.live_bytes,"
            "default.external.live_bytes,alternate.live_bytes,alternate.external.live_bytes,"
            "alternate.transient.live_bytes,defined,freed\n"
            "0,%n0 = negate,48,0,48,24,0,24,p0;p1;n0,p0\n"
            "1,%n1 = negate,24,0,24,48,0,48,n1,n0\n"
            "2,%n2 = negate,24,0,24,72,24,48,n2,n1\n"
            "3,%n3 = negate,24,0,24,72,24,48,n3,n2\n"
            "4,%n4 = negate,24,0,24,72,24,48,n4,n3\n"
            "5,%n5 = negate,24,0,24,72,24,48,n5,n4\n"
            "6,%n6 = negate,24,0,24,72,24,48,n6,n5\n"
            "7,%add = add,48,0,48,48,24,24,add,p1;n6;add\n");
  fs::remove_all(dir);
}

// With fast memory the aliasing line compares two plans without it: its
// "with them" figure is the transient extent of the same model planned without
// fast memory (MobileNetV2: 6021120 bytes, docs/models.md).
TEST(FastMemoryReportCliTest, AliasingComparesLikeWithLike) {
  const std::string model = MEMPLAN_SOURCE_DIR "/examples/mobilenet_v2.onnx";
  CliRun plain = Memplan("plan " + model);
  ASSERT_EQ(plain.exit_code, 0) << plain.err;
  EXPECT_THAT(plain.out, HasSubstr("transient extent 6021120 bytes (5.74 MiB)"));
  CliRun fast = Memplan("plan " + model + " --fast-memory 16MiB");
  ASSERT_EQ(fast.exit_code, 0) << fast.err;
  EXPECT_THAT(fast.out,
              HasSubstr("aliasing (both planned without fast memory): transient extent 9633792 "
                        "bytes (9.19 MiB) without views and in-place reuse, 6021120 bytes (5.74 "
                        "MiB) with them (saves 3.45 MiB)\n"));
  EXPECT_THAT(fast.out, HasSubstr("transient pool in default memory: empty (its 53 buffers are "
                                  "held in fast memory only)\n"));
  // All activations are in fast memory, so their peak there is the plain
  // plan's bound, at the same step, in the same two buffers.
  EXPECT_THAT(fast.out, HasSubstr("alternate memory activation peak: 6021120 bytes live at step 7 "
                                  "(op %/features/features.2/conv/conv.1/conv.1.0/Conv_output_0 = "
                                  "onnx.Conv) in 2 buffers (of 53 with bytes there):\n"));
}

// examples/rnn_loop.mpir with 64 KiB of fast memory: three 16 KiB weights
// (wi, wx, wh) and the input x are prefetched below and among the
// activations, so the highest activation byte (xp at 53248 + 4096 = 57344)
// is far above the activations' peak (h0, a, b, c: 4 x 4 KiB at step 6).
// The summary judges the packing on the space as a whole: at step 0 x, wi,
// wx, wh and xp are live together, 4096 + 3 x 16384 + 4096 = 57344 bytes,
// exactly the bytes used: 0% over (not the 250% an activations-only
// "extent" would read). The default line counts the pool's buffers that
// have bytes there (only `more`, 1 B), as the JSON does.
TEST(FastMemoryReportCliTest, WeightsBelowTheActivationsAreNotPackingWaste) {
  const std::string dir = FreshDir();
  const std::string json = dir + "/plan.json";
  CliRun r = Memplan("plan " MEMPLAN_SOURCE_DIR "/examples/rnn_loop.mpir --fast-memory 64KiB --json " +
                     json);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr(
      "transient  default          7          24577              1              1    0.00%\n"));
  EXPECT_THAT(r.out, HasSubstr(
      "transient extent 1 byte, lower bound 1 byte (0.00% over); 1 of the pool's 7 "
      "buffers has bytes in default memory\n"
      "default memory activation peak: 1 byte live at step 3 (op %more = compare) in 1 buffer "
      "(of 1 with bytes there):\n"
      "  100.00%  more: 1 byte\n"
      "alternate memory activation peak: 16384 bytes live at step 6 (op %c = add) in 4 buffers "
      "(of 6 with bytes there):\n"));
  EXPECT_THAT(r.out, HasSubstr(
      "alternate memory: 57344 bytes (56.00 KiB) used of 65536 bytes (64.00 KiB) capacity, max "
      "live 57344 bytes (56.00 KiB) at step 0 (0.00% over)\n"));
  EXPECT_THAT(r.out, ::testing::Not(HasSubstr("250.00%")));
  const nlohmann::json plan = nlohmann::json::parse(Slurp(json));
  EXPECT_EQ(plan["pools"][0]["name"], "transient");
  EXPECT_EQ(plan["pools"][0]["buffers"], 7);
  EXPECT_EQ(plan["spaces"][0]["transient"]["buffers"], 1);
  EXPECT_EQ(plan["spaces"][1]["transient"]["buffers"], 6);
  EXPECT_EQ(plan["spaces"][1]["transient"]["peak_bytes"], 57344);
  EXPECT_EQ(plan["spaces"][1]["transient"]["lower_bound_bytes"], 16384);
  fs::remove_all(dir);
}

}  // namespace
}  // namespace memplan
