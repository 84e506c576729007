// `memplan plan | verify | stats` end to end through the binary, on bundled
// examples and (when present) the shared data set.
#include <algorithm>
#include <cctype>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

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

const std::string kShared = MEMPLAN_SHARED_DIR "/data";
const std::string kExamples = MEMPLAN_SOURCE_DIR "/examples";

// The "transient extent N bytes" figure of the human summary (-1 if absent).
long long SummaryPeak(const std::string& out) {
  const std::string key = "transient extent ";
  const size_t at = out.find(key);
  if (at == std::string::npos) return -1;
  size_t end = at + key.size();
  while (end < out.size() && std::isdigit(static_cast<unsigned char>(out[end]))) ++end;
  if (end == at + key.size() || out.compare(end, 6, " bytes") != 0) return -1;
  return std::stoll(out.substr(at + key.size(), end - at - key.size()));
}

struct Planned {
  CliRun run;
  nlohmann::json plan;
};

Planned PlanToJson(const std::string& input, const std::string& flags = "") {
  const std::string dir = FreshDir();
  const std::string json = dir + "/plan.json";
  Planned p;
  p.run = Memplan("plan " + input + " --json " + json + " " + flags);
  if (p.run.exit_code == 0) p.plan = nlohmann::json::parse(Slurp(json));
  // Saved plans re-verify through `memplan verify`.
  if (p.run.exit_code == 0) {
    CliRun v = Memplan("verify " + input + " " + json);
    EXPECT_EQ(v.exit_code, 0) << v.err;
  }
  fs::remove_all(dir);
  return p;
}

std::vector<std::string> FilesIn(const std::string& dir, const std::string& ext) {
  std::vector<std::string> files;
  if (!fs::is_directory(dir)) return files;
  for (const auto& e : fs::directory_iterator(dir)) {
    if (e.path().extension() == ext) files.push_back(e.path().string());
  }
  std::sort(files.begin(), files.end());
  return files;
}

TEST(PlanCliTest, EveryExampleProgramPlansAndVerifies) {
  const std::vector<std::string> examples = FilesIn(kExamples, ".mpir");
  ASSERT_GE(examples.size(), 7u);
  for (const std::string& path : examples) {
    SCOPED_TRACE(path);
    Planned p = PlanToJson(path);
    ASSERT_EQ(p.run.exit_code, 0) << p.run.err;
    EXPECT_EQ(p.plan["schema"], "memplan.plan/1");
    EXPECT_EQ(p.plan["verified"], true);
    EXPECT_GE(p.plan["peak_bytes"].get<long long>(), p.plan["lower_bound_bytes"].get<long long>());
    EXPECT_EQ(SummaryPeak(p.run.out), p.plan["peak_bytes"].get<long long>());
  }
}

TEST(PlanCliTest, MiniMallocChallengingInstancesPlanVerified) {
  const std::vector<std::string> csvs = FilesIn(kShared + "/minimalloc", ".csv");
  if (csvs.empty()) GTEST_SKIP() << "no shared data at " << kShared;
  ASSERT_EQ(csvs.size(), 12u);  // A..K and input.12
  for (const std::string& path : csvs) {
    SCOPED_TRACE(path);
    Planned p = PlanToJson(path);
    ASSERT_EQ(p.run.exit_code, 0) << p.run.err;
    EXPECT_EQ(p.plan["verified"], true);
    const long long peak = p.plan["peak_bytes"], bound = p.plan["lower_bound_bytes"];
    EXPECT_GE(peak, bound);
    EXPECT_EQ(SummaryPeak(p.run.out), peak);
    if (path.ends_with("input.12.csv")) {
      EXPECT_EQ(peak, 12);
      EXPECT_EQ(bound, 12);
    } else {
      // Capacity 2^20 in the file names; the max-live bounds are published.
      EXPECT_LE(bound, 1048576);
      EXPECT_GE(bound, 986112);
    }
  }
}

// The traces auto packs within 1% of the bound. The dense pangu_2.6B trace
// (18,692 buffers) is not among them: auto's pair budget leaves it at
// online-best-fit, about 19% over (the packing issue's "auto that is good
// and honest" work).
TEST(PlanCliTest, RealTracesWithinOnePercentOfTheLowerBound) {
  const std::vector<std::string> csvs = {kShared + "/traces/iopddl_G_1.csv",
                                         kShared + "/traces/somas_resnet50.csv"};
  if (!std::filesystem::exists(csvs.front())) GTEST_SKIP() << "no shared data at " << kShared;
  for (const std::string& path : csvs) {
    SCOPED_TRACE(path);
    Planned p = PlanToJson(path);
    ASSERT_EQ(p.run.exit_code, 0) << p.run.err;
    const double peak = p.plan["peak_bytes"], bound = p.plan["lower_bound_bytes"];
    EXPECT_LE(peak, 1.01 * bound);
  }
}

