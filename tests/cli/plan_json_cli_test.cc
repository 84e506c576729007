// The plan JSON's records (input_options, the msa setup) through the memplan
// binary, and `memplan verify` loading the input as the plan records; ONNX
// inputs by extension in any case, and refused ONNX control flow before opset 11.
#include <filesystem>
#include <string>

#include "cli_runner.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/unlocated.h"
#include "nlohmann/json.hpp"
#include "tests/io/onnx/test_models.h"

namespace memplan {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;
using ::testing::StartsWith;
using testing_cli::CliRun;
using testing_cli::FreshDir;
using testing_cli::Memplan;
using testing_cli::Slurp;
using testing_cli::WriteText;
using Json = nlohmann::ordered_json;
using onnx::TensorProto;

using testing_cli::kMlp;

// x[batch,4] -> Relu a -> Relu c -> Relu d (output). With aliasing c is
// written in place into a (3 buffers); without, 4 buffers.
std::string ReluChain(const std::string& file_name) {
  testing::OnnxModelBuilder b;
  b.Input("x", TensorProto::FLOAT, {"batch", 4}).Output("d");
  b.Node("Relu", {"x"}, {"a"});
  b.Node("Relu", {"a"}, {"c"});
  b.Node("Relu", {"c"}, {"d"});
  return b.Write(file_name);
}

class PlanJsonCliTest : public ::testing::Test {
 protected:
  void SetUp() override { dir_ = FreshDir(); }
  void TearDown() override { fs::remove_all(dir_); }
  std::string dir_;
};

TEST_F(PlanJsonCliTest, RecordsInputOptionsAndVerifyUsesThem) {
  const std::string model = ReluChain("chain.onnx");
  const std::string json = dir_ + "/plan.json";
  CliRun r = Memplan("plan " + model + " --no-alias --dim batch=2 --json " + json);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const Json plan = Json::parse(Slurp(json));
  EXPECT_EQ(plan["input_options"], Json::parse(R"({"alias": false, "dims": {"batch": 2}, "regions": null, "offline_plan": false, "reorder": false})"));
  EXPECT_EQ(plan["buffers"].size(), 4u);

  // No flags: verify imports the model as the plan records.
  CliRun v = Memplan("verify " + model + " " + json);
  EXPECT_EQ(v.exit_code, 0) << v.err;
  EXPECT_EQ(v.out, json + ": plan verified: 4 buffers, transient extent 64 bytes, lower bound 64 "
                          "bytes\n");
  // Agreeing flags are fine; disagreeing ones are an error.
  EXPECT_EQ(Memplan("verify " + model + " " + json + " --no-alias --dim batch=2").exit_code, 0);
  v = Memplan("verify " + model + " " + json + " --dim batch=3");
  EXPECT_EQ(v.exit_code, 2);
  EXPECT_EQ(v.err, json + ": error: --dim batch=3 disagrees with the plan, which was made with "
                          "--dim batch=2; drop the flag (verify loads the input as the plan "
                          "records)\n");

  ASSERT_EQ(Memplan("plan " + model + " --dim batch=2 --json " + json).exit_code, 0);
  v = Memplan("verify " + model + " " + json + " --no-alias");
  EXPECT_EQ(v.exit_code, 2);
  EXPECT_EQ(v.err, json + ": error: --no-alias disagrees with the plan, which was made with "
                          "aliasing on; drop the flag (verify loads the input as the plan "
                          "records)\n");
}

TEST_F(PlanJsonCliTest, APlanWithoutInputOptionsNamesTheLikelyCause) {
  const std::string model = ReluChain("chain_old.onnx");
  const std::string json = dir_ + "/plan.json";
  ASSERT_EQ(Memplan("plan " + model + " --no-alias --dim batch=2 --json " + json).exit_code, 0);
  Json plan = Json::parse(Slurp(json));
  plan.erase("input_options");  // as written before the key existed
  WriteText(json, plan.dump());
  CliRun v = Memplan("verify " + model + " " + json + " --dim batch=2");
  EXPECT_EQ(v.exit_code, 2);
  EXPECT_EQ(testing_located::Unlocated(v.err), json + ": error: /buffers: lists 4 buffers but the input has 2; the plan does "
                          "not record how the input was loaded (--no-alias, --dim)\n");
  EXPECT_EQ(Memplan("verify " + model + " " + json + " --dim batch=2 --no-alias").exit_code, 0);
}

TEST_F(PlanJsonCliTest, CsvAndTextIrRecordDefaultOptions) {
  const std::string json = dir_ + "/plan.json";
  ASSERT_EQ(Memplan("plan " + kMlp + " --json " + json).exit_code, 0);
  EXPECT_EQ(Json::parse(Slurp(json))["input_options"],
            Json::parse(R"({"alias": true, "dims": {}, "regions": null, "offline_plan": false, "reorder": false})"));
}

TEST_F(PlanJsonCliTest, DimErrors) {
  const std::string model = ReluChain("chain_dims.onnx");
  CliRun r = Memplan("plan " + model + " --dim batch=2 --dim seq=3");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, model + ": error: --dim seq=3: the model has no symbolic dim 'seq' (the "
                           "symbolic dims of its inputs: batch)\n");
  r = Memplan("plan " + model);
  EXPECT_EQ(r.exit_code, 2);
  // x, a, c and d: one symbolic dim each, all from x's.
  EXPECT_EQ(r.err, model + ": error: 4 tensor dims are symbolic; they follow from input dims: "
                           "'batch' (input 'x' dim 0); bind it with --dim batch=VALUE\n");
}

