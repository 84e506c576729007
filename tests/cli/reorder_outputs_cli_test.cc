// --reorder's outputs: --write-onnx (the nodes in the plan's order),
// `compare --reorder` (a row per reordering strategy) and the memory maps
// of both orders side by side. (--write-tflite with --reorder is in
// tflite_cli_test.cc.)
#include <algorithm>
#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "cli_runner.h"
#include "driver/plan_job.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "onnx/checker.h"
#include "onnx/onnx_pb.h"

namespace memplan {
namespace {

using ::testing::HasSubstr;
using testing_cli::CliRun;
using testing_cli::FreshDir;
using testing_cli::Memplan;
using testing_cli::Slurp;

const std::string kFpn = MEMPLAN_SOURCE_DIR "/tests/data/onnx/fpn_ssd_tiny.onnx";
const std::string kRandwire = MEMPLAN_SOURCE_DIR "/examples/reorder_randwire.mpir";
const std::string kDiamond = MEMPLAN_SOURCE_DIR "/examples/reorder_diamond.mpir";
const std::string kSharedDeeplab = MEMPLAN_SHARED_DIR "/data/onnx/torchvision/deeplabv3_resnet50.onnx";

// The entry's ops in schedule order, each named by its first result.
std::vector<std::string> OrderOf(const PlanJobResult& result) {
  const Program& program = *result.input.program;
  std::vector<std::string> names;
  for (OpId op : program.computations[program.entry].ops) {
    const Op& o = program.ops[op];
    names.push_back(o.results.empty() ? o.opcode : program.values[o.results[0]].name);
  }
  return names;
}

// The model at `path` passes libonnx's checker (which requires the nodes in
// a topological order), and each node reads only tensors defined before it.
// The checker reads external weight files, which the shared models name but
// do not ship: for them only the order is checked.
void ExpectValidOnnx(const std::string& path) {
  onnx::ModelProto model;
  const std::string bytes = Slurp(path);
  ASSERT_TRUE(model.ParseFromString(bytes));
  const bool external_weights =
      std::any_of(model.graph().initializer().begin(), model.graph().initializer().end(),
                  [](const onnx::TensorProto& t) {
                    return t.data_location() == onnx::TensorProto::EXTERNAL;
                  });
  if (!external_weights) {
    EXPECT_NO_THROW(onnx::checker::check_model(model));
  }
  std::set<std::string> defined;
  for (const auto& input : model.graph().input()) defined.insert(input.name());
  for (const auto& init : model.graph().initializer()) defined.insert(init.name());
  for (const auto& node : model.graph().node()) {
    for (const std::string& in : node.input()) {
      EXPECT_TRUE(in.empty() || defined.count(in) > 0) << node.name() << " reads " << in;
    }
    for (const std::string& out : node.output()) defined.insert(out);
  }
}

// `order` without the op computing `name`.
std::vector<std::string> Without(std::vector<std::string> order, const std::string& name) {
  std::erase(order, name);
  return order;
}

// Plans `model` with --reorder --write-onnx, then the written model as it
// is: the same order (but for `delayed`, an op the file makes wait for a
// node it reads only through a folded value), the same transient peak;
// returns the first plan.
PlanJobResult ExpectOnnxRoundTrip(const std::string& model, const std::string& dir,
                                  const std::string& delayed = "") {
  PlanJobOptions options;
  options.load.reorder = true;
  options.onnx_path = dir + "/reordered.onnx";
  absl::StatusOr<PlanJobResult> first = RunPlanJob(model, options);
  EXPECT_TRUE(first.ok()) << first.status();
  if (!first.ok()) return {};
  ExpectValidOnnx(*options.onnx_path);
  absl::StatusOr<PlanJobResult> again = RunPlanJob(*options.onnx_path, PlanJobOptions{});
  EXPECT_TRUE(again.ok()) << again.status();
  if (!again.ok()) return {};
  EXPECT_EQ(Without(OrderOf(*again), delayed), Without(OrderOf(*first), delayed));
  EXPECT_EQ(again->plan.peak, first->plan.peak);
  EXPECT_EQ(again->plan.lower_bound, first->plan.lower_bound);
  return *std::move(first);
}

// fpn_ssd_tiny: --reorder lowers the transient max-live from 185088 to
// 152320 bytes; the written model, planned without --reorder, runs in the
// new order at the new peak.
TEST(ReorderOutputsCliTest, WriteOnnxWritesTheReorderedNodes) {
  const std::string dir = FreshDir();
  // The plan runs the Cast to the output "287" first: it reads only
  // anchors the importer folded, but in the file they are computed from the
  // Shape of the activation /Add_1 makes, so the file runs it after /Add_1.
  const PlanJobResult first = ExpectOnnxRoundTrip(kFpn, dir, "287");
  ASSERT_FALSE(OrderOf(first).empty());
  EXPECT_EQ(OrderOf(first)[0], "287");
  ASSERT_TRUE(first.input.reorder.has_value());
  EXPECT_LT(first.input.reorder->peak, first.input.reorder->input_peak);
  EXPECT_EQ(first.input.reorder->peak, 152320);
  EXPECT_EQ(first.input.reorder->input_peak, 185088);  // as `memplan schedule` reports
  absl::StatusOr<PlanJobResult> file_order = RunPlanJob(kFpn, PlanJobOptions{});
  ASSERT_TRUE(file_order.ok());
  EXPECT_NE(OrderOf(*file_order), OrderOf(first));
}

TEST(ReorderOutputsCliTest, WriteOnnxNeedsAnOnnxInput) {
  const std::string dir = FreshDir();
  CliRun run = Memplan("plan " + kDiamond + " --reorder --write-onnx " + dir + "/x.onnx");
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_EQ(run.err, kDiamond + ": error: --write-onnx needs an ONNX model as input (this is "
                               "memplan text IR)\n");
  EXPECT_FALSE(std::filesystem::exists(dir + "/x.onnx"));
}

// The diamond's maps: the input order's beside the reordered one, each
// titled with its transient peak (an SVG of two nested maps, an HTML page of
// two frames).
TEST(ReorderOutputsCliTest, MapsShowBothOrdersSideBySide) {
  const std::string dir = FreshDir();
  CliRun run = Memplan("plan " + kDiamond + " --reorder --quiet --svg " + dir + "/m.svg --html " +
                       dir + "/m.html");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const std::string svg = Slurp(dir + "/m.svg");
  std::size_t maps = 0;
  for (std::size_t at = svg.find("<svg"); at != std::string::npos; at = svg.find("<svg", at + 1)) {
    ++maps;
  }
  EXPECT_EQ(maps, 3u);
  EXPECT_THAT(svg, HasSubstr("input order · transient peak 2.02 MiB"));
  EXPECT_THAT(svg, HasSubstr("reordered by xla-list · transient peak 1.03 MiB"));
  const std::string html = Slurp(dir + "/m.html");
  EXPECT_THAT(html, HasSubstr("<iframe title=\"" + kDiamond + " · input order"));
  EXPECT_THAT(html, HasSubstr("<iframe title=\"" + kDiamond + " · reordered by xla-list"));
}

// compare --reorder on examples/reorder_randwire.mpir (21 ops): every
// strategy's order with its exact transient max-live; memplan's row is the
// lowest (xla-list's order, proven optimal by the exact row) and at or below
// every peer's.
TEST(ReorderOutputsCliTest, CompareReorderRowsPerStrategy) {
  const CliRun run = Memplan("compare " + kRandwire + " --reorder --quiet --json -");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const nlohmann::json orders = nlohmann::json::parse(run.out)["orders"];
  EXPECT_EQ(orders["kept"], "xla-list");
  EXPECT_EQ(orders["input_max_live_bytes"], 2424832);
  EXPECT_EQ(orders["lower_bound_bytes"], 1572864);
  std::map<std::string, std::int64_t> rows;
  for (const auto& row : orders["strategies"]) rows[row["name"]] = row["max_live_bytes"];
  const std::map<std::string, std::int64_t> expected = {
      {"memplan", 1835008},        {"input", 2424832},         {"xla-list", 1835008},
      {"xla-dfs", 2162688},        {"xla-post-order", 2097152}, {"inductor-lpmf", 1900544},
      {"inductor-bfs", 2162688},   {"inductor-dfs", 2555904},   {"local-search", 1835008},
      {"exact", 1835008}};
  EXPECT_EQ(rows, expected);
  for (const auto& [name, bytes] : rows) EXPECT_LE(rows["memplan"], bytes) << name;
}

TEST(ReorderOutputsCliTest, WriteOnnxRoundTripsOnASharedModel) {
  if (!std::filesystem::exists(kSharedDeeplab)) GTEST_SKIP() << "../shared not present";
  const PlanJobResult first = ExpectOnnxRoundTrip(kSharedDeeplab, FreshDir());
  ASSERT_TRUE(first.input.reorder.has_value());
  EXPECT_LT(first.input.reorder->peak, first.input.reorder->input_peak);
}

}  // namespace
}  // namespace memplan
