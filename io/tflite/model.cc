#include "io/tflite/model.h"

#include <algorithm>
#include <fstream>
#include <utility>

#include "fmt/format.h"
#include "io/tflite/flat_reader.h"

namespace memplan {
namespace {

// Field ids of the TFLite schema (docs/tflite.md).
namespace model_field {
constexpr int kVersion = 0, kOperatorCodes = 1, kSubgraphs = 2, kBuffers = 4, kMetadata = 6;
}
namespace subgraph_field {
constexpr int kTensors = 0, kInputs = 1, kOutputs = 2, kOperators = 3, kName = 4;
}
namespace tensor_field {
constexpr int kShape = 0, kType = 1, kBuffer = 2, kName = 3, kIsVariable = 5,
              kShapeSignature = 7;
}
namespace operator_field {
constexpr int kOpcodeIndex = 0, kInputs = 1, kOutputs = 2, kOptions = 4, kIntermediates = 8;
}

// Reads a vector of int32 field `id` into `out`.
absl::Status ReadInts(const FlatReader& r, FlatTable table, int id,
                      std::vector<std::int32_t>& out) {
  absl::StatusOr<FlatVector> v = r.Vector(table, id, 4);
  if (!v.ok()) return v.status();
  out.resize(v->length);
  for (std::uint32_t i = 0; i < v->length; ++i) out[i] = r.ElementAt<std::int32_t>(*v, i);
  return absl::OkStatus();
}

absl::StatusOr<TfliteOperatorCode> ReadOperatorCode(const FlatReader& r, FlatTable t) {
  TfliteOperatorCode code;
  absl::StatusOr<std::int8_t> deprecated = r.Scalar<std::int8_t>(t, 0, 0);
  if (!deprecated.ok()) return deprecated.status();
  absl::StatusOr<std::int32_t> builtin = r.Scalar<std::int32_t>(t, 3, 0);
  if (!builtin.ok()) return builtin.status();
  code.builtin = std::max<std::int32_t>(*deprecated, *builtin);
  absl::StatusOr<std::string> custom = r.String(t, 1);
  if (!custom.ok()) return custom.status();
  code.custom = *std::move(custom);
  return code;
}

absl::StatusOr<TfliteTensor> ReadTensor(const FlatReader& r, FlatTable t) {
  TfliteTensor tensor;
  if (absl::Status s = ReadInts(r, t, tensor_field::kShape, tensor.shape); !s.ok()) return s;
  absl::StatusOr<std::int8_t> type = r.Scalar<std::int8_t>(t, tensor_field::kType, 0);
  if (!type.ok()) return type.status();
  tensor.type = *type;
  absl::StatusOr<std::uint32_t> buffer = r.Scalar<std::uint32_t>(t, tensor_field::kBuffer, 0);
  if (!buffer.ok()) return buffer.status();
  tensor.buffer = *buffer;
  absl::StatusOr<std::string> name = r.String(t, tensor_field::kName);
  if (!name.ok()) return name.status();
  tensor.name = *std::move(name);
  absl::StatusOr<std::uint8_t> variable = r.Scalar<std::uint8_t>(t, tensor_field::kIsVariable, 0);
  if (!variable.ok()) return variable.status();
  tensor.is_variable = *variable != 0;
  std::vector<std::int32_t> signature;
  if (absl::Status s = ReadInts(r, t, tensor_field::kShapeSignature, signature); !s.ok()) return s;
  tensor.dynamic = std::find(signature.begin(), signature.end(), -1) != signature.end();
  return tensor;
}

absl::StatusOr<TfliteOperator> ReadOperator(const FlatReader& r, FlatTable t,
                                            const std::vector<TfliteOperatorCode>& codes) {
  TfliteOperator op;
  op.pos = t.pos;
  absl::StatusOr<std::uint32_t> index = r.Scalar<std::uint32_t>(t, operator_field::kOpcodeIndex, 0);
  if (!index.ok()) return index.status();
  if (*index >= codes.size()) {
    return r.Malformed(fmt::format("operator with opcode_index {} but {} operator codes", *index,
                                   codes.size()),
                       t.pos);
  }
  op.opcode_index = *index;
  if (absl::Status s = ReadInts(r, t, operator_field::kInputs, op.inputs); !s.ok()) return s;
  if (absl::Status s = ReadInts(r, t, operator_field::kOutputs, op.outputs); !s.ok()) return s;
  if (absl::Status s = ReadInts(r, t, operator_field::kIntermediates, op.intermediates); !s.ok())
    return s;
  // IF {then, else} and WHILE {cond, body}: fields 0 and 1 of the options;
  // CALL_ONCE {init}: field 0.
  const std::int32_t builtin = codes[*index].builtin;
  const int count = builtin == kTfliteIf || builtin == kTfliteWhile ? 2
                    : builtin == kTfliteCallOnce                    ? 1
                                                                    : 0;
  if (count > 0) {
    absl::StatusOr<std::optional<FlatTable>> options = r.SubTable(t, operator_field::kOptions);
    if (!options.ok()) return options.status();
    if (!*options) return r.Malformed("control-flow operator without its options", t.pos);
    for (int f = 0; f < count; ++f) {
      absl::StatusOr<std::int32_t> sub = r.Scalar<std::int32_t>(**options, f, 0);
      if (!sub.ok()) return sub.status();
      op.subgraphs.push_back(*sub);
    }
  }
  return op;
}

absl::StatusOr<TfliteSubgraph> ReadSubgraph(const FlatReader& r, FlatTable t,
                                            const std::vector<TfliteOperatorCode>& codes) {
  TfliteSubgraph sg;
  absl::StatusOr<FlatVector> tensors = r.Vector(t, subgraph_field::kTensors, 4);
  if (!tensors.ok()) return tensors.status();
  for (std::uint32_t i = 0; i < tensors->length; ++i) {
    absl::StatusOr<FlatTable> table = r.TableAt(*tensors, i);
    if (!table.ok()) return table.status();
    absl::StatusOr<TfliteTensor> tensor = ReadTensor(r, *table);
    if (!tensor.ok()) return tensor.status();
    sg.tensors.push_back(*std::move(tensor));
  }
  if (absl::Status s = ReadInts(r, t, subgraph_field::kInputs, sg.inputs); !s.ok()) return s;
  if (absl::Status s = ReadInts(r, t, subgraph_field::kOutputs, sg.outputs); !s.ok()) return s;
  absl::StatusOr<FlatVector> ops = r.Vector(t, subgraph_field::kOperators, 4);
  if (!ops.ok()) return ops.status();
  for (std::uint32_t i = 0; i < ops->length; ++i) {
    absl::StatusOr<FlatTable> table = r.TableAt(*ops, i);
    if (!table.ok()) return table.status();
    absl::StatusOr<TfliteOperator> op = ReadOperator(r, *table, codes);
    if (!op.ok()) return op.status();
    sg.operators.push_back(*std::move(op));
  }
  absl::StatusOr<std::string> name = r.String(t, subgraph_field::kName);
  if (!name.ok()) return name.status();
  sg.name = *std::move(name);
  return sg;
}

absl::StatusOr<TfliteBuffer> ReadBuffer(const FlatReader& r, FlatTable t) {
  TfliteBuffer buffer;
  absl::StatusOr<FlatVector> data = r.Vector(t, 0, 1);
  if (!data.ok()) return data.status();
  buffer.data_bytes = data->length;
  buffer.data_pos = data->data;
  absl::StatusOr<std::uint64_t> offset = r.Scalar<std::uint64_t>(t, 1, 0);
  if (!offset.ok()) return offset.status();
  absl::StatusOr<std::uint64_t> size = r.Scalar<std::uint64_t>(t, 2, 0);
  if (!size.ok()) return size.status();
  if (*offset > 1) {
    buffer.external = true;
    buffer.data_bytes = *size;
  }
  return buffer;
}

// Every index the model holds names something that exists.
absl::Status CheckIndices(const TfliteModel& model, const FlatReader& r) {
  const auto subgraphs = static_cast<std::int64_t>(model.subgraphs.size());
  for (std::size_t s = 0; s < model.subgraphs.size(); ++s) {
    const TfliteSubgraph& sg = model.subgraphs[s];
    const auto tensors = static_cast<std::int64_t>(sg.tensors.size());
    for (std::size_t i = 0; i < sg.tensors.size(); ++i) {
      if (sg.tensors[i].buffer >= model.buffers.size()) {
        return absl::InvalidArgumentError(fmt::format(
            "{}: error: subgraph {} tensor {} ('{}') names buffer {} but the model has {}",
            r.path(), s, i, sg.tensors[i].name, sg.tensors[i].buffer, model.buffers.size()));
      }
    }
    auto check = [&](const std::vector<std::int32_t>& list, bool optional,
                     const std::string& where) -> absl::Status {
      for (std::int32_t t : list) {
        if ((t == -1 && optional) || (t >= 0 && t < tensors)) continue;
        return absl::InvalidArgumentError(
            fmt::format("{}: error: subgraph {} {} names tensor {} but the subgraph has {}",
                        r.path(), s, where, t, tensors));
      }
      return absl::OkStatus();
    };
    if (absl::Status st = check(sg.inputs, false, "inputs"); !st.ok()) return st;
    if (absl::Status st = check(sg.outputs, false, "outputs"); !st.ok()) return st;
    for (std::size_t o = 0; o < sg.operators.size(); ++o) {
      const TfliteOperator& op = sg.operators[o];
      const std::string where = fmt::format("operator {}", o);
      if (absl::Status st = check(op.inputs, true, where + " inputs"); !st.ok()) return st;
      if (absl::Status st = check(op.outputs, false, where + " outputs"); !st.ok()) return st;
      if (absl::Status st = check(op.intermediates, true, where + " intermediates"); !st.ok())
        return st;
      for (std::int32_t callee : op.subgraphs) {
        if (callee < 0 || callee >= subgraphs) {
          return absl::InvalidArgumentError(
              fmt::format("{}: error: subgraph {} operator {} calls subgraph {} but the model has {}",
                          r.path(), s, o, callee, subgraphs));
        }
      }
    }
  }
  for (const TfliteMetadata& m : model.metadata) {
    if (m.buffer >= model.buffers.size()) {
      return absl::InvalidArgumentError(
          fmt::format("{}: error: metadata '{}' names buffer {} but the model has {}", r.path(),
                      m.name, m.buffer, model.buffers.size()));
    }
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<TfliteModel> ParseTfliteModel(const std::uint8_t* data, std::size_t size,
                                             const std::string& path) {
  FlatReader r(data, size, path);
  absl::StatusOr<FlatTable> root = r.Root("TFL3");
  if (!root.ok()) return root.status();
  TfliteModel model;
  model.root_pos = root->pos;
  absl::StatusOr<std::uint32_t> version = r.Scalar<std::uint32_t>(*root, model_field::kVersion, 0);
  if (!version.ok()) return version.status();
  model.version = *version;
  absl::StatusOr<FlatVector> codes = r.Vector(*root, model_field::kOperatorCodes, 4);
  if (!codes.ok()) return codes.status();
  for (std::uint32_t i = 0; i < codes->length; ++i) {
    absl::StatusOr<FlatTable> t = r.TableAt(*codes, i);
    if (!t.ok()) return t.status();
    absl::StatusOr<TfliteOperatorCode> code = ReadOperatorCode(r, *t);
    if (!code.ok()) return code.status();
    model.operator_codes.push_back(*std::move(code));
  }
  absl::StatusOr<FlatVector> buffers = r.Vector(*root, model_field::kBuffers, 4);
  if (!buffers.ok()) return buffers.status();
  for (std::uint32_t i = 0; i < buffers->length; ++i) {
    absl::StatusOr<FlatTable> t = r.TableAt(*buffers, i);
    if (!t.ok()) return t.status();
    absl::StatusOr<TfliteBuffer> buffer = ReadBuffer(r, *t);
    if (!buffer.ok()) return buffer.status();
    model.buffers.push_back(*buffer);
  }
  absl::StatusOr<FlatVector> subgraphs = r.Vector(*root, model_field::kSubgraphs, 4);
  if (!subgraphs.ok()) return subgraphs.status();
  if (subgraphs->length == 0) {
    return absl::InvalidArgumentError(fmt::format("{}: error: the model has no subgraph", path));
  }
  for (std::uint32_t i = 0; i < subgraphs->length; ++i) {
    absl::StatusOr<FlatTable> t = r.TableAt(*subgraphs, i);
    if (!t.ok()) return t.status();
    absl::StatusOr<TfliteSubgraph> sg = ReadSubgraph(r, *t, model.operator_codes);
    if (!sg.ok()) return sg.status();
    model.subgraphs.push_back(*std::move(sg));
  }
  absl::StatusOr<FlatVector> metadata = r.Vector(*root, model_field::kMetadata, 4);
  if (!metadata.ok()) return metadata.status();
  for (std::uint32_t i = 0; i < metadata->length; ++i) {
    absl::StatusOr<FlatTable> t = r.TableAt(*metadata, i);
    if (!t.ok()) return t.status();
    TfliteMetadata m;
    absl::StatusOr<std::string> name = r.String(*t, 0);
    if (!name.ok()) return name.status();
    m.name = *std::move(name);
    absl::StatusOr<std::uint32_t> buffer = r.Scalar<std::uint32_t>(*t, 1, 0);
    if (!buffer.ok()) return buffer.status();
    m.buffer = *buffer;
    model.metadata.push_back(std::move(m));
  }
  if (absl::Status s = CheckIndices(model, r); !s.ok()) return s;
  return model;
}

std::optional<TfliteDtype> TfliteDtypeOf(std::int8_t type) {
  switch (type) {
    case 0: return TfliteDtype{"f32", 32};
    case 1: return TfliteDtype{"f16", 16};
    case 2: return TfliteDtype{"i32", 32};
    case 3: return TfliteDtype{"u8", 8};
    case 4: return TfliteDtype{"i64", 64};
    case 6: return TfliteDtype{"bool", 8};
    case 7: return TfliteDtype{"i16", 16};
    case 8: return TfliteDtype{"c64", 64};
    case 9: return TfliteDtype{"i8", 8};
    case 10: return TfliteDtype{"f64", 64};
    case 11: return TfliteDtype{"c128", 128};
    case 12: return TfliteDtype{"u64", 64};
    case 15: return TfliteDtype{"u32", 32};
    case 16: return TfliteDtype{"u16", 16};
    case 17: return TfliteDtype{"i4", 4};
    case 18: return TfliteDtype{"bf16", 16};
    default: return std::nullopt;
  }
}

bool HasTfliteIdentifier(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  char header[8] = {};
  if (!in.read(header, sizeof(header))) return false;
  return std::string_view(header + 4, 4) == "TFL3";
}

}  // namespace memplan
