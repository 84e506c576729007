#include "report/plan_json.h"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <functional>
#include <iterator>
#include <string_view>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "fmt/format.h"
#include "report/peak_attribution.h"
#include "report/regions_json.h"
#include "report/space_peaks.h"
#include "io/json_locate.h"
#include "ir/plural.h"
#include "io/json_util.h"
#include "ir/diagnostic.h"
#include "ir/dims.h"
#include "nlohmann/json.hpp"

namespace memplan {
namespace {

using json_internal::AsInt;
using json_internal::Dump;
using json_internal::InRange;
using json_internal::Json;
using json_internal::ObjectReader;
using json_internal::Pointer;
using json_internal::SchemaError;
using json_internal::WrongType;

// The "packing" object (plan_json.h): how `auto` packed the transient pool.
Json PackingJson(const PackReport& report, bool seconds) {
  Json members = Json::array();
  for (const PackMemberReport& member : report.members) {
    Json m;
    m["name"] = member.name;
    m["ran"] = member.ran;
    m["stopped"] = MemberStopped(member);
    m["searched"] = MemberSearched(member);
    m["peak_bytes"] = member.ran ? Json(member.peak) : Json(nullptr);
    m["reason"] = member.reason.empty() ? Json(nullptr) : Json(member.reason);
    // Counted work in the reasons' estimated seconds.
    m["work_seconds"] = member.work ? Json(*member.work * kSecondsPerWorkUnit) : Json(nullptr);
    m["allowed_work_seconds"] =
        member.allowance ? Json(*member.allowance * kSecondsPerWorkUnit) : Json(nullptr);
    if (member.capacity) m["capacity_bytes"] = *member.capacity;  // exact's decision
    if (seconds) m["seconds"] = member.seconds;
    members.push_back(std::move(m));
  }
  Json j;
  j["effort"] = report.effort;
  j["time_limited"] = report.time_limited;
  j["members"] = std::move(members);
  if (seconds) j["seconds"] = report.seconds;
  return j;
}

std::string CopyKindKeyword(CopyKind kind) {
  return kind == CopyKind::kPrefetch ? "prefetch" : "eviction";
}

// The buffer's values: their names in `program`, else their ids as text.
Json ValuesJson(const Buffer& b, const Program* program) {
  Json values = Json::array();
  for (ValueId v : b.values) {
    const bool named = program && v >= 0 && v < static_cast<ValueId>(program->values.size());
    values.push_back(named ? program->values[v].name : std::to_string(v));
  }
  return values;
}

// `text` as a JSON string, as Dump writes it: printable ASCII without
// quotes or backslashes as it is (nearly every name), anything else through
// nlohmann's escaping.
void AppendJsonString(std::string& out, std::string_view text) {
  const bool plain = std::all_of(text.begin(), text.end(), [](char c) {
    return c >= 0x20 && c < 0x7F && c != '"' && c != '\\';
  });
  if (plain) {
    out += '"';
    out.append(text);
    out += '"';
  } else {
    out += Dump(Json(std::string(text)));
  }
}

// ,"value_offset_exprs":[...] parallel to `b`'s values when one of them
// sits at an offset given by dims (a subview at a dynamic offset): each
// value's offset in the buffer as a size expression ("0", "align(4*%n, 64)").
// Nothing for other buffers.
void AppendValueOffsetExprs(std::string& out, const Plan& plan, const Buffer& b,
                            const Program* program) {
  if (plan.symbolic_value_offsets.empty() || program == nullptr) return;
  const bool symbolic = std::any_of(b.values.begin(), b.values.end(), [&](ValueId v) {
    return plan.symbolic_value_offsets.contains(v);
  });
  if (!symbolic) return;
  const std::vector<std::string> names = DimNames(*program);
  out += ",\"value_offset_exprs\":[";
  for (std::size_t i = 0; i < b.values.size(); ++i) {
    const ValueId v = b.values[i];
    if (i > 0) out += ',';
    auto it = plan.symbolic_value_offsets.find(v);
    const bool known = v >= 0 && v < static_cast<ValueId>(plan.value_offsets.size());
    AppendJsonString(out, it != plan.symbolic_value_offsets.end()
                              ? it->second.ToString(names)
                              : std::to_string(known ? plan.value_offsets[v] : 0));
  }
  out += ']';
}

// Dump of buffer `id`'s entry in "buffers", written directly: a JSON
// document per buffer would cost more than the plan at 10^7 buffers. Its
// `values` are the names of its values in `program`, else their ids as
// text; its `gaps` (dead steps, [first, last]) only when it has some.
void AppendBufferJson(std::string& out, const Plan& plan, const BufferSet& buffers,
                      const Program* program, BufferId id) {
  const Buffer& b = buffers.buffers[id];
  const auto number = [&](std::int64_t v) { fmt::format_to(std::back_inserter(out), "{}", v); };
  out += "{\"id\":";
  number(id);
  out += ",\"name\":";
  AppendJsonString(out, b.name);
  out += ",\"values\":[";
  for (std::size_t i = 0; i < b.values.size(); ++i) {
    const ValueId v = b.values[i];
    if (i > 0) out += ',';
    const bool named = program && v >= 0 && v < static_cast<ValueId>(program->values.size());
    AppendJsonString(out, named ? program->values[v].name : std::to_string(v));
  }
  out += ']';
  // Each value's bytes from the buffer's first byte: its address in a
  // segment is the segment's offset plus this.
  if (!plan.value_offsets.empty() && !b.values.empty()) {
    out += ",\"value_offsets\":[";
    for (std::size_t i = 0; i < b.values.size(); ++i) {
      const ValueId v = b.values[i];
      if (i > 0) out += ',';
      number(v >= 0 && v < static_cast<ValueId>(plan.value_offsets.size()) ? plan.value_offsets[v] : 0);
    }
    out += ']';
    AppendValueOffsetExprs(out, plan, b, program);
  }
  out += ",\"size\":";
  number(b.size);
  out += ",\"start\":";
  number(b.start);
  out += ",\"end\":";
  number(b.end);
  if (!b.gaps().empty()) {
    out += ",\"gaps\":[";
    for (std::size_t i = 0; i < b.gaps().size(); ++i) {
      out += i > 0 ? ",[" : "[";
      number(b.gaps()[i].first);
      out += ',';
      number(b.gaps()[i].last);
      out += ']';
    }
    out += ']';
  }
  const BufferPlacement* placement =
      id < static_cast<BufferId>(plan.placements.size()) ? &plan.placements[id] : nullptr;
  out += ",\"pool\":";
  AppendJsonString(out, placement ? std::string_view(placement->pool.str()) : std::string_view());
  out += ",\"lifetime\":";
  AppendJsonString(out, LifetimeName(b.lifetime));
  out += ",\"allocations\":[";
  if (placement) {
    for (std::size_t i = 0; i < placement->allocations.size(); ++i) {
      const Allocation& a = placement->allocations[i];
      out += i > 0 ? ",{\"space\":" : "{\"space\":";
      number(a.space);
      out += ",\"offset\":";
      number(a.offset);
      out += ",\"start\":";
      number(a.start);
      out += ",\"end\":";
      number(a.end);
      out += '}';
    }
  }
  out += "]}";
}

Json KnobsJson(const PlanMsaKnobs& k) {
  const auto limit = [](std::int64_t n) { return n < 0 ? Json(nullptr) : Json(n); };
  Json j;
  j["picker"] = k.picker;
  j["min_overlap_ops"] = k.min_overlap_ops;
  j["max_overlap_ops"] = k.max_overlap_ops;
  j["min_overlap_ratio"] = k.min_overlap_ratio;
  j["preferred_overlap_ratio"] = k.preferred_overlap_ratio;
  j["max_overlap_ratio"] = k.max_overlap_ratio;
  j["max_outstanding_prefetches"] = limit(k.max_outstanding_prefetches);
  j["max_outstanding_evictions"] = limit(k.max_outstanding_evictions);
  j["fifo_prefetches"] = k.fifo_prefetches;
  j["max_repacks"] = k.max_repacks ? Json(*k.max_repacks) : Json(nullptr);
  j["cross_program_prefetch"] = k.cross_program_prefetch;
  j["cross_program_prefetch_freeing"] = k.cross_program_prefetch_freeing;
  j["fast_memory_alignment"] = k.fast_memory_alignment;
  j["fast_memory_override"] = k.fast_memory_override ? Json(*k.fast_memory_override) : Json(nullptr);
  j["fast_memory_alignment_override"] =
      k.fast_memory_alignment_override ? Json(*k.fast_memory_alignment_override) : Json(nullptr);
  j["assign_first"] = k.assign_first;
  j["pins"] = k.pins;
  j["inefficient_ratio"] = k.inefficient_ratio;
  j["while_trip_count"] = k.while_trip_count;
  // Only when a sliced-prefetch flag was given, so other plans read as before.
  if (k.sliced_prefetch || k.sliced_prefetch_min_bytes > 0 || k.sliced_prefetch_slice_bytes > 0) {
    Json sliced;
    sliced["max_slices"] = k.sliced_prefetch ? Json(*k.sliced_prefetch) : Json(nullptr);
    sliced["min_bytes"] = k.sliced_prefetch_min_bytes;
    sliced["slice_bytes"] = k.sliced_prefetch_slice_bytes;
    j["sliced_prefetch"] = std::move(sliced);
  }
  if (!k.automatic_window_prefetch) j["window_prefetch"] = k.window_prefetch;
  // Only when --block-prefetch was given (0 included), so other plans read as before.
  if (!k.automatic_block_prefetch) j["block_prefetch_bytes"] = k.block_prefetch_bytes;
  // Only with --loop-optimizer, likewise.
  if (k.loop_optimizer) j["loop_optimizer_min_iterations"] = k.loop_optimizer_min_iterations;
  if (!k.automatic_loop_optimizer) j["no_loop_optimizer"] = true;
  return j;
}

Json PlanDocument(const Plan& plan, const BufferSet& buffers, const Program* program,
                  const PlanJsonExtras& extras) {
  Json doc;
  doc["schema"] = std::string(kPlanSchema);
  doc["input"] = plan.input;
  if (extras.input_options) {
    Json dims = Json::object();
    for (const auto& [name, value] : extras.input_options->dims) dims[name] = value;
    Json options;
    options["alias"] = extras.input_options->alias;
    options["dims"] = std::move(dims);
    options["regions"] = extras.input_options->regions_per ? Json(*extras.input_options->regions_per)
                                                           : Json(nullptr);
    options["offline_plan"] = extras.input_options->offline_plan;
    if (!extras.input_options->input_shapes.empty()) {
      Json shapes = Json::object();
      for (const auto& [name, dims] : extras.input_options->input_shapes) shapes[name] = dims;
      options["input_shapes"] = std::move(shapes);
    }
    options["reorder"] = extras.input_options->reorder;
    doc["input_options"] = std::move(options);
  }
  if (extras.reorder && extras.schedule != nullptr && program != nullptr) {
    Json order;
    order["strategy"] = extras.reorder->strategy;
    order["input_peak_bytes"] = extras.reorder->input_peak;
    order["peak_bytes"] = extras.reorder->peak;
    order["lower_bound_bytes"] = extras.reorder->lower_bound;
    if (const std::optional<ReorderFastMemoryChoice>& fast = extras.reorder->fast_memory) {
      order["fast_memory"] = Json{{"kept", fast->kept_input_order ? "input" : "reordered"},
                                  {"reordered_estimated_time_s", fast->reordered_s},
                                  {"input_order_estimated_time_s", fast->input_order_s}};
    }
    Json ops = Json::array();
    for (OpId op : extras.schedule->order) ops.push_back(Json{{"id", op}, {"name", program->OpName(op)}});
    order["ops"] = std::move(ops);
    doc["schedule"] = std::move(order);
  }
  doc["algorithm"] = plan.algorithm;
  doc["time_steps"] = plan.time_steps;
  doc["lower_bound_bytes"] = plan.lower_bound;
  doc["peak_bytes"] = plan.peak;
  doc["gap_bytes"] = plan.peak - plan.lower_bound;
  if (!plan.search_status.empty()) {
    Json search;
    search["status"] = plan.search_status;
    search["proven_lower_bound_bytes"] = plan.proven_lower_bound;
    search["gap"] = plan.proven_lower_bound > 0
                        ? static_cast<double>(plan.peak - plan.proven_lower_bound) /
                              static_cast<double>(plan.proven_lower_bound)
                        : 0.0;
    search["nodes"] = plan.search_nodes;
    search["time_limit_seconds"] = plan.search_time_limit_seconds;
    search["default_time_limit"] = plan.search_default_time_limit;
    doc["exact_search"] = std::move(search);
  }
  doc["verified"] = plan.verified;
  doc["alignment"] = plan.alignment;
  if (plan.packing) doc["packing"] = PackingJson(*plan.packing, extras.seconds);
  if (program) {
    Json counts;
    counts["ops"] = program->ops.size();
    counts["values"] = program->values.size();
    doc["program"] = std::move(counts);
  }
  Json spaces = Json::array();
  const std::vector<SpacePeak> peaks =
      extras.space_peaks ? ComputeSpacePeaks(buffers, plan) : std::vector<SpacePeak>();
  const auto op_at = [&](TimeStep step) {
    if (step == kNoId || !program || !extras.schedule) return Json(nullptr);
    const std::optional<std::string> op = DescribeOpAt(*program, *extras.schedule, step);
    return op ? Json(*op) : Json(nullptr);
  };
  const auto step_json = [](TimeStep step) { return step == kNoId ? Json(nullptr) : Json(step); };
  for (std::size_t i = 0; i < plan.spaces.size(); ++i) {
    const SpaceInfo& s = plan.spaces[i];
    Json j;
    j["name"] = s.name;
    j["id"] = s.id;
    j["capacity_bytes"] = s.capacity ? Json(*s.capacity) : Json(nullptr);
    j["peak_bytes"] = s.peak;
    j["alignment"] = s.alignment;
    if (i < peaks.size()) {
      const SpacePeak& p = peaks[i];
      j["max_live_bytes"] = p.max_live_bytes;
      j["peak_step"] = step_json(p.peak_step);
      j["peak_op"] = op_at(p.peak_step);
      Json t;
      t["peak_bytes"] = p.transient_peak;
      t["lower_bound_bytes"] = p.transient_lower_bound;
      t["peak_step"] = step_json(p.transient_step);
      t["peak_op"] = op_at(p.transient_step);
      t["buffers"] = p.transient_buffers;
      j["transient"] = std::move(t);
    }
    spaces.push_back(std::move(j));
  }
  doc["spaces"] = std::move(spaces);
  Json pools = Json::array();
  for (const PoolInfo& p : plan.pools) {
    Json j;
    j["name"] = p.name;
    j["lifetime"] = std::string(LifetimeName(p.lifetime));
    j["space"] = p.space;
    j["offset_bytes"] = p.offset;
    j["size_bytes"] = p.size;
    j["lower_bound_bytes"] = p.lower_bound;
    j["buffers"] = p.buffers;
    j["total_bytes"] = p.total_bytes;
    if (p.start) j["start"] = *p.start;
    if (p.end) j["end"] = *p.end;
    if (auto limit = plan.pool_capacity.find(p.lifetime);
        p.space == kDefaultSpace && limit != plan.pool_capacity.end()) {
      j["capacity_bytes"] = limit->second;
    }
    pools.push_back(std::move(j));
  }
  doc["pools"] = std::move(pools);
  // Its entries are written one at a time (WritePlanJsonTo).
  doc["buffers"] = Json::array();
  Json copies = Json::array();
  for (const AsyncCopy& c : plan.copies) {
    Json j;
    j["buffer"] = c.buffer;
    j["kind"] = CopyKindKeyword(c.kind);
    j["from_space"] = c.from_space;
    j["to_space"] = c.to_space;
    j["start"] = c.start;
    j["done"] = c.done;
    j["bytes"] = c.bytes;
    if (c.slice_count > 1) {
      // Written only for slices, so plans without them read as before.
      j["slice_index"] = c.slice_index;
      j["slice_count"] = c.slice_count;
      j["slice_offset"] = c.slice_offset;
    }
    if (c.block) j["block"] = true;  // only block prefetches, as above
    if (c.via) {
      // Only staged copies (ir/plan.h CopyVia), as above.
      j["via_space"] = c.via->space;
      j["via_offset"] = c.via->offset;
    }
    copies.push_back(std::move(j));
  }
  // Window prefetches (msa/window_prefetch.h) follow, marked by "window_op".
  for (const WindowPrefetch& w : plan.window_prefetches) {
    Json j;
    j["buffer"] = w.buffer;
    j["kind"] = CopyKindKeyword(CopyKind::kPrefetch);
    j["from_space"] = kDefaultSpace;
    j["to_space"] = w.space;
    j["start"] = w.start;
    j["done"] = w.done;
    j["bytes"] = w.bytes;
    j["window_op"] = w.op;
    j["window_operand"] = w.operand;
    j["window_offset"] = w.offset;
    copies.push_back(std::move(j));
  }
  doc["async_copies"] = std::move(copies);
  if (plan.msa) {
    const MsaStats& m = *plan.msa;
    Json j;
    if (extras.msa_setup) {
      j["target"] = extras.msa_setup->target;
      j["mode"] = extras.msa_setup->mode;
      j["variant"] = extras.msa_setup->variant;
      if (extras.msa_setup->knobs) j["options"] = KnobsJson(*extras.msa_setup->knobs);
    }
    j["estimated_time_s"] = m.estimated_time_s;
    if (m.time_bound_s) j["time_bound_s"] = *m.time_bound_s;
    j["time_all_default_s"] = m.time_all_default_s;
    // Only when false, so plans whose baseline fits read as before.
    if (!m.time_all_default_fits) j["time_all_default_fits"] = false;
    j["time_all_fast_s"] = m.time_all_fast_s;
    j["prefetches"] = m.prefetches;
    j["evictions"] = m.evictions;
    j["prefetch_bytes"] = m.prefetch_bytes;
    j["eviction_bytes"] = m.eviction_bytes;
    j["max_outstanding_copies"] = m.max_outstanding_copies;
    if (m.sliced_prefetches > 0) {
      // Only with slices, so plans without them read as before.
      j["sliced_prefetches"] = m.sliced_prefetches;
      j["prefetch_slices"] = m.prefetch_slices;
    }
    if (m.window_prefetches > 0) {
      // Only with windows, so plans without them read as before.
      j["window_prefetches"] = m.window_prefetches;
      j["window_prefetch_bytes"] = m.window_prefetch_bytes;
    }
    if (!m.rewrite_skipped.empty()) {
      // Only for a plan made for --emit-ir / --emit-hlo that skipped some
      // kind of copy, so every other plan reads as before.
      Json rewrite;
      rewrite["skipped"] = m.rewrite_skipped;
      rewrite["estimated_time_without_s"] = m.estimated_time_with_skipped_s
                                                ? Json(*m.estimated_time_with_skipped_s)
                                                : Json(nullptr);
      j["whole_buffer_copies_only"] = std::move(rewrite);
    }
    if (m.block) {
      // Only with a block, so plans without one read as before.
      Json block;
      block["offset"] = m.block->offset;
      block["size"] = m.block->size;
      block["prefetches"] = m.block_prefetches;
      j["block_prefetch"] = std::move(block);
    }
    if (!m.loops.empty()) {
      // Only with a loop, so plans without one read as before.
      Json loops = Json::array();
      for (const LoopStats& l : m.loops) {
        Json loop;
        loop["start"] = l.start;
        loop["period"] = l.period;
        loop["iterations"] = l.iterations;
        loop["chosen"] = l.chosen;
        loop["steady_state_iteration_s"] = l.steady_state_iteration_s;
        if (l.steady_state_without_s) loop["steady_state_without_s"] = *l.steady_state_without_s;
        loop["temporary"] = l.temporary;
        loop["loop_carried"] = l.loop_carried;
        loop["pinned"] = l.pinned;
        loop["prefetch"] = l.prefetch;
        loop["other"] = l.other;
        loops.push_back(std::move(loop));
      }
      j["loops"] = std::move(loops);
    }
    if (extras.hierarchy) {
      Json h;
      h["kept"] = extras.hierarchy->kept;
      Json candidates = Json::array();
      for (const PlanHierarchyCandidate& candidate : extras.hierarchy->candidates) {
        Json c;
        c["name"] = candidate.name;
        c["estimated_time_s"] =
            candidate.estimated_s ? Json(*candidate.estimated_s) : Json(nullptr);
        if (!candidate.not_run.empty()) c["not_run"] = candidate.not_run;
        if (!candidate.does_not_fit.empty()) c["does_not_fit"] = candidate.does_not_fit;
        if (candidate.without_cross_program_prefetch) c["cross_program_prefetch"] = false;
        candidates.push_back(std::move(c));
      }
      h["candidates"] = std::move(candidates);
      h["all_slowest_writable_s"] = extras.hierarchy->all_slowest_writable_s;
      if (!extras.hierarchy->all_slowest_writable_does_not_fit.empty()) {
        h["all_slowest_writable_does_not_fit"] =
            extras.hierarchy->all_slowest_writable_does_not_fit;
      }
      j["hierarchy"] = std::move(h);
    }
    doc["msa"] = std::move(j);
  }
  if (plan.regions) doc["regions"] = json_internal::RegionsJson(*plan.regions, buffers, program);
  return doc;
}

// --- Reading -----------------------------------------------------------------

// `plan_alignment`: the alignment of a space that records none (plans
// written before spaces had "alignment"; every offset of theirs was checked
// against the plan's alignment only).
SpaceInfo ReadSpace(const ObjectReader& r, Bytes plan_alignment) {
  SpaceInfo s;
  s.name = r.String("name");
  s.id = r.Space("id");
  const Json& capacity = r.Get("capacity_bytes");
  if (!capacity.is_null()) {
    s.capacity = InRange(AsInt(capacity, r.Path("capacity_bytes")), r.Path("capacity_bytes"), 0,
                         kMaxTotalBytes);
  }
  s.peak = r.Amount("peak_bytes");
  s.alignment = r.Has("alignment") ? r.IntIn("alignment", 1, kMaxAlignment) : plan_alignment;
  return s;
}

// Plans written before pools recorded "lifetime" had only program pools,
// each named after its lifetime.
PoolInfo ReadPool(const ObjectReader& r) {
  PoolInfo p;
  p.name = r.String("name");
  const bool recorded = r.Has("lifetime");
  const std::string lifetime = recorded ? r.String("lifetime") : p.name;
  if (std::optional<Lifetime> parsed = ParseLifetime(lifetime)) {
    p.lifetime = *parsed;
  } else if (recorded) {
    throw SchemaError{r.Path("lifetime"), fmt::format("unknown lifetime \"{}\"", lifetime)};
  } else {
    throw SchemaError{r.Path("lifetime"),
                      fmt::format("missing (and the pool name '{}' is not a lifetime)", p.name)};
  }
  p.space = r.Space("space");
  p.offset = r.Amount("offset_bytes");
  p.size = r.Amount("size_bytes");
  p.lower_bound = r.Amount("lower_bound_bytes");
  p.buffers = r.Amount("buffers");
  p.total_bytes = r.Amount("total_bytes");
  if (r.Has("start") || r.Has("end")) {
    p.start = r.Amount("start");
    p.end = r.Amount("end");
  }
  return p;
}

// Reads buffer entry `id` and checks it describes the input's buffer `id`.
// `value_offsets` (per ValueId) receives the entry's "value_offsets" when it
// has them (plans written before the key existed have none).
BufferPlacement ReadBuffer(const ObjectReader& r, const BufferSet& expected, const Program* program,
                           BufferId id, std::vector<Bytes>& value_offsets) {
  const Buffer& b = expected.buffers[id];
  const std::string what = fmt::format("the input's buffer {} ('{}')", id, b.name);
  if (const std::int64_t listed = r.Int("id"); listed != id) {
    throw SchemaError{r.Path("id"),
                      fmt::format("expected {} (buffers are listed by id), found {}", id, listed),
                      true};
  }
  if (const std::string name = r.String("name"); name != b.name) {
    throw SchemaError{r.Path("name"), fmt::format("'{}' differs from {}", name, what), true};
  }
  const std::pair<std::string_view, std::int64_t> figures[] = {
      {"size", b.size}, {"start", b.start}, {"end", b.end}};
  for (const auto& [key, want] : figures) {
    if (const std::int64_t got = r.Int(key); got != want) {
      throw SchemaError{r.Path(key), fmt::format("{} differs from {}, which has {}", got, what, want),
                        true};
    }
  }
  if (const std::string lifetime = r.String("lifetime"); lifetime != LifetimeName(b.lifetime)) {
    throw SchemaError{r.Path("lifetime"),
                      fmt::format("'{}' differs from {}, which is {}", lifetime, what,
                                  LifetimeName(b.lifetime)),
                      true};
  }
  // Without the program only the count and type are knowable.
  const Json& values = r.Array("values");
  const Json want = ValuesJson(b, program);
  const bool same_shape = values.size() == want.size() &&
                          std::all_of(values.begin(), values.end(),
                                      [](const Json& v) { return v.is_string(); });
  if (program != nullptr ? values != want : !same_shape) {
    throw SchemaError{r.Path("values"),
                      fmt::format("{} differs from {}, whose values are {}", values.dump(), what,
                                  want.dump()),
                      true};
  }
  if (r.Has("value_offsets")) {
    const Json& offsets = r.Array("value_offsets");
    if (offsets.size() != b.values.size()) {
      throw SchemaError{r.Path("value_offsets"),
                        fmt::format("lists {} offsets for {} values", offsets.size(), b.values.size())};
    }
    for (std::size_t i = 0; i < offsets.size(); ++i) {
      const ValueId v = b.values[i];
      const std::string where = Pointer(r.Path("value_offsets"), i);
      const Bytes offset = InRange(AsInt(offsets[i], where), where, 0, kMaxTotalBytes);
      if (v < 0) continue;
      if (value_offsets.size() <= static_cast<std::size_t>(v)) value_offsets.resize(v + 1, 0);
      value_offsets[v] = offset;
    }
  }
  BufferPlacement placement;
  placement.pool = r.String("pool");
  const Json& allocations = r.Array("allocations");
  for (size_t k = 0; k < allocations.size(); ++k) {
    ObjectReader a(allocations[k], Pointer(r.Path("allocations"), k));
    placement.allocations.push_back(
        Allocation{a.Space("space"), a.Amount("offset"), a.Amount("start"), a.Amount("end")});
  }
  return placement;
}

// A window prefetch: a prefetch entry of async_copies with "window_op",
// "window_operand" and "window_offset" (the verifier checks the rest).
WindowPrefetch ReadWindow(const ObjectReader& r, const BufferSet& expected) {
  WindowPrefetch w;
  w.buffer = static_cast<BufferId>(
      r.IntIn("buffer", 0, static_cast<std::int64_t>(expected.buffers.size()) - 1));
  if (const std::string kind = r.String("kind"); kind != "prefetch") {
    throw SchemaError{r.Path("kind"),
                      fmt::format("expected \"prefetch\" for a window prefetch, found \"{}\"", kind)};
  }
  if (r.Space("from_space") != kDefaultSpace) {
    throw SchemaError{r.Path("from_space"), "a window prefetch copies from the default space (0)"};
  }
  w.space = r.Space("to_space");
  w.start = r.IntIn("start", -1, kMaxTotalBytes);
  w.done = r.Amount("done");
  w.bytes = r.Amount("bytes");
  w.op = static_cast<OpId>(r.IntIn("window_op", 0, std::numeric_limits<std::int32_t>::max()));
  w.operand = static_cast<std::int32_t>(
      r.IntIn("window_operand", 0, std::numeric_limits<std::int32_t>::max()));
  w.offset = r.Amount("window_offset");
  return w;
}

AsyncCopy ReadCopy(const ObjectReader& r, const BufferSet& expected) {
  AsyncCopy c;
  c.buffer = static_cast<BufferId>(
      r.IntIn("buffer", 0, static_cast<std::int64_t>(expected.buffers.size()) - 1));
  const std::string kind = r.String("kind");
  if (kind == "prefetch") {
    c.kind = CopyKind::kPrefetch;
  } else if (kind == "eviction") {
    c.kind = CopyKind::kEviction;
  } else {
    throw SchemaError{r.Path("kind"),
                      fmt::format("expected \"prefetch\" or \"eviction\", found \"{}\"", kind)};
  }
  c.from_space = r.Space("from_space");
  c.to_space = r.Space("to_space");
  c.start = r.IntIn("start", -1, kMaxTotalBytes);  // -1: issued before the first op
  c.done = r.Amount("done");
  c.bytes = r.Amount("bytes");
  if (r.Has("slice_count")) {
    c.slice_count = static_cast<std::int32_t>(r.IntIn("slice_count", 2, 1 << 20));
    c.slice_index = static_cast<std::int32_t>(r.IntIn("slice_index", 0, c.slice_count - 1));
    c.slice_offset = r.Amount("slice_offset");
  }
  if (r.Has("block")) c.block = r.Bool("block");
  if (r.Has("via_space")) c.via = CopyVia{r.Space("via_space"), r.Amount("via_offset")};
  return c;
}

MsaStats ReadMsa(const ObjectReader& r) {
  // The setup is descriptive (nothing to verify) and absent from older plans.
  for (std::string_view key : {"target", "mode", "variant"}) {
    if (r.Has(key)) r.String(key);
  }
  MsaStats m;
  m.estimated_time_s = r.Number("estimated_time_s");
  // Absent from plans written before the bound existed.
  if (r.Has("time_bound_s")) m.time_bound_s = r.Number("time_bound_s");
  m.time_all_default_s = r.Number("time_all_default_s");
  if (r.Has("time_all_default_fits")) m.time_all_default_fits = r.Bool("time_all_default_fits");
  m.time_all_fast_s = r.Number("time_all_fast_s");
  m.prefetches = r.Amount("prefetches");
  m.evictions = r.Amount("evictions");
  m.prefetch_bytes = r.Amount("prefetch_bytes");
  m.eviction_bytes = r.Amount("eviction_bytes");
  m.max_outstanding_copies = r.Amount("max_outstanding_copies");
  if (r.Has("window_prefetches")) {
    m.window_prefetches = r.Amount("window_prefetches");
    m.window_prefetch_bytes = r.Amount("window_prefetch_bytes");
  }
  if (r.Has("sliced_prefetches")) {
    m.sliced_prefetches = r.Amount("sliced_prefetches");
    m.prefetch_slices = r.Amount("prefetch_slices");
  }
  if (r.Has("whole_buffer_copies_only")) {
    ObjectReader rewrite(r.Get("whole_buffer_copies_only"), r.Path("whole_buffer_copies_only"));
    const Json& skipped = rewrite.Array("skipped");
    for (std::size_t k = 0; k < skipped.size(); ++k) {
      const std::string pointer = Pointer(rewrite.Path("skipped"), k);
      if (!skipped[k].is_string()) WrongType(skipped[k], pointer, "a string");
      m.rewrite_skipped.push_back(skipped[k].get<std::string>());
    }
    if (!rewrite.Get("estimated_time_without_s").is_null()) {
      m.estimated_time_with_skipped_s = rewrite.Number("estimated_time_without_s");
    }
  }
  if (r.Has("block_prefetch")) {
    ObjectReader block(r.Get("block_prefetch"), r.Path("block_prefetch"));
    m.block = PrefetchBlock{block.Amount("offset"), block.Amount("size")};
    m.block_prefetches = block.Amount("prefetches");
  }
  // Absent from plans without a loop (and from plans written before it).
  if (r.Has("loops")) {
    const Json& loops = r.Array("loops");
    for (std::size_t k = 0; k < loops.size(); ++k) {
      ObjectReader loop(loops[k], Pointer(r.Path("loops"), k));
      LoopStats l;
      l.start = loop.Amount("start");
      l.period = loop.IntIn("period", 1, kMaxTotalBytes);
      l.iterations = loop.IntIn("iterations", 1, kMaxTotalBytes);
      l.chosen = loop.Bool("chosen");
      l.steady_state_iteration_s = loop.Number("steady_state_iteration_s");
      if (loop.Has("steady_state_without_s")) {
        l.steady_state_without_s = loop.Number("steady_state_without_s");
      }
      l.temporary = loop.Amount("temporary");
      l.loop_carried = loop.Amount("loop_carried");
      l.pinned = loop.Amount("pinned");
      l.prefetch = loop.Amount("prefetch");
      l.other = loop.Amount("other");
      m.loops.push_back(l);
    }
  }
  // The copy limits the plan was made under (null or absent: none).
  if (r.Has("options")) {
    ObjectReader options(r.Get("options"), r.Path("options"));
    for (auto [key, limit] : {std::pair{"max_outstanding_prefetches", &m.max_outstanding_prefetches},
                              std::pair{"max_outstanding_evictions", &m.max_outstanding_evictions}}) {
      if (options.Has(key) && !options.Get(key).is_null()) *limit = options.Amount(key);
    }
  }
  return m;
}

std::optional<PlanInputOptions> ReadInputOptions(const Json& doc) {
  if (!doc.is_object()) WrongType(doc, "/", "an object");
  if (!doc.contains("input_options")) return std::nullopt;
  ObjectReader r(doc["input_options"], "/input_options");
  PlanInputOptions options;
  options.alias = r.Bool("alias");
  const Json& dims = r.Get("dims");
  if (!dims.is_object()) WrongType(dims, r.Path("dims"), "an object");
  for (const auto& [name, value] : dims.items()) {
    const std::string pointer = Pointer(r.Path("dims"), name);
    const std::int64_t bound = AsInt(value, pointer);
    if (bound < 1) throw SchemaError{pointer, fmt::format("must be at least 1, found {}", bound)};
    options.dims[name] = bound;
  }
  // Plans written before --regions existed have no "regions".
  if (r.Has("regions") && !r.Get("regions").is_null()) {
    options.regions_per = r.IntIn("regions", 0, std::numeric_limits<std::int64_t>::max());
  }
  // Plans written before --offline-plan was recorded have no "offline_plan".
  if (r.Has("offline_plan")) options.offline_plan = r.Bool("offline_plan");
  if (r.Has("input_shapes")) {
    const Json& shapes = r.Get("input_shapes");
    if (!shapes.is_object()) WrongType(shapes, r.Path("input_shapes"), "an object");
    for (const auto& [name, dims] : shapes.items()) {
      const std::string pointer = Pointer(r.Path("input_shapes"), name);
      if (!dims.is_array()) WrongType(dims, pointer, "an array");
      std::vector<std::int64_t>& out = options.input_shapes[name];
      for (const Json& d : dims) {
        const std::int64_t dim = AsInt(d, pointer);
        if (dim < 1) throw SchemaError{pointer, fmt::format("dims must be at least 1, found {}", dim)};
        out.push_back(dim);
      }
    }
  }
  // Plans written before --reorder existed have no "reorder".
  if (r.Has("reorder")) options.reorder = r.Bool("reorder");
  return options;
}

Plan ReadDocument(const Json& doc, const BufferSet& expected, const Program* program) {
  ObjectReader top(doc, "");
  if (const std::string schema = top.String("schema"); schema != kPlanSchema) {
    throw SchemaError{"/schema", fmt::format("expected \"{}\", found \"{}\"", kPlanSchema, schema)};
  }
  Plan plan;
  plan.input = top.String("input");
  ReadInputOptions(doc);  // checked here; `memplan verify` reads them before the input
  plan.algorithm = top.String("algorithm");
  plan.time_steps = top.Amount("time_steps");
  if (plan.time_steps != expected.time_steps) {
    throw SchemaError{"/time_steps",
                      fmt::format("{} differs from the input, which has {}", plan.time_steps,
                                  expected.time_steps),
                      true};
  }
  plan.lower_bound = top.Amount("lower_bound_bytes");
  plan.peak = top.Amount("peak_bytes");
  plan.verified = top.Bool("verified");
  plan.alignment = top.IntIn("alignment", 1, kMaxAlignment);
  const Json& spaces = top.Array("spaces");
  for (size_t i = 0; i < spaces.size(); ++i) {
    plan.spaces.push_back(
        ReadSpace(ObjectReader(spaces[i], Pointer("/spaces", i)), plan.alignment));
  }
  const Json& pools = top.Array("pools");
  for (size_t i = 0; i < pools.size(); ++i) {
    const ObjectReader pool_reader(pools[i], Pointer("/pools", i));
    plan.pools.push_back(ReadPool(pool_reader));
    // A default-space pool's limit (--capacity POOL=BYTES) holds for every
    // pool of its lifetime there; the smallest one recorded counts.
    if (plan.pools.back().space == kDefaultSpace && pool_reader.Has("capacity_bytes")) {
      const Bytes limit = pool_reader.Amount("capacity_bytes");
      auto [it, inserted] = plan.pool_capacity.emplace(plan.pools.back().lifetime, limit);
      if (!inserted) it->second = std::min(it->second, limit);
    }
  }
  const Json& buffers = top.Array("buffers");
  if (buffers.size() != expected.buffers.size()) {
    throw SchemaError{"/buffers",
                      fmt::format("lists {} but the input has {}", CountOf(buffers.size(), "buffer"),
                                  expected.buffers.size()),
                      true};
  }
  for (size_t i = 0; i < buffers.size(); ++i) {
    plan.placements.push_back(ReadBuffer(ObjectReader(buffers[i], Pointer("/buffers", i)),
                                         expected, program, static_cast<BufferId>(i),
                                         plan.value_offsets));
  }
  if (program && !plan.value_offsets.empty()) plan.value_offsets.resize(program->values.size(), 0);
  const Json& copies = top.Array("async_copies");
  for (size_t i = 0; i < copies.size(); ++i) {
    const ObjectReader copy(copies[i], Pointer("/async_copies", i));
    if (copy.Has("window_op")) {
      plan.window_prefetches.push_back(ReadWindow(copy, expected));
    } else {
      plan.copies.push_back(ReadCopy(copy, expected));
    }
  }
  if (doc.contains("msa")) plan.msa = ReadMsa(ObjectReader(doc["msa"], "/msa"));
  if (doc.contains("regions")) {
    if (program == nullptr) {
      throw SchemaError{"/regions",
                        "a plan with execution regions needs an input with a program (text IR "
                        "or ONNX), not a lifetime CSV",
                        true};
    }
    plan.regions = json_internal::ReadRegions(doc["regions"], "/regions", expected, *program);
  }
  return plan;
}

// nlohmann's what() without its "[json.exception...] parse error at line L,
// column C: " prefix (the location is recomputed from the byte offset).
std::string ParseErrorText(const std::string& what) {
  const size_t column = what.find("column ");
  const size_t colon = what.find(": ", column == std::string::npos ? 0 : column);
  return colon == std::string::npos ? what : what.substr(colon + 2);
}

// A key repeated within one object, at `pointer` (nlohmann would silently
// keep the last value).
struct DuplicateKey {
  std::string pointer;
};

// A SAX pass that throws DuplicateKey for a key seen twice in one object.
// It tracks the JSON pointer of every open container. A separate pass
// because nlohmann's parser callback makes parsing quadratic in the length
// of an array of objects (each object's end scans its parent for
// discarded values: 6 minutes for a plan of 10^6 buffers); this pass and
// the plain parse are both linear.
class DuplicateKeyCheck : public nlohmann::json_sax<Json> {
 public:
  bool null() override { return Element(); }
  bool boolean(bool) override { return Element(); }
  bool number_integer(number_integer_t) override { return Element(); }
  bool number_unsigned(number_unsigned_t) override { return Element(); }
  bool number_float(number_float_t, const string_t&) override { return Element(); }
  bool string(string_t&) override { return Element(); }
  bool binary(binary_t&) override { return Element(); }
  bool start_object(std::size_t) override { return Open(true); }
  bool start_array(std::size_t) override { return Open(false); }
  bool end_object() override { return Close(); }
  bool end_array() override { return Close(); }
  bool key(string_t& key) override {
    Container& object = open_.back();
    object.key = key;
    if (!object.keys.insert(key).second) throw DuplicateKey{Pointer(object.pointer, key)};
    return true;
  }
  // The plain parse has reported it already.
  bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception&) override {
    return false;
  }

