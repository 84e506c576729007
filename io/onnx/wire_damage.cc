#include "io/onnx/wire_damage.h"

#include <algorithm>
#include <map>
#include <utility>

#include <fmt/format.h>

namespace memplan {
namespace {

// The messages the walk descends into (onnx.proto's field numbers).
enum class Message { kNone, kModel, kGraph, kNode, kAttribute, kTensor };

struct Field {
  Message parent;
  std::uint64_t number;
  const char* name;
  Message child;  // kNone: not descended into
  bool repeated;
};

constexpr Field kFields[] = {
    {Message::kModel, 7, "graph", Message::kGraph, false},
    {Message::kModel, 8, "opset_import", Message::kNone, true},
    {Message::kModel, 14, "metadata_props", Message::kNone, true},
    {Message::kModel, 25, "functions", Message::kNone, true},
    {Message::kGraph, 1, "node", Message::kNode, true},
    {Message::kGraph, 2, "name", Message::kNone, false},
    {Message::kGraph, 5, "initializer", Message::kTensor, true},
    {Message::kGraph, 11, "input", Message::kNone, true},
    {Message::kGraph, 12, "output", Message::kNone, true},
    {Message::kGraph, 13, "value_info", Message::kNone, true},
    {Message::kNode, 1, "input", Message::kNone, true},
    {Message::kNode, 2, "output", Message::kNone, true},
    {Message::kNode, 3, "name", Message::kNone, false},
    {Message::kNode, 4, "op_type", Message::kNone, false},
    {Message::kNode, 5, "attribute", Message::kAttribute, true},
    {Message::kNode, 7, "domain", Message::kNone, false},
    {Message::kAttribute, 1, "name", Message::kNone, false},
    {Message::kAttribute, 5, "t", Message::kTensor, false},
    {Message::kAttribute, 6, "g", Message::kGraph, false},
    {Message::kAttribute, 10, "tensors", Message::kTensor, true},
    {Message::kAttribute, 11, "graphs", Message::kGraph, true},
    {Message::kTensor, 1, "dims", Message::kNone, false},
    {Message::kTensor, 4, "float_data", Message::kNone, false},
    {Message::kTensor, 7, "int64_data", Message::kNone, false},
    {Message::kTensor, 8, "name", Message::kNone, false},
    {Message::kTensor, 9, "raw_data", Message::kNone, false},
    {Message::kTensor, 13, "external_data", Message::kNone, true},
};

// Protobuf's own nesting limit; deeper messages are not descended into.
constexpr int kMaxDepth = 100;

const Field* FindField(Message parent, std::uint64_t number) {
  for (const Field& f : kFields) {
    if (f.parent == parent && f.number == number) return &f;
  }
  return nullptr;
}

class Walker {
 public:
  explicit Walker(std::string_view bytes) : bytes_(bytes) {}

  // The first damage in the message `type` held by bytes [begin, end),
  // named `path` ("" for the model itself).
  std::optional<WireDamage> Walk(std::size_t begin, std::size_t end, Message type,
                                 const std::string& path, int depth) const {
    std::map<std::uint64_t, int> seen;  // occurrences per field number, for indices
    std::size_t pos = begin;
    while (pos < end) {
      const std::size_t tag_at = pos;
      std::uint64_t tag = 0;
      if (!ReadVarint(pos, end, tag)) {
        return BadVarint(pos, end, fmt::format("a field tag of {}", Of(path)), tag_at);
      }
      const std::uint64_t number = tag >> 3;
      const int wire_type = static_cast<int>(tag & 7);
      const Field* field = FindField(type, number);
      std::string name;
      if (field == nullptr) {
        name = fmt::format("field {} of {}", number, Of(path));
      } else {
        name = path.empty() ? field->name : path + "." + field->name;
        if (field->repeated) name += fmt::format("[{}]", seen[number]);
      }
      ++seen[number];
      if (number == 0) {
        return WireDamage{static_cast<std::int64_t>(tag_at),
                          fmt::format("a field tag with field number 0 in {}", Of(path))};
      }
      switch (wire_type) {
        case 0: {
          std::uint64_t value = 0;
          const std::size_t at = pos;
          if (!ReadVarint(pos, end, value)) return BadVarint(pos, end, "the varint of " + name, at);
          break;
        }
        case 1:
        case 5: {
          const std::size_t width = wire_type == 1 ? 8 : 4;
          if (end - pos < width) {
            return Ends(end, end,
                        fmt::format("{}, a {}-byte value at byte {} ({} present)", name, width,
                                    pos, end - pos),
                        pos);
          }
          pos += width;
          break;
        }
        case 2: {
          std::uint64_t length = 0;
          const std::size_t at = pos;
          if (!ReadVarint(pos, end, length)) return BadVarint(pos, end, "the length of " + name, at);
          const bool known = field != nullptr && field->child != Message::kNone && depth < kMaxDepth;
          if (length > end - pos) {
            // The file cut short: the deepest field cut off names the place
            // best. (Inside the file, the overrunning field is the place.)
            if (known && end == bytes_.size()) {
              if (auto inner = Walk(pos, end, field->child, name, depth + 1)) return inner;
            }
            return Ends(end, end,
                        fmt::format("{}, which declares {} bytes at byte {} ({} present)", name,
                                    length, tag_at, end - pos),
                        tag_at);
          }
          if (known) {
            if (auto inner = Walk(pos, pos + length, field->child, name, depth + 1)) return inner;
          }
          pos += length;
          break;
        }
        default:
          return WireDamage{static_cast<std::int64_t>(tag_at),
                            fmt::format("invalid wire type {} in the tag of {}", wire_type, name)};
      }
    }
    return std::nullopt;
  }

 private:
  static std::string Of(const std::string& path) { return path.empty() ? "the model" : path; }

  // What is cut off at `pos` when reading stopped at `end`: the file's end,
  // or the end of the enclosing field's declared bytes.
  std::optional<WireDamage> Ends(std::size_t pos, std::size_t end, const std::string& what,
                                 std::size_t start) const {
    if (end == bytes_.size()) {
      return WireDamage{static_cast<std::int64_t>(end),
                        fmt::format("the file ends inside {}", what)};
    }
    return WireDamage{static_cast<std::int64_t>(start),
                      fmt::format("{} runs past its enclosing field's end at byte {}", what,
                                  std::max(pos, end))};
  }

  // A varint at `start` that ReadVarint refused, stopping at `pos`: cut off
  // at `end`, or longer than 10 bytes.
  std::optional<WireDamage> BadVarint(std::size_t pos, std::size_t end, const std::string& what,
                                      std::size_t start) const {
    if (pos < end) {
      return WireDamage{static_cast<std::int64_t>(start),
                        fmt::format("{} is longer than 10 bytes", what)};
    }
    return Ends(pos, end, what, start);
  }

  // Reads a base-128 varint at `pos` (advanced past it); false when it does
  // not end before `end` or is longer than 10 bytes.
  bool ReadVarint(std::size_t& pos, std::size_t end, std::uint64_t& value) const {
    value = 0;
    for (int shift = 0; shift < 70 && pos < end; shift += 7) {
      const auto byte = static_cast<unsigned char>(bytes_[pos++]);
      if (shift < 64) value |= static_cast<std::uint64_t>(byte & 0x7f) << shift;
      if ((byte & 0x80) == 0) return true;
    }
    return false;
  }

  std::string_view bytes_;
};

}  // namespace

std::optional<WireDamage> FindWireDamage(std::string_view bytes) {
  return Walker(bytes).Walk(0, bytes.size(), Message::kModel, "", 0);
}

}  // namespace memplan
