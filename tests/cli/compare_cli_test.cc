// `memplan compare` end to end through the binary: the table on a
// hand-worked CSV, its JSON form, agreement with `memplan plan` on a bundled
// model, and bad input.
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
using testing_cli::MemplanIn;
using testing_cli::Slurp;

const std::string kCsvDir = MEMPLAN_SOURCE_DIR "/tests/data/csv";
const std::string kExamples = MEMPLAN_SOURCE_DIR "/examples";

const char kExpectedTable[] =
    "memplan compare: compare_peers.csv\n"
    "6 transient buffers in default memory, 410 B in all; alignment 1\n"
    "every row on memplan's buffers (a view shares its input's buffer)\n"
    "\n"
    "strategy                 arena bytes   size  vs LB  verified  rule\n"
    "lower bound                      300  300 B  1.000  -         max over time steps of the bytes "
    "live then\n"
    "memplan                          300  300 B  1.000  yes       memplan plan: portfolio of "
    "packers, lowest peak kept (won: best-fit-temporal)\n"
    "tflite-arena                     320  320 B  1.067  yes       TFLite ArenaPlanner: greedy by "
    "size: largest first, each in the tightest gap among the buffers it meets\n"
    "tflite-micro-greedy              300  300 B  1.000  yes       TFLite Micro "
    "GreedyMemoryPlanner: greedy by size: largest first, each in the lowest gap among the buffers "
    "it meets\n"
    "onnxruntime-mem-pattern          410  410 B  1.367  yes       ONNX Runtime memory pattern: "
    "online best fit in execution order: freed at last use, least-waste free gap, arena grows\n"
    "iree-in-order                    350  350 B  1.167  yes       IREE LayoutSlices: in-order "
    "best fit: each buffer in schedule order takes the tightest gap it meets\n"
    "xla-heap                         300  300 B  1.000  yes       XLA heap simulator: global best "
    "fit by size and by live range (kSpatial, kTemporal), the smaller heap kept (won: "
    "best-fit-temporal)\n"
    "no-reuse                         410  410 B  1.367  yes       no reuse: every buffer its own "
    "bytes, end to end (sum of sizes)\n";

// name -> arena bytes of a memplan.compare/1 document.
std::map<std::string, long long> ArenaBytes(const nlohmann::json& doc) {
  std::map<std::string, long long> bytes;
  for (const auto& row : doc["strategies"]) bytes[row["name"]] = row["arena_bytes"];
  return bytes;
}

TEST(CompareCliTest, HandWorkedCsvTable) {
  // Every figure is worked by hand in tests/packing/peers/.
  const CliRun r = MemplanIn(kCsvDir, "compare compare_peers.csv");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err, "");
  EXPECT_EQ(r.out, kExpectedTable);
}