TEST_F(PlanJsonCliTest, MsaBlockRecordsTargetModeAndVariant) {
  const std::string json = dir_ + "/plan.json";
  ASSERT_EQ(Memplan("plan " + kMlp + " --target edge-npu --msa-mode reference --json " + json)
                .exit_code,
            0);
  Json msa = Json::parse(Slurp(json))["msa"];
  EXPECT_EQ(msa["target"], "edge-npu");
  EXPECT_EQ(msa["mode"], "reference");
  EXPECT_EQ(msa["variant"], "reference");

  ASSERT_EQ(Memplan("plan " + kMlp + " --fast-memory 256KiB --json " + json).exit_code, 0);
  msa = Json::parse(Slurp(json))["msa"];
  EXPECT_EQ(msa["target"], "edge-npu");  // the default preset
  EXPECT_EQ(msa["mode"], "default");
  ASSERT_TRUE(msa["variant"].is_string());
  EXPECT_FALSE(msa["variant"].get<std::string>().empty());
  EXPECT_EQ(Memplan("verify " + kMlp + " " + json).exit_code, 0);

  // A mistyped setup field is a located schema error.
  Json plan = Json::parse(Slurp(json));
  plan["msa"]["mode"] = 1;
  WriteText(json, plan.dump());
  CliRun v = Memplan("verify " + kMlp + " " + json);
  EXPECT_EQ(v.exit_code, 2);
  EXPECT_EQ(testing_located::Unlocated(v.err), json + ": error: /msa/mode: expected a string, found number\n");
}

TEST_F(PlanJsonCliTest, VerifyRejectsMalformedValuesWithTheirPointer) {
  const std::string csv = dir_ + "/x.csv", json = dir_ + "/plan.json";
  WriteText(csv, "id,lower,upper,size\nb1,0,3,4\nb2,0,3,4\n");
  ASSERT_EQ(Memplan("plan " + csv + " --json " + json).exit_code, 0);
  const Json good = Json::parse(Slurp(json));
  struct Case {
    const char* pointer;
    Json value;
    std::string message;
  };
  const Case cases[] = {
      {"/alignment", 0, "/alignment: 0 is outside [1, 4294967296]"},
      {"/alignment", -64, "/alignment: -64 is outside [1, 4294967296]"},
      {"/alignment", 8589934592LL, "/alignment: 8589934592 is outside [1, 4294967296]"},
      {"/buffers/1/allocations/0/offset", -4,
       "/buffers/1/allocations/0/offset: -4 is outside [0, 4611686018427387904]"},
      {"/buffers/1/allocations/0/offset", 9223372036854775807LL,
       "/buffers/1/allocations/0/offset: 9223372036854775807 is outside [0, "
       "4611686018427387904]"},
      {"/buffers/0/allocations/0/space", -1,
       "/buffers/0/allocations/0/space: -1 is outside [0, 2147483647]"},
      {"/spaces/0/capacity_bytes", -1,
       "/spaces/0/capacity_bytes: -1 is outside [0, 4611686018427387904]"},
      {"/peak_bytes", "8", "/peak_bytes: expected an integer, found string"},
      {"/input_options/alias", "yes", "/input_options/alias: expected a boolean, found string"},
      {"/input_options/dims", Json::parse(R"({"batch": 0})"),
       "/input_options/dims/batch: must be at least 1, found 0"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.pointer);
    Json plan = good;
    plan[Json::json_pointer(c.pointer)] = c.value;
    WriteText(json, plan.dump());
    CliRun v = Memplan("verify " + csv + " " + json);
    EXPECT_EQ(v.exit_code, 2);
    EXPECT_EQ(testing_located::Unlocated(v.err), json + ": error: " + c.message + "\n");
  }
  // A copy naming a buffer the input does not have.
  Json plan = good;
  plan["async_copies"].push_back(Json::parse(
      R"({"buffer":2,"kind":"prefetch","from_space":0,"to_space":1,"start":0,"done":1,"bytes":4})"));
  WriteText(json, plan.dump());
  CliRun v = Memplan("verify " + csv + " " + json);
  EXPECT_EQ(v.exit_code, 2);
  EXPECT_EQ(testing_located::Unlocated(v.err), json + ": error: /async_copies/0/buffer: 2 is outside [0, 1]\n");
  // A well-formed plan breaking a rule fails verification with exit 1.
  plan = good;
  plan["buffers"][1]["allocations"][0]["offset"] = 2;
  WriteText(json, plan.dump());
  v = Memplan("verify " + csv + " " + json);
  EXPECT_EQ(v.exit_code, 1);
  EXPECT_THAT(v.err, StartsWith(json + ": error: verification failed: "));
}

