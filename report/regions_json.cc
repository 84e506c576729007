#include "report/regions_json.h"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "fmt/format.h"
#include "ir/dims.h"
#include "ir/text_parser.h"

namespace memplan::json_internal {
namespace {

// --- Writing -----------------------------------------------------------------

// Names of ops, values and dims; ids when there is no program.
class Names {
 public:
  explicit Names(const Program* program)
      : program_(program), dims_(program ? DimNames(*program) : std::vector<std::string>{}) {}
  std::string Expr(const SizeExpr& e) const { return e.ToString(dims_); }
  Json Op(OpId op) const {
    if (op == kNoId) return nullptr;
    return program_ ? program_->OpName(op) : std::to_string(op);
  }
  Json Value(ValueId v) const {
    if (v == kNoId) return nullptr;
    const bool named = program_ && v >= 0 && v < static_cast<ValueId>(program_->values.size());
    return named ? program_->values[v].name : std::to_string(v);
  }

 private:
  const Program* program_;
  std::vector<std::string> dims_;
};

// The name of list[index], or null when the index is not in the list.
template <typename Item>
Json NameAt(const std::vector<Item>& list, std::int32_t index) {
  if (index < 0 || index >= static_cast<std::int32_t>(list.size())) return nullptr;
  return list[index].name;
}

Json ResourceJson(const Resource& r, const BufferSet& buffers, const Names& names) {
  Json slices = Json::array();
  for (const Slice& s : r.slices) {
    const bool known = s.buffer >= 0 && s.buffer < static_cast<BufferId>(buffers.buffers.size());
    Json j;
    j["buffer"] = s.buffer;
    j["name"] = known ? buffers.buffers[s.buffer].name : "";
    j["offset"] = names.Expr(s.offset);
    j["offset_bytes"] = s.offset_bytes;
    j["size"] = names.Expr(s.size);
    j["size_bytes"] = s.size_bytes;
    j["start"] = s.start;
    j["end"] = s.end;
    slices.push_back(std::move(j));
  }
  Json j;
  j["name"] = r.name;
  j["kind"] = ResourceKindName(r.kind);
  j["lifetime"] = std::string(LifetimeName(r.lifetime));
  j["affinity"] = r.affinity;
  j["region"] = r.region;
  j["size"] = names.Expr(r.size);
  j["size_bytes"] = r.size_bytes;
  j["start"] = r.start;
  j["end"] = r.end;
  j["escaping"] = r.escaping;
  j["over_limit"] = r.over_limit;
  // Only a fast slab names its space: default-memory plans stay as they were.
  if (r.space != kDefaultSpace) j["space"] = r.space;
  if (!r.devices.empty()) j["devices"] = r.devices;
  j["slices"] = std::move(slices);
  return j;
}

Json CommandJson(const Command& c, const RegionPlan& plan, const Names& names) {
  Json ranges = Json::array();
  for (const CommandRange& range : c.ranges) {
    Json j;
    j["resource"] = NameAt(plan.resources, range.resource);
    j["offset"] = names.Expr(range.offset);
    j["offset_bytes"] = range.offset_bytes;
    j["length"] = names.Expr(range.length);
    j["length_bytes"] = range.length_bytes;
    j["access"] = AccessName(range.access);
    j["value"] = names.Value(range.value);
    ranges.push_back(std::move(j));
  }
  Json j;
  j["kind"] = CommandKindName(c.kind);
  j["op"] = names.Op(c.op);
  j["time"] = c.time;
  j["concurrent"] = c.concurrent;
  j["detail"] = c.detail;
  j["ranges"] = std::move(ranges);
  return j;
}

// The text of `element` at `indent`; its last member `nested` (an array) has
// one element per line, indented further.
void AppendNested(std::string& out, const Json& element, const std::string& indent,
                  std::string_view nested) {
  auto it = element.find(std::string(nested));
  if (!element.is_object() || it == element.end() || !it->is_array() || it->empty()) {
    out += indent + Dump(element);
    return;
  }
  Json head = element;
  head.erase(std::string(nested));
  std::string text = Dump(head);
  text.pop_back();  // the closing brace
  out += fmt::format("{}{}{}{}:[\n", indent, text, head.empty() ? "" : ",", Dump(Json(nested)));
  for (std::size_t i = 0; i < it->size(); ++i) {
    out += indent + "  " + Dump((*it)[i]) + (i + 1 < it->size() ? ",\n" : "\n");
  }
  out += indent + "]}";
}

// --- Reading -----------------------------------------------------------------

// The enumerator of E whose name is `name`; E's values are 0..count-1.
template <typename E, typename NameOf>
E ParseEnum(const std::string& name, int count, NameOf name_of, const std::string& pointer) {
  std::string choices;
  for (int i = 0; i < count; ++i) {
    const E e = static_cast<E>(i);
    if (name == name_of(e)) return e;
    choices += fmt::format("{}\"{}\"", i == 0 ? "" : i + 1 == count ? " or " : ", ", name_of(e));
  }
  throw SchemaError{pointer, fmt::format("expected {}, found \"{}\"", choices, name)};
}

Access ParseAccess(const std::string& name, const std::string& pointer) {
  for (Access a : {Access::kRead, Access::kWrite, Access::kReadWrite}) {
    if (name == AccessName(a)) return a;
  }
  throw SchemaError{
      pointer, fmt::format("expected \"read\", \"write\" or \"read-write\", found \"{}\"", name)};
}

// Fixed path for ParseSizeExpr, stripped from its messages again.
constexpr std::string_view kExprPath = "expr";

class RegionReader {
 public:
  RegionReader(const BufferSet& buffers, const Program& program)
      : buffers_(buffers), program_(program) {
    for (OpId o = 0; o < static_cast<OpId>(program.ops.size()); ++o) {
      ops_.emplace(program.OpName(o), o);
    }
    for (ValueId v = 0; v < static_cast<ValueId>(program.values.size()); ++v) {
      values_.emplace(program.values[v].name, v);
    }
  }