TEST(PlanCliTest, HandComputedCsvOffsets) {
  // The XLA best-fit worked example as half-open CSV rows (packing.md §2.2).
  const std::string dir = FreshDir();
  const std::string csv = dir + "/xla.csv";
  WriteText(csv, "id,lower,upper,size\na,0,4,10\nb,1,7,20\nc,2,8,40\nd,4,9,30\ne,5,10,50\n");
  Planned p = PlanToJson(csv, "--algorithm best-fit-spatial");
  ASSERT_EQ(p.run.exit_code, 0) << p.run.err;
  EXPECT_EQ(p.plan["peak_bytes"], 140);
  std::map<std::string, long long> offsets;
  for (const auto& b : p.plan["buffers"]) offsets[b["name"]] = b["allocations"][0]["offset"];
  EXPECT_EQ(offsets, (std::map<std::string, long long>{
                         {"a", 90}, {"b", 120}, {"c", 50}, {"d", 90}, {"e", 0}}));
  // Alignment 64: e@0, c@64 (top of e, aligned), d@128, b@192; a overlaps
  // only c and b, and the holes [0,64) and [128,192) are equally tight, so the
  // lower one wins. Peak = 192 + 20.
  Planned aligned = PlanToJson(csv, "--algorithm best-fit-spatial --alignment 64");
  ASSERT_EQ(aligned.run.exit_code, 0) << aligned.run.err;
  offsets.clear();
  for (const auto& b : aligned.plan["buffers"]) offsets[b["name"]] = b["allocations"][0]["offset"];
  EXPECT_EQ(offsets, (std::map<std::string, long long>{
                         {"a", 0}, {"b", 192}, {"c", 64}, {"d", 128}, {"e", 0}}));
  EXPECT_EQ(aligned.plan["peak_bytes"], 212);
  fs::remove_all(dir);
}

TEST(PlanCliTest, CapacityFailsWithExitOneAndWritesNothing) {
  const std::string dir = FreshDir();
  const std::string csv = dir + "/x.csv", json = dir + "/plan.json";
  WriteText(csv, "id,lower,upper,size\nb1,0,3,4\nb2,3,9,4\nb3,0,9,4\nb4,9,21,4\nb5,0,21,4\n");
  CliRun tight = Memplan("plan " + csv + " --capacity 11 --json " + json);
  EXPECT_EQ(tight.exit_code, 1);
  EXPECT_THAT(tight.err, HasSubstr("does not fit"));
  EXPECT_FALSE(fs::exists(json));
  CliRun fits = Memplan("plan " + csv + " --capacity 12B --json " + json);
  EXPECT_EQ(fits.exit_code, 0) << fits.err;
  EXPECT_TRUE(fs::exists(json));
  fs::remove_all(dir);
}

TEST(PlanCliTest, SameInputGivesByteIdenticalOutputs) {
  const std::string dir = FreshDir();
  const std::string input = kExamples + "/mlp.mpir";
  for (const char* run : {"1", "2"}) {
    CliRun r = Memplan("plan " + input + " --json " + dir + "/p" + run + ".json --svg " + dir +
                       "/p" + run + ".svg --html " + dir + "/p" + run + ".html");
    ASSERT_EQ(r.exit_code, 0) << r.err;
  }
  for (const char* ext : {".json", ".svg", ".html"}) {
    EXPECT_EQ(Slurp(dir + "/p1" + ext), Slurp(dir + "/p2" + ext)) << ext;
    EXPECT_FALSE(Slurp(dir + "/p1" + ext).empty()) << ext;
  }
  fs::remove_all(dir);
}

TEST(PlanCliTest, VerifyRejectsATamperedPlan) {
  const std::string dir = FreshDir();
  const std::string csv = dir + "/x.csv", json = dir + "/plan.json";
  WriteText(csv, "id,lower,upper,size\nb1,0,3,4\nb2,0,3,4\n");
  ASSERT_EQ(Memplan("plan " + csv + " --json " + json).exit_code, 0);
  nlohmann::ordered_json plan = nlohmann::ordered_json::parse(Slurp(json));
  plan["buffers"][1]["allocations"][0]["offset"] = 2;  // overlaps b1 [0,4)
  WriteText(json, plan.dump());
  CliRun r = Memplan("verify " + csv + " " + json);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_THAT(r.err, HasSubstr("verification failed"));
  WriteText(json, "{\"schema\": ");
  EXPECT_EQ(Memplan("verify " + csv + " " + json).exit_code, 2);
  fs::remove_all(dir);
}

TEST(PlanCliTest, StatsReportsTheLowerBoundAndWhereItIsReached) {
  CliRun r = Memplan("stats " + kExamples + "/basic.mpir");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("lower bound (max live activations): "));
  EXPECT_THAT(r.out, HasSubstr(" at step 0 (op %g = add)\n"));
  EXPECT_THAT(r.out, HasSubstr("time steps"));
}

}  // namespace
}  // namespace memplan