TEST_F(PlanJsonCliTest, ExtensionsAreCaseInsensitive) {
  const std::string upper_csv = dir_ + "/X.CSV";
  WriteText(upper_csv, "id,lower,upper,size\nb1,0,3,4\n");
  CliRun r = Memplan("plan " + upper_csv);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("transient extent 4 bytes"));

  const std::string model = ReluChain("CHAIN.Onnx");
  r = Memplan("plan " + model + " --dim batch=1");
  EXPECT_EQ(r.exit_code, 0) << r.err;
}

TEST_F(PlanJsonCliTest, ANonMpirFileThatIsNotTextIrGetsAHint) {
  const std::string txt = dir_ + "/buffers.txt";
  WriteText(txt, "id,lower,upper,size\nb1,0,3,4\n");
  CliRun r = Memplan("plan " + txt);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, StartsWith(txt + ":1:1: error: "));
  EXPECT_THAT(r.err, HasSubstr("(read as memplan text IR because the file name does not end in "
                               ".csv, .onnx, .tflite, .hlo or .hlo.txt, and the file starts with "
                               "neither `HloModule` nor a TFLite identifier)\n"));
  // A .mpir file gets the plain parse error.
  const std::string mpir = dir_ + "/bad.mpir";
  WriteText(mpir, "id,lower,upper,size\n");
  r = Memplan("plan " + mpir);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, ::testing::Not(HasSubstr("read as memplan text IR")));
}

TEST_F(PlanJsonCliTest, StatsOfAnInputWithoutBuffers) {
  const std::string csv = dir_ + "/empty.csv";
  WriteText(csv, "id,lower,upper,size\n");
  CliRun r = Memplan("stats " + csv);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("lower bound (max live activations): 0 bytes (no transient "
                               "buffers)\n"));
  EXPECT_THAT(r.out, HasSubstr("max live (all buffers, weights included): 0 bytes (no buffers)\n"));
  EXPECT_THAT(r.out, ::testing::Not(HasSubstr("time -1")));
}

TEST_F(PlanJsonCliTest, OnnxControlFlowBeforeOpset11IsRefused) {
  for (const char* op : {"If", "Loop", "Scan"}) {
    SCOPED_TRACE(op);
    testing::OnnxModelBuilder b(/*opset=*/10);
    b.Input("c", TensorProto::BOOL, {}).Output("y");
    onnx::NodeProto& node = b.Node(op, {"c"}, {"y"}, "flow");
    auto* attr = node.add_attribute();
    attr->set_name("body");
    attr->set_type(onnx::AttributeProto::GRAPH);
    attr->mutable_g()->set_name("body");
    const std::string model = b.Write(std::string("flow_") + op + ".onnx");
    const std::string json = dir_ + "/plan.json";
    CliRun r = Memplan("plan " + model + " --json " + json);
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_EQ(r.err, model + ": error: node 'flow' (" + op +
                         "): control flow (If, Loop, Scan) needs opset 11 or newer; the model "
                         "imports opset 10\n");
    EXPECT_FALSE(fs::exists(json));
  }
}

}  // namespace
}  // namespace memplan
