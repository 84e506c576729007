// Copies between memory spaces as region commands (regions/captured_copies.h)
// on tests/data/regions/captured_copy.mpir, whose figures are worked out by
// hand in the file: the copy chosen, its place, the times; plan, verify and
// execute; forged plans that the verifier's rule 6 (captured copies) and the
// executor reject.
#include <filesystem>
#include <functional>
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
using testing_cli::WriteText;
using Json = nlohmann::ordered_json;

const std::string kScenario = MEMPLAN_SOURCE_DIR "/tests/data/regions/captured_copy.mpir";
const std::string kFastSlab = MEMPLAN_SOURCE_DIR "/tests/data/regions/fast_slab.mpir";

class RegionCopiesCliTest : public ::testing::Test {
 protected:
  void SetUp() override { dir_ = FreshDir(); }
  void TearDown() override { fs::remove_all(dir_); }

  Json Planned(const std::string& input, const std::string& flags) {
    const std::string json = dir_ + "/plan.json";
    CliRun r = Memplan("plan " + input + " " + flags + " --json " + json + " -q");
    EXPECT_EQ(r.exit_code, 0) << r.err;
    return Json::parse(Slurp(json));
  }
  // Verifies `plan` after `edit`; returns the run.
  CliRun VerifyEdited(Json plan, const std::function<void(Json&)>& edit) {
    edit(plan);
    const std::string edited = dir_ + "/edited.json";
    WriteText(edited, plan.dump());
    return Memplan("verify " + kScenario + " " + edited);
  }
  // The commands of the region's execute step.
  static Json& ExecuteCommands(Json& plan) {
    for (Json& step : plan["regions"]["steps"]) {
      if (step["kind"] == "execute") return step["commands"];
    }
    ADD_FAILURE() << "no execute step";
    return plan;
  }
  std::string dir_;
};

TEST_F(RegionCopiesCliTest, FlatFastMemoryCopiesTheWeight) {
  CliRun r = Memplan("plan " + kScenario + " --fast-memory 8192");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("  fast slab r.fast: 6144 bytes in alternate memory, 3 slices (a, "
                               "c, b), 1 copy (w); estimated 1.632e-06 s, 3.584e-06 s all in "
                               "default memory (54.46% faster)\n"
                               "  copies: 1 (4096 bytes default -> alternate), saves 1.28e-06 s\n"));
  EXPECT_THAT(r.out, HasSubstr("r.fast             alternate        3           3072           "
                               "6144           6144    0.00%\n"));
  EXPECT_THAT(r.out, HasSubstr("alternate memory: 6144 bytes (6.00 KiB) used of 8192 bytes "
                               "(8.00 KiB) capacity, max live 6144 bytes (6.00 KiB) at step 1 "
                               "(0.00% over)\n"));
  const Json plan = Planned(kScenario, "--fast-memory 8192");
  const Json& copies = plan["regions"]["regions"][0]["copies"];
  ASSERT_EQ(copies.size(), 1u);
  EXPECT_EQ(copies[0]["value"], "w");
  EXPECT_EQ(copies[0]["bytes"], 4096);
  EXPECT_EQ(copies[0]["from_space"], 0);
  EXPECT_EQ(copies[0]["to_space"], 1);
  EXPECT_EQ(copies[0]["step"], 0);
  EXPECT_EQ(copies[0]["last_read"], 3);
  EXPECT_EQ(copies[0]["resource"], "r.fast");
  EXPECT_EQ(copies[0]["offset_bytes"], 0);
  EXPECT_DOUBLE_EQ(copies[0]["copy_time_s"].get<double>(), 5.12e-07);
  EXPECT_DOUBLE_EQ(copies[0]["saves_s"].get<double>(), 1.28e-06);
  EXPECT_DOUBLE_EQ(plan["regions"]["estimated_time_s"].get<double>(), 1.632e-06);
  // The copy command first, reading %w's home in the external pool; the four
  // dispatches read %w in r.fast [0, 4096); %k (read once) stays home.
  Json mutable_plan = plan;
  const Json& commands = ExecuteCommands(mutable_plan);
  ASSERT_EQ(commands.size(), 5u);
  EXPECT_EQ(commands[0]["kind"], "copy");
  EXPECT_TRUE(commands[0]["op"].is_null());
  EXPECT_EQ(commands[0]["ranges"][0]["resource"], "external");
  EXPECT_EQ(commands[0]["ranges"][0]["offset_bytes"], 1024);
  EXPECT_EQ(commands[0]["ranges"][0]["access"], "read");
  EXPECT_EQ(commands[0]["ranges"][1]["resource"], "r.fast");
  EXPECT_EQ(commands[0]["ranges"][1]["offset_bytes"], 0);
  EXPECT_EQ(commands[0]["ranges"][1]["access"], "write");
  int fast_reads = 0;
  for (const Json& c : commands) {
    for (const Json& range : c["ranges"]) {
      if (range["value"] == "w" && range["access"] == "read" && range["resource"] == "r.fast") {
        ++fast_reads;
      }
      if (range["value"] == "k") {
        EXPECT_EQ(range["resource"], "external");
      }
    }
  }
  EXPECT_EQ(fast_reads, 4);
}