  RegionPlan Read(const ObjectReader& r) {
    ReadOptions(ObjectReader(r.Get("options"), r.Path("options")));
    // Resources first: the others refer to them by name.
    const Json& resources = r.Array("resources");
    for (std::size_t i = 0; i < resources.size(); ++i) {
      ReadResource(ObjectReader(resources[i], Pointer(r.Path("resources"), i)));
    }
    const Json& regions = r.Array("regions");
    for (std::size_t i = 0; i < regions.size(); ++i) {
      ReadRegion(ObjectReader(regions[i], Pointer(r.Path("regions"), i)));
    }
    const Json& steps = r.Array("steps");
    for (std::size_t i = 0; i < steps.size(); ++i) {
      ReadStep(ObjectReader(steps[i], Pointer(r.Path("steps"), i)));
    }
    const Json& warnings = r.Array("warnings");
    for (std::size_t i = 0; i < warnings.size(); ++i) {
      if (!warnings[i].is_string()) {
        WrongType(warnings[i], Pointer(r.Path("warnings"), i), "a string");
      }
      plan_.warnings.push_back(warnings[i].get<std::string>());
    }
    if (r.Has("estimated_time_s")) plan_.estimated_s = r.Number("estimated_time_s");
    if (r.Has("all_default_time_s")) plan_.all_default_s = r.Number("all_default_time_s");
    return std::move(plan_);
  }

 private:
  void ReadOptions(const ObjectReader& r) {
    RegionPlanOptions& o = plan_.options;
    o.offset_alignment = r.IntIn("offset_alignment", 1, kMaxAlignment);
    o.range_alignment = r.IntIn("range_alignment", 1, kMaxAlignment);
    if (!r.Get("max_allocation_size").is_null()) {
      o.max_allocation_size = r.IntIn("max_allocation_size", 1, kMaxTotalBytes);
    }
    o.pack = r.String("pack");
  }

  void ReadResource(const ObjectReader& r) {
    Resource res;
    res.name = r.String("name");
    const auto id = static_cast<std::int32_t>(plan_.resources.size());
    if (!resource_ids_.emplace(res.name, id).second) {
      throw SchemaError{r.Path("name"), fmt::format("duplicate resource name '{}'", res.name)};
    }
    res.kind = ParseEnum<ResourceKind>(r.String("kind"), 4, ResourceKindName, r.Path("kind"));
    res.lifetime = ReadLifetime(r, "lifetime");
    res.affinity = r.String("affinity");
    res.region = r.String("region");
    res.size = Expr(r, "size");
    res.size_bytes = r.Amount("size_bytes");
    res.start = r.Amount("start");
    res.end = r.Amount("end");
    res.escaping = r.Bool("escaping");
    res.over_limit = r.Bool("over_limit");
    if (r.Has("space")) res.space = static_cast<MemorySpace>(r.IntIn("space", 0, 1 << 30));
    if (r.Has("devices")) {
      const Json& devices = r.Array("devices");
      for (std::size_t i = 0; i < devices.size(); ++i) {
        if (!devices[i].is_string()) {
          WrongType(devices[i], Pointer(r.Path("devices"), i), "a string (a device name)");
        }
        res.devices.push_back(devices[i].get<std::string>());
      }
    }
    const Json& slices = r.Array("slices");
    for (std::size_t i = 0; i < slices.size(); ++i) {
      res.slices.push_back(ReadSlice(ObjectReader(slices[i], Pointer(r.Path("slices"), i))));
    }
    plan_.resources.push_back(std::move(res));
  }

