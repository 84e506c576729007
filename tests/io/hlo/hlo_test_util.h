// Helpers for the HLO importer tests: import a module from text, read the
// alias set (buffer) of a value by name, compare two imports but for names.
#pragma once

#include <algorithm>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "analysis/alias_sets.h"
#include "analysis/live_ranges.h"
#include "analysis/schedule.h"
#include "io/hlo/importer.h"

namespace memplan::hlo_test {

inline Program Import(const std::string& text) {
  absl::StatusOr<Program> program = ImportHloText(text, "t.hlo");
  EXPECT_TRUE(program.ok()) << program.status();
  return program.ok() ? *std::move(program) : Program{};
}

// The error message of importing `text` as t.hlo ("" when it imports).
inline std::string ImportError(const std::string& text) {
  absl::StatusOr<Program> program = ImportHloText(text, "t.hlo");
  return program.ok() ? std::string() : std::string(program.status().message());
}

// Names of the values sharing storage with the value `name`, sorted.
inline std::vector<std::string> BufferOf(const Program& program, const std::string& name) {
  absl::StatusOr<AliasSets> sets = ComputeAliasSets(program);
  EXPECT_TRUE(sets.ok()) << sets.status();
  const ValueId v = program.FindValue(name);
  EXPECT_NE(v, kNoId) << "no value " << name;
  if (!sets.ok() || v == kNoId) return {};
  std::vector<std::string> out;
  for (ValueId m : sets->sets[static_cast<std::size_t>(sets->set_of_value[static_cast<std::size_t>(v)])].members) {
    out.push_back(program.values[static_cast<std::size_t>(m)].name);
  }
  std::sort(out.begin(), out.end());
  return out;
}

// The first difference between two imports other than names and source
// locations: values (size, type, aliasing, definition, space), ops (kind,
// opcode, operands, results, callees, cost, attributes), computations,
// buffers (alias sets and offsets) and live ranges; "" when there is none.
inline std::string ProgramDifference(const Program& a, const Program& b) {
  if (a.values.size() != b.values.size()) return "value count";
  if (a.ops.size() != b.ops.size()) return "op count";
  if (a.computations.size() != b.computations.size()) return "computation count";
  if (a.entry != b.entry) return "entry";
  for (std::size_t i = 0; i < a.values.size(); ++i) {
    const Value& x = a.values[i];
    const Value& y = b.values[i];
    if (x.size != y.size || x.type.has_value() != y.type.has_value() ||
        (x.type && (x.type->dtype != y.type->dtype || x.type->dims != y.type->dims)) ||
        x.is_timepoint != y.is_timepoint || x.lifetime != y.lifetime || x.space != y.space ||
        x.alias != y.alias || x.alias_of != y.alias_of || x.view_offset != y.view_offset ||
        x.gathers != y.gathers || x.computation != y.computation || x.defining_op != y.defining_op) {
      return "value " + x.name + " / " + y.name;
    }
  }
  for (std::size_t i = 0; i < a.ops.size(); ++i) {
    const Op& x = a.ops[i];
    const Op& y = b.ops[i];
    if (x.opcode != y.opcode || x.kind != y.kind || x.operands != y.operands || x.results != y.results ||
        x.callees != y.callees || x.cost.flops != y.cost.flops ||
        x.cost.transcendentals != y.cost.transcendentals || x.cost.bytes_accessed != y.cost.bytes_accessed ||
        x.scratch_bytes != y.scratch_bytes || x.trip_count != y.trip_count || x.attributes != y.attributes ||
        x.computation != y.computation) {
      return "op " + a.OpName(static_cast<OpId>(i)) + " / " + b.OpName(static_cast<OpId>(i));
    }
  }
  for (std::size_t i = 0; i < a.computations.size(); ++i) {
    const Computation& x = a.computations[i];
    const Computation& y = b.computations[i];
    if (x.kind != y.kind || x.params != y.params || x.ops != y.ops || x.results != y.results) {
      return "computation @" + x.name + " / @" + y.name;
    }
  }
  absl::StatusOr<AliasSets> sa = ComputeAliasSets(a);
  absl::StatusOr<AliasSets> sb = ComputeAliasSets(b);
  if (!sa.ok() || !sb.ok()) return "alias sets do not compute";
  if (sa->set_of_value != sb->set_of_value || sa->offset_of_value != sb->offset_of_value) return "buffers";
  const FlatSchedule fa = FlattenSchedule(a);
  const FlatSchedule fb = FlattenSchedule(b);
  if (fa.op_time != fb.op_time || fa.order != fb.order) return "schedule";
  const std::vector<LiveRange> la = ComputeValueLiveRanges(a, fa);
  const std::vector<LiveRange> lb = ComputeValueLiveRanges(b, fb);
  for (std::size_t i = 0; i < la.size(); ++i) {
    if (la[i].start != lb[i].start || la[i].end != lb[i].end) return "live range of " + a.values[i].name;
  }
  return "";
}

}  // namespace memplan::hlo_test