TEST_F(RegionCopiesCliTest, HierarchyCopiesIntoTheScratchpad) {
  CliRun r = Memplan("plan " + kScenario + " --target npu-3level");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("  fast slab r.scratchpad: 6144 bytes in scratchpad memory, 3 "
                               "slices (a, c, b), 1 copy (w); estimated 1.468e-06 s, 3.584e-06 s "
                               "all in dram memory (59.04% faster)\n"
                               "  copies: 1 (4096 bytes dram -> scratchpad), saves 1.372e-06 s\n"));
  const Json plan = Planned(kScenario, "--target npu-3level");
  const Json& copies = plan["regions"]["regions"][0]["copies"];
  ASSERT_EQ(copies.size(), 1u);
  EXPECT_EQ(copies[0]["value"], "w");
  EXPECT_EQ(copies[0]["resource"], "r.scratchpad");
  EXPECT_DOUBLE_EQ(copies[0]["copy_time_s"].get<double>(), 6.12e-07);
  EXPECT_DOUBLE_EQ(copies[0]["saves_s"].get<double>(), 1.372e-06);
}

TEST_F(RegionCopiesCliTest, PlanVerifyExecute) {
  for (const char* flags : {"--fast-memory 8192", "--target npu-3level",
                            "--target npu-3level --fast-memory 4096"}) {
    SCOPED_TRACE(flags);
    const std::string json = dir_ + "/plan.json";
    CliRun p = Memplan("plan " + kScenario + " " + std::string(flags) + " --json " + json + " -q");
    ASSERT_EQ(p.exit_code, 0) << p.err;
    CliRun v = Memplan("verify " + kScenario + " " + json);
    EXPECT_EQ(v.exit_code, 0) << v.err;
    CliRun x = Memplan("execute " + kScenario + " " + json);
    EXPECT_EQ(x.exit_code, 0) << x.err;
    EXPECT_THAT(x.out, HasSubstr("5 region commands"));
    EXPECT_THAT(x.out, HasSubstr("every read found its producer's data"));
  }
}

// Programs of the repository where a copy now pays off: their plans verify
// and execute (examples/region_pipeline.mpir copies a 65536-byte captured
// value, host_resources.mpir and two_dynamic_slices.mpir small ones).
TEST_F(RegionCopiesCliTest, OtherProgramsWithCopiesVerifyAndExecute) {
  for (const char* input : {"/examples/region_pipeline.mpir",
                            "/tests/data/regions/host_resources.mpir",
                            "/tests/data/regions/two_dynamic_slices.mpir"}) {
    for (const char* flags : {"--fast-memory 64KiB", "--target mcu-tcm-sram-psram-flash"}) {
      const std::string file = std::string(MEMPLAN_SOURCE_DIR) + input;
      SCOPED_TRACE(file + " " + flags);
      const std::string json = dir_ + "/plan.json";
      CliRun p = Memplan("plan " + file + " " + flags + " --json " + json);
      ASSERT_EQ(p.exit_code, 0) << p.err;
      EXPECT_THAT(p.out, HasSubstr("  copies: 1 ("));
      CliRun v = Memplan("verify " + file + " " + json);
      EXPECT_EQ(v.exit_code, 0) << v.err;
      CliRun x = Memplan("execute " + file + " " + json);
      EXPECT_EQ(x.exit_code, 0) << x.err;
    }
  }
}

