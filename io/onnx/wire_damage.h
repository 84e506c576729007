// Where a protobuf-encoded ONNX model stops being valid, for the error
// message when protobuf refuses to parse it (protobuf says only that it
// failed). Walks the wire format (tag varint, then a varint, a fixed 4 or 8
// bytes, or a length and that many bytes; protobuf's "Encoding" guide) of
// the ModelProto, descending into the length-delimited fields known to hold
// the messages the importer reads (graph, node, initializer, attribute,
// tensor), so the place is named by its path in the model.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace memplan {

struct WireDamage {
  std::int64_t byte = 0;  // 0-based offset in the file of the first bad byte
  std::string what;       // e.g. "the file ends inside graph.initializer[1].raw_data ..."
};

// The first place where `bytes` is not a valid protobuf encoding, or nullopt
// when the wire format is sound (then a failure is about something the walk
// does not check, e.g. a string field that is not UTF-8). Examples:
//  * a ModelProto cut 10 bytes into its graph's 3rd initializer's raw data:
//    {byte N (the file size), "the file ends inside graph.initializer[2]
//    .raw_data, which declares 4096 bytes at byte 120 (10 present)"};
//  * a tag with wire type 7 at byte 5 of the model: {5, "invalid wire type 7
//    in the tag of field 1 of the model"}.
// O(file size); recursion depth at most that of the known messages (graphs
// nest through attributes, bounded by the file's nesting).
std::optional<WireDamage> FindWireDamage(std::string_view bytes);

}  // namespace memplan