 private:
  struct Container {
    bool object = false;
    std::string pointer;
    std::set<std::string> keys;  // objects: keys so far
    std::string key;             // objects: the current key
    size_t elements = 0;         // arrays: elements so far
  };
  // Counts an element of the innermost container; returns its pointer.
  std::string StartElement() {
    Container& c = open_.back();
    return c.object ? Pointer(c.pointer, c.key) : Pointer(c.pointer, c.elements++);
  }
  bool Element() {
    // Only arrays number their elements (an object's are named by keys).
    if (!open_.empty() && !open_.back().object) ++open_.back().elements;
    return true;
  }
  bool Open(bool object) {
    Container container;
    container.object = object;
    if (!open_.empty()) container.pointer = StartElement();
    open_.push_back(std::move(container));
    return true;
  }
  bool Close() {
    open_.pop_back();
    return true;
  }
  std::vector<Container> open_;
};

// Parses `text`, then runs `read` on the document; JSON and schema errors
// and duplicate keys become located InvalidArgument statuses
// (`mismatch_note` appended to mismatches with the input).
template <typename Result, typename Read>
absl::StatusOr<Result> ParseAndRead(std::string_view text, std::string_view path,
                                    std::string_view mismatch_note, Read read) {
  Json doc;
  try {
    doc = Json::parse(text.begin(), text.end());
    DuplicateKeyCheck duplicates;
    Json::sax_parse(text.begin(), text.end(), &duplicates);
  } catch (const Json::parse_error& e) {
    // e.byte counts the bytes read, the offending one included.
    return LocatedError(path, TextLocation(text, e.byte == 0 ? 0 : e.byte - 1),
                        ParseErrorText(e.what()));
  } catch (const DuplicateKey& e) {
    return LocatedError(path, SourceLocation{}, fmt::format("{}: duplicate key", e.pointer));
  }
  try {
    return read(doc);
  } catch (const SchemaError& e) {
    std::string message =
        e.pointer.empty() ? e.message : fmt::format("{}: {}", e.pointer, e.message);
    if (e.mismatch && !mismatch_note.empty()) message += fmt::format("; {}", mismatch_note);
    return LocatedError(path, JsonPointerLocation(text, e.pointer), message);
  } catch (const Json::exception& e) {
    // Every access above is type-checked first; this is a safety net.
    return LocatedError(path, SourceLocation{}, e.what());
  }
}

}  // namespace