// Fast memory too small for the 4096-byte copy: the slices move, no copy is
// made, and nothing says copies.
TEST_F(RegionCopiesCliTest, NoCopyWhenItDoesNotFit) {
  CliRun r = Memplan("plan " + kScenario + " --fast-memory 2048");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, Not(HasSubstr("copies")));
  EXPECT_THAT(r.out, Not(HasSubstr("copy (")));
  const Json plan = Planned(kScenario, "--fast-memory 2048");
  EXPECT_FALSE(plan["regions"]["regions"][0].contains("copies"));
}

// fast_slab.mpir's region reads its captured %x once: a copy would cost more
// than it saves, so its plan is what it was (no copies key, 5 commands).
TEST_F(RegionCopiesCliTest, NothingPaysOffInFastSlab) {
  for (const char* flags : {"--fast-memory 8192", "--target npu-3level"}) {
    SCOPED_TRACE(flags);
    CliRun r = Memplan("plan " + kFastSlab + " " + flags);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_THAT(r.out, Not(HasSubstr("copies")));
    EXPECT_THAT(r.out, HasSubstr("5 commands in 5 steps"));
    const Json plan = Planned(kFastSlab, flags);
    EXPECT_FALSE(plan["regions"]["regions"][0].contains("copies"));
  }
}

// --- Forged plans: rule 6 (captured copies) -----------------------------------

// The copy command reads %k's home instead of %w's.
TEST_F(RegionCopiesCliTest, CopyFromAnotherValueIsRejected) {
  CliRun v = VerifyEdited(Planned(kScenario, "--fast-memory 8192"), [](Json& plan) {
    Json& from = ExecuteCommands(plan)[0]["ranges"][0];
    from["value"] = "k";
    from["offset"] = "5120";
    from["offset_bytes"] = 5120;
  });
  EXPECT_EQ(v.exit_code, 1);
  EXPECT_THAT(v.err, HasSubstr("region rule 6 (captured copies)"));
  EXPECT_THAT(v.err, HasSubstr("does not read all of its home range in pool 'external'"));
}

// The copy declared into the results reservation, not a fast slab.
TEST_F(RegionCopiesCliTest, CopyOutsideAFastSlabIsRejected) {
  CliRun v = VerifyEdited(Planned(kScenario, "--fast-memory 8192"), [](Json& plan) {
    plan["regions"]["regions"][0]["copies"][0]["resource"] = "r.results.external";
  });
  EXPECT_EQ(v.exit_code, 1);
  EXPECT_THAT(v.err, HasSubstr("region rule 3 (command ranges)"));
  CliRun w = VerifyEdited(Planned(kScenario, "--fast-memory 8192"), [](Json& plan) {
    plan["regions"]["regions"][0]["copies"][0]["to_space"] = 0;
  });
  EXPECT_EQ(w.exit_code, 1);
  EXPECT_THAT(w.err, HasSubstr("region rule 6 (captured copies): region @r copy 0 (%w): it "
                               "copies to space 0, but r.fast is in space 1"));
}

// The fast slab declared in memory only npu0 may access: the copy into it
// runs on gpu0.
TEST_F(RegionCopiesCliTest, CopyIntoAnInaccessibleLevelIsRejected) {
  CliRun v = VerifyEdited(Planned(kScenario, "--fast-memory 8192"), [](Json& plan) {
    for (Json& r : plan["regions"]["resources"]) {
      if (r["name"] == "r.fast") r["devices"] = Json::array({"npu0"});
    }
  });
  EXPECT_EQ(v.exit_code, 1);
  EXPECT_THAT(v.err, HasSubstr("region rule 3 (command ranges): step 4 (execute @r): copy range "
                               "1 (write %w at r.fast [0, 4096)) lies in r.fast in the alternate "
                               "space, which gpu0 (the device running it) may not access: only "
                               "npu0 may"));
}