TEST(CompareCliTest, JsonFormIsTheSameTable) {
  const std::string dir = FreshDir();
  const CliRun r = MemplanIn(kCsvDir, "compare compare_peers.csv --json " + dir + "/c.json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, kExpectedTable);
  const std::string text = Slurp(dir + "/c.json");
  const nlohmann::json doc = nlohmann::json::parse(text);
  EXPECT_EQ(doc["schema"], "memplan.compare/1");
  EXPECT_EQ(doc["input"], "compare_peers.csv");
  EXPECT_EQ(doc["alignment"], 1);
  EXPECT_EQ(doc["buffers"], 6);
  EXPECT_EQ(doc["total_bytes"], 410);
  EXPECT_EQ(doc["lower_bound_bytes"], 300);
  const std::map<std::string, long long> expected = {
      {"lower bound", 300},         {"memplan", 300},       {"tflite-arena", 320},
      {"tflite-micro-greedy", 300}, {"onnxruntime-mem-pattern", 410},
      {"iree-in-order", 350},       {"xla-heap", 300},      {"no-reuse", 410}};
  EXPECT_EQ(ArenaBytes(doc), expected);
  ASSERT_EQ(doc["strategies"].size(), 8u);
  EXPECT_TRUE(doc["strategies"][0]["verified"].is_null());
  EXPECT_EQ(doc["strategies"][1]["detail"], "won: best-fit-temporal");
  EXPECT_DOUBLE_EQ(doc["strategies"][2]["ratio_to_lower_bound"].get<double>(), 320.0 / 300.0);
  for (std::size_t i = 1; i < doc["strategies"].size(); ++i) {
    EXPECT_EQ(doc["strategies"][i]["verified"], true) << doc["strategies"][i]["name"];
  }
  for (const auto& row : doc["strategies"]) EXPECT_EQ(row["on_memplan_buffers"], true);
  // --json - prints the same document alone, byte for byte.
  const CliRun to_stdout = MemplanIn(kCsvDir, "compare compare_peers.csv --json -");
  ASSERT_EQ(to_stdout.exit_code, 0) << to_stdout.err;
  EXPECT_EQ(to_stdout.out, text);
  fs::remove_all(dir);
}

TEST(CompareCliTest, QuietPrintsNothingButStillWritesTheJson) {
  const std::string dir = FreshDir();
  for (const char* flag : {"-q", "--quiet"}) {
    const CliRun r = MemplanIn(
        kCsvDir, std::string("compare compare_peers.csv ") + flag + " --json " + dir + "/c.json");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.out, "") << flag;
    EXPECT_EQ(r.err, "") << flag;
    EXPECT_EQ(ArenaBytes(nlohmann::json::parse(Slurp(dir + "/c.json")))["tflite-arena"], 320);
  }
  // --json - still prints the document: it is the output asked for.
  const CliRun to_stdout = MemplanIn(kCsvDir, "compare compare_peers.csv -q --json -");
  ASSERT_EQ(to_stdout.exit_code, 0) << to_stdout.err;
  EXPECT_EQ(ArenaBytes(nlohmann::json::parse(to_stdout.out))["iree-in-order"], 350);
  fs::remove_all(dir);
}