std::string WritePlanJson(const Plan& plan, const BufferSet& buffers, const Program* program,
                          const PlanJsonExtras& extras) {
  std::string out;
  // Appending to a string cannot fail.
  (void)WritePlanJsonTo(plan, buffers, program, extras, [&](std::string_view piece) {
    out.append(piece);
    return absl::OkStatus();
  });
  return out;
}

absl::Status WritePlanJsonTo(const Plan& plan, const BufferSet& buffers, const Program* program,
                             const PlanJsonExtras& extras, TextSink sink) {
  const Json doc = PlanDocument(plan, buffers, program, extras);
  ChunkedText out(sink);
  out.text() = "{\n";
  bool first = true;
  for (const auto& [key, value] : doc.items()) {
    out.text() += first ? "  " : ",\n  ";
    first = false;
    out.text() += Dump(Json(key)) + ": ";
    if (key == "regions") {
      json_internal::AppendRegionsText(out.text(), value);
      continue;
    }
    if (key == "buffers" && !buffers.buffers.empty()) {
      out.text() += "[\n";
      for (BufferId id = 0; id < static_cast<BufferId>(buffers.buffers.size()); ++id) {
        out.text() += "    ";
        AppendBufferJson(out.text(), plan, buffers, program, id);
        out.text() += id + 1 < static_cast<BufferId>(buffers.buffers.size()) ? ",\n" : "\n";
        if (absl::Status s = out.Pass(); !s.ok()) return s;
      }
      out.text() += "  ]";
      continue;
    }
    if (!value.is_array() || value.empty()) {
      out.text() += Dump(value);
      continue;
    }
    out.text() += "[\n";
    for (size_t i = 0; i < value.size(); ++i) {
      out.text() += "    " + Dump(value[i]) + (i + 1 < value.size() ? ",\n" : "\n");
    }
    out.text() += "  ]";
  }
  out.text() += "\n}\n";
  return out.Flush();
}

absl::StatusOr<std::optional<PlanInputOptions>> ReadPlanInputOptions(std::string_view text,
                                                                     std::string_view path) {
  return ParseAndRead<std::optional<PlanInputOptions>>(
      text, path, "", [](const Json& doc) { return ReadInputOptions(doc); });
}

absl::StatusOr<Plan> ReadPlanJson(std::string_view text, std::string_view path,
                                  const BufferSet& expected, std::string_view mismatch_note,
                                  const Program* program) {
  return ParseAndRead<Plan>(text, path, mismatch_note,
                            [&](const Json& doc) { return ReadDocument(doc, expected, program); });
}

}  // namespace memplan