// The copy declared with more bytes than the value has.
TEST_F(RegionCopiesCliTest, CopyOfTheWrongSizeIsRejected) {
  CliRun v = VerifyEdited(Planned(kScenario, "--fast-memory 8192"), [](Json& plan) {
    plan["regions"]["regions"][0]["copies"][0]["bytes"] = 8192;
  });
  EXPECT_EQ(v.exit_code, 1);
  EXPECT_THAT(v.err, HasSubstr("region rule 6 (captured copies): region @r copy 0 (%w): it "
                               "copies 8192 bytes, but the value has 4096"));
}

// The copy declared dead after step 2: %d's read at step 3 is too late.
TEST_F(RegionCopiesCliTest, ReadAfterTheCopysLastStepIsRejected) {
  CliRun v = VerifyEdited(Planned(kScenario, "--fast-memory 8192"), [](Json& plan) {
    plan["regions"]["regions"][0]["copies"][0]["last_read"] = 2;
  });
  EXPECT_EQ(v.exit_code, 1);
  EXPECT_THAT(v.err, HasSubstr("region rule 6 (captured copies): step 4 (execute @r): dispatch "
                               "%d (op dispatch#4) uses the fast copy of %w (read %w at r.fast "
                               "[0, 4096)) at step 3, after the copy's last read step 2"));
}

// A reader of the fast copy moved before the copy command.
TEST_F(RegionCopiesCliTest, ReadBeforeTheCopyIsRejected) {
  CliRun v = VerifyEdited(Planned(kScenario, "--fast-memory 8192"), [](Json& plan) {
    Json& commands = ExecuteCommands(plan);
    std::swap(commands[0], commands[1]);
  });
  EXPECT_EQ(v.exit_code, 1);
  EXPECT_THAT(v.err, HasSubstr("region rule 6 (captured copies)"));
  EXPECT_THAT(v.err, HasSubstr("uses the fast copy of %w"));
  EXPECT_THAT(v.err, HasSubstr("before the copy command"));
}

// The fast copy moved onto %a's bytes (with every range of it): it overlaps a
// live slice of the slab.
TEST_F(RegionCopiesCliTest, CopyOverALiveSliceIsRejected) {
  CliRun v = VerifyEdited(Planned(kScenario, "--fast-memory 8192"), [](Json& plan) {
    Json& copy = plan["regions"]["regions"][0]["copies"][0];
    copy["offset"] = "1024";
    copy["offset_bytes"] = 1024;
    for (Json& c : ExecuteCommands(plan)) {
      for (Json& range : c["ranges"]) {
        if (range["value"] != "w" || range["resource"] != "r.fast") continue;
        range["offset"] = "1024";
        range["offset_bytes"] = 1024;
      }
    }
  });
  EXPECT_EQ(v.exit_code, 1);
  EXPECT_THAT(v.err, HasSubstr("region rule 6 (captured copies): region @r copy 0 (%w): its "
                               "bytes r.fast [1024, 5120) over steps [0, 3] overlap a at "
                               "[4096, 5120), live over [0, 1]"));
}

// Without the copy command the fast copy holds nothing: verify finds its
// first reader before any copy, execute finds the read of %w unwritten.
TEST_F(RegionCopiesCliTest, MissingCopyCommandIsRejected) {
  Json plan = Planned(kScenario, "--fast-memory 8192");
  Json& commands = ExecuteCommands(plan);
  commands.erase(commands.begin());
  const std::string edited = dir_ + "/edited.json";
  WriteText(edited, plan.dump());
  CliRun v = Memplan("verify " + kScenario + " " + edited);
  EXPECT_EQ(v.exit_code, 1);
  EXPECT_THAT(v.err, HasSubstr("region rule 6 (captured copies): step 4 (execute @r): dispatch "
                               "%a (op dispatch#1) uses the fast copy of %w (read %w at r.fast "
                               "[0, 4096)) before the copy command"));
  CliRun x = Memplan("execute " + kScenario + " " + edited);
  EXPECT_NE(x.exit_code, 0);
  EXPECT_THAT(x.err, HasSubstr("%w"));
}

}  // namespace
}  // namespace memplan
