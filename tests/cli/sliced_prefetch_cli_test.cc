// Sliced prefetch on the command line (docs/msa.md, "Sliced prefetch"):
// the flags, the slices in the JSON plan and the summary, `memplan verify`
// and `memplan execute` of a sliced plan, default mode keeping slices only
// when faster, and the refusals.
#include <string>

#include "cli_runner.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/test_data.h"

namespace memplan {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

using testing_cli::CliRun;
using testing_cli::Memplan;
using testing_cli::Slurp;

const std::string kTwoWeights = MEMPLAN_SOURCE_DIR "/tests/data/mpir/two_weights.mpir";
const std::string kTwoWeightsPlan =
    "plan " + kTwoWeights + " --target " MEMPLAN_SOURCE_DIR
    "/tests/data/msa/two_weights_target.json --picker instruction-count "
    "--no-cross-program-prefetch --assign-first 'w.*' ";

TEST(SlicedPrefetchCliTest, SlicesAreCopiesInTheJsonPlanAndTheSummary) {
  const std::string json = TestTempPath("sliced_prefetch_cli.json");
  CliRun r = Memplan(kTwoWeightsPlan + "--msa-mode reference --sliced-prefetch 2 --json " + json);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("async copies: 3 prefetches (128 B; 2 of them slices of 1 sliced "
                               "prefetch), 0 evictions (0 B), at most 2 outstanding\n"
                               "estimated time: 6.88e-09 s"));
  const std::string plan = Slurp(json);
  // One copy a line: w1 whole, then w2's two slices (its high half first).
  EXPECT_THAT(plan, HasSubstr(
      "\"async_copies\": [\n"
      "    {\"buffer\":1,\"kind\":\"prefetch\",\"from_space\":0,\"to_space\":1,\"start\":-1,"
      "\"done\":3,\"bytes\":64},\n"
      "    {\"buffer\":2,\"kind\":\"prefetch\",\"from_space\":0,\"to_space\":1,\"start\":3,"
      "\"done\":6,\"bytes\":32,\"slice_index\":0,\"slice_count\":2,\"slice_offset\":32},\n"
      "    {\"buffer\":2,\"kind\":\"prefetch\",\"from_space\":0,\"to_space\":1,\"start\":4,"
      "\"done\":6,\"bytes\":32,\"slice_index\":1,\"slice_count\":2,\"slice_offset\":0}\n"
      "  ],"));
  EXPECT_THAT(plan, HasSubstr("\"sliced_prefetches\":1,\"prefetch_slices\":2"));
  EXPECT_THAT(plan, HasSubstr("\"sliced_prefetch\":{\"max_slices\":2,\"min_bytes\":0,\"slice_bytes\":0}"));
  // The saved plan re-verifies and runs on byte arenas.
  CliRun verify = Memplan("verify " + kTwoWeights + " " + json);
  EXPECT_EQ(verify.exit_code, 0) << verify.err;
  CliRun execute = Memplan("execute " + kTwoWeights + " " + json);
  EXPECT_EQ(execute.exit_code, 0) << execute.err;
  EXPECT_THAT(execute.out, HasSubstr("every read found its producer's data"));
}

TEST(SlicedPrefetchCliTest, DefaultModeKeepsSlicesOnlyWhenFaster) {
  CliRun sliced = Memplan(kTwoWeightsPlan + "--sliced-prefetch 2");
  ASSERT_EQ(sliced.exit_code, 0) << sliced.err;
  EXPECT_THAT(sliced.out, HasSubstr("(default mode, variant reference-sliced-2)"));
  EXPECT_THAT(sliced.out, HasSubstr("captured speed-up 79.3%"));
  // Automatic windows off, to compare slicing alone (they are below).
  CliRun off = Memplan(kTwoWeightsPlan + "--sliced-prefetch 0 --window-prefetch 0");
  ASSERT_EQ(off.exit_code, 0) << off.err;
  EXPECT_THAT(off.out, HasSubstr("(default mode, variant reference)"));
  EXPECT_THAT(off.out, HasSubstr("estimated time: 9.6e-09 s"));
  EXPECT_THAT(off.out, Not(HasSubstr("sliced prefetch")));
  // Four slices (the default) tie with the unsliced plan, which is kept.
  CliRun four = Memplan(kTwoWeightsPlan + "--window-prefetch 0");
  ASSERT_EQ(four.exit_code, 0) << four.err;
  EXPECT_THAT(four.out, HasSubstr("(default mode, variant reference)"));
  // With its automatic windows default mode does better than any sliced
  // plan: a 48-byte window (fast memory / 2) of w2, which stays in default
  // memory, on the unsliced plan: 9.6 -> 5.6 ns (the plan is verified).
  CliRun windowed = Memplan(kTwoWeightsPlan);
  ASSERT_EQ(windowed.exit_code, 0) << windowed.err;
  EXPECT_THAT(windowed.out, HasSubstr("(default mode, variant reference+window-48)"));
  EXPECT_THAT(windowed.out, HasSubstr("estimated time: 5.6e-09 s"));
}

TEST(SlicedPrefetchCliTest, ReferenceModeWithoutTheFlagWritesNoSlices) {
  const std::string json = TestTempPath("sliced_prefetch_cli_unsliced.json");
  CliRun r = Memplan(kTwoWeightsPlan + "--msa-mode reference -q --json " + json);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string plan = Slurp(json);
  EXPECT_THAT(plan, Not(HasSubstr("\"slice_")));
  EXPECT_THAT(plan, Not(HasSubstr("sliced_prefetch")));
  EXPECT_THAT(plan, HasSubstr("\"estimated_time_s\":9.6e-09"));
}

TEST(SlicedPrefetchCliTest, BadUses) {
  CliRun r = Memplan("plan " + kTwoWeights + " --sliced-prefetch 2");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err,
            "memplan: error: --sliced-prefetch applies only when fast memory is planned "
            "(--fast-memory or --target)\n");
  r = Memplan("plan " + kTwoWeights + " --fast-memory 96 --sliced-prefetch-min-bytes 2q");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("--sliced-prefetch-min-bytes: invalid byte size '2q'"));
  const std::string ir = TestTempPath("sliced_prefetch_cli.mpir");
  r = Memplan(kTwoWeightsPlan + "--sliced-prefetch 2 --emit-ir " + ir);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err,
            "memplan: error: --emit-ir and --emit-hlo do not write sliced prefetches yet; drop "
            "--sliced-prefetch (or give it 0)\n");
  // Without the flag, --emit-ir gets the plan without slices.
  r = Memplan(kTwoWeightsPlan + "-q --emit-ir " + ir);
  EXPECT_EQ(r.exit_code, 0) << r.err;
}

}  // namespace
}  // namespace memplan
