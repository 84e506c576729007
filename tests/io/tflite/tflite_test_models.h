// Tiny TFLite models built in the test with flatbuffers' FlatBufferBuilder
// (no generated schema code: tables by field id, as docs/tflite.md lists
// them), so the importer's tests run without ../shared.
#pragma once

#include <cstdint>
#include <fstream>
#include <string>
#include <utility>
#include <vector>

#include "flatbuffers/flatbuffer_builder.h"

namespace memplan::tflite_test {

struct Tensor {
  std::vector<std::int32_t> shape;
  std::int8_t type = 9;  // INT8
  std::uint32_t buffer = 0;
  std::string name;
  bool variable = false;
};

struct Operator {
  std::uint32_t opcode_index = 0;
  std::vector<std::int32_t> inputs;
  std::vector<std::int32_t> outputs;
  std::vector<std::int32_t> subgraphs;  // IF/WHILE/CALL_ONCE options fields 0, 1
};

struct Subgraph {
  std::vector<Tensor> tensors;
  std::vector<std::int32_t> inputs;
  std::vector<std::int32_t> outputs;
  std::vector<Operator> operators;
  std::string name;
};

struct Model {
  std::vector<std::pair<std::int32_t, std::string>> opcodes;  // builtin code, custom code
  std::vector<Subgraph> subgraphs;
  std::vector<std::uint32_t> buffer_bytes = {0};  // data bytes per buffer; 0 is the sentinel
  // Metadata entries, each with a buffer of int32s appended after buffer_bytes.
  std::vector<std::pair<std::string, std::vector<std::int32_t>>> metadata;
};

inline std::string BuildModel(const Model& m) {
  flatbuffers::FlatBufferBuilder b;
  using Off = flatbuffers::Offset<void>;
  std::vector<Off> codes;
  for (const auto& [builtin, custom] : m.opcodes) {
    const auto custom_off = custom.empty() ? 0 : b.CreateString(custom).o;
    const auto start = b.StartTable();
    b.AddElement<std::int8_t>(4 + 2 * 0, static_cast<std::int8_t>(builtin < 127 ? builtin : 127), 0);
    if (custom_off != 0) b.AddOffset(4 + 2 * 1, flatbuffers::Offset<void>(custom_off));
    b.AddElement<std::int32_t>(4 + 2 * 3, builtin, 0);
    codes.push_back(Off(b.EndTable(start)));
  }
  std::vector<Off> subgraphs;
  for (const Subgraph& sg : m.subgraphs) {
    std::vector<Off> tensors;
    for (const Tensor& t : sg.tensors) {
      const auto shape = b.CreateVector(t.shape);
      const auto name = b.CreateString(t.name);
      const auto start = b.StartTable();
      b.AddOffset(4 + 2 * 0, shape);
      b.AddElement<std::int8_t>(4 + 2 * 1, t.type, 0);
      b.AddElement<std::uint32_t>(4 + 2 * 2, t.buffer, 0);
      b.AddOffset(4 + 2 * 3, name);
      b.AddElement<std::uint8_t>(4 + 2 * 5, t.variable ? 1 : 0, 0);
      tensors.push_back(Off(b.EndTable(start)));
    }
    std::vector<Off> ops;
    for (const Operator& op : sg.operators) {
      Off options(0);
      if (!op.subgraphs.empty()) {
        const auto start = b.StartTable();
        for (std::size_t i = 0; i < op.subgraphs.size(); ++i) {
          b.AddElement<std::int32_t>(static_cast<flatbuffers::voffset_t>(4 + 2 * i),
                                     op.subgraphs[i], -12345);
        }
        options = Off(b.EndTable(start));
      }
      const auto inputs = b.CreateVector(op.inputs);
      const auto outputs = b.CreateVector(op.outputs);
      const auto start = b.StartTable();
      b.AddElement<std::uint32_t>(4 + 2 * 0, op.opcode_index, 0xffffffff);
      b.AddOffset(4 + 2 * 1, inputs);
      b.AddOffset(4 + 2 * 2, outputs);
      if (!op.subgraphs.empty()) {
        b.AddElement<std::uint8_t>(4 + 2 * 3, 1, 0);
        b.AddOffset(4 + 2 * 4, options);
      }
      ops.push_back(Off(b.EndTable(start)));
    }
    const auto tv = b.CreateVector(tensors);
    const auto in = b.CreateVector(sg.inputs);
    const auto out = b.CreateVector(sg.outputs);
    const auto ov = b.CreateVector(ops);
    const auto name = b.CreateString(sg.name);
    const auto start = b.StartTable();
    b.AddOffset(4 + 2 * 0, tv);
    b.AddOffset(4 + 2 * 1, in);
    b.AddOffset(4 + 2 * 2, out);
    b.AddOffset(4 + 2 * 3, ov);
    b.AddOffset(4 + 2 * 4, name);
    subgraphs.push_back(Off(b.EndTable(start)));
  }
  std::vector<Off> buffers;
  const auto add_buffer = [&](const std::vector<std::uint8_t>& data) {
    const auto vec = data.empty() ? flatbuffers::Offset<flatbuffers::Vector<std::uint8_t>>(0)
                                  : b.CreateVector(data);
    const auto start = b.StartTable();
    if (!data.empty()) b.AddOffset(4 + 2 * 0, vec);
    buffers.push_back(Off(b.EndTable(start)));
  };
  for (std::uint32_t bytes : m.buffer_bytes) add_buffer(std::vector<std::uint8_t>(bytes, 7));
  std::vector<Off> metadata;
  for (const auto& [name, words] : m.metadata) {
    std::vector<std::uint8_t> data(words.size() * 4);
    for (std::size_t i = 0; i < words.size(); ++i) {
      flatbuffers::WriteScalar<std::int32_t>(data.data() + 4 * i, words[i]);
    }
    const auto index = static_cast<std::uint32_t>(buffers.size());
    b.ForceVectorAlignment(data.size(), 1, 16);
    add_buffer(data);
    const auto n = b.CreateString(name);
    const auto start = b.StartTable();
    b.AddOffset(4 + 2 * 0, n);
    b.AddElement<std::uint32_t>(4 + 2 * 1, index, 0);
    metadata.push_back(Off(b.EndTable(start)));
  }
  const auto cv = b.CreateVector(codes);
  const auto sv = b.CreateVector(subgraphs);
  const auto bv = b.CreateVector(buffers);
  const auto mv = b.CreateVector(metadata);
  const auto start = b.StartTable();
  b.AddElement<std::uint32_t>(4 + 2 * 0, 3, 0);
  b.AddOffset(4 + 2 * 1, cv);
  b.AddOffset(4 + 2 * 2, sv);
  b.AddOffset(4 + 2 * 4, bv);
  if (!metadata.empty()) b.AddOffset(4 + 2 * 6, mv);
  b.Finish(flatbuffers::Offset<void>(b.EndTable(start)), "TFL3");
  return std::string(reinterpret_cast<const char*>(b.GetBufferPointer()), b.GetSize());
}

// conv (CONV_2D) -> reshape (RESHAPE) -> fc (FULLY_CONNECTED): int8 tensors
//   0 input [1,4,4,2] 32 B   1 filter [4,1,1,2] 8 B (buffer 1)
//   2 conv [1,4,4,4] 64 B    3 reshape [1,64] 64 B (view of 2)
//   4 weights [8,64] 512 B (buffer 2)   5 output [1,8] 8 B
// Head liveness (steps 0,1,2): input [0,0], conv [0,1] with its view
// [1,2] -> one buffer [0,2], output [2,2]: peak 64 + 32 at step 0.
inline Model ConvReshapeFc() {
  Model m;
  m.opcodes = {{3, ""}, {22, ""}, {9, ""}};
  m.buffer_bytes = {0, 8, 512};
  Subgraph sg;
  sg.tensors = {{{1, 4, 4, 2}, 9, 0, "input"},   {{4, 1, 1, 2}, 9, 1, "filter"},
                {{1, 4, 4, 4}, 9, 0, "conv"},    {{1, 64}, 9, 0, "reshape"},
                {{8, 64}, 9, 2, "weights"},      {{1, 8}, 9, 0, "output"}};
  sg.inputs = {0};
  sg.outputs = {5};
  sg.operators = {{0, {0, 1, -1}, {2}, {}}, {1, {2}, {3}, {}}, {2, {3, 4, -1}, {5}, {}}};
  m.subgraphs = {sg};
  return m;
}

// Vela's shape in small: one custom `ethos-u` op reading a scratch tensor
// that no op writes (its NPU's working memory) and the graph input, writing
// the output; an offline plan puts all three at offset 0, the input and the
// output inside the scratch area. int8 tensors:
//   0 input [32] (graph input)   1 scratch [64]   2 output [8] (graph output)
// Steps: 0 allocates the scratch, 1 runs the op: scratch [0,1], input [0,1],
// output [1,1].
inline Model VelaLike() {
  Model m;
  m.opcodes = {{32, "ethos-u"}};
  Subgraph sg;
  sg.tensors = {{{32}, 9, 0, "input"}, {{64}, 9, 0, "scratch"}, {{8}, 9, 0, "output"}};
  sg.inputs = {0};
  sg.outputs = {2};
  sg.operators = {{0, {1, 0}, {2}, {}}};
  m.subgraphs = {sg};
  m.metadata = {{"OfflineMemoryAllocation", {1, 1, 3, 0, 0, 0}}};
  return m;
}

// Two branches from one input, each a large value reduced before they meet
// (int8 tensors; CONV_2D, MAX_POOL_2D, ADD):
//   0 input [1,8,8,1] 64 B   1 filter [16,1,1,1] 16 B (buffer 1)
//   2 a [1,8,8,16] 1024 B    3 b [1,8,8,16] 1024 B
//   4 a2 [1,2,2,16] 64 B     5 b2 [1,2,2,16] 64 B   6 output [1,2,2,16] 64 B
// Operators in file order: a = conv(input), b = conv(input), a2 = pool(a),
// b2 = pool(b), output = add(a2, b2): a and b are live together (64 + 1024
// + 1024 = 2112 B at step 1); reducing each branch before starting the
// next keeps one at a time (1024 + 64 + 64 = 1152 B).
inline Model Diamond() {
  Model m;
  m.opcodes = {{3, ""}, {17, ""}, {0, ""}};
  m.buffer_bytes = {0, 16};
  Subgraph sg;
  sg.tensors = {{{1, 8, 8, 1}, 9, 0, "input"}, {{16, 1, 1, 1}, 9, 1, "filter"},
                {{1, 8, 8, 16}, 9, 0, "a"},    {{1, 8, 8, 16}, 9, 0, "b"},
                {{1, 2, 2, 16}, 9, 0, "a2"},   {{1, 2, 2, 16}, 9, 0, "b2"},
                {{1, 2, 2, 16}, 9, 0, "output"}};
  sg.inputs = {0};
  sg.outputs = {6};
  sg.operators = {{0, {0, 1, -1}, {2}, {}}, {0, {0, 1, -1}, {3}, {}}, {1, {2}, {4}, {}},
                  {1, {3}, {5}, {}},        {2, {4, 5}, {6}, {}}};
  m.subgraphs = {sg};
  return m;
}

inline void WriteFile(const std::string& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary);
  out << bytes;
}

}  // namespace memplan::tflite_test