  Slice ReadSlice(const ObjectReader& r) {
    Slice s;
    s.buffer = static_cast<BufferId>(
        r.IntIn("buffer", 0, static_cast<std::int64_t>(buffers_.buffers.size()) - 1));
    const std::string_view want = buffers_.buffers[s.buffer].name;
    if (const std::string name = r.String("name"); name != want) {
      throw SchemaError{
          r.Path("name"),
          fmt::format("'{}' differs from the input's buffer {} ('{}')", name, s.buffer, want),
          true};
    }
    s.offset = Expr(r, "offset");
    s.offset_bytes = r.Amount("offset_bytes");
    s.size = Expr(r, "size");
    s.size_bytes = r.Amount("size_bytes");
    s.start = r.Amount("start");
    s.end = r.Amount("end");
    return s;
  }

  void ReadRegion(const ObjectReader& r) {
    RegionInfo info;
    info.name = r.String("name");
    info.computation = program_.FindComputation(info.name);
    if (info.computation == kNoId ||
        program_.computations[info.computation].kind != ComputationKind::kRegion) {
      throw SchemaError{r.Path("name"),
                        fmt::format("the input's program has no region @{}", info.name), true};
    }
    if (!region_ids_.emplace(info.name, static_cast<std::int32_t>(plan_.regions.size())).second) {
      throw SchemaError{r.Path("name"), fmt::format("duplicate region @{}", info.name)};
    }
    info.execute = FindOp(r.String("execute"), r.Path("execute"));
    const Op& execute = program_.ops[info.execute];
    if (execute.kind != OpKind::kExecute || execute.callees.empty() ||
        execute.callees.front() != info.computation) {
      throw SchemaError{r.Path("execute"),
                        fmt::format("op '{}' does not execute region @{}",
                                    program_.OpName(info.execute), info.name),
                        true};
    }
    info.affinity = r.String("affinity");
    info.once = r.Bool("once");
    const Json& resources = r.Array("resources");
    for (std::size_t i = 0; i < resources.size(); ++i) {
      const std::string pointer = Pointer(r.Path("resources"), i);
      if (!resources[i].is_string()) WrongType(resources[i], pointer, "a string");
      info.resources.push_back(ResourceId(resources[i].get<std::string>(), pointer));
    }
    info.slab_size = Expr(r, "slab_size");
    info.slab_bytes = r.Amount("slab_bytes");
    info.slab_lower_bound = r.Amount("slab_lower_bound_bytes");
    if (r.Has("estimated_time_s")) info.estimated_s = r.Number("estimated_time_s");
    if (r.Has("all_default_time_s")) info.all_default_s = r.Number("all_default_time_s");
    info.downstream = r.String("downstream");
    if (r.Has("copies")) {
      const Json& copies = r.Array("copies");
      for (std::size_t i = 0; i < copies.size(); ++i) {
        info.copies.push_back(ReadCopy(ObjectReader(copies[i], Pointer(r.Path("copies"), i))));
      }
    }
    plan_.regions.push_back(std::move(info));
  }

  RegionCopy ReadCopy(const ObjectReader& r) {
    RegionCopy c;
    const std::string name = r.String("value");
    auto it = values_.find(name);
    if (it == values_.end()) {
      throw SchemaError{r.Path("value"),
                        fmt::format("the input's program has no value %{}", name), true};
    }
    c.value = it->second;
    for (BufferId b = 0; b < static_cast<BufferId>(buffers_.buffers.size()); ++b) {
      const auto& values = buffers_.buffers[b].values;
      if (std::find(values.begin(), values.end(), c.value) != values.end()) c.buffer = b;
    }
    c.bytes = r.Amount("bytes");
    c.from_space = static_cast<MemorySpace>(r.IntIn("from_space", 0, 1 << 30));
    c.to_space = static_cast<MemorySpace>(r.IntIn("to_space", 0, 1 << 30));
    c.start = r.Amount("step");
    c.end = r.Amount("last_read");
    c.resource = ResourceId(r.String("resource"), r.Path("resource"));
    c.offset = Expr(r, "offset");
    c.offset_bytes = r.Amount("offset_bytes");
    c.copy_s = r.Number("copy_time_s");
    c.saves_s = r.Number("saves_s");
    return c;
  }

