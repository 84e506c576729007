#include <array>
#include <utility>

#include "fmt/format.h"
#include "io/tflite/importer.h"

namespace memplan {

std::string TfliteBuiltinName(std::int32_t builtin) {
  // TFLite's BuiltinOperator codes (schema.fbs) for the ops memplan meets.
  static constexpr std::array<std::pair<std::int32_t, const char*>, 52> kNames = {{
      {0, "ADD"}, {1, "AVERAGE_POOL_2D"}, {2, "CONCATENATION"}, {3, "CONV_2D"},
      {4, "DEPTHWISE_CONV_2D"}, {5, "DEPTH_TO_SPACE"}, {6, "DEQUANTIZE"},
      {7, "EMBEDDING_LOOKUP"}, {8, "FLOOR"}, {9, "FULLY_CONNECTED"}, {10, "HASHTABLE_LOOKUP"},
      {11, "L2_NORMALIZATION"}, {12, "L2_POOL_2D"}, {13, "LOCAL_RESPONSE_NORMALIZATION"},
      {14, "LOGISTIC"}, {15, "LSH_PROJECTION"}, {16, "LSTM"}, {17, "MAX_POOL_2D"}, {18, "MUL"},
      {19, "RELU"}, {20, "RELU_N1_TO_1"}, {21, "RELU6"}, {22, "RESHAPE"},
      {23, "RESIZE_BILINEAR"}, {24, "RNN"}, {25, "SOFTMAX"}, {26, "SPACE_TO_DEPTH"},
      {27, "SVDF"}, {28, "TANH"}, {32, "CUSTOM"}, {34, "PAD"}, {36, "GATHER"},
      {39, "TRANSPOSE"}, {40, "MEAN"}, {41, "SUB"}, {42, "DIV"}, {43, "SQUEEZE"},
      {44, "UNIDIRECTIONAL_SEQUENCE_LSTM"}, {45, "STRIDED_SLICE"}, {47, "EXP"}, {49, "SPLIT"},
      {53, "CAST"}, {55, "MAXIMUM"}, {57, "MINIMUM"}, {70, "EXPAND_DIMS"}, {74, "SUM"},
      {83, "PACK"}, {88, "UNPACK"}, {114, "QUANTIZE"}, {118, "IF"}, {119, "WHILE"},
      {129, "CALL_ONCE"},
  }};
  for (const auto& [code, name] : kNames) {
    if (code == builtin) return name;
  }
  return fmt::format("BUILTIN_{}", builtin);
}

}  // namespace memplan
