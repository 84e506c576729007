#include "io/onnx/node_order.h"

#include <algorithm>
#include <functional>
#include <optional>
#include <queue>
#include <tuple>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "fmt/format.h"
#include "google/protobuf/io/coded_stream.h"
#include "google/protobuf/wire_format_lite.h"
#include "onnx/onnx_pb.h"

namespace memplan {
namespace {

absl::Status NodeOrderError(const std::string& path, std::string_view message) {
  return absl::InvalidArgumentError(fmt::format("{}: error: --write-onnx: {}", path, message));
}

// Tensors read by `node` and by the subgraphs of its attributes (outer-scope
// captures): the node must come after their producers. Subgraph-local names
// may shadow nothing of the outer graph (ONNX forbids it), so reading every
// name is safe: a name no outer node produces is ignored.
void NodeReads(const onnx::NodeProto& node, std::vector<std::string>& out) {
  for (const std::string& input : node.input()) {
    if (!input.empty()) out.push_back(input);
  }
  for (const onnx::AttributeProto& attr : node.attribute()) {
    std::vector<const onnx::GraphProto*> graphs;
    if (attr.has_g()) graphs.push_back(&attr.g());
    for (const onnx::GraphProto& g : attr.graphs()) graphs.push_back(&g);
    for (const onnx::GraphProto* g : graphs) {
      for (const onnx::NodeProto& inner : g->node()) NodeReads(inner, out);
    }
  }
}

// One field record of a protobuf message's wire form: [begin, end) in the
// bytes, its payload from `payload` (length-delimited records).
struct WireRecord {
  int field = 0;
  std::size_t begin = 0;
  std::size_t payload = 0;
  std::size_t end = 0;
};

// The records of the message in `bytes` (offsets relative to `base`), or
// nullopt for a form this does not split (groups, malformed bytes).
std::optional<std::vector<WireRecord>> SplitRecords(std::string_view bytes, std::size_t base) {
  using google::protobuf::internal::WireFormatLite;
  google::protobuf::io::CodedInputStream in(reinterpret_cast<const std::uint8_t*>(bytes.data()),
                                            static_cast<int>(bytes.size()));
  std::vector<WireRecord> records;
  while (true) {
    WireRecord r;
    r.begin = base + static_cast<std::size_t>(in.CurrentPosition());
    const std::uint32_t tag = in.ReadTag();
    if (tag == 0) break;
    r.field = static_cast<int>(WireFormatLite::GetTagFieldNumber(tag));
    bool ok = true;
    switch (WireFormatLite::GetTagWireType(tag)) {
      case WireFormatLite::WIRETYPE_VARINT: {
        std::uint64_t v;
        ok = in.ReadVarint64(&v);
        break;
      }
      case WireFormatLite::WIRETYPE_FIXED64: ok = in.Skip(8); break;
      case WireFormatLite::WIRETYPE_FIXED32: ok = in.Skip(4); break;
      case WireFormatLite::WIRETYPE_LENGTH_DELIMITED: {
        std::uint32_t length;
        ok = in.ReadVarint32(&length);
        r.payload = base + static_cast<std::size_t>(in.CurrentPosition());
        ok = ok && in.Skip(static_cast<int>(length));
        break;
      }
      default: ok = false;
    }
    if (!ok) return std::nullopt;
    r.end = base + static_cast<std::size_t>(in.CurrentPosition());
    records.push_back(r);
  }
  if (base + static_cast<std::size_t>(in.CurrentPosition()) != base + bytes.size()) {
    return std::nullopt;
  }
  return records;
}

// `bytes` with the main graph's node records (ModelProto field 7, GraphProto
// field 1) permuted into `order`, every other byte where it was: the same
// length, so no length prefix changes. Nullopt when the file is not in the
// form this handles (a graph split over several records, a node count that
// differs from the parsed model's).
std::optional<std::string> PermuteNodeRecords(std::string_view bytes,
                                              const std::vector<int>& order) {
  const std::optional<std::vector<WireRecord>> model = SplitRecords(bytes, 0);
  if (!model) return std::nullopt;
  const WireRecord* graph = nullptr;
  for (const WireRecord& r : *model) {
    if (r.field != 7) continue;
    if (graph != nullptr) return std::nullopt;
    graph = &r;
  }
  if (graph == nullptr) return std::nullopt;
  const std::optional<std::vector<WireRecord>> fields =
      SplitRecords(bytes.substr(graph->payload, graph->end - graph->payload), graph->payload);
  if (!fields) return std::nullopt;
  std::vector<const WireRecord*> nodes;
  for (const WireRecord& r : *fields) {
    if (r.field == 1) nodes.push_back(&r);
  }
  if (nodes.size() != order.size()) return std::nullopt;
  std::string out(bytes.substr(0, graph->payload));
  std::size_t k = 0;
  for (const WireRecord& r : *fields) {
    const WireRecord& from = r.field == 1 ? *nodes[order[k++]] : r;
    out.append(bytes.substr(from.begin, from.end - from.begin));
  }
  out.append(bytes.substr(graph->end));
  return out;
}

}  // namespace

absl::StatusOr<std::string> OnnxWithNodeOrder(std::string_view bytes, const std::string& path,
                                              const std::map<std::string, std::int64_t>& position) {
  onnx::ModelProto model;
  if (!model.ParseFromArray(bytes.data(), static_cast<int>(bytes.size()))) {
    return NodeOrderError(path, "the file does not parse as an ONNX ModelProto");
  }
  const int n = model.graph().node_size();
  // Producer node of each tensor; a node's key: its lowest output position.
  std::unordered_map<std::string, int> producer;
  std::vector<std::int64_t> key(n, -1);
  for (int i = 0; i < n; ++i) {
    const onnx::NodeProto& node = model.graph().node(i);
    for (const std::string& output : node.output()) {
      if (output.empty()) continue;
      producer.emplace(output, i);
      if (auto it = position.find(output); it != position.end()) {
        key[i] = key[i] < 0 ? it->second : std::min(key[i], it->second);
      }
    }
  }
  std::vector<std::vector<int>> users(n);
  std::vector<int> waiting(n, 0);
  for (int i = 0; i < n; ++i) {
    std::vector<std::string> reads;
    NodeReads(model.graph().node(i), reads);
    std::unordered_set<int> from;
    for (const std::string& name : reads) {
      auto it = producer.find(name);
      if (it != producer.end() && it->second != i && from.insert(it->second).second) {
        users[it->second].push_back(i);
        ++waiting[i];
      }
    }
  }
  // Kahn's algorithm, the ready node with the lowest (key, file index) first.
  // A node's key is at least its inputs' keys: a node the plan put before a
  // node it reads through the file's graph (through a folded value, such as
  // the Shape of an activation) waits for it.
  using Entry = std::tuple<std::int64_t, int>;
  std::priority_queue<Entry, std::vector<Entry>, std::greater<>> ready;
  for (int i = 0; i < n; ++i) {
    if (waiting[i] == 0) ready.emplace(key[i], i);
  }
  std::vector<int> order;
  order.reserve(n);
  while (!ready.empty()) {
    const auto [k, i] = ready.top();
    ready.pop();
    order.push_back(i);
    for (int u : users[i]) {
      key[u] = std::max(key[u], k);
      if (--waiting[u] == 0) ready.emplace(key[u], u);
    }
  }
  if (static_cast<int>(order.size()) != n) {
    return NodeOrderError(path, "the graph's nodes have a dependency cycle");
  }
  // Byte-faithful where the wire form allows: only node records move.
  if (std::optional<std::string> permuted = PermuteNodeRecords(bytes, order)) return *permuted;
  google::protobuf::RepeatedPtrField<onnx::NodeProto> nodes;
  nodes.Swap(model.mutable_graph()->mutable_node());
  for (int i : order) *model.mutable_graph()->add_node() = std::move(*nodes.Mutable(i));
  std::string out;
  if (!model.SerializeToString(&out)) {
    return NodeOrderError(path, "protobuf could not serialize the model (over 2 GiB?)");
  }
  return out;
}

}  // namespace memplan
