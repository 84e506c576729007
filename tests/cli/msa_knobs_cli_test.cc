// The reference's memory space assignment knobs on the command line: picker
// limits and ratios, fast-memory alignment, cross-program-prefetch freeing,
// --assign-first, --pin and --inefficient-ratio; their record in the JSON
// plan; and the end-of-program refill as a real copy in every output.
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

using testing_cli::kMlp;

void ExpectKnobError(const std::string& args, const std::string& message) {
  CliRun r = Memplan(args);
  EXPECT_EQ(r.exit_code, 2) << args;
  EXPECT_EQ(r.err, message + "\n") << args;
}

TEST(MsaKnobsCliTest, BadValuesAreUsageErrors) {
  const std::string plan = "plan " + kMlp + " --fast-memory 1MiB ";
  ExpectKnobError(plan + "--min-overlap-ratio 0",
                   "memplan: error: --min-overlap-ratio expects a number > 0, got '0'");
  ExpectKnobError(plan + "--max-overlap-ratio lots",
                   "memplan: error: --max-overlap-ratio expects a number > 0, got 'lots'");
  ExpectKnobError(plan + "--min-overlap-ratio 2 --preferred-overlap-ratio 1",
                   "memplan: error: the overlap ratios must satisfy min <= preferred <= max, got "
                   "2 / 1 / 10");
  ExpectKnobError(plan + "--min-overlap-ops 3",
                   "memplan: error: --min-overlap-ops applies only with --picker "
                   "instruction-count");
  ExpectKnobError(plan + "--picker instruction-count --preferred-overlap-ratio 2",
                   "memplan: error: --preferred-overlap-ratio applies only with --picker cost");
  ExpectKnobError(plan + "--picker instruction-count --min-overlap-ops 5 --max-overlap-ops 4",
                   "memplan: error: --min-overlap-ops 5 is above --max-overlap-ops 4");
  ExpectKnobError(plan + "--fast-memory-alignment 0",
                   "memplan: error: --fast-memory-alignment 0 is outside the supported range 1 "
                   "to 2^32 (4294967296)");
  ExpectKnobError(plan + "--inefficient-ratio -0.5",
                   "memplan: error: --inefficient-ratio expects a number >= 0, got '-0.5'");
  ExpectKnobError(plan + "--pin h1",
                   "memplan: error: --pin expects VALUE=default|alternate or "
                   "VALUE@OP=default|alternate, got 'h1'");
  ExpectKnobError(plan + "--pin h1=fast",
                   "memplan: error: --pin expects VALUE=default|alternate or "
                   "VALUE@OP=default|alternate, got 'h1=fast'");
  ExpectKnobError(plan + "--pin nothing=default",
                   "memplan: error: --pin nothing=default: the program has no value %nothing");
  ExpectKnobError(plan + "--assign-first '('",
                   "memplan: error: --assign-first '(' is not a valid regular expression "
                   "(Mismatched '(' and ')' in regular expression)");
  for (const char* knob : {"--min-overlap-ops 1", "--min-overlap-ratio 1",
                           "--fast-memory-alignment 8", "--no-cross-program-prefetch-freeing",
                           "--assign-first x", "--pin x=default", "--inefficient-ratio 1"}) {
    const std::string flag = std::string(knob).substr(0, std::string(knob).find(' '));
    ExpectKnobError("plan " + kMlp + " " + knob,
                     "memplan: error: " + flag +
                         " applies only when fast memory is planned (--fast-memory or --target)");
  }
}

TEST(MsaKnobsCliTest, KnobsAreRecordedInTheJsonPlan) {
  const std::string json = TestTempPath("knobs.json");
  CliRun r = Memplan("plan " + kMlp + " --fast-memory 256KiB --msa-mode reference --picker "
                     "instruction-count --min-overlap-ops 1 --max-overlap-ops 6 "
                     "--fast-memory-alignment 16 --max-repacks 0 --assign-first 'h.*' "
                     "--inefficient-ratio 0.25 --no-cross-program-prefetch-freeing "
                     "--max-outstanding-prefetches 2 -q --json " + json);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(Slurp(json),
              HasSubstr("\"variant\":\"reference\",\"options\":{\"picker\":\"instruction-count\","
                        "\"min_overlap_ops\":1,\"max_overlap_ops\":6,\"min_overlap_ratio\":0.8,"
                        "\"preferred_overlap_ratio\":1.5,\"max_overlap_ratio\":10.0,"
                        "\"max_outstanding_prefetches\":2,\"max_outstanding_evictions\":null,"
                        "\"fifo_prefetches\":false,\"max_repacks\":0,"
                        "\"cross_program_prefetch\":true,\"cross_program_prefetch_freeing\":false,"
                        "\"fast_memory_alignment\":16,\"fast_memory_override\":262144,"
                        "\"fast_memory_alignment_override\":16,\"assign_first\":\"h.*\",\"pins\":[],"
                        "\"inefficient_ratio\":0.25,\"while_trip_count\":5},"
                        "\"estimated_time_s\":"));
  CliRun v = Memplan("verify " + kMlp + " " + json);
  EXPECT_EQ(v.exit_code, 0) << v.err;
}

// A weight read once at step 0 of a 20-step chain: with freeing, its
// end-of-program refill is a copy after step 10 in the JSON plan, the
// statistics and the rewritten IR, and the saved plan verifies; without
// freeing there is no such copy.
TEST(MsaKnobsCliTest, EndOfProgramRefillIsARealCopy) {
    const std::string input = std::string(MEMPLAN_SOURCE_DIR) + "/tests/data/mpir/freed_weight.mpir";
  const std::string flags = " --fast-memory 128 --fast-memory-alignment 8 --msa-mode reference "
                            "--picker instruction-count -q";
  const std::string json = TestTempPath("freed_weight.json");
  const std::string ir = TestTempPath("freed_weight.rewritten.mpir");
  CliRun r = Memplan("plan " + input + flags + " --json " + json + " --emit-ir " + ir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string plan = Slurp(json);
  EXPECT_THAT(plan, HasSubstr("{\"buffer\":1,\"kind\":\"prefetch\",\"from_space\":0,"
                              "\"to_space\":1,\"start\":10,\"done\":19,\"bytes\":64}"));
  EXPECT_THAT(plan, HasSubstr("{\"space\":1,\"offset\":0,\"start\":10,\"end\":19}"));
  const std::string text = Slurp(ir);
  EXPECT_THAT(text, HasSubstr("%w.prefetch.1 = copy-start(%w)"));
  EXPECT_EQ(Memplan("verify " + input + " " + json).exit_code, 0);

  CliRun kept = Memplan("plan " + input + flags + " --no-cross-program-prefetch-freeing --json " +
                        json);
  ASSERT_EQ(kept.exit_code, 0) << kept.err;
  EXPECT_THAT(Slurp(json), Not(HasSubstr("\"start\":10,\"done\":19")));
}

}  // namespace
}  // namespace memplan
