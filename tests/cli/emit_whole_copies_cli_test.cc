// --emit-hlo and --emit-ir write whole-buffer copies only, so default mode
// plans for them without sliced and window prefetches: the summary and the
// plan JSON say so, with the estimated time the same command gives without
// the flag (driver/msa_job.h FormatRewriteSummary).
#include <filesystem>
#include <string>

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "tests/cli/cli_runner.h"

namespace memplan {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;
using testing_cli::FreshDir;
using testing_cli::Memplan;
using testing_cli::Slurp;

const std::string kMlp = MEMPLAN_SOURCE_DIR "/examples/hlo/mlp.hlo";

// examples/hlo/mlp.hlo with 256 KiB: without the flag default mode keeps a
// window prefetch (0.000351529 s); for --emit-hlo it plans whole-buffer
// copies only (0.000353097 s) and says what the window would give.
TEST(EmitWholeCopiesCliTest, SummaryAndJsonSayWhatWasSkipped) {
  const std::string dir = FreshDir();
  const testing_cli::CliRun free = Memplan("plan " + kMlp + " --fast-memory 256KiB --json " + dir + "/free.json");
  ASSERT_EQ(free.exit_code, 0) << free.err;
  EXPECT_THAT(free.out, Not(HasSubstr("whole-buffer copies only")));
  const nlohmann::json free_msa = nlohmann::json::parse(Slurp(dir + "/free.json")).at("msa");
  EXPECT_FALSE(free_msa.contains("whole_buffer_copies_only"));
  EXPECT_EQ(free_msa.at("window_prefetches"), 1);

  const testing_cli::CliRun hlo = Memplan("plan " + kMlp + " --fast-memory 256KiB --json " + dir +
                                          "/hlo.json --emit-hlo " + dir + "/out.hlo");
  ASSERT_EQ(hlo.exit_code, 0) << hlo.err;
  EXPECT_THAT(hlo.out, HasSubstr("\nestimated time: 0.000353097 s, "));
  EXPECT_THAT(hlo.out, HasSubstr("\nwhole-buffer copies only: --emit-hlo writes no sliced or window "
                                 "prefetches, so default mode tried none; without --emit-hlo: "
                                 "estimated 0.000351529 s (0.44% faster)\n"));
  const nlohmann::json msa = nlohmann::json::parse(Slurp(dir + "/hlo.json")).at("msa");
  EXPECT_FALSE(msa.contains("window_prefetches"));
  const nlohmann::json& skipped = msa.at("whole_buffer_copies_only");
  EXPECT_EQ(skipped.at("skipped"), nlohmann::json::parse(R"(["sliced_prefetch", "window_prefetch"])"));
  EXPECT_EQ(skipped.at("estimated_time_without_s"), free_msa.at("estimated_time_s"));
  std::filesystem::remove_all(dir);
}

// Only what default mode would have tried is named: with --sliced-prefetch 0
// the windows alone; the flag is the one given (--emit-ir); the same time
// reads "the same".
TEST(EmitWholeCopiesCliTest, NamesOnlyTheSkippedKindAndTheFlagGiven) {
  const std::string dir = FreshDir();
  const testing_cli::CliRun run = Memplan("plan " + kMlp + " --fast-memory 1MiB --sliced-prefetch 0 --emit-ir " +
                                          dir + "/out.mpir");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_THAT(run.out, HasSubstr("\nwhole-buffer copies only: --emit-ir writes no window prefetches, so "
                                 "default mode tried none; without --emit-ir: estimated 0.000298725 s, "
                                 "the same\n"));
  std::filesystem::remove_all(dir);
}

// Reference mode never tries sliced or window prefetches by itself, and
// --window-prefetch 0 --sliced-prefetch 0 turns both off: nothing is
// skipped, no line, no JSON field.
TEST(EmitWholeCopiesCliTest, NothingSkippedNothingSaid) {
  const std::string dir = FreshDir();
  for (const std::string flags : {"--msa-mode reference", "--window-prefetch 0 --sliced-prefetch 0"}) {
    const testing_cli::CliRun run = Memplan("plan " + kMlp + " --fast-memory 256KiB " + flags + " --json " +
                                            dir + "/plan.json --emit-hlo " + dir + "/out.hlo");
    ASSERT_EQ(run.exit_code, 0) << run.err;
    EXPECT_THAT(run.out, Not(HasSubstr("whole-buffer copies only"))) << flags;
    EXPECT_FALSE(nlohmann::json::parse(Slurp(dir + "/plan.json")).at("msa").contains("whole_buffer_copies_only"))
        << flags;
  }
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace memplan
