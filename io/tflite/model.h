// A TFLite model as memplan reads it: the parts of the flatbuffer
// (schema field ids in docs/tflite.md) that planning needs, copied out of the
// file with every offset range-checked (io/tflite/flat_reader.h). Weights are
// never copied: a Buffer records only how many bytes of data it holds.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"

namespace memplan {

// Builtin operator codes the importer treats specially (TFLite's
// BuiltinOperator enum).
inline constexpr std::int32_t kTfliteCustom = 32;
inline constexpr std::int32_t kTfliteReshape = 22;
inline constexpr std::int32_t kTfliteSqueeze = 43;
inline constexpr std::int32_t kTfliteExpandDims = 70;
inline constexpr std::int32_t kTfliteIf = 118;
inline constexpr std::int32_t kTfliteWhile = 119;
inline constexpr std::int32_t kTfliteCallOnce = 129;

struct TfliteOperatorCode {
  std::int32_t builtin = 0;  // max(deprecated_builtin_code, builtin_code)
  std::string custom;        // custom_code, for CUSTOM ops
};

struct TfliteTensor {
  std::vector<std::int32_t> shape;
  std::int8_t type = 0;            // TensorType code
  std::uint32_t buffer = 0;        // index into TfliteModel::buffers
  std::string name;
  bool is_variable = false;
  bool dynamic = false;            // shape_signature has a -1 dim
};

struct TfliteOperator {
  std::uint32_t opcode_index = 0;
  std::vector<std::int32_t> inputs;   // -1: an absent optional input
  std::vector<std::int32_t> outputs;
  std::vector<std::int32_t> intermediates;
  // Subgraph indices named in the builtin options: IF {then, else}, WHILE
  // {cond, body}, CALL_ONCE {init}; empty for other ops.
  std::vector<std::int32_t> subgraphs;
  std::size_t pos = 0;                // byte position of the table, for messages
};

struct TfliteSubgraph {
  std::vector<TfliteTensor> tensors;
  std::vector<std::int32_t> inputs;
  std::vector<std::int32_t> outputs;
  std::vector<TfliteOperator> operators;
  std::string name;
};

struct TfliteBuffer {
  std::uint64_t data_bytes = 0;  // bytes of `data`, or `size` for data outside the flatbuffer
  bool external = false;         // data stored past the flatbuffer (`offset` > 1)
  std::size_t data_pos = 0;      // byte position of `data`'s first byte (when not external)
};

struct TfliteMetadata {
  std::string name;
  std::uint32_t buffer = 0;
};

struct TfliteModel {
  std::uint32_t version = 0;
  std::vector<TfliteOperatorCode> operator_codes;
  std::vector<TfliteSubgraph> subgraphs;
  std::vector<TfliteBuffer> buffers;
  std::vector<TfliteMetadata> metadata;
  std::size_t root_pos = 0;  // byte position of the Model table
};

// Parses `size` bytes at `data` as a TFLite model and checks the indices it
// holds (operator codes, tensors, buffers, subgraphs named by IF/WHILE/
// CALL_ONCE, metadata buffers). Errors: InvalidArgument `path: error: ...`:
// not a TFLite file (too short, no `TFL3` identifier), a malformed
// flatbuffer with the byte offset (ReadTfliteTables), an index out of range
// naming the subgraph and operator or tensor. O(file size).
absl::StatusOr<TfliteModel> ParseTfliteModel(const std::uint8_t* data, std::size_t size,
                                             const std::string& path);

// The TensorType code's bits per element (e.g. 9 INT8 -> 8, 17 INT4 -> 4)
// and memplan dtype name ("i8"); nullopt for STRING, RESOURCE, VARIANT and
// unknown codes (no fixed size).
struct TfliteDtype {
  const char* name;
  int bits;
};
std::optional<TfliteDtype> TfliteDtypeOf(std::int8_t type);

// Whether the file at `path` starts with a flatbuffer header whose
// identifier (bytes 4-7) is `TFL3`. False for unreadable or short files.
bool HasTfliteIdentifier(const std::string& path);

}  // namespace memplan
