#include "io/tflite/offline_plan.h"

#include <cstring>

#include "fmt/format.h"
#include "flatbuffers/base.h"
#include "io/tflite/flat_reader.h"

namespace memplan {
namespace {

// Little-endian bytes appended to a growing file image.
class TfliteByteWriter {
 public:
  std::size_t size() const { return out_.size(); }
  void Align(std::size_t alignment) {
    while (out_.size() % alignment != 0) out_.push_back('\0');
  }
  template <typename T>
  std::size_t Put(T value) {
    const std::size_t at = out_.size();
    out_.resize(at + sizeof(T));
    PutAt<T>(at, value);
    return at;
  }
  template <typename T>
  void PutAt(std::size_t at, T value) {
    const T little = flatbuffers::EndianScalar(value);
    std::memcpy(out_.data() + at, &little, sizeof(T));
  }
  void Append(std::string_view bytes) { out_.append(bytes); }
  std::string Take() && { return std::move(out_); }

 private:
  std::string out_;
};

// Writes a vtable for fields of 4 bytes each at table offsets 4, 8, ...
// (`present[i]`: field i is present) and returns its position.
std::size_t PutVtable(TfliteByteWriter& w, const std::vector<bool>& present) {
  w.Align(2);
  const std::size_t at = w.Put<std::uint16_t>(static_cast<std::uint16_t>(4 + 2 * present.size()));
  w.Put<std::uint16_t>(static_cast<std::uint16_t>(4 + 4 * present.size()));
  for (std::size_t i = 0; i < present.size(); ++i) {
    w.Put<std::uint16_t>(present[i] ? static_cast<std::uint16_t>(4 + 4 * i) : 0);
  }
  return at;
}

// Starts a table whose vtable is at `vtable`; returns the table's position.
std::size_t PutTableStart(TfliteByteWriter& w, std::size_t vtable) {
  w.Align(4);
  const std::size_t at = w.Put<std::int32_t>(static_cast<std::int32_t>(w.size() - vtable));
  return at;
}

}  // namespace

absl::StatusOr<std::vector<std::int32_t>> ReadOfflinePlan(const TfliteModel& model,
                                                          std::string_view bytes,
                                                          const std::string& path) {
  const TfliteMetadata* entry = nullptr;
  for (const TfliteMetadata& m : model.metadata) {
    if (m.name == kOfflinePlanMetadata) entry = &m;
  }
  if (entry == nullptr) return std::vector<std::int32_t>();
  const TfliteBuffer& buffer = model.buffers[entry->buffer];
  const auto fail = [&](std::string_view why) {
    return absl::InvalidArgumentError(
        fmt::format("{}: error: the OfflineMemoryAllocation metadata (buffer {}) {}", path,
                    entry->buffer, why));
  };
  if (buffer.external) return fail("is stored outside the flatbuffer; not supported");
  if (buffer.data_bytes % 4 != 0 || buffer.data_bytes < 12) {
    return fail(fmt::format("is {} bytes, not a header of 3 int32s and whole int32 offsets",
                            buffer.data_bytes));
  }
  const auto word = [&](std::size_t i) {
    std::int32_t value;
    std::memcpy(&value, bytes.data() + buffer.data_pos + 4 * i, sizeof(value));
    return flatbuffers::EndianScalar(value);
  };
  const std::size_t n = buffer.data_bytes / 4 - 3;
  std::int64_t tensors = 0;
  for (const TfliteSubgraph& sg : model.subgraphs) tensors += static_cast<std::int64_t>(sg.tensors.size());
  if (word(2) < 0 || static_cast<std::size_t>(word(2)) != n) {
    return fail(fmt::format("says it holds {} offsets but has room for {}", word(2), n));
  }
  if (static_cast<std::int64_t>(n) != tensors) {
    return fail(fmt::format("holds {} offsets but the model has {} tensors", n, tensors));
  }
  std::vector<std::int32_t> offsets(n);
  for (std::size_t i = 0; i < n; ++i) {
    offsets[i] = word(3 + i);
    if (offsets[i] < -1) return fail(fmt::format("gives tensor {} the offset {}", i, offsets[i]));
  }
  return offsets;
}

absl::StatusOr<std::string> WriteOfflinePlan(const TfliteModel& model, std::string_view bytes,
                                             const std::vector<std::int32_t>& offsets,
                                             const std::string& path,
                                             const std::vector<std::int32_t>& operator_order) {
  const auto fail = [&](std::string_view why) {
    return absl::InvalidArgumentError(fmt::format("{}: error: --write-tflite: {}", path, why));
  };
  std::size_t tensors = 0;
  for (const TfliteSubgraph& sg : model.subgraphs) tensors += sg.tensors.size();
  if (offsets.size() != tensors) {
    return fail(fmt::format("{} offsets for {} tensors", offsets.size(), tensors));
  }
  for (const TfliteBuffer& b : model.buffers) {
    if (b.external) return fail("the model stores weights outside the flatbuffer; not supported");
  }
  const FlatReader r(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size(), path);
  const FlatTable root{model.root_pos};
  // The old root's fields: version (scalar) and the targets of 1..7.
  constexpr int kFields = 8;
  // SubGraph: tensors, inputs, outputs, operators, name, debug_metadata_index.
  constexpr int kSubgraphFields = 6;
  std::vector<std::optional<std::size_t>> targets(kFields);
  for (int id = 1; id < kFields; ++id) {
    absl::StatusOr<std::optional<std::size_t>> at = r.FieldPos(root, id, 4);
    if (!at.ok()) return at.status();
    if (!*at) continue;
    absl::StatusOr<std::size_t> target = r.Follow(**at);
    if (!target.ok()) return target.status();
    targets[id] = *target;
  }
  for (int id = kFields; id < kFields + 64; ++id) {
    absl::StatusOr<std::optional<std::size_t>> at = r.FieldPos(root, id, 1);
    if (!at.ok()) return at.status();
    if (*at) return fail(fmt::format("the Model table has field {}, unknown to memplan", id));
  }
  // Old element targets of the buffers (4) and metadata (6) vectors.
  const auto elements = [&](int id) -> absl::StatusOr<std::vector<std::size_t>> {
    std::vector<std::size_t> out;
    absl::StatusOr<FlatVector> v = r.Vector(root, id, 4);
    if (!v.ok()) return v.status();
    for (std::uint32_t i = 0; i < v->length; ++i) {
      absl::StatusOr<std::size_t> t = r.Follow(v->data + 4 * static_cast<std::size_t>(i));
      if (!t.ok()) return t.status();
      out.push_back(*t);
    }
    return out;
  };
  absl::StatusOr<std::vector<std::size_t>> old_buffers = elements(4);
  if (!old_buffers.ok()) return old_buffers.status();
  absl::StatusOr<std::vector<std::size_t>> old_metadata = elements(6);
  if (!old_metadata.ok()) return old_metadata.status();
  // With a new operator order: subgraph 0's fields (0-4 offsets, 5 an int32
  // debug_metadata_index) and its old operator tables, in the new order.
  std::vector<std::size_t> old_subgraphs;
  std::vector<std::optional<std::size_t>> sg_targets(kSubgraphFields);
  std::optional<std::int32_t> sg_debug_index;
  std::vector<std::size_t> reordered_operators;
  if (!operator_order.empty()) {
    absl::StatusOr<std::vector<std::size_t>> subgraphs = elements(2);
    if (!subgraphs.ok()) return subgraphs.status();
    old_subgraphs = *std::move(subgraphs);
    if (old_subgraphs.empty()) return fail("the model has no subgraph to reorder");
    absl::StatusOr<FlatTable> sg = r.TableAtPos(old_subgraphs[0]);
    if (!sg.ok()) return sg.status();
    for (int id = 0; id < kSubgraphFields + 64; ++id) {
      absl::StatusOr<std::optional<std::size_t>> at = r.FieldPos(*sg, id, 4);
      if (!at.ok()) return at.status();
      if (!*at) continue;
      if (id >= kSubgraphFields) {
        return fail(fmt::format("the SubGraph table has field {}, unknown to memplan", id));
      }
      if (id == kSubgraphFields - 1) {
        absl::StatusOr<std::int32_t> index = r.Scalar<std::int32_t>(*sg, id, -1);
        if (!index.ok()) return index.status();
        sg_debug_index = *index;
        continue;
      }
      absl::StatusOr<std::size_t> target = r.Follow(**at);
      if (!target.ok()) return target.status();
      sg_targets[id] = *target;
    }
    absl::StatusOr<FlatVector> ops = r.Vector(*sg, 3, 4);
    if (!ops.ok()) return ops.status();
    std::vector<bool> seen(ops->length, false);
    if (operator_order.size() != ops->length) {
      return fail(fmt::format("an order of {} operators for subgraph 0's {}", operator_order.size(),
                              ops->length));
    }
    for (std::int32_t i : operator_order) {
      if (i < 0 || static_cast<std::uint32_t>(i) >= ops->length || seen[i]) {
        return fail("the operator order is not a permutation of subgraph 0's operators");
      }
      seen[i] = true;
      absl::StatusOr<std::size_t> t = r.Follow(ops->data + 4 * static_cast<std::size_t>(i));
      if (!t.ok()) return t.status();
      reordered_operators.push_back(*t);
    }
  }
  std::vector<std::size_t> kept_metadata;
  std::int32_t version = 1;
  for (std::size_t i = 0; i < old_metadata->size(); ++i) {
    if (model.metadata[i].name == kOfflinePlanMetadata) {
      const TfliteBuffer& b = model.buffers[model.metadata[i].buffer];
      if (b.data_bytes >= 4) {
        std::memcpy(&version, bytes.data() + b.data_pos, sizeof(version));
        version = flatbuffers::EndianScalar(version);
      }
      continue;
    }
    kept_metadata.push_back((*old_metadata)[i]);
  }

  // The subgraphs vector (its slot in the Model table at `model_slot`): a new
  // subgraph 0 sharing every field with the old but its operators vector,
  // which lists the old operator tables in the new order; the others as they were.
  const auto PutReorderedSubgraph = [&](TfliteByteWriter& w, std::size_t base,
                                        std::size_t model_slot) {
    const auto put_old = [&](std::size_t at, std::size_t target) {
      w.PutAt<std::uint32_t>(at, static_cast<std::uint32_t>(base + target - at));
    };
    const std::size_t vec = w.Put<std::uint32_t>(static_cast<std::uint32_t>(old_subgraphs.size()));
    w.PutAt<std::uint32_t>(model_slot, static_cast<std::uint32_t>(vec - model_slot));
    const std::size_t first_slot = w.Put<std::uint32_t>(0);
    for (std::size_t i = 1; i < old_subgraphs.size(); ++i) {
      put_old(w.Put<std::uint32_t>(0), old_subgraphs[i]);
    }
    std::vector<bool> present(kSubgraphFields, false);
    for (int id = 0; id < kSubgraphFields - 1; ++id) present[id] = sg_targets[id].has_value();
    present[3] = true;
    present[kSubgraphFields - 1] = sg_debug_index.has_value();
    const std::size_t vtable = PutVtable(w, present);
    const std::size_t table = PutTableStart(w, vtable);
    w.PutAt<std::uint32_t>(first_slot, static_cast<std::uint32_t>(table - first_slot));
    std::vector<std::size_t> field(kSubgraphFields);
    for (int id = 0; id < kSubgraphFields; ++id) field[id] = w.Put<std::uint32_t>(0);
    for (int id = 0; id < kSubgraphFields - 1; ++id) {
      if (id != 3 && sg_targets[id]) put_old(field[id], *sg_targets[id]);
    }
    if (sg_debug_index) w.PutAt<std::int32_t>(field[kSubgraphFields - 1], *sg_debug_index);
    const std::size_t ops_vec =
        w.Put<std::uint32_t>(static_cast<std::uint32_t>(reordered_operators.size()));
    w.PutAt<std::uint32_t>(field[3], static_cast<std::uint32_t>(ops_vec - field[3]));
    for (std::size_t t : reordered_operators) put_old(w.Put<std::uint32_t>(0), t);
  };

  // Sizes of the new head, to know where the old file lands (16-aligned).
  // Laid out in two passes: the first with a placeholder base.
  const auto build = [&](std::size_t base) -> std::pair<std::string, std::size_t> {
    TfliteByteWriter w;
    w.Put<std::uint32_t>(0);  // root offset, patched below
    w.Append("TFL3");
    std::vector<bool> present(kFields, false);
    present[0] = present[4] = present[6] = true;
    present[2] = targets[2].has_value() || !operator_order.empty();
    for (int id : {1, 3, 5, 7}) present[id] = targets[id].has_value();
    const std::size_t model_vtable = PutVtable(w, present);
    const std::size_t model_table = PutTableStart(w, model_vtable);
    std::vector<std::size_t> slot(kFields);
    for (int id = 0; id < kFields; ++id) slot[id] = w.Put<std::uint32_t>(0);
    w.PutAt<std::uint32_t>(0, static_cast<std::uint32_t>(model_table));
    w.PutAt<std::uint32_t>(slot[0], model.version);
    for (int id : {1, 2, 3, 5, 7}) {
      if (id == 2 && !operator_order.empty()) continue;  // the new subgraphs vector below
      if (targets[id]) {
        w.PutAt<std::uint32_t>(slot[id], static_cast<std::uint32_t>(base + *targets[id] - slot[id]));
      }
    }
    // The metadata vector: kept entries, then the new one.
    w.Align(4);
    const std::size_t metadata_vec = w.Put<std::uint32_t>(
        static_cast<std::uint32_t>(kept_metadata.size() + 1));
    std::vector<std::size_t> metadata_slots;
    for (std::size_t t : kept_metadata) {
      const std::size_t at = w.Put<std::uint32_t>(0);
      w.PutAt<std::uint32_t>(at, static_cast<std::uint32_t>(base + t - at));
    }
    const std::size_t new_metadata_slot = w.Put<std::uint32_t>(0);
    w.PutAt<std::uint32_t>(slot[6], static_cast<std::uint32_t>(metadata_vec - slot[6]));
    // The buffers vector: every old buffer, then the plan's.
    const std::size_t buffers_vec =
        w.Put<std::uint32_t>(static_cast<std::uint32_t>(old_buffers->size() + 1));
    for (std::size_t t : *old_buffers) {
      const std::size_t at = w.Put<std::uint32_t>(0);
      w.PutAt<std::uint32_t>(at, static_cast<std::uint32_t>(base + t - at));
    }
    const std::size_t new_buffer_slot = w.Put<std::uint32_t>(0);
    w.PutAt<std::uint32_t>(slot[4], static_cast<std::uint32_t>(buffers_vec - slot[4]));
    if (!operator_order.empty()) PutReorderedSubgraph(w, base, slot[2]);
    // Metadata {name, buffer}.
    const std::size_t md_vtable = PutVtable(w, {true, true});
    const std::size_t md_table = PutTableStart(w, md_vtable);
    const std::size_t md_name = w.Put<std::uint32_t>(0);
    w.Put<std::uint32_t>(static_cast<std::uint32_t>(old_buffers->size()));
    w.PutAt<std::uint32_t>(new_metadata_slot, static_cast<std::uint32_t>(md_table - new_metadata_slot));
    // Buffer {data}.
    const std::size_t buf_vtable = PutVtable(w, {true});
    const std::size_t buf_table = PutTableStart(w, buf_vtable);
    const std::size_t buf_data = w.Put<std::uint32_t>(0);
    w.PutAt<std::uint32_t>(new_buffer_slot, static_cast<std::uint32_t>(buf_table - new_buffer_slot));
    // The name string.
    const std::size_t name_at =
        w.Put<std::uint32_t>(static_cast<std::uint32_t>(kOfflinePlanMetadata.size()));
    w.Append(kOfflinePlanMetadata);
    w.Append(std::string_view("\0", 1));
    w.PutAt<std::uint32_t>(md_name, static_cast<std::uint32_t>(name_at - md_name));
    // The plan's data: a byte vector whose elements start 16-aligned.
    while ((w.size() + 4) % 16 != 0) w.Append(std::string_view("\0", 1));
    const std::size_t data_at =
        w.Put<std::uint32_t>(static_cast<std::uint32_t>(4 * (3 + offsets.size())));
    w.Put<std::int32_t>(version);
    w.Put<std::int32_t>(static_cast<std::int32_t>(model.subgraphs.size()));
    w.Put<std::int32_t>(static_cast<std::int32_t>(offsets.size()));
    for (std::int32_t o : offsets) w.Put<std::int32_t>(o);
    w.PutAt<std::uint32_t>(buf_data, static_cast<std::uint32_t>(data_at - buf_data));
    w.Align(16);
    const std::size_t head = w.size();
    w.Append(bytes);
    return {std::move(w).Take(), head};
  };
  const std::size_t base = build(0).second;
  auto [out, head] = build(base);
  if (head != base) return absl::InternalError("--write-tflite: layout changed between passes");
  return out;
}

}  // namespace memplan
