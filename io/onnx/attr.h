// Reading ONNX node attributes (shared by the importer's folding and cost code).
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "onnx/onnx_pb.h"

namespace memplan {

// The attribute of `node` called `name`, or nullptr.
inline const onnx::AttributeProto* FindAttribute(const onnx::NodeProto& node,
                                                 std::string_view name) {
  for (const onnx::AttributeProto& attr : node.attribute()) {
    if (attr.name() == name) return &attr;
  }
  return nullptr;
}

// An INT attribute, or nullopt when absent or of another type.
inline std::optional<std::int64_t> IntAttribute(const onnx::NodeProto& node,
                                                std::string_view name) {
  const onnx::AttributeProto* attr = FindAttribute(node, name);
  if (attr == nullptr || attr->type() != onnx::AttributeProto::INT) return std::nullopt;
  return attr->i();
}

// An INTS attribute, or nullopt when absent or of another type.
inline std::optional<std::vector<std::int64_t>> IntsAttribute(const onnx::NodeProto& node,
                                                              std::string_view name) {
  const onnx::AttributeProto* attr = FindAttribute(node, name);
  if (attr == nullptr || attr->type() != onnx::AttributeProto::INTS) return std::nullopt;
  return std::vector<std::int64_t>(attr->ints().begin(), attr->ints().end());
}

}  // namespace memplan
