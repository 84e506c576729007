// `memplan plan/stats/verify` on HLO text modules: every bundled module in
// examples/hlo/ plans and verifies with and without fast memory; a module is
// recognised by its `HloModule` header whatever its name; bad input exits 2.
#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "tests/cli/cli_runner.h"
#include "tests/cli/hlo_examples.h"

namespace memplan {
namespace {

using ::testing::HasSubstr;
using testing_cli::FreshDir;
using testing_cli::Memplan;
using testing_cli::WriteText;

const std::string kHloDir = MEMPLAN_SOURCE_DIR "/examples/hlo";

// One test per bundled module (each runs memplan five times).
class HloExampleTest : public ::testing::TestWithParam<std::string> {};

TEST_P(HloExampleTest, PlansAndVerifiesWithAndWithoutFastMemory) {
  const std::string path = kHloDir + "/" + GetParam();
  const std::string dir = FreshDir();
  for (const std::string flags : {"", " --fast-memory 1MiB"}) {
    const std::string plan = dir + "/plan.json";
    const testing_cli::CliRun run = Memplan("plan " + path + flags + " --json " + plan);
    ASSERT_EQ(run.exit_code, 0) << flags << "\n" << run.err;
    const nlohmann::json json = nlohmann::json::parse(testing_cli::Slurp(plan));
    EXPECT_EQ(json.at("verified"), true) << flags;
    EXPECT_EQ(json.contains("msa"), !std::string(flags).empty()) << flags;
    const testing_cli::CliRun verify = Memplan("verify " + path + " " + plan + " -q");
    EXPECT_EQ(verify.exit_code, 0) << flags << "\n" << verify.err;
  }
  const testing_cli::CliRun stats = Memplan("stats " + path);
  EXPECT_EQ(stats.exit_code, 0) << stats.err;
  std::filesystem::remove_all(dir);
}

INSTANTIATE_TEST_SUITE_P(Bundled, HloExampleTest, testing_cli::BundledHloModules(),
                         testing_cli::HloModuleTestName);

TEST(HloCliTest, EveryBundledModuleIsTested) {
  std::size_t count = 0;
  for (const auto& entry : std::filesystem::directory_iterator(kHloDir)) {
    count += entry.path().extension() == ".hlo" ? 1 : 0;
  }
  EXPECT_EQ(count, 11u);
}

TEST(HloCliTest, RecognisedByItsHeaderUnderAnyName) {
  const std::string dir = FreshDir();
  std::filesystem::copy_file(kHloDir + "/mlp.hlo", dir + "/module_0001.jit_mlp.after_optimizations.txt");
  const testing_cli::CliRun run = Memplan("plan " + dir + "/module_0001.jit_mlp.after_optimizations.txt");
  EXPECT_EQ(run.exit_code, 0) << run.err;
  std::filesystem::remove_all(dir);
}

// A UTF-8 byte-order mark before `HloModule` changes neither the detection
// nor the parse, under any name.
TEST(HloCliTest, AByteOrderMarkBeforeTheHeaderIsSkipped) {
  const std::string dir = FreshDir();
  const std::string module =
      "\xEF\xBB\xBFHloModule m\nENTRY %main (a: f32[4]) -> f32[4] {\n  %a = f32[4]{0} parameter(0)\n"
      "  ROOT %n = f32[4]{0} negate(%a)\n}\n";
  WriteText(dir + "/bom.txt", module);
  WriteText(dir + "/bom.hlo", module);
  for (const char* name : {"/bom.txt", "/bom.hlo"}) {
    const testing_cli::CliRun run = Memplan(std::string("plan ") + dir + name);
    EXPECT_EQ(run.exit_code, 0) << run.err;
    EXPECT_NE(run.out.find(": 2 buffers"), std::string::npos) << run.out;
  }
  std::filesystem::remove_all(dir);
}

// Unlike CSV and text IR lines, an HLO line may pass 65536 bytes (XLA
// prints a constant's values on one line): here about 70,000 bytes.
TEST(HloCliTest, ALineLongerThan65536BytesIsAccepted) {
  const std::string dir = FreshDir();
  std::string values;
  for (int i = 0; i < 14000; ++i) values += i == 0 ? "0.5" : ", 0.5";
  const std::string constant = "  %c = f32[14000]{0} constant({" + values + "})\n";
  ASSERT_GT(constant.size(), 70000u);
  WriteText(dir + "/long.hlo", "HloModule m\nENTRY %main (a: f32[14000]) -> f32[14000] {\n  %a = f32[14000]{0} parameter(0)\n" +
                                   constant + "  ROOT %s = f32[14000]{0} add(%a, %c)\n}\n");
  const testing_cli::CliRun run = Memplan("plan " + dir + "/long.hlo");
  EXPECT_EQ(run.exit_code, 0) << run.err;
  EXPECT_NE(run.out.find(": 3 buffers"), std::string::npos) << run.out;
  std::filesystem::remove_all(dir);
}

TEST(HloCliTest, BadInputExitsTwoWithItsPlace) {
  const std::string dir = FreshDir();
  WriteText(dir + "/bad.hlo", "HloModule m\nENTRY %main {\n  %a = f32[4]{0} parameter(0)\n  ROOT %b = f32[4]{0} add(%a, %zz)\n}\n");
  const testing_cli::CliRun run = Memplan("plan " + dir + "/bad.hlo");
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_THAT(run.err, HasSubstr("bad.hlo:4:31: error: unknown operand %zz"));
  WriteText(dir + "/cut.hlo.txt", "HloModule m\nENTRY %main {\n  %a = f32[4]{0} parameter(0)\n");
  const testing_cli::CliRun cut = Memplan("stats " + dir + "/cut.hlo.txt");
  EXPECT_EQ(cut.exit_code, 2);
  EXPECT_THAT(cut.err, HasSubstr("cut.hlo.txt:4:1: error: unexpected end of input, expected '}' closing computation %main (opened at 2:13)"));
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace memplan
