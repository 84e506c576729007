// Block prefetching on the command line (docs/msa.md, "Block prefetching"):
// the flag, the block and its copies in the JSON plan and the summary,
// `memplan verify` and `memplan execute` of such a plan, a plan whose block
// breaks the rules refused, default mode keeping the block only when
// faster, and the refusals.
#include <fstream>
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

const std::string kThreeWeights = MEMPLAN_SOURCE_DIR "/tests/data/mpir/three_weights.mpir";
const std::string kPlan = "plan " + kThreeWeights + " --target " MEMPLAN_SOURCE_DIR
                          "/tests/data/msa/two_weights_target.json --picker instruction-count ";

TEST(BlockPrefetchCliTest, BlockAndItsCopiesInTheJsonPlanAndTheSummary) {
  const std::string json = TestTempPath("block_prefetch_cli.json");
  CliRun r = Memplan(kPlan + "--msa-mode reference --block-prefetch 64 --json " + json);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("async copies: 3 prefetches (96 B), 0 evictions (0 B), at most 2 "
                               "outstanding\n"
                               "block prefetching: block of 64 B at offset 32, 3 block prefetches\n"
                               "estimated time: 3.36e-09 s"));
  const std::string plan = Slurp(json);
  // Only the constants w1, w2, w3 are weights (the input x, buffer 0, is
  // not). FIFO by first read: w1 and w2 before the first op into [32, 64)
  // and [64, 96), then w3 after op 2, once w1's slot is free.
  EXPECT_THAT(plan, HasSubstr(
      "\"async_copies\": [\n"
      "    {\"buffer\":1,\"kind\":\"prefetch\",\"from_space\":0,\"to_space\":1,\"start\":-1,"
      "\"done\":1,\"bytes\":32,\"block\":true},\n"
      "    {\"buffer\":2,\"kind\":\"prefetch\",\"from_space\":0,\"to_space\":1,\"start\":-1,"
      "\"done\":3,\"bytes\":32,\"block\":true},\n"
      "    {\"buffer\":3,\"kind\":\"prefetch\",\"from_space\":0,\"to_space\":1,\"start\":2,"
      "\"done\":5,\"bytes\":32,\"block\":true}\n"
      "  ],"));
  EXPECT_THAT(plan, HasSubstr("\"block_prefetch\":{\"offset\":32,\"size\":64,\"prefetches\":3}"));
  EXPECT_THAT(plan, HasSubstr("\"block_prefetch_bytes\":64"));
  CliRun verify = Memplan("verify " + kThreeWeights + " " + json);
  EXPECT_EQ(verify.exit_code, 0) << verify.err;
  CliRun execute = Memplan("execute " + kThreeWeights + " " + json);
  EXPECT_EQ(execute.exit_code, 0) << execute.err;
  EXPECT_THAT(execute.out, HasSubstr("every read found its producer's data"));
}

void WriteFile(const std::string& path, const std::string& text) { std::ofstream(path) << text; }

// Replaces the first `from` in `text` by `to`.
std::string Replace(std::string text, const std::string& from, const std::string& to) {
  const std::size_t at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  if (at != std::string::npos) text.replace(at, from.size(), to);
  return text;
}

TEST(BlockPrefetchCliTest, VerifierChecksTheBlock) {
  const std::string json = TestTempPath("block_prefetch_cli_rules.json");
  CliRun r = Memplan(kPlan + "--msa-mode reference --block-prefetch 64 -q --json " + json);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string plan = Slurp(json);
  const std::string bad = TestTempPath("block_prefetch_cli_bad.json");
  // A block that no longer holds w2's slot [64, 96).
  WriteFile(bad, Replace(plan, "\"block_prefetch\":{\"offset\":32,\"size\":64",
                         "\"block_prefetch\":{\"offset\":32,\"size\":48"));
  CliRun v = Memplan("verify " + kThreeWeights + " " + bad);
  EXPECT_NE(v.exit_code, 0);
  EXPECT_THAT(v.err, HasSubstr("outside the prefetch block [32, 80)"));
  // w2's copy (start -1) issued before w1's (moved to start 0), though w1's
  // is done first: not FIFO (w1's segment still begins at step 0).
  WriteFile(bad, Replace(plan,
                         "\"start\":-1,\"done\":1,\"bytes\":32,\"block\":true",
                         "\"start\":0,\"done\":1,\"bytes\":32,\"block\":true"));
  v = Memplan("verify " + kThreeWeights + " " + bad);
  EXPECT_NE(v.exit_code, 0);
  EXPECT_THAT(v.err, HasSubstr("FIFO order"));
  // A block prefetch in a plan without a block.
  WriteFile(bad, Replace(plan, ",\"block_prefetch\":{\"offset\":32,\"size\":64,\"prefetches\":3}", ""));
  v = Memplan("verify " + kThreeWeights + " " + bad);
  EXPECT_NE(v.exit_code, 0);
  EXPECT_THAT(v.err, HasSubstr("block prefetches but no block"));
}

