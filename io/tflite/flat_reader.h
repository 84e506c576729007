// Bounds-checked reading of a flatbuffer whose schema the caller knows by
// field id (the TFLite layout in docs/tflite.md). Every read is checked
// against the buffer with flatbuffers::Verifier before it happens, so a
// truncated or hostile file yields an error naming the byte offset, never a
// read outside the buffer. Offsets to tables, vectors and strings are
// unsigned and point forward (flatbuffers' uoffset_t), so a reader that
// follows a fixed schema cannot loop; a table whose field points at itself
// is refused (the target must lie past the field).
//
// Example: root = reader.Root("TFL3"); then reader.Vector(*root, 2) is the
// Model's subgraphs, reader.TableAt(vec, i) each SubGraph table.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "flatbuffers/base.h"

namespace memplan {

// A table: the byte position of its start (where its vtable offset is).
struct FlatTable {
  std::size_t pos = 0;
};

// A vector: the byte position of its first element and its length.
struct FlatVector {
  std::size_t data = 0;
  std::uint32_t length = 0;
};

class FlatReader {
 public:
  // `data` must outlive the reader; `path` names the file in errors.
  FlatReader(const std::uint8_t* data, std::size_t size, std::string path);

  // The root table, after checking that the buffer holds at least the root
  // offset and the 4-byte file identifier `identifier`. Errors:
  // InvalidArgument `path: error: ...` (too short, wrong identifier, root out
  // of range).
  absl::StatusOr<FlatTable> Root(std::string_view identifier) const;

  // The table at byte position `pos`: its vtable must lie in the buffer, be
  // even-sized and at least 4 bytes, and the table's own bytes (as the
  // vtable sizes them) too.
  absl::StatusOr<FlatTable> TableAtPos(std::size_t pos) const;

  // Scalar field `id` of `table`, `fallback` when absent. The field's bytes
  // must lie inside the table.
  template <typename T>
  absl::StatusOr<T> Scalar(FlatTable table, int id, T fallback) const {
    absl::StatusOr<std::optional<std::size_t>> at = FieldPos(table, id, sizeof(T));
    if (!at.ok()) return at.status();
    if (!*at) return fallback;
    return ReadRaw<T>(**at);
  }

  // Sub-table field `id`, nullopt when absent.
  absl::StatusOr<std::optional<FlatTable>> SubTable(FlatTable table, int id) const;
  // Vector field `id` with elements of `element_size` bytes; an absent field
  // is an empty vector. Its length must fit the buffer.
  absl::StatusOr<FlatVector> Vector(FlatTable table, int id, std::size_t element_size) const;
  // String field `id`; empty when absent.
  absl::StatusOr<std::string> String(FlatTable table, int id) const;
  // Element `index` (< vector.length) of a vector of tables.
  absl::StatusOr<FlatTable> TableAt(FlatVector vector, std::uint32_t index) const;
  // Element `index` of a vector of scalars (no check beyond the vector's).
  template <typename T>
  T ElementAt(FlatVector vector, std::uint32_t index) const {
    return ReadRaw<T>(vector.data + static_cast<std::size_t>(index) * sizeof(T));
  }
  // The byte position a uoffset field at `pos` points to, checked to lie
  // past `pos` and inside the buffer.
  absl::StatusOr<std::size_t> Follow(std::size_t pos) const;

  // Byte position of field `id` of `table` when present; checks that its
  // `size` bytes lie inside the table.
  absl::StatusOr<std::optional<std::size_t>> FieldPos(FlatTable table, int id,
                                                      std::size_t size) const;

  // InvalidArgument `path: error: malformed TFLite file: WHAT at byte POS`.
  absl::Status Malformed(std::string_view what, std::size_t pos) const;

  const std::uint8_t* data() const { return data_; }
  std::size_t size() const { return size_; }
  const std::string& path() const { return path_; }

 private:
  template <typename T>
  T ReadRaw(std::size_t pos) const;
  // Whether [pos, pos + length) lies inside the buffer.
  bool InBuffer(std::size_t pos, std::size_t length) const;

  const std::uint8_t* data_;
  std::size_t size_;
  std::string path_;
};

// Copied out byte-wise: a hostile file may misalign any field.
template <typename T>
T FlatReader::ReadRaw(std::size_t pos) const {
  T value;
  std::memcpy(&value, data_ + pos, sizeof(T));
  return flatbuffers::EndianScalar(value);
}

}  // namespace memplan
