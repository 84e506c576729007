// The fast-memory flags of `memplan plan` and the `targets` verb, run through
// the memplan binary.
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "cli_runner.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "ir/text_parser.h"
#include "nlohmann/json.hpp"
#include "tests/test_data.h"

namespace memplan {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;

using testing_cli::CliRun;
using testing_cli::Memplan;
using testing_cli::Slurp;

using testing_cli::kMlp;

TEST(MsaCliTest, TargetsListsOnePresetPerLineNameFirst) {
  CliRun r = Memplan("targets");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::istringstream lines(r.out);
  std::string line;
  std::vector<std::string> names;
  while (std::getline(lines, line)) names.push_back(line.substr(0, line.find(':')));
  EXPECT_EQ(names, (std::vector<std::string>{"edge-npu", "mobile-gpu", "tpu-like",
                                             "mcu-tcm-sram-psram-flash", "npu-3level"}));
  EXPECT_THAT(r.out, StartsWith("edge-npu: 1 Tflop/s, 25 Gtranscendentals/s, default 8 GB/s, "
                                "alternate 64 GB/s, copy 8 GB/s, fast memory 2.00 MiB, "
                                "alignment 64 ("));
}

TEST(MsaCliTest, PlanWithFastMemoryPrintsTheMsaSummary) {
  CliRun r = Memplan("plan " + kMlp + " --fast-memory 256KiB --max-outstanding-prefetches 1");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("fast memory: 256.00 KiB on target edge-npu (default mode"));
  EXPECT_THAT(r.out, HasSubstr("alternate memory: "));
  EXPECT_THAT(r.out, HasSubstr("async copies: "));
  EXPECT_THAT(r.out, HasSubstr("captured speed-up "));
  EXPECT_THAT(r.out, HasSubstr("plan verified"));
}

// The time bound (msa/time_bound.h) on the bundled MobileNetV2: on the
// summary's estimated-time line and in the JSON beside the estimated time.
TEST(MsaCliTest, PlanReportsTheTimeBound) {
  const std::string json = TestTempPath("mobilenet.bound.json");
  CliRun r = Memplan("plan " MEMPLAN_SOURCE_DIR "/examples/mobilenet_v2.onnx --fast-memory 1MiB "
                     "--json " + json);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, ::testing::ContainsRegex(
                         "estimated time: [0-9.e-]+ s, bound [0-9.e-]+ s, [0-9]+\\.[0-9]% from "
                         "the bound \\(all default memory [0-9.e-]+ s, all fast memory "
                         "[0-9.e-]+ s\\); captured speed-up "));
  const std::string text = Slurp(json);
  EXPECT_THAT(text, ::testing::ContainsRegex("\"estimated_time_s\":[0-9.e-]+,\"time_bound_s\":"));
  const nlohmann::json doc = nlohmann::json::parse(text);
  const double bound = doc["msa"]["time_bound_s"];
  EXPECT_GE(bound, doc["msa"]["time_all_fast_s"].get<double>());
  EXPECT_LE(bound, doc["msa"]["estimated_time_s"].get<double>());
  const CliRun verify = Memplan("verify " MEMPLAN_SOURCE_DIR "/examples/mobilenet_v2.onnx " + json);
  EXPECT_EQ(verify.exit_code, 0) << verify.err;
}

TEST(MsaCliTest, TargetAloneUsesItsFastMemoryAndEmitIrRoundTrips) {
  const std::string ir = TestTempPath("mlp.rewritten.mpir");
  const std::string json = TestTempPath("mlp.msa.json");
  CliRun r = Memplan("plan " + kMlp + " --target tpu-like --msa-mode reference --picker "
                  "instruction-count --emit-ir " + ir + " --json " + json);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("fast memory: 16.00 MiB on target tpu-like (reference mode"));
  const std::string text = Slurp(ir);
  EXPECT_THAT(text, HasSubstr("copy-start("));
  absl::StatusOr<Program> back = ParseProgram(text, ir);
  EXPECT_TRUE(back.ok()) << back.status();
  EXPECT_THAT(Slurp(json), HasSubstr("\"msa\": {\"target\":\"tpu-like\",\"mode\":\"reference\",\"variant\":\"reference\",\"options\":{\"picker\":\"instruction-count\","));
  // The saved plan verifies. Every activation is in fast memory, so verify
  // names the bytes used in alternate memory too (the plan's spaces[1].peak_bytes).
  CliRun v = Memplan("verify " + kMlp + " " + json);
  EXPECT_EQ(v.exit_code, 0) << v.err;
  EXPECT_THAT(v.out, HasSubstr("transient extent 0 bytes, lower bound 0 bytes, alternate memory "
                               "used 912936 bytes\n"));
}

TEST(MsaCliTest, BadFastMemoryFlags) {
  CliRun r = Memplan("plan " + kMlp + " --fast-memory 1MiB --picker greedy");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, "memplan: error: --picker expects cost or instruction-count, got 'greedy'\n");
  r = Memplan("plan " + kMlp + " --fast-memory 1MiB --msa-mode best");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, "memplan: error: --msa-mode expects default or reference, got 'best'\n");
  r = Memplan("plan " + kMlp + " --fast-memory lots");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, StartsWith("memplan: error: --fast-memory: invalid byte size 'lots'"));
  r = Memplan("plan " + kMlp + " --target gpu9000");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, StartsWith("memplan: error: unknown target 'gpu9000'"));
  r = Memplan("plan " + kMlp + " --fast-memory 1MiB --max-outstanding-prefetches -2");
  EXPECT_EQ(r.exit_code, 2);
  r = Memplan("plan " + kMlp + " --emit-ir " + TestTempPath("x.mpir"));
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("--emit-ir"));
}