TEST(BlockPrefetchCliTest, DefaultModeKeepsTheBlockOnlyWhenFaster) {
  CliRun on = Memplan(kPlan + "--block-prefetch 64");
  ASSERT_EQ(on.exit_code, 0) << on.err;
  // The three block copies finish behind op 0, which reads x from default
  // memory (0.88 ns), and behind ops 3-4 (w3's): no op waits for a copy,
  // 3.36 ns against 6.24 ns without the block.
  EXPECT_THAT(on.out, HasSubstr("(default mode, variant reference-block-64)"));
  EXPECT_THAT(on.out, HasSubstr("estimated time: 3.36e-09 s"));
  CliRun off = Memplan(kPlan + "--window-prefetch 0");
  ASSERT_EQ(off.exit_code, 0) << off.err;
  EXPECT_THAT(off.out, HasSubstr("estimated time: 6.24e-09 s"));
  // Without the block, default mode's automatic window (12 bytes, fast
  // memory / 8) gains less than the block: 5.28 ns.
  CliRun windowed = Memplan(kPlan);
  ASSERT_EQ(windowed.exit_code, 0) << windowed.err;
  EXPECT_THAT(windowed.out, HasSubstr("(default mode, variant reference+window-12)"));
  EXPECT_THAT(windowed.out, HasSubstr("estimated time: 5.28e-09 s"));
  EXPECT_THAT(off.out, Not(HasSubstr("block prefetching")));
  // With 128 bytes and copies at 1e10 B/s the queued copies cost more than
  // they save (10.8 ns with the block, tests/msa/scenario_block_prefetch_test.cc):
  // default mode says so and keeps its plan without the block.
  CliRun slow = Memplan("plan " + kThreeWeights + " --fast-memory 128 --target " MEMPLAN_SOURCE_DIR
                        "/tests/data/msa/three_weights_target.json --picker instruction-count "
                        "--block-prefetch 64");
  ASSERT_EQ(slow.exit_code, 0) << slow.err;
  EXPECT_THAT(slow.out, HasSubstr("block prefetching: not chosen (no variant with the block was "
                                  "faster)\n"));
  EXPECT_THAT(slow.out, HasSubstr("estimated time: 7.6e-09 s"));
}

// Default mode's automatic block (no --block-prefetch): fast memory / 32.
// tests/data/mpir/mlp_scratch.mpir on 1 KiB of fast memory (1e10 B/s
// default memory and copies, 1e11 B/s fast memory; every op memory-bound,
// its time its operand and result bytes over their memories' bandwidths,
// the scratch not counted). Without a block the main pass gives h2's 1 KiB
// scratch the whole fast memory at step 3, and only b1's read comes from
// fast memory: 2032 B / 1e10 - 32 B x (1/1e10 - 1/1e11) = 200.32 ns. The
// block of 1024 / 32 = 32 B at offset 992 takes b1 (32 B, read at 1) before
// the first op and b2 (16 B, read at 4) in b1's bytes once b1's last read
// is past (issued after op 2), in FIFO order; below it, 992 B no longer
// hold the scratch, so the main pass prefetches w2 and cross-program
// prefetches w1, and every op but the reads of x and the write of y runs
// from fast memory: 32 + 2.88 + 2.56 + 3.2 + 1.44 + 7.04 = 49.12 ns.
TEST(BlockPrefetchCliTest, DefaultModeTriesABlockOfFastMemoryOver32) {
  const std::string plan = "plan " MEMPLAN_SOURCE_DIR "/tests/data/mpir/mlp_scratch.mpir --target "
                           MEMPLAN_SOURCE_DIR "/tests/data/msa/mlp_scratch_target.json ";
  const std::string json = TestTempPath("block_prefetch_cli_auto.json");
  CliRun on = Memplan(plan + "--json " + json);
  ASSERT_EQ(on.exit_code, 0) << on.err;
  EXPECT_THAT(on.out, HasSubstr("(default mode, variant copy-bandwidth-0.15-block-32)\n"
                                "async copies: 4 prefetches (688 B), 0 evictions (0 B), at most 3 "
                                "outstanding\n"
                                "block prefetching: block of 32 B at offset 992, 2 block prefetches "
                                "(fast memory / 32) kept by default mode's automatic try "
                                "(--block-prefetch 0: none)\n"
                                "estimated time: 4.912e-08 s"));
  const std::string kept = Slurp(json);
  EXPECT_THAT(kept, HasSubstr(
      "\"async_copies\": [\n"
      "    {\"buffer\":2,\"kind\":\"prefetch\",\"from_space\":0,\"to_space\":1,\"start\":-1,"
      "\"done\":1,\"bytes\":32,\"block\":true},\n"
      "    {\"buffer\":3,\"kind\":\"prefetch\",\"from_space\":0,\"to_space\":1,\"start\":-1,"
      "\"done\":3,\"bytes\":128},\n"
      "    {\"buffer\":1,\"kind\":\"prefetch\",\"from_space\":0,\"to_space\":1,\"start\":0,"
      "\"done\":0,\"bytes\":512},\n"
      "    {\"buffer\":4,\"kind\":\"prefetch\",\"from_space\":0,\"to_space\":1,\"start\":2,"
      "\"done\":4,\"bytes\":16,\"block\":true}\n"
      "  ],"));
  EXPECT_THAT(kept, HasSubstr("\"block_prefetch\":{\"offset\":992,\"size\":32,\"prefetches\":2}"));
  // The automatic try is no option given: msa.options does not name it.
  EXPECT_THAT(kept, Not(HasSubstr("\"block_prefetch_bytes\"")));
  CliRun verify = Memplan("verify " MEMPLAN_SOURCE_DIR "/tests/data/mpir/mlp_scratch.mpir " + json);
  EXPECT_EQ(verify.exit_code, 0) << verify.err;
  // --block-prefetch 0 turns it off, and msa.options records that.
  CliRun off = Memplan(plan + "--block-prefetch 0 --json " + json);
  ASSERT_EQ(off.exit_code, 0) << off.err;
  EXPECT_THAT(off.out, HasSubstr("(default mode, variant copy-bandwidth-0.15-no-cross-program-prefetch)\n"
                                 "async copies: 1 prefetch (32 B), 0 evictions (0 B), at most 1 "
                                 "outstanding\n"
                                 "estimated time: 2.0032e-07 s"));
  EXPECT_THAT(Slurp(json), HasSubstr("\"block_prefetch_bytes\":0"));
  // Reference mode never tries it.
  CliRun reference = Memplan(plan + "--msa-mode reference");
  ASSERT_EQ(reference.exit_code, 0) << reference.err;
  EXPECT_THAT(reference.out, Not(HasSubstr("block prefetching")));
}