  void ReadStep(const ObjectReader& r) {
    HostStep step;
    step.kind = ParseEnum<HostStepKind>(r.String("kind"), 6, HostStepKindName, r.Path("kind"));
    step.signal = r.String("signal");
    const Json& awaits = r.Array("awaits");
    for (std::size_t i = 0; i < awaits.size(); ++i) {
      if (!awaits[i].is_string()) WrongType(awaits[i], Pointer(r.Path("awaits"), i), "a string");
      step.awaits.push_back(awaits[i].get<std::string>());
    }
    if (std::optional<std::string> name = r.StringOrNull("resource")) {
      step.resource = ResourceId(*name, r.Path("resource"));
    }
    if (std::optional<std::string> name = r.StringOrNull("region")) {
      auto it = region_ids_.find(*name);
      if (it == region_ids_.end()) {
        throw SchemaError{r.Path("region"),
                          fmt::format("no region @{} in /regions/regions", *name)};
      }
      step.region = it->second;
    }
    const Json& commands = r.Array("commands");
    for (std::size_t i = 0; i < commands.size(); ++i) {
      step.commands.push_back(
          ReadCommand(ObjectReader(commands[i], Pointer(r.Path("commands"), i))));
    }
    plan_.steps.push_back(std::move(step));
  }

  Command ReadCommand(const ObjectReader& r) {
    Command c;
    c.kind = ParseEnum<CommandKind>(r.String("kind"), 13, CommandKindName, r.Path("kind"));
    if (std::optional<std::string> op = r.StringOrNull("op")) c.op = FindOp(*op, r.Path("op"));
    c.time = r.Amount("time");
    c.concurrent = static_cast<std::int32_t>(
        r.IntIn("concurrent", -1, std::numeric_limits<std::int32_t>::max()));
    c.detail = r.String("detail");
    const Json& ranges = r.Array("ranges");
    for (std::size_t i = 0; i < ranges.size(); ++i) {
      c.ranges.push_back(ReadRange(ObjectReader(ranges[i], Pointer(r.Path("ranges"), i))));
    }
    return c;
  }

  CommandRange ReadRange(const ObjectReader& r) {
    CommandRange range;
    range.resource = ResourceId(r.String("resource"), r.Path("resource"));
    range.offset = Expr(r, "offset");
    range.offset_bytes = r.Amount("offset_bytes");
    range.length = Expr(r, "length");
    range.length_bytes = r.Amount("length_bytes");
    range.access = ParseAccess(r.String("access"), r.Path("access"));
    if (std::optional<std::string> name = r.StringOrNull("value")) {
      auto it = values_.find(*name);
      if (it == values_.end()) {
        throw SchemaError{r.Path("value"),
                          fmt::format("the input's program has no value %{}", *name), true};
      }
      range.value = it->second;
    }
    return range;
  }

  Lifetime ReadLifetime(const ObjectReader& r, std::string_view key) {
    const std::string name = r.String(key);
    if (std::optional<Lifetime> lifetime = ParseLifetime(name)) return *lifetime;
    throw SchemaError{r.Path(key), fmt::format("unknown lifetime \"{}\"", name)};
  }

  std::int32_t ResourceId(const std::string& name, const std::string& pointer) const {
    auto it = resource_ids_.find(name);
    if (it == resource_ids_.end()) {
      throw SchemaError{pointer, fmt::format("no resource '{}' in /regions/resources", name)};
    }
    return it->second;
  }

  OpId FindOp(const std::string& name, const std::string& pointer) const {
    auto it = ops_.find(name);
    if (it == ops_.end()) {
      throw SchemaError{pointer, fmt::format("the input's program has no op '{}'", name), true};
    }
    return it->second;
  }

  // The expression text at `key`, parsed; a parse error keeps its column.
  SizeExpr Expr(const ObjectReader& r, std::string_view key) const {
    const std::string text = r.String(key);
    absl::StatusOr<SizeExpr> expr = ParseSizeExpr(text, program_, kExprPath);
    if (expr.ok()) return *std::move(expr);
    // "expr:1:COL: error: MESSAGE" -> "column COL: MESSAGE".
    const std::string full(expr.status().message());
    std::string_view message = full;
    message.remove_prefix(std::min(message.size(), kExprPath.size() + 3));  // "expr:1:"
    const std::size_t colon = message.find(": error: ");
    const std::string detail =
        colon == std::string_view::npos
            ? std::string(message)
            : fmt::format("column {}: {}", message.substr(0, colon), message.substr(colon + 9));
    throw SchemaError{r.Path(key),
                      fmt::format("\"{}\" is not a size expression ({})", text, detail)};
  }

