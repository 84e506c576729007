// Writes the TFLite seeds of fuzz/corpus/tflite/ from the test models of
// tests/io/tflite/tflite_test_models.h (not part of the build):
//   g++ -std=c++20 -I. fuzz/make_tflite_seeds.cc -o /tmp/seeds && /tmp/seeds fuzz/corpus/tflite
#include "tests/io/tflite/tflite_test_models.h"
using namespace memplan::tflite_test;
Model ControlFlowModel() {
  Model m;
  m.opcodes = {{119, ""}, {58, ""}, {0, ""}, {118, ""}, {18, ""}};
  Subgraph main;
  main.tensors = {{{}, 2, 0, "n"}, {{8}, 0, 0, "x"}, {{}, 2, 0, "n_out"}, {{8}, 0, 0, "x_out"},
                  {{}, 6, 0, "pred"}, {{8}, 0, 0, "y"}};
  main.inputs = {0, 1, 4};
  main.outputs = {5};
  main.operators = {{0, {0, 1}, {2, 3}, {1, 2}}, {3, {4, 3}, {5}, {3, 4}}};
  Subgraph cond;
  cond.tensors = {{{}, 2, 0, "n"}, {{8}, 0, 0, "x"}, {{}, 6, 0, "lt"}};
  cond.inputs = {0, 1}; cond.outputs = {2};
  cond.operators = {{1, {0, 0}, {2}, {}}}; cond.name = "cond";
  Subgraph body;
  body.tensors = {{{}, 2, 0, "n"}, {{8}, 0, 0, "x"}, {{}, 2, 0, "n1"}, {{8}, 0, 0, "x1"}};
  body.inputs = {0, 1}; body.outputs = {2, 3};
  body.operators = {{2, {0, 0}, {2}, {}}, {2, {1, 1}, {3}, {}}}; body.name = "body";
  Subgraph then_branch;
  then_branch.tensors = {{{8}, 0, 0, "a"}, {{8}, 0, 0, "b"}};
  then_branch.inputs = {0}; then_branch.outputs = {1};
  then_branch.operators = {{4, {0, 0}, {1}, {}}};
  Subgraph else_branch = then_branch;
  else_branch.operators = {{2, {0, 0}, {1}, {}}};
  m.subgraphs = {main, cond, body, then_branch, else_branch};
  return m;
}
int main(int, char** argv) {  // argv[1]: the output folder
  std::string dir = argv[1];
  WriteFile(dir + "/conv_reshape_fc.tflite", BuildModel(ConvReshapeFc()));
  WriteFile(dir + "/control_flow.tflite", BuildModel(ControlFlowModel()));
  Model m = ConvReshapeFc();
  m.metadata = {{"OfflineMemoryAllocation", {1, 1, 6, 0, -1, 32, 32, -1, 0}}};
  WriteFile(dir + "/offline_plan.tflite", BuildModel(m));
  m.metadata = {{"OfflineMemoryAllocation", {1, 1, 6, 16, -1, 40, 40, -1, 0}}};
  WriteFile(dir + "/offline_plan_colliding.tflite", BuildModel(m));
  Model v = ConvReshapeFc();
  v.subgraphs[0].tensors.push_back({{16}, 9, 0, "state", true});
  v.subgraphs[0].operators[2].inputs = {3, 4, 6};
  WriteFile(dir + "/variable.tflite", BuildModel(v));
}