TEST(CompareCliTest, AlignmentAppliesToEveryStrategy) {
  // At 64 no-reuse lays the six end to end at multiples of 64: a 0, b 64,
  // c 192, d 256, e 384, f 512, ending at 532.
  const std::string dir = FreshDir();
  const CliRun r =
      MemplanIn(kCsvDir, "compare compare_peers.csv --alignment 64 --json " + dir + "/c.json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const nlohmann::json doc = nlohmann::json::parse(Slurp(dir + "/c.json"));
  EXPECT_EQ(doc["alignment"], 64);
  EXPECT_EQ(ArenaBytes(doc)["no-reuse"], 532);
  for (std::size_t i = 1; i < doc["strategies"].size(); ++i) {
    EXPECT_EQ(doc["strategies"][i]["verified"], true) << doc["strategies"][i]["name"];
    EXPECT_GE(doc["strategies"][i]["arena_bytes"].get<long long>(), 300);
  }
  fs::remove_all(dir);
}

TEST(CompareCliTest, BundledModelAgreesWithPlan) {
  // memplan's row is the plan's transient peak, the bound its lower bound;
  // no reuse is the sum of the 53 transient buffers.
  const std::string model = kExamples + "/mobilenet_v2.onnx";
  const std::string dir = FreshDir();
  const CliRun c = Memplan("compare " + model + " --json " + dir + "/c.json");
  ASSERT_EQ(c.exit_code, 0) << c.err;
  const CliRun p = Memplan("plan " + model + " --quiet --json " + dir + "/p.json");
  ASSERT_EQ(p.exit_code, 0) << p.err;
  const nlohmann::json doc = nlohmann::json::parse(Slurp(dir + "/c.json"));
  const nlohmann::json plan = nlohmann::json::parse(Slurp(dir + "/p.json"));
  std::map<std::string, long long> bytes = ArenaBytes(doc);
  EXPECT_EQ(bytes["memplan"], plan["peak_bytes"].get<long long>());
  EXPECT_EQ(bytes["lower bound"], plan["lower_bound_bytes"].get<long long>());
  EXPECT_EQ(doc["buffers"], 53);
  EXPECT_EQ(bytes["lower bound"], 6021120);
  EXPECT_EQ(bytes["memplan"], 6021120);
  EXPECT_EQ(bytes["tflite-arena"], 6021120);
  EXPECT_EQ(bytes["tflite-micro-greedy"], 6021120);
  EXPECT_EQ(bytes["onnxruntime-mem-pattern"], 6823936);
  EXPECT_EQ(bytes["iree-in-order"], 6823936);
  EXPECT_EQ(bytes["xla-heap"], 6021120);
  EXPECT_EQ(bytes["no-reuse"], 26717568);
  EXPECT_EQ(doc["total_bytes"], 26717568);
  fs::remove_all(dir);
}

// name -> estimated seconds (-1 for null) of the "times" section, and the
// names in row order.
std::map<std::string, double> EstimatedTimes(const nlohmann::json& times,
                                             std::vector<std::string>& order) {
  std::map<std::string, double> seconds;
  for (const auto& row : times["strategies"]) {
    order.push_back(row["name"]);
    seconds[row["name"]] = row["estimated_s"].is_null() ? -1.0 : row["estimated_s"].get<double>();
  }
  return seconds;
}

TEST(CompareCliTest, EstimatedTimesOnAHierarchyAgreeWithPlan) {
  // The kept row is the plan `memplan plan` reports (the portfolio keeps
  // the banked layout on mlp: it ties the hierarchy candidate), the bound
  // is the plan's time bound, and every strategy is at least the bound.
  const std::string model = kExamples + "/mlp.mpir";
  const std::string flags = " --target npu-3level --fast-memory 64KiB";
  const std::string dir = FreshDir();
  const CliRun c = Memplan("compare " + model + flags + " --json " + dir + "/c.json");
  ASSERT_EQ(c.exit_code, 0) << c.err;
  EXPECT_THAT(Slurp(dir + "/c.json"), HasSubstr("\"times\""));
  const CliRun text = Memplan("compare " + model + flags);
  EXPECT_THAT(text.out, HasSubstr("estimated time on npu-3level (fast memory 64.00 KiB); only the "
                                  "kept plan is verified"));
  EXPECT_THAT(text.out, HasSubstr("\nexecutorch-banked (kept)   17.45 us     1.198  ExecuTorch "
                                  "banked memory planner: no copies;"));
  const CliRun p = Memplan("plan " + model + flags + " --quiet --json " + dir + "/p.json");
  ASSERT_EQ(p.exit_code, 0) << p.err;
  const nlohmann::json times = nlohmann::json::parse(Slurp(dir + "/c.json"))["times"];
  const nlohmann::json msa = nlohmann::json::parse(Slurp(dir + "/p.json"))["msa"];
  std::vector<std::string> order;
  std::map<std::string, double> seconds = EstimatedTimes(times, order);
  // No memplan-weights-in-flash: npu-3level has no read-only level.
  EXPECT_EQ(order, (std::vector<std::string>{"time bound", "executorch-banked",
                                              "memplan-hierarchy", "memplan-two-space",
                                              "all-slowest-writable"}));
  EXPECT_EQ(times["target"], "npu-3level");
  EXPECT_EQ(times["fast_memory_bytes"], 65536);
  EXPECT_EQ(seconds["time bound"], msa["time_bound_s"].get<double>());
  EXPECT_EQ(seconds["executorch-banked"], msa["estimated_time_s"].get<double>());
  int kept = 0;
  for (const auto& row : times["strategies"]) {
    kept += row["kept"].get<bool>() ? 1 : 0;
    EXPECT_GE(row["estimated_s"].get<double>(), seconds["time bound"]) << row["name"];
  }
  EXPECT_EQ(kept, 1);
  EXPECT_TRUE(times["strategies"][1]["kept"].get<bool>());
  EXPECT_EQ(times["strategies"][1]["source"], "pytorch/executorch exir/memory_planning.py");
  fs::remove_all(dir);
}

// A strategy that cannot run says why, in the table and the JSON, instead
// of missing: the banked planner cannot honour async_copy's pinned buffer.
TEST(CompareCliTest, AStrategyNotRunSaysWhy) {
  const std::string dir = FreshDir();
  const CliRun c = Memplan("compare " + kExamples + "/async_copy.mpir --target "
                           "mcu-tcm-sram-psram-flash --json " + dir + "/c.json");
  ASSERT_EQ(c.exit_code, 0) << c.err;
  EXPECT_THAT(c.out, HasSubstr("\nexecutorch-banked           not run         -  ExecuTorch banked "
                               "memory planner: no copies;"));
  EXPECT_THAT(c.out, HasSubstr("(not run: buffer 'w_start' is pinned to the fastest level, which "
                               "filling the banks by size without copies cannot honour)\n"));
  const nlohmann::json strategies = nlohmann::json::parse(Slurp(dir + "/c.json"))["times"]["strategies"];
  ASSERT_FALSE(strategies.empty());
  const nlohmann::json& last = strategies.back();
  EXPECT_EQ(last["name"], "executorch-banked");
  EXPECT_TRUE(last["estimated_s"].is_null());
  EXPECT_EQ(last["not_run"],
            "buffer 'w_start' is pinned to the fastest level, which filling the banks by size "
            "without copies cannot honour");
  for (const nlohmann::json& row : strategies) {
    if (row["name"] != "executorch-banked") {
      EXPECT_FALSE(row.contains("not_run")) << row["name"];
    }
  }
}

// A target too small for the plan: the arena table is printed and written
// whole, the estimated-time section says why it has no rows, and the exit
// code is 1 (does not fit) with the planner's located message.
TEST(CompareCliTest, APlanThatDoesNotFitKeepsTheArenaTable) {
  const std::string dir = FreshDir();
  const std::string target = MEMPLAN_SOURCE_DIR "/tests/data/msa/tiny_3level_target.json";
  const CliRun c =
      Memplan("compare " + kExamples + "/mlp.mpir --target " + target + " --json " + dir + "/c.json");
  EXPECT_EQ(c.exit_code, 1) << c.err;
  const std::string reason =
      "plan does not fit: buffer 'h1' (32768 bytes) is larger than every memory space of "
      "target 'tiny-3level' that its ops can access (the largest holds 4096 bytes)";
  EXPECT_THAT(c.out, HasSubstr("\nmemplan                        99584  97.25 KiB  1.000  yes"));
  EXPECT_THAT(c.out, HasSubstr("\nestimated time on " + target + " (fast memory 4.00 KiB): none: " +
                               reason + "\n"));
  EXPECT_EQ(c.err, kExamples + "/mlp.mpir: error: " + reason + "\n");
  const nlohmann::json doc = nlohmann::json::parse(Slurp(dir + "/c.json"));
  ASSERT_EQ(doc["strategies"].size(), 8u);  // the lower bound, memplan and six peers
  EXPECT_EQ(doc["strategies"][1]["name"], "memplan");
  EXPECT_EQ(doc["strategies"][1]["arena_bytes"], 99584);
  EXPECT_EQ(doc["times"]["does_not_fit"], reason);
  EXPECT_TRUE(doc["times"]["time_bound_s"].is_null());
  EXPECT_TRUE(doc["times"]["strategies"].empty());
  EXPECT_EQ(doc["times"]["fast_memory_bytes"], 4096);
}

// On the MCU preset mobilenet_v2's hierarchy candidates that do not fit say
// which buffer found no room (text and JSON), and the plan's summary lists
// the same reasons.
TEST(CompareCliTest, ACandidateThatDoesNotFitSaysWhichBuffer) {
  const std::string dir = FreshDir();
  const std::string model = kExamples + "/mobilenet_v2.onnx";
  const CliRun c =
      Memplan("compare " + model + " --target mcu-tcm-sram-psram-flash --json " + dir + "/c.json");
  ASSERT_EQ(c.exit_code, 0) << c.err;
  const std::string input = "buffer 'input' (602112 bytes) finds no room in a level its ops can access";
  const std::string weight =
      "buffer 'classifier.1.weight' (5120000 bytes) finds no room in a level its ops can access";
  EXPECT_THAT(c.out, HasSubstr("\nmemplan-hierarchy         does not fit         -  memplan over "
                               "the hierarchy: the fastest level planned with copies, then each "
                               "buffer homed in the fastest level that holds it (does not fit: " +
                               input + ")\n"));
  EXPECT_THAT(c.out, HasSubstr("(does not fit: " + weight + ")\n"));
  std::map<std::string, std::string> reasons;
  const nlohmann::json doc = nlohmann::json::parse(Slurp(dir + "/c.json"));  // outlives the loop
  for (const nlohmann::json& row : doc["times"]["strategies"]) {
    if (row.contains("does_not_fit")) reasons[row["name"]] = row["does_not_fit"];
  }
  EXPECT_EQ(reasons, (std::map<std::string, std::string>{{"memplan-hierarchy", input},
                                                         {"memplan-two-space", weight}}));
  const CliRun plan = Memplan("plan " + model + " --target mcu-tcm-sram-psram-flash");
  ASSERT_EQ(plan.exit_code, 0) << plan.err;
  EXPECT_THAT(plan.out, HasSubstr("tried hierarchy does not fit (" + input + "), "));
  EXPECT_THAT(plan.out, HasSubstr("two-space does not fit (" + weight + "), "));
}

TEST(CompareCliTest, EstimatedTimesOnTwoSpacesAgreeWithPlan) {
  // memplan's row is `memplan plan`'s default mode, xla-msa-2021 its
  // reference mode, all-default/all-fast the plan's two extremes.
  const std::string model = kExamples + "/mlp.mpir";
  const std::string dir = FreshDir();
  const CliRun c = Memplan("compare " + model + " --fast-memory 256KiB --json " + dir + "/c.json");
  ASSERT_EQ(c.exit_code, 0) << c.err;
  const CliRun p = Memplan("plan " + model + " --fast-memory 256KiB --quiet --json " + dir + "/p.json");
  ASSERT_EQ(p.exit_code, 0) << p.err;
  const CliRun r = Memplan("plan " + model +
                           " --fast-memory 256KiB --msa-mode reference --quiet --json " + dir +
                           "/r.json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const nlohmann::json times = nlohmann::json::parse(Slurp(dir + "/c.json"))["times"];
  const nlohmann::json msa = nlohmann::json::parse(Slurp(dir + "/p.json"))["msa"];
  const nlohmann::json ref = nlohmann::json::parse(Slurp(dir + "/r.json"))["msa"];
  std::vector<std::string> order;
  std::map<std::string, double> seconds = EstimatedTimes(times, order);
  EXPECT_EQ(order, (std::vector<std::string>{"time bound", "all-fast", "memplan", "xla-msa-2021",
                                              "all-default"}));
  EXPECT_EQ(times["target"], "edge-npu");
  EXPECT_EQ(seconds["memplan"], msa["estimated_time_s"].get<double>());
  EXPECT_EQ(seconds["xla-msa-2021"], ref["estimated_time_s"].get<double>());
  EXPECT_EQ(seconds["all-default"], msa["time_all_default_s"].get<double>());
  EXPECT_EQ(seconds["all-fast"], msa["time_all_fast_s"].get<double>());
  EXPECT_EQ(seconds["time bound"], msa["time_bound_s"].get<double>());
  // On mlp at 256 KiB default mode gains over the reference pass.
  EXPECT_LT(seconds["memplan"], seconds["xla-msa-2021"]);
  fs::remove_all(dir);
}

TEST(CompareCliTest, EstimatedTimesUseTheAlignment) {
  // --alignment is the plan's alignment for the times too: the kept row is
  // `memplan plan --alignment` (on a hierarchy it can change which candidate
  // is kept), and an alignment the fast memory cannot take is refused.
  const std::string model = kExamples + "/mobilenet_v2.onnx";
  const std::string dir = FreshDir();
  for (const std::string target : {"edge-npu", "npu-3level"}) {
    SCOPED_TRACE(target);
    const std::string flags = " --target " + target + " --fast-memory 256KiB --alignment 65536";
    const CliRun c = Memplan("compare " + model + flags + " --json " + dir + "/c.json");
    ASSERT_EQ(c.exit_code, 0) << c.err;
    const CliRun p = Memplan("plan " + model + flags + " --quiet --json " + dir + "/p.json");
    ASSERT_EQ(p.exit_code, 0) << p.err;
    const nlohmann::json times = nlohmann::json::parse(Slurp(dir + "/c.json"))["times"];
    const double planned =
        nlohmann::json::parse(Slurp(dir + "/p.json"))["msa"]["estimated_time_s"].get<double>();
    int kept = 0;
    for (const auto& row : times["strategies"]) {
      if (!row["kept"].get<bool>()) continue;
      EXPECT_EQ(row["estimated_s"].get<double>(), planned) << row["name"];
      ++kept;
    }
    EXPECT_EQ(kept, 1);
  }
  const CliRun r = Memplan("compare " + kExamples + "/mlp.mpir --target edge-npu --alignment 4294967295");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.out, "");
  EXPECT_THAT(r.err, HasSubstr("exceeds 2^32"));
  fs::remove_all(dir);
}

TEST(CompareCliTest, BadInputIsALocatedErrorWithExitTwo) {
  const std::string dir = FreshDir();
  testing_cli::WriteText(dir + "/bad.csv", "id,lower,upper,size\na,0,2,4\nb,3,x,4\n");
  CliRun r = MemplanIn(dir, "compare bad.csv");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("bad.csv:3:"));
  EXPECT_THAT(r.err, HasSubstr(": error: "));
  EXPECT_EQ(r.out, "");

  r = MemplanIn(dir, "compare missing.csv");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, "missing.csv: error: cannot read file: No such file or directory\n");

  r = Memplan("compare " + kExamples + "/region.mpir");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("region.mpir: error: compare packs one transient pool, but this "
                               "program has execution regions"));

  r = MemplanIn(kCsvDir, "compare compare_peers.csv --alignment 0");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err,
            "memplan: error: --alignment 0 is outside the supported range 1 to 2^32 "
            "(4294967296)\n");

  r = MemplanIn(kCsvDir, "compare compare_peers.csv --json " + dir + "/no/such/dir/c.json");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("error: cannot write: directory"));

  r = MemplanIn(kCsvDir, "compare compare_peers.csv --json compare_peers.csv");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("output path is the input file (--json)"));

  r = MemplanIn(kCsvDir, "compare compare_peers.csv --dim n=2");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("--dim"));

  // Estimated times need op costs and a known target; nothing is printed.
  r = MemplanIn(kCsvDir, "compare compare_peers.csv --fast-memory 1KiB");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.out, "");
  EXPECT_THAT(r.err, HasSubstr("compare_peers.csv: error: fast memory needs a program"));
  r = Memplan("compare " + kExamples + "/mlp.mpir --target nope");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.out, "");
  EXPECT_THAT(r.err, HasSubstr("unknown target 'nope'"));
  fs::remove_all(dir);
}

}  // namespace
}  // namespace memplan