TEST(BlockPrefetchCliTest, ReferenceModeWithoutTheFlagIsUnchanged) {
  const std::string json = TestTempPath("block_prefetch_cli_off.json");
  CliRun r = Memplan(kPlan + "--msa-mode reference -q --json " + json);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string plan = Slurp(json);
  EXPECT_THAT(plan, Not(HasSubstr("\"block")));
  EXPECT_THAT(plan, HasSubstr("\"estimated_time_s\":6.240000000000001e-09"));
}

// mlp.hlo's weights are entry parameters (model inputs to block
// prefetching): no weight goes in the block, so none is reserved, the plan
// is reference mode's without the flag, and the summary says why.
TEST(BlockPrefetchCliTest, ABlockNoWeightGoesInIsNotReserved) {
  const std::string hlo = MEMPLAN_SOURCE_DIR "/examples/hlo/mlp.hlo";
  const std::string with_json = TestTempPath("block_prefetch_cli_empty.json");
  const std::string without_json = TestTempPath("block_prefetch_cli_empty_off.json");
  CliRun with = Memplan("plan " + hlo + " --fast-memory 1MiB --msa-mode reference " +
                        "--block-prefetch 128KiB --json " + with_json);
  ASSERT_EQ(with.exit_code, 0) << with.err;
  EXPECT_THAT(with.out,
              HasSubstr("block prefetching: no block reserved (no weight to prefetch: it takes "
                        "constants that ops only read in the entry computation; entry "
                        "parameters, such as an HLO module's, are model inputs to it)\n"));
  CliRun without = Memplan("plan " + hlo + " --fast-memory 1MiB --msa-mode reference -q " +
                           "--json " + without_json);
  ASSERT_EQ(without.exit_code, 0) << without.err;
  const std::string plan = Slurp(with_json);
  EXPECT_THAT(plan, Not(HasSubstr("\"block\":{")));
  EXPECT_THAT(plan, HasSubstr("\"estimated_time_s\":0.000355789"));
  EXPECT_THAT(Slurp(without_json), HasSubstr("\"estimated_time_s\":0.000355789"));
}

TEST(BlockPrefetchCliTest, BadUses) {
  CliRun r = Memplan("plan " + kThreeWeights + " --block-prefetch 64");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err,
            "memplan: error: --block-prefetch applies only when fast memory is planned "
            "(--fast-memory or --target)\n");
  r = Memplan(kPlan + "--block-prefetch 6q");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("--block-prefetch: invalid byte size '6q'"));
  // The block's copies are planned before the main pass, outside its copy
  // limits: the two are not combined (default mode's automatic try is then
  // not made either).
  for (const char* limit : {"--max-outstanding-prefetches 1", "--fifo-prefetches"}) {
    r = Memplan(kPlan + "--block-prefetch 64 " + limit);
    EXPECT_EQ(r.exit_code, 2) << limit;
    EXPECT_THAT(r.err, HasSubstr("block prefetching does not honour a limit on outstanding "
                                 "prefetches or FIFO prefetches yet"))
        << limit;
  }
}

}  // namespace
}  // namespace memplan
