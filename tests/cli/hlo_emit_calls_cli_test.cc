// `memplan plan --emit-hlo` around `call`: XLA writes a copy-start and its
// copy-done in one computation, so a prefetch that arrives at a called
// computation's first step is written in the caller right before the call,
// which passes the copy in (msa/rewrite.h); a prefetch for a use deeper in
// the callee is written inside it.
#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "tests/cli/cli_runner.h"

namespace memplan {
namespace {

using testing_cli::FreshDir;
using testing_cli::Memplan;
using testing_cli::Slurp;
using testing_cli::WriteText;

// The lines of `text`.
std::vector<std::string> LinesOf(const std::string& text) {
  std::istringstream in(text);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// examples/hlo/call_remat.hlo with 16 MiB: w_in (%Arg_1.2, 16 MiB) is the
// cross-program prefetch. Its first read is %dot.5 inside %checkpoint_block
// at step 0, the callee's first step, so the copy is done in the entry right
// before %call.9; both call sites read the copy and the callee's parameter
// %w_in.3 takes its space (planned alike at both call sites: no clone).
TEST(HloEmitCallsCliTest, PrefetchIntoACalleeIsDoneBeforeTheCall) {
  const std::string dir = FreshDir();
  const testing_cli::CliRun run =
      Memplan("plan " MEMPLAN_SOURCE_DIR "/examples/hlo/call_remat.hlo --fast-memory 16MiB --json " +
              dir + "/plan.json --emit-hlo " + dir + "/out.hlo");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  // The plan shows the cross-program prefetch as a copy over [0, 0].
  const nlohmann::json plan = nlohmann::json::parse(Slurp(dir + "/plan.json"));
  const nlohmann::json& copies = plan.at("async_copies");
  ASSERT_EQ(copies.size(), 1u);
  EXPECT_EQ(plan.at("buffers").at(copies[0].at("buffer").get<std::size_t>()).at("name"), "Arg_1.2");
  EXPECT_EQ(copies[0].at("start"), 0);
  EXPECT_EQ(copies[0].at("done"), 0);
  const std::vector<std::string> lines = LinesOf(Slurp(dir + "/out.hlo"));
  ASSERT_EQ(lines.size(), 29u);
  EXPECT_EQ(lines[11], "  %w_in.3 = f32[1024,4096]{1,0:S(1)} parameter(1)");
  EXPECT_EQ(lines[19], "ENTRY %main.12 (Arg_0.1: f32[128,1024], Arg_1.2: f32[1024,4096], "
                       "Arg_2.3: f32[4096,1024]) -> f32[128,1024] {");
  EXPECT_EQ(lines[23],
            "  %Arg_1.2.prefetch = (f32[1024,4096]{1,0:S(1)}, f32[1024,4096]{1,0}, u32[]) "
            "copy-start(f32[1024,4096]{1,0} %Arg_1.2)");
  EXPECT_EQ(lines[24],
            "  %Arg_1.2.prefetched = f32[1024,4096]{1,0:S(1)} copy-done((f32[1024,4096]{1,0:S(1)}, "
            "f32[1024,4096]{1,0}, u32[]) %Arg_1.2.prefetch)");
  EXPECT_EQ(lines[25],
            "  %call.9 = f32[128,1024]{1,0} call(f32[128,1024]{1,0} %Arg_0.1, "
            "f32[1024,4096]{1,0:S(1)} %Arg_1.2.prefetched, f32[4096,1024]{1,0} %Arg_2.3), "
            "to_apply=%checkpoint_block");
  EXPECT_EQ(lines[26],
            "  %call.10 = f32[128,1024]{1,0} call(f32[128,1024]{1,0} %call.9, "
            "f32[1024,4096]{1,0:S(1)} %Arg_1.2.prefetched, f32[4096,1024]{1,0} %Arg_2.3), "
            "to_apply=%checkpoint_block");
  std::filesystem::remove_all(dir);
}

// %w is read by %add.1, the last instruction of %inner, which %outer calls,
// which the entry calls. With 1536 KiB the plan prefetches it inside %inner
// (start after %e.2, done before %add.1: steps 3 and 5): both the copy-start
// and the copy-done are written there, and the calls pass %w in default
// memory.
TEST(HloEmitCallsCliTest, UseDeepInACalleeIsPrefetchedInsideIt) {
  const std::string dir = FreshDir();
  WriteText(dir + "/deep.hlo", R"(HloModule deep_call, is_scheduled=true

%inner (a.1: f32[256,256], w.1: f32[256,256]) -> f32[256,256] {
  %a.1 = f32[256,256]{1,0} parameter(0)
  %w.1 = f32[256,256]{1,0} parameter(1)
  %e.1 = f32[256,256]{1,0} exponential(f32[256,256]{1,0} %a.1)
  %e.2 = f32[256,256]{1,0} dot(f32[256,256]{1,0} %e.1, f32[256,256]{1,0} %a.1), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  %e.3 = f32[256,256]{1,0} dot(f32[256,256]{1,0} %e.2, f32[256,256]{1,0} %a.1), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  ROOT %add.1 = f32[256,256]{1,0} add(f32[256,256]{1,0} %e.3, f32[256,256]{1,0} %w.1)
}

%outer (x.2: f32[256,256], w.2: f32[256,256]) -> f32[256,256] {
  %x.2 = f32[256,256]{1,0} parameter(0)
  %w.2 = f32[256,256]{1,0} parameter(1)
  %tanh.2 = f32[256,256]{1,0} tanh(f32[256,256]{1,0} %x.2)
  ROOT %call.2 = f32[256,256]{1,0} call(f32[256,256]{1,0} %tanh.2, f32[256,256]{1,0} %w.2), to_apply=%inner
}

ENTRY %main (x: f32[256,256], w: f32[256,256]) -> f32[256,256] {
  %x = f32[256,256]{1,0} parameter(0)
  %w = f32[256,256]{1,0} parameter(1)
  %negate = f32[256,256]{1,0} negate(f32[256,256]{1,0} %x)
  %call = f32[256,256]{1,0} call(f32[256,256]{1,0} %negate, f32[256,256]{1,0} %w), to_apply=%outer
  ROOT %tanh = f32[256,256]{1,0} tanh(f32[256,256]{1,0} %call)
}
)");
  const testing_cli::CliRun run = Memplan("plan " + dir + "/deep.hlo --fast-memory 1536KiB --json " + dir +
                                          "/plan.json --emit-hlo " + dir + "/out.hlo");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const nlohmann::json copies = nlohmann::json::parse(Slurp(dir + "/plan.json")).at("async_copies");
  ASSERT_EQ(copies.size(), 1u);
  EXPECT_EQ(copies[0].at("kind"), "prefetch");
  EXPECT_EQ(copies[0].at("start"), 3);
  EXPECT_EQ(copies[0].at("done"), 5);
  const std::vector<std::string> lines = LinesOf(Slurp(dir + "/out.hlo"));
  ASSERT_EQ(lines.size(), 27u);
  EXPECT_EQ(lines[2], "%inner (a.1: f32[256,256], w.1: f32[256,256]) -> f32[256,256] {");
  EXPECT_EQ(lines[4], "  %w.1 = f32[256,256]{1,0} parameter(1)");
  EXPECT_EQ(lines[7],
            "  %w.1.prefetch = (f32[256,256]{1,0:S(1)}, f32[256,256]{1,0}, u32[]) "
            "copy-start(f32[256,256]{1,0} %w.1)");
  EXPECT_THAT(lines[8], ::testing::StartsWith("  %e.3 = "));
  EXPECT_EQ(lines[9],
            "  %w.1.prefetched = f32[256,256]{1,0:S(1)} copy-done((f32[256,256]{1,0:S(1)}, "
            "f32[256,256]{1,0}, u32[]) %w.1.prefetch)");
  EXPECT_EQ(lines[10],
            "  ROOT %add.1 = f32[256,256]{1,0:S(1)} add(f32[256,256]{1,0:S(1)} %e.3, "
            "f32[256,256]{1,0:S(1)} %w.1.prefetched)");
  EXPECT_THAT(lines[17], ::testing::EndsWith("f32[256,256]{1,0} %w.2), to_apply=%inner"));
  EXPECT_THAT(lines[24], ::testing::EndsWith("f32[256,256]{1,0} %w), to_apply=%outer"));
  // The written module plans to the same copy.
  const testing_cli::CliRun again =
      Memplan("plan " + dir + "/out.hlo --fast-memory 1536KiB --json " + dir + "/again.json");
  ASSERT_EQ(again.exit_code, 0) << again.err;
  EXPECT_EQ(nlohmann::json::parse(Slurp(dir + "/again.json")).at("async_copies"), copies);
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace memplan