  const BufferSet& buffers_;
  const Program& program_;
  std::unordered_map<std::string, OpId> ops_;
  std::unordered_map<std::string, ValueId> values_;
  std::unordered_map<std::string, std::int32_t> resource_ids_;
  std::unordered_map<std::string, std::int32_t> region_ids_;
  RegionPlan plan_;
};

}  // namespace

Json RegionsJson(const RegionPlan& regions, const BufferSet& buffers, const Program* program) {
  const Names names(program);
  Json options;
  options["offset_alignment"] = regions.options.offset_alignment;
  options["range_alignment"] = regions.options.range_alignment;
  options["max_allocation_size"] = regions.options.max_allocation_size
                                       ? Json(*regions.options.max_allocation_size)
                                       : Json(nullptr);
  options["pack"] = regions.options.pack;
  Json resources = Json::array();
  for (const Resource& r : regions.resources) resources.push_back(ResourceJson(r, buffers, names));
  Json infos = Json::array();
  for (const RegionInfo& info : regions.regions) {
    Json used = Json::array();
    for (std::int32_t r : info.resources) used.push_back(NameAt(regions.resources, r));
    Json j;
    j["name"] = info.name;
    j["execute"] = names.Op(info.execute);
    j["affinity"] = info.affinity;
    j["once"] = info.once;
    j["resources"] = std::move(used);
    j["slab_size"] = names.Expr(info.slab_size);
    j["slab_bytes"] = info.slab_bytes;
    j["slab_lower_bound_bytes"] = info.slab_lower_bound;
    if (regions.options.fast_memory) {
      j["estimated_time_s"] = info.estimated_s;
      j["all_default_time_s"] = info.all_default_s;
    }
    j["downstream"] = info.downstream;
    // Only a region with captured copies lists them: plans without stay as they were.
    if (!info.copies.empty()) {
      Json copies = Json::array();
      for (const RegionCopy& c : info.copies) {
        Json copy;
        copy["value"] = names.Value(c.value);
        copy["bytes"] = c.bytes;
        copy["from_space"] = c.from_space;
        copy["to_space"] = c.to_space;
        copy["step"] = c.start;
        copy["last_read"] = c.end;
        copy["resource"] = NameAt(regions.resources, c.resource);
        copy["offset"] = names.Expr(c.offset);
        copy["offset_bytes"] = c.offset_bytes;
        copy["copy_time_s"] = c.copy_s;
        copy["saves_s"] = c.saves_s;
        copies.push_back(std::move(copy));
      }
      j["copies"] = std::move(copies);
    }
    infos.push_back(std::move(j));
  }
  Json steps = Json::array();
  for (const HostStep& step : regions.steps) {
    Json commands = Json::array();
    for (const Command& c : step.commands) commands.push_back(CommandJson(c, regions, names));
    Json j;
    j["kind"] = HostStepKindName(step.kind);
    j["signal"] = step.signal;
    j["awaits"] = step.awaits;
    j["resource"] = NameAt(regions.resources, step.resource);
    j["region"] = NameAt(regions.regions, step.region);
    j["commands"] = std::move(commands);
    steps.push_back(std::move(j));
  }
  Json doc;
  doc["options"] = std::move(options);
  doc["resources"] = std::move(resources);
  doc["regions"] = std::move(infos);
  doc["steps"] = std::move(steps);
  doc["warnings"] = regions.warnings;
  if (regions.options.fast_memory) {
    doc["estimated_time_s"] = regions.estimated_s;
    doc["all_default_time_s"] = regions.all_default_s;
  }
  return doc;
}

void AppendRegionsText(std::string& out, const Json& regions) {
  out += "{";
  bool first = true;
  for (const auto& [key, value] : regions.items()) {
    out += first ? "\n    " : ",\n    ";
    first = false;
    out += Dump(Json(key)) + ": ";
    if (!value.is_array() || value.empty()) {
      out += Dump(value);
      continue;
    }
    const std::string_view nested = key == "resources" ? "slices"
                                    : key == "steps"   ? "commands"
                                                       : "";
    out += "[\n";
    for (std::size_t i = 0; i < value.size(); ++i) {
      AppendNested(out, value[i], "      ", nested);
      out += i + 1 < value.size() ? ",\n" : "\n";
    }
    out += "    ]";
  }
  out += "\n  }";
}

RegionPlan ReadRegions(const Json& value, const std::string& pointer, const BufferSet& buffers,
                       const Program& program) {
  return RegionReader(buffers, program).Read(ObjectReader(value, pointer));
}

}  // namespace memplan::json_internal