TEST(MsaCliTest, SameInputSameBytes) {
  const std::string a = TestTempPath("det_a.json");
  const std::string b = TestTempPath("det_b.json");
  ASSERT_EQ(Memplan("plan " + kMlp + " --fast-memory 128KiB -q --json " + a).exit_code, 0);
  ASSERT_EQ(Memplan("plan " + kMlp + " --fast-memory 128KiB -q --json " + b).exit_code, 0);
  EXPECT_EQ(Slurp(a), Slurp(b));
}

// A hierarchy plan slower than all in its slowest writable level, which
// does not fit (flash has no route to tcm: w is read in flash in place;
// tests/driver/staged_copy_test.cc has the numbers), is
// verified, and `memplan verify` accepts it through the JSON's
// time_all_default_fits; it exited 1 with "the plan failed verification".
TEST(MsaCliTest, PlanSlowerThanABaselineThatDoesNotFitExitsZero) {
  const std::string target = TestTempPath("baseline_does_not_fit.json");
  const std::string program = TestTempPath("baseline_does_not_fit.mpir");
  const std::string json = TestTempPath("baseline_does_not_fit.plan.json");
  testing_cli::WriteText(target, R"({"name": "staged", "flops_per_second": 1e8,
 "transcendentals_per_second": 1e7, "spaces": [
  {"name": "tcm", "capacity_bytes": 4096, "alignment": 16, "read_bandwidth": 4e9, "write_bandwidth": 4e9},
  {"name": "sram", "capacity_bytes": 5632, "alignment": 16, "read_bandwidth": 1e9, "write_bandwidth": 1e9},
  {"name": "flash", "kind": "flash", "capacity_bytes": 65536, "alignment": 16, "read_bandwidth": 1e8, "write_bandwidth": 1e8}],
 "links": [{"from": "sram", "to": "tcm", "bandwidth": 1e9},
  {"from": "tcm", "to": "sram", "bandwidth": 1e9}]})");
  testing_cli::WriteText(program, R"(program @staged
entry func @main(%x: i8[1024] external, %w: i8[2048] constant) {
  %a = exp(%x) : i8[1024] {flops = 20000}
  %b = conv(%a, %w) : i8[1024] {flops = 100}
  %d = relu(%b) : i8[4096] {flops = 20000}
  %c = reduce(%d) : i8[512] external {flops = 20000}
  return %c
}
)");
  CliRun r = Memplan("plan " + program + " --target " + target + " --json " + json);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err, "");
  EXPECT_THAT(r.out, HasSubstr("; plan verified\n"));
  EXPECT_THAT(r.out, HasSubstr("estimated time: 0.00062176 s, bound 0.000601024 s, 3.5% from the "
                               "bound (all default memory 0.000604096 s, which does not fit, all "
                               "fast memory 0.000601024 s); captured speed-up n/a\n"));
  EXPECT_THAT(r.out, HasSubstr("; all in the slowest writable space 0.000604096 s, which does not "
                               "fit (its layout exceeds the capacity of space 'sram'): no bound "
                               "on the plan's time\n"));
  r = Memplan("verify " + program + " " + json);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr(": plan verified: 6 buffers"));
  // Without the flag the upper bound applies, and the plan is above it.
  std::string text = Slurp(json);
  const std::string flag = R"("time_all_default_fits":false,)";
  ASSERT_NE(text.find(flag), std::string::npos);
  text.erase(text.find(flag), flag.size());
  const std::string tampered = TestTempPath("baseline_does_not_fit.tampered.json");
  testing_cli::WriteText(tampered, text);
  r = Memplan("verify " + program + " " + tampered);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err, tampered + ": error: verification failed: the MSA statistics report "
                              "estimated_time_s = 0.00062176 s, above time_all_default_s = "
                              "0.000604096 s (every buffer in default memory; a plan is never "
                              "slower)\n");
}

// memplan verify computes whether all in the slowest writable level fits
// again rather than trust the plan: examples/mlp.mpir's buffers fit the
// npu-3level DRAM, so a plan saying they do not (which would lift the
// upper bound on its time) fails verification.
TEST(MsaCliTest, VerifyRecomputesWhetherTheBaselineFits) {
  const std::string json = TestTempPath("baseline_fits.plan.json");
  CliRun r = Memplan("plan " + kMlp + " --target npu-3level -q --json " + json);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::string text = Slurp(json);
  ASSERT_EQ(text.find("time_all_default_fits"), std::string::npos);
  const std::string key = R"("time_all_default_s":)";
  ASSERT_NE(text.find(key), std::string::npos);
  text.insert(text.find(key), R"("time_all_default_fits":false,)");
  const std::string tampered = TestTempPath("baseline_fits.tampered.json");
  testing_cli::WriteText(tampered, text);
  r = Memplan("verify " + kMlp + " " + tampered);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err, tampered + ": error: verification failed: the MSA statistics report "
                              "time_all_default_fits = false, but every buffer in the slowest "
                              "writable space 'dram' fits it (so a plan is never slower than "
                              "time_all_default_s)\n");
  r = Memplan("verify " + kMlp + " " + json);
  EXPECT_EQ(r.exit_code, 0) << r.err;
}

}  // namespace
}  // namespace memplan
