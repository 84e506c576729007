#include "io/tflite/flat_reader.h"

#include <utility>

#include "fmt/format.h"
#include "flatbuffers/verifier.h"

namespace memplan {

FlatReader::FlatReader(const std::uint8_t* data, std::size_t size, std::string path)
    : data_(data), size_(size), path_(std::move(path)) {}

absl::Status FlatReader::Malformed(std::string_view what, std::size_t pos) const {
  return absl::InvalidArgumentError(
      fmt::format("{}: error: malformed TFLite file: {} at byte {}", path_, what, pos));
}

bool FlatReader::InBuffer(std::size_t pos, std::size_t length) const {
  flatbuffers::Verifier verifier(data_, size_);
  return pos <= size_ && verifier.Verify(pos, length);
}

absl::StatusOr<FlatTable> FlatReader::Root(std::string_view identifier) const {
  if (size_ < 8) {
    return absl::InvalidArgumentError(fmt::format(
        "{}: error: not a TFLite file: {} bytes, too short for a flatbuffer header", path_, size_));
  }
  if (std::string_view(reinterpret_cast<const char*>(data_) + 4, 4) != identifier) {
    return absl::InvalidArgumentError(
        fmt::format("{}: error: not a TFLite file: bytes 4-7 are not the identifier '{}'", path_,
                    identifier));
  }
  absl::StatusOr<std::size_t> root = Follow(0);
  if (!root.ok()) return root.status();
  return TableAtPos(*root);
}

absl::StatusOr<std::size_t> FlatReader::Follow(std::size_t pos) const {
  if (!InBuffer(pos, sizeof(flatbuffers::uoffset_t))) return Malformed("offset past the end", pos);
  const auto offset = ReadRaw<flatbuffers::uoffset_t>(pos);
  if (offset == 0) return Malformed("offset pointing at itself (a cyclic reference)", pos);
  const std::size_t target = pos + offset;
  if (target >= size_) {
    return Malformed(fmt::format("offset {} pointing outside the file ({} bytes)", offset, size_),
                     pos);
  }
  return target;
}

absl::StatusOr<FlatTable> FlatReader::TableAtPos(std::size_t pos) const {
  flatbuffers::Verifier verifier(data_, size_);
  if (!InBuffer(pos, sizeof(flatbuffers::soffset_t))) return Malformed("table past the end", pos);
  if (!verifier.VerifyTableStart(data_ + pos)) {
    return Malformed("table whose vtable or fields lie outside the file", pos);
  }
  verifier.EndTable();
  // The verifier checked the vtable's declared bytes; FieldPos also needs
  // its two size fields.
  const std::size_t vtable = static_cast<std::size_t>(static_cast<std::int64_t>(pos) -
                                                      ReadRaw<flatbuffers::soffset_t>(pos));
  const auto vsize = ReadRaw<flatbuffers::voffset_t>(vtable);
  if (vsize < 4 || vsize % 2 != 0 || !InBuffer(vtable, vsize)) {
    return Malformed(fmt::format("table whose vtable is {} bytes", vsize), pos);
  }
  return FlatTable{pos};
}

absl::StatusOr<std::optional<std::size_t>> FlatReader::FieldPos(FlatTable table, int id,
                                                                std::size_t size) const {
  // TableAtPos checked the vtable's bytes and the table's extent.
  const std::size_t vtable =
      static_cast<std::size_t>(static_cast<std::int64_t>(table.pos) -
                               ReadRaw<flatbuffers::soffset_t>(table.pos));
  const auto vsize = ReadRaw<flatbuffers::voffset_t>(vtable);
  const auto tsize = ReadRaw<flatbuffers::voffset_t>(vtable + 2);
  const std::size_t slot = 4 + 2 * static_cast<std::size_t>(id);
  if (slot + 2 > vsize) return std::optional<std::size_t>();
  const auto field = ReadRaw<flatbuffers::voffset_t>(vtable + slot);
  if (field == 0) return std::optional<std::size_t>();
  if (field + size > tsize || !InBuffer(table.pos + field, size)) {
    return Malformed(fmt::format("field {} outside its table", id), table.pos);
  }
  return std::optional<std::size_t>(table.pos + field);
}

absl::StatusOr<std::optional<FlatTable>> FlatReader::SubTable(FlatTable table, int id) const {
  absl::StatusOr<std::optional<std::size_t>> at = FieldPos(table, id, 4);
  if (!at.ok()) return at.status();
  if (!*at) return std::optional<FlatTable>();
  absl::StatusOr<std::size_t> target = Follow(**at);
  if (!target.ok()) return target.status();
  absl::StatusOr<FlatTable> sub = TableAtPos(*target);
  if (!sub.ok()) return sub.status();
  return std::optional<FlatTable>(*sub);
}

absl::StatusOr<FlatVector> FlatReader::Vector(FlatTable table, int id,
                                              std::size_t element_size) const {
  absl::StatusOr<std::optional<std::size_t>> at = FieldPos(table, id, 4);
  if (!at.ok()) return at.status();
  if (!*at) return FlatVector{};
  absl::StatusOr<std::size_t> target = Follow(**at);
  if (!target.ok()) return target.status();
  flatbuffers::Verifier verifier(data_, size_);
  if (!verifier.VerifyVectorOrString(data_ + *target, element_size)) {
    return Malformed(fmt::format("vector (field {}) longer than the file", id), *target);
  }
  return FlatVector{*target + 4, ReadRaw<flatbuffers::uoffset_t>(*target)};
}

absl::StatusOr<std::string> FlatReader::String(FlatTable table, int id) const {
  absl::StatusOr<std::optional<std::size_t>> at = FieldPos(table, id, 4);
  if (!at.ok()) return at.status();
  if (!*at) return std::string();
  absl::StatusOr<std::size_t> target = Follow(**at);
  if (!target.ok()) return target.status();
  flatbuffers::Verifier verifier(data_, size_);
  if (!verifier.VerifyString(reinterpret_cast<const flatbuffers::String*>(data_ + *target))) {
    return Malformed(fmt::format("string (field {}) outside the file", id), *target);
  }
  const auto length = ReadRaw<flatbuffers::uoffset_t>(*target);
  return std::string(reinterpret_cast<const char*>(data_) + *target + 4, length);
}

absl::StatusOr<FlatTable> FlatReader::TableAt(FlatVector vector, std::uint32_t index) const {
  absl::StatusOr<std::size_t> target = Follow(vector.data + static_cast<std::size_t>(index) * 4);
  if (!target.ok()) return target.status();
  return TableAtPos(*target);
}

}  // namespace memplan
