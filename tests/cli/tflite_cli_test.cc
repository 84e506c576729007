// `memplan plan` on TFLite models: the shared models (skipped when ../shared
// is absent), models built in the test, offline plans in and out, and
// hostile files (exit 2 with a message).
#include <filesystem>
#include <map>

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "driver/plan_job.h"
#include "fmt/format.h"
#include "driver/tflite_offline.h"
#include "io/tflite/offline_plan.h"
#include "tests/cli/cli_runner.h"
#include "tests/io/tflite/tflite_test_models.h"

namespace memplan {
namespace {

using ::testing::HasSubstr;
using testing_cli::FreshDir;
using testing_cli::Memplan;
using testing_cli::Slurp;

const std::string kTfliteDir = std::string(MEMPLAN_SHARED_DIR) + "/data/tflite/";

bool HaveSharedTflite() { return std::filesystem::exists(kTfliteDir + "person_detect.tflite"); }

std::string WriteTinyModel(const std::string& dir, const std::string& name) {
  const std::string path = dir + "/" + name;
  tflite_test::WriteFile(path, tflite_test::BuildModel(tflite_test::ConvReshapeFc()));
  return path;
}

std::vector<std::int32_t> OfflinePlanOf(const std::string& path) {
  const std::string bytes = Slurp(path);
  absl::StatusOr<TfliteModel> model =
      ParseTfliteModel(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size(), path);
  EXPECT_TRUE(model.ok()) << model.status();
  if (!model.ok()) return {};
  absl::StatusOr<std::vector<std::int32_t>> plan = ReadOfflinePlan(*model, bytes, path);
  EXPECT_TRUE(plan.ok()) << plan.status();
  return plan.ok() ? *plan : std::vector<std::int32_t>{};
}

TEST(TfliteCliTest, EverySharedModelPlansVerified) {
  if (!HaveSharedTflite()) GTEST_SKIP() << "../shared/data/tflite not present";
  for (const char* name : {"audio_preprocessor_int8", "hello_world_int8", "keyword_scrambled",
                           "micro_speech_quantized", "person_detect", "person_detect_vela",
                           "trained_lstm_int8"}) {
    const testing_cli::CliRun run =
        Memplan(fmt::format("plan {}{}.tflite --json -", kTfliteDir, name));
    ASSERT_EQ(run.exit_code, 0) << name << run.err;
    EXPECT_EQ(nlohmann::json::parse(run.out).at("verified"), true) << name;
  }
}

// person_detect: 96x96x1 int8 input, then CONV_2D stride 2 to 48x48x8
// (18432 B), DEPTHWISE to 48x48x8 (18432 B), CONV_2D to 48x48x16 (36864 B),
// DEPTHWISE stride 2 to 24x24x16 (9216 B), ... every later activation is
// smaller. Live together (each op's input and output): step 0 9216 + 18432
// = 27648, step 1 18432 + 18432 = 36864, step 2 18432 + 36864 = 55296, step
// 3 36864 + 9216 = 46080: the max-live bound is 55296. TFLite Micro's greedy
// planner reaches it (36864 at 0, each 18432 at 36864 beside it, every
// multiple of 16), and so does memplan.
TEST(TfliteCliTest, PersonDetectArenaHeadFigures) {
  if (!HaveSharedTflite()) GTEST_SKIP() << "../shared/data/tflite not present";
  const testing_cli::CliRun run = Memplan("plan " + kTfliteDir + "person_detect.tflite");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_THAT(run.out,
              HasSubstr("TFLite Micro arena head: memplan 55296 bytes (54.00 KiB), TFLite Micro's "
                        "greedy planner 55296 bytes (54.00 KiB) (16-byte alignment), lower bound "
                        "55296 bytes (54.00 KiB)\n"));
  EXPECT_THAT(run.out, HasSubstr("peak: 55296 bytes live at step 2"));
}

// The tiny model: input 32 B [0,0], conv 64 B [0,1] whose reshape view
// extends it to [0,2], output 8 B [2,2]: memplan 96 = the bound; TFLite
// Micro gives the reshape its own 64 B [1,2]. Largest first: conv at 0,
// reshape (meeting conv) at 64, input (meeting conv only) at 64, output
// (16 B rounded, meeting reshape only) in the gap at 0: 128.
TEST(TfliteCliTest, TinyModelFiguresAndFormatDetection) {
  const std::string dir = FreshDir();
  const std::string path = WriteTinyModel(dir, "tiny.TFLITE");
  testing_cli::CliRun run = Memplan("plan " + path);
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_THAT(run.out, HasSubstr("TFLite Micro arena head: memplan 96 bytes, TFLite Micro's "
                                 "greedy planner 128 bytes (16-byte alignment), lower "
                                 "bound 96 bytes\n"));
  // Detected by its TFL3 identifier whatever its name.
  std::filesystem::copy_file(path, dir + "/model.bin");
  run = Memplan("plan " + dir + "/model.bin");
  EXPECT_EQ(run.exit_code, 0) << run.err;
  EXPECT_THAT(run.out, HasSubstr("TFLite Micro arena head: memplan 96 bytes"));
}

// --write-tflite then --offline-plan: the written file parses, its metadata
// is memplan's offsets, and planning around them reproduces the plan.
void ExpectRoundTrip(const std::string& model, const std::string& dir) {
  PlanJobOptions options;
  options.tflite_path = dir + "/planned.tflite";
  absl::StatusOr<PlanJobResult> first = RunPlanJob(model, options);
  ASSERT_TRUE(first.ok()) << first.status();
  absl::StatusOr<std::vector<std::int32_t>> expected = TflitePlanOffsets(first->input, first->plan);
  ASSERT_TRUE(expected.ok());
  EXPECT_EQ(OfflinePlanOf(*options.tflite_path), *expected);
  PlanJobOptions again;
  again.load.offline_plan = true;
  absl::StatusOr<PlanJobResult> second = RunPlanJob(*options.tflite_path, again);
  ASSERT_TRUE(second.ok()) << second.status();
  ASSERT_EQ(second->plan.placements.size(), first->plan.placements.size());
  for (std::size_t b = 0; b < first->plan.placements.size(); ++b) {
    EXPECT_EQ(second->plan.placements[b].allocations, first->plan.placements[b].allocations) << b;
  }
  EXPECT_EQ(second->plan.peak, first->plan.peak);
  EXPECT_THAT(second->summary, HasSubstr("(0 nested inside another)"));
  EXPECT_THAT(second->summary, HasSubstr(", verified\n"));
}

TEST(TfliteCliTest, WriteTfliteRoundTripOnTinyModel) {
  const std::string dir = FreshDir();
  const std::string path = WriteTinyModel(dir, "tiny.tflite");
  ExpectRoundTrip(path, dir);
  // input, filter, conv, reshape (conv's view), weights, output.
  std::vector<std::int32_t> plan = OfflinePlanOf(dir + "/planned.tflite");
  ASSERT_EQ(plan.size(), 6u);
  EXPECT_EQ(plan[1], -1);           // weights are not in the head
  EXPECT_EQ(plan[4], -1);
  EXPECT_EQ(plan[2], plan[3]);      // a view shares its input's bytes
}

// Subgraph 0's operators of the model at `path`, each named by its first
// output tensor.
std::vector<std::string> OperatorOutputsOf(const std::string& path) {
  const std::string bytes = Slurp(path);
  absl::StatusOr<TfliteModel> model =
      ParseTfliteModel(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size(), path);
  EXPECT_TRUE(model.ok()) << model.status();
  std::vector<std::string> names;
  if (!model.ok()) return names;
  const TfliteSubgraph& sg = model->subgraphs[0];
  for (const TfliteOperator& op : sg.operators) {
    const std::string& name = sg.tensors[op.outputs[0]].name;
    names.push_back(name.empty() ? fmt::format("t{}", op.outputs[0]) : name);
  }
  return names;
}

// The plan's operator order, from its schedule: the entry's ops, each named
// by its first result (the tensor names of subgraph 0).
std::vector<std::string> PlannedOperatorOutputs(const PlanJobResult& result) {
  const Program& program = *result.input.program;
  std::vector<std::string> names;
  for (OpId op : program.computations[program.entry].ops) {
    if (result.input.tflite->entry_operator[op] < 0) continue;
    names.push_back(program.values[program.ops[op].results[0]].name);
  }
  return names;
}

// --write-tflite --reorder: the written model runs its operators in the
// plan's order and carries the plan's offsets; planned again as written
// (no --reorder), its order and peak are the plan's, and its offline plan
// verifies and is reproduced by --offline-plan.
void ExpectReorderedRoundTrip(const std::string& model, const std::string& dir) {
  PlanJobOptions options;
  options.load.reorder = true;
  options.tflite_path = dir + "/reordered.tflite";
  absl::StatusOr<PlanJobResult> first = RunPlanJob(model, options);
  ASSERT_TRUE(first.ok()) << first.status();
  EXPECT_EQ(OperatorOutputsOf(*options.tflite_path), PlannedOperatorOutputs(*first));
  absl::StatusOr<PlanJobResult> plain = RunPlanJob(*options.tflite_path, PlanJobOptions{});
  ASSERT_TRUE(plain.ok()) << plain.status();
  EXPECT_EQ(PlannedOperatorOutputs(*plain), PlannedOperatorOutputs(*first));
  EXPECT_EQ(plain->plan.peak, first->plan.peak);
  EXPECT_THAT(plain->summary, HasSubstr(", verified\n"));
  PlanJobOptions again;
  again.load.offline_plan = true;
  absl::StatusOr<PlanJobResult> second = RunPlanJob(*options.tflite_path, again);
  ASSERT_TRUE(second.ok()) << second.status();
  // Buffer ids follow the file's operator order, so compare the peaks.
  EXPECT_EQ(second->plan.peak, first->plan.peak);
}

// The diamond (tflite_test_models.h): the file order keeps both 1 KiB
// branches live (2112 B); --reorder reduces each branch before the next.
TEST(TfliteCliTest, WriteTfliteWithReorderWritesTheNewOrder) {
  const std::string dir = FreshDir();
  const std::string path = dir + "/diamond.tflite";
  tflite_test::WriteFile(path, tflite_test::BuildModel(tflite_test::Diamond()));
  absl::StatusOr<PlanJobResult> file_order = RunPlanJob(path, PlanJobOptions{});
  ASSERT_TRUE(file_order.ok()) << file_order.status();
  EXPECT_EQ(file_order->plan.peak, 2112);
  ExpectReorderedRoundTrip(path, dir);
  EXPECT_EQ(OperatorOutputsOf(dir + "/reordered.tflite"),
            (std::vector<std::string>{"a", "a2", "b", "b2", "output"}));
  PlanJobOptions plain;
  absl::StatusOr<PlanJobResult> reordered = RunPlanJob(dir + "/reordered.tflite", plain);
  ASSERT_TRUE(reordered.ok()) << reordered.status();
  EXPECT_EQ(reordered->plan.peak, 1152);
  // The command line says so too, and the file is a model memplan reads.
  testing_cli::CliRun run =
      Memplan("plan " + path + " --reorder --write-tflite " + dir + "/cli.tflite");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_THAT(run.out, HasSubstr("order: reordered by"));
  EXPECT_EQ(Slurp(dir + "/cli.tflite"), Slurp(dir + "/reordered.tflite"));
}

TEST(TfliteCliTest, WriteTfliteWithReorderRoundTripsOnSharedModels) {
  if (!HaveSharedTflite()) GTEST_SKIP() << "../shared/data/tflite not present";
  for (const char* name : {"person_detect", "keyword_scrambled", "audio_preprocessor_int8"}) {
    SCOPED_TRACE(name);
    ExpectReorderedRoundTrip(kTfliteDir + name + ".tflite", FreshDir());
  }
}

// --write-tflite is an output like the others: never the input, never
// another output's file (the model would replace the JSON, or itself).
TEST(TfliteCliTest, WriteTfliteNeverOverwritesTheInputOrAnotherOutput) {
  const std::string dir = FreshDir();
  const std::string path = WriteTinyModel(dir, "tiny.tflite");
  testing_cli::CliRun run = Memplan("plan " + path + " --write-tflite " + path);
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_EQ(run.err, path + ": error: output path is the input file (--write-tflite)\n");
  run = Memplan("plan " + path + " --json " + dir + "/o.tflite --write-tflite " + dir +
                "/o.tflite");
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_EQ(run.err, dir + "/o.tflite: error: --json and --write-tflite name the same file\n");
  EXPECT_FALSE(std::filesystem::exists(dir + "/o.tflite"));
  std::filesystem::remove_all(dir);
}

TEST(TfliteCliTest, WriteTfliteRoundTripOnPersonDetect) {
  if (!HaveSharedTflite()) GTEST_SKIP() << "../shared/data/tflite not present";
  ExpectRoundTrip(kTfliteDir + "person_detect.tflite", FreshDir());
}

// Vela's plan puts the output, both scratch areas and the input at offset 0:
// the NPU's input and output live inside its scratch area, and so does the
// fast scratch (Vela's shared-SRAM layout). With --offline-plan they become
// sub-allocations of the scratch area (Buffer::inside): memplan's head is
// Vela's 74464 bytes (without them, 74464 * 2 + 9216 + 2 = 158146).
TEST(TfliteCliTest, VelaOfflinePlanReadVerifiedAndPlannedAround) {
  if (!HaveSharedTflite()) GTEST_SKIP() << "../shared/data/tflite not present";
  const std::string vela = kTfliteDir + "person_detect_vela.tflite";
  EXPECT_EQ(OfflinePlanOf(vela), (std::vector<std::int32_t>{0, -1, -1, 0, 0, 0}));
  const std::string dir = FreshDir();
  testing_cli::CliRun run = Memplan("plan " + vela + " --offline-plan --json " + dir + "/p.json");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const nlohmann::json plan = nlohmann::json::parse(Slurp(dir + "/p.json"));
  EXPECT_EQ(plan.at("verified"), true);
  EXPECT_EQ(plan.at("input_options").at("offline_plan"), true);
  int transient = 0;
  for (const nlohmann::json& b : plan.at("buffers")) {
    if (b.at("lifetime") != "transient") continue;
    ++transient;
    EXPECT_EQ(b.at("allocations")[0].at("offset"), 0) << b.at("name");
  }
  EXPECT_EQ(transient, 4);
  EXPECT_EQ(plan.at("peak_bytes"), 74464);
  EXPECT_EQ(plan.at("lower_bound_bytes"), 74464);
  EXPECT_THAT(run.out, HasSubstr("offline plan (OfflineMemoryAllocation): 4 tensors in 4 buffers "
                                 "(3 nested inside another), head 74464 bytes (72.72 KiB), "
                                 "verified\n"));
  EXPECT_THAT(run.out, HasSubstr("--offline-plan kept 4 buffers (158146 bytes) at their offsets, "
                                 "3 of them nested inside another; memplan's transient extent "
                                 "around them 74464 bytes (72.72 KiB), the offline plan's head "
                                 "74464 bytes (72.72 KiB): +0 bytes\n"));
  // verify re-loads with the recorded --offline-plan and passes.
  run = Memplan("verify " + vela + " " + dir + "/p.json");
  EXPECT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(run.out, dir + "/p.json: plan verified: 6 buffers, transient extent 74464 bytes, "
                           "lower bound 74464 bytes\n");
  // Without --offline-plan memplan plans freely and gives each its bytes.
  run = Memplan("plan " + vela + " --json -");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(nlohmann::json::parse(run.out).at("peak_bytes"), 158146);
}

// A hand-made Vela-like model (tflite_test::VelaLike): input (32 B) and
// output (8 B) nested inside the scratch area (64 B) at offset 0. memplan
// keeps the plan: extent 64, lower bound 64 (planned apart: 104).
TEST(TfliteCliTest, NestedOfflinePlanKeepsItsHeadAndVerifies) {
  const std::string dir = FreshDir();
  const std::string path = dir + "/nested.tflite";
  tflite_test::WriteFile(path, tflite_test::BuildModel(tflite_test::VelaLike()));
  testing_cli::CliRun run = Memplan("plan " + path + " --offline-plan --json " + dir + "/p.json");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_THAT(run.out, HasSubstr("transient extent 64 bytes, lower bound 64 bytes "
                                 "(0.00% over)\n"));
  EXPECT_THAT(run.out, HasSubstr("offline plan (OfflineMemoryAllocation): 3 tensors in 3 buffers "
                                 "(2 nested inside another), head 64 bytes, verified\n"));
  EXPECT_THAT(run.out, HasSubstr("--offline-plan kept 3 buffers (104 bytes) at their offsets, 2 "
                                 "of them nested inside another; memplan's transient extent "
                                 "around them 64 bytes, the offline plan's head 64 bytes: "
                                 "+0 bytes\n"));
  run = Memplan("verify " + path + " " + dir + "/p.json");
  EXPECT_EQ(run.exit_code, 0) << run.err;
  // execute cannot tell the nested tensors' writes from clobbers: it says so.
  run = Memplan("execute " + path + " " + dir + "/p.json");
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_EQ(run.err, dir + "/p.json: error: execute does not run sub-allocated buffers (2 of this "
                            "plan's buffers sit inside another's bytes, as --offline-plan places them); "
                            "memplan verify checks them (rule 13), or plan without --offline-plan "
                            "to execute\n");
  // A hand-edited plan that moves an offline-planned tensor fails, naming it.
  nlohmann::json edited = nlohmann::json::parse(Slurp(dir + "/p.json"));
  for (nlohmann::json& b : edited.at("buffers")) {
    if (b.at("name") == "output") b.at("allocations")[0].at("offset") = 8;
  }
  tflite_test::WriteFile(dir + "/moved.json", edited.dump());
  run = Memplan("verify " + path + " " + dir + "/moved.json");
  EXPECT_EQ(run.exit_code, 1);
  EXPECT_EQ(run.err, dir + "/moved.json: error: verification failed: buffer 'output' (id 2) "
                           "allocation 0 (space 0, bytes [8, 16), time [1, 1]): offset 8 is not "
                           "the buffer's fixed offset 0\n");
  // Without --offline-plan the plan records none, and verify loads freely.
  run = Memplan("plan " + path + " --json " + dir + "/free.json");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(nlohmann::json::parse(Slurp(dir + "/free.json")).at("input_options").at("offline_plan"),
            false);
  EXPECT_THAT(run.out, HasSubstr("transient extent 104 bytes"));
  std::filesystem::remove_all(dir);
}

// name -> arena bytes of a `memplan compare --json -` document.
std::map<std::string, long long> CompareBytes(const std::string& json) {
  std::map<std::string, long long> bytes;
  const nlohmann::json doc = nlohmann::json::parse(json);  // outlives the loop
  for (const auto& row : doc.at("strategies")) {
    bytes[row.at("name").get<std::string>()] = row.at("arena_bytes").get<long long>();
  }
  return bytes;
}

// compare's peer rows run on memplan's buffers (the tiny model: conv and its
// reshape view one 64 B buffer [0,2], input 32 B [0,0], output 8 B [2,2]:
// greedy puts conv at 0 and input and output both at 64, 96 bytes), while
// plan's TFLite Micro figure is on TFLite Micro's own tensors at 16-byte
// alignment (128, TinyModelFiguresAndFormatDetection). compare's
// tflite-micro-head row is that figure, so the two verbs agree on it.
TEST(TfliteCliTest, CompareShowsTfliteMicrosOwnHeadFigureBesideThePeers) {
  const std::string dir = FreshDir();
  const std::string path = WriteTinyModel(dir, "tiny.tflite");
  testing_cli::CliRun run = Memplan("compare " + path + " --json -");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  std::map<std::string, long long> bytes = CompareBytes(run.out);
  EXPECT_EQ(bytes["tflite-micro-greedy"], 96);
  EXPECT_EQ(bytes["tflite-micro-head"], 128);
  const nlohmann::json doc = nlohmann::json::parse(run.out);
  EXPECT_EQ(doc.at("strategies").back().at("name"), "tflite-micro-head");
  EXPECT_EQ(doc.at("strategies").back().at("verified"), true);
  EXPECT_EQ(doc.at("strategies").back().at("on_memplan_buffers"), false);
  EXPECT_EQ(doc.at("strategies").front().at("on_memplan_buffers"), true);
  // Said once, in the header, for every input; no row repeats it.
  run = Memplan("compare " + path);
  EXPECT_THAT(run.out, HasSubstr("\nevery row on memplan's buffers (a view shares its input's "
                                 "buffer) but tflite-micro-head\n\n"));
  EXPECT_THAT(run.out, ::testing::Not(HasSubstr("(on memplan's buffers)")));
  std::filesystem::remove_all(dir);
  if (!HaveSharedTflite()) return;
  // audio_preprocessor: 2884 on memplan's buffers, 2084 as plan says; with
  // no views and TFLite Micro's alignment the peer row agrees.
  const std::string audio = kTfliteDir + "audio_preprocessor_int8.tflite";
  run = Memplan("compare " + audio + " --json -");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  bytes = CompareBytes(run.out);
  EXPECT_EQ(bytes["tflite-micro-greedy"], 2884);
  EXPECT_EQ(bytes["tflite-micro-head"], 2084);
  run = Memplan("plan " + audio);
  EXPECT_THAT(run.out, HasSubstr("TFLite Micro's greedy planner 2084 bytes"));
  run = Memplan("compare " + audio + " --no-alias --alignment 16 --json -");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(CompareBytes(run.out)["tflite-micro-greedy"], 2084);
}

TEST(TfliteCliTest, HostileFilesExitTwoWithAMessage) {
  const std::string dir = FreshDir();
  const std::string good = tflite_test::BuildModel(tflite_test::ConvReshapeFc());
  tflite_test::WriteFile(dir + "/cut.tflite", good.substr(0, good.size() / 2));
  testing_cli::CliRun run = Memplan("plan " + dir + "/cut.tflite");
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_THAT(run.err, HasSubstr(dir + "/cut.tflite: error: malformed TFLite file: "));
  tflite_test::WriteFile(dir + "/short.tflite", "TFL3");
  run = Memplan("plan " + dir + "/short.tflite");
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_THAT(run.err, HasSubstr("short.tflite: error: not a TFLite file: 4 bytes"));
  tflite_test::Model absurd = tflite_test::ConvReshapeFc();
  absurd.subgraphs[0].tensors[5].shape = {1 << 30, 1 << 30, 1 << 30};
  tflite_test::WriteFile(dir + "/absurd.tflite", tflite_test::BuildModel(absurd));
  run = Memplan("plan " + dir + "/absurd.tflite");
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_THAT(run.err, HasSubstr("absurd.tflite: error: subgraph 0 tensor 5 ('output') has an "
                                 "absurd shape"));
}

TEST(TfliteCliTest, FlagsOnTheWrongInput) {
  const std::string dir = FreshDir();
  testing_cli::CliRun run = Memplan("plan " + testing_cli::kMlp + " --offline-plan");
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_THAT(run.err, HasSubstr("--offline-plan applies only to TFLite models"));
  run = Memplan("plan " + testing_cli::kMlp + " --write-tflite " + dir + "/x.tflite");
  EXPECT_EQ(run.exit_code, 2);
  // Located at the input, the file of the wrong kind, not at the output.
  EXPECT_EQ(run.err, testing_cli::kMlp + ": error: --write-tflite needs a TFLite model as input "
                                         "(this is memplan text IR)\n");
  const std::string tiny = WriteTinyModel(dir, "tiny.tflite");
  run = Memplan("plan " + tiny + " --offline-plan");
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_THAT(run.err, HasSubstr("--offline-plan: the model has no OfflineMemoryAllocation"));
}

// An offline plan whose tensors collide is refused with --offline-plan.
TEST(TfliteCliTest, CollidingOfflinePlanFailsVerification) {
  const std::string dir = FreshDir();
  tflite_test::Model m = tflite_test::ConvReshapeFc();
  // input (32 B, step 0) and conv (64 B, steps 0-2) both at 16: they meet.
  m.metadata = {{"OfflineMemoryAllocation", {1, 1, 6, 16, -1, 40, 40, -1, 0}}};
  tflite_test::WriteFile(dir + "/bad.tflite", tflite_test::BuildModel(m));
  const testing_cli::CliRun run = Memplan("plan " + dir + "/bad.tflite --offline-plan");
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_THAT(run.err, HasSubstr("bad.tflite: error: --offline-plan: the model's offline plan "
                                 "fails verification: "));
  // Only scratch memory holds other tensors: the input inside conv's bytes
  // (a CPU op reading what it overwrites) is a collision, not a nesting.
  m.metadata = {{"OfflineMemoryAllocation", {1, 1, 6, 0, -1, 0, 0, -1, 64}}};
  tflite_test::WriteFile(dir + "/inplace.tflite", tflite_test::BuildModel(m));
  const testing_cli::CliRun inplace = Memplan("plan " + dir + "/inplace.tflite --offline-plan");
  EXPECT_EQ(inplace.exit_code, 2);
  EXPECT_THAT(inplace.err, HasSubstr("inplace.tflite: error: --offline-plan: the model's offline "
                                     "plan fails verification: buffer 'conv' (id 1) allocation 0 "
                                     "(space 0, bytes [0, 64), time [0, 2]) overlaps buffer "
                                     "'input' (id 0) allocation 0 (space 0, bytes [0, 32), time "
                                     "[0, 0]) at time 0"));
}

}  // namespace
}  // namespace memplan
