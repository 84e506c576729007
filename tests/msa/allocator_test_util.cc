#include "tests/msa/allocator_test_util.h"

#include <algorithm>
#include <map>
#include <string>
#include <utility>

#include "gtest/gtest.h"
#include "ir/text_parser.h"

namespace memplan::testing {
namespace {

std::string Str(const std::string& what, BufferId b, const Buffer& buffer) {
  return what + " (buffer " + std::to_string(b) + " %" + buffer.name + ")";
}

bool Covers(const std::vector<Allocation>& segs, TimeStep t) {
  return std::any_of(segs.begin(), segs.end(),
                     [&](const Allocation& a) { return a.start <= t && t <= a.end; });
}

}  // namespace

BufferId MsaFixture::Buffer(std::string_view value_name) const {
  const ValueId v = program.FindValue(value_name);
  EXPECT_NE(v, kNoId) << value_name;
  return v == kNoId ? kNoId : analysis.value_buffer[v];
}

TimeStep MsaFixture::Time(std::string_view value_name) const {
  const ValueId v = program.FindValue(value_name);
  EXPECT_NE(v, kNoId) << value_name;
  return v == kNoId ? kNoId : analysis.schedule.op_time[program.values[v].defining_op];
}

Target TestTarget() {
  Target t;
  t.name = "test";
  t.flops_per_second = 1e12;
  t.transcendentals_per_second = 1e11;
  t.default_bandwidth = 1e10;
  t.alternate_bandwidth = 1e11;
  t.copy_bandwidth = 1e10;
  t.fast_memory_bytes = 128;
  t.alignment = 8;
  return t;
}

std::unique_ptr<MsaFixture> Load(std::string_view text, const Target& target) {
  auto f = std::make_unique<MsaFixture>();
  absl::StatusOr<Program> program = ParseProgram(text, "test.mpir");
  EXPECT_TRUE(program.ok()) << program.status();
  if (!program.ok()) return nullptr;
  f->program = *std::move(program);
  absl::StatusOr<ProgramAnalysis> analysis = AnalyzeProgram(f->program);
  EXPECT_TRUE(analysis.ok()) << analysis.status();
  if (!analysis.ok()) return nullptr;
  f->analysis = *std::move(analysis);
  f->cost = std::make_unique<CostModel>(f->program, f->analysis, target);
  return f;
}

MsaOptions HarnessOptions() {
  MsaOptions o;
  o.fast_memory_bytes = 128;
  o.alignment = 8;
  o.mode = MsaMode::kReference;
  o.picker = PickerKind::kInstructionCount;
  o.min_overlap_ops = 2;
  o.max_overlap_ops = 10;
  return o;
}

MsaResult Assign(const MsaFixture& f, const MsaOptions& options) {
  absl::StatusOr<MsaResult> result = AssignMemorySpaces(f.program, f.analysis, *f.cost, options);
  EXPECT_TRUE(result.ok()) << result.status();
  return result.ok() ? *std::move(result) : MsaResult{};
}

std::int64_t MaxOutstanding(const MsaResult& result, CopyKind kind) {
  std::map<TimeStep, std::int64_t> delta;
  for (const AsyncCopy& c : result.copies) {
    if (c.kind != kind) continue;
    ++delta[c.start];
    --delta[c.done + 1];
  }
  // The plan shows the cross-program prefetch as a prefetch over [start,
  // start] of its buffer's first segment (driver/pools.h); it counts too.
  if (kind == CopyKind::kPrefetch && result.cross_program_prefetch) {
    const std::vector<Allocation>& segs = result.alternate[result.cross_program_prefetch->buffer];
    if (!segs.empty()) {
      ++delta[segs.front().start];
      --delta[segs.front().start + 1];
    }
  }
  std::int64_t now = 0;
  std::int64_t most = 0;
  for (const auto& [t, d] : delta) {
    now += d;
    most = std::max(most, now);
  }
  return most;
}

std::vector<std::string> Segments(const MsaResult& result, BufferId buffer) {
  std::vector<std::string> out;
  for (const Allocation& a : result.alternate[buffer]) {
    out.push_back(std::to_string(a.start) + "-" + std::to_string(a.end) + "@" + std::to_string(a.offset));
  }
  return out;
}

std::vector<std::string> Copies(const MsaResult& result, BufferId buffer) {
  std::vector<std::string> out;
  for (const AsyncCopy& c : result.copies) {
    if (c.buffer != buffer) continue;
    out.push_back(std::string(c.kind == CopyKind::kPrefetch ? "prefetch " : "eviction ") +
                  std::to_string(c.start) + "->" + std::to_string(c.done));
  }
  return out;
}

std::string CheckResult(const MsaFixture& f, const MsaOptions& options, const MsaResult& result) {
  const std::vector<Buffer>& buffers = f.analysis.buffers.buffers;
  const std::size_t n = buffers.size();
  if (result.alternate.size() != n || result.needs_default.size() != n) return "wrong result shape";
  const BufferId cpp = result.cross_program_prefetch ? result.cross_program_prefetch->buffer : kNoId;

  // Segments: bounds, alignment, capacity, order, coverage.
  struct Placed {
    BufferId buffer;
    Allocation a;
  };
  std::vector<Placed> all;
  Bytes peak = 0;
  for (BufferId b = 0; b < static_cast<BufferId>(n); ++b) {
    const Buffer& buffer = buffers[b];
    const std::vector<Allocation>& segs = result.alternate[b];
    for (std::size_t k = 0; k < segs.size(); ++k) {
      const Allocation& a = segs[k];
      if (a.space != kAlternateSpace) return Str("segment not in space 1", b, buffer);
      // The cross-program prefetch's end-of-program refill lies after the
      // live range, through the last step.
      const TimeStep last = b == cpp && result.cross_program_prefetch->freed
                                ? f.analysis.buffers.time_steps - 1
                                : buffer.end;
      if (a.start > a.end || a.start < buffer.start || a.end > last) {
        return Str("segment outside the live range", b, buffer);
      }
      if (a.offset < 0 || a.offset % options.alignment != 0) return Str("misaligned segment", b, buffer);
      if (a.offset + buffer.size > options.fast_memory_bytes) return Str("segment over capacity", b, buffer);
      if (k > 0 && a.start <= segs[k - 1].end) return Str("segments share a step", b, buffer);
      all.push_back({b, a});
      peak = std::max(peak, a.offset + buffer.size);
    }
    const bool other_space = buffer.space && *buffer.space > kAlternateSpace;
    if (buffer.space == kAlternateSpace && result.needs_default[b]) return Str("pinned buffer needs default", b, buffer);
    if (!result.needs_default[b] && !other_space) {
      if (segs.empty() || segs.front().start != buffer.start || segs.back().end < buffer.end) {
        return Str("alternate-only buffer not covered", b, buffer);
      }
      for (std::size_t k = 1; k < segs.size(); ++k) {
        if (segs[k].start != segs[k - 1].end + 1) return Str("alternate-only buffer has a gap", b, buffer);
      }
    }
  }
  if (result.cross_program_prefetch) {
    const CrossProgramPrefetch& c = *result.cross_program_prefetch;
    const TimeStep last = f.analysis.buffers.time_steps - 1;
    if (c.reserved_from <= last && !c.freed) {  // a refill is a segment
      all.push_back({c.buffer, Allocation{kAlternateSpace, c.offset, c.reserved_from, last}});
      peak = std::max(peak, c.offset + buffers[c.buffer].size);
    }
  }
  if (peak != result.alternate_peak) return "alternate_peak " + std::to_string(result.alternate_peak) + " != " + std::to_string(peak);

  // No two chunks share a byte at a step.
  for (std::size_t i = 0; i < all.size(); ++i) {
    for (std::size_t j = i + 1; j < all.size(); ++j) {
      const Placed& x = all[i];
      const Placed& y = all[j];
      const Bytes xs = buffers[x.buffer].size;
      const Bytes ys = buffers[y.buffer].size;
      if (xs == 0 || ys == 0 || x.buffer == y.buffer) continue;
      if (x.a.start <= y.a.end && y.a.start <= x.a.end && x.a.offset < y.a.offset + ys &&
          y.a.offset < x.a.offset + xs) {
        return "overlap of %" + buffers[x.buffer].name + " and %" + buffers[y.buffer].name;
      }
    }
  }

  // Copies.
  std::vector<ComputationId> owner(static_cast<std::size_t>(f.analysis.buffers.time_steps), kNoId);
  for (OpId op : f.analysis.schedule.order) owner[f.analysis.schedule.op_time[op]] = f.program.ops[op].computation;
  for (std::size_t i = 0; i < result.copies.size(); ++i) {
    const AsyncCopy& c = result.copies[i];
    if (i > 0 && std::tie(result.copies[i - 1].start, result.copies[i - 1].done, result.copies[i - 1].buffer) >
                     std::tie(c.start, c.done, c.buffer)) {
      return "copies not sorted";
    }
    const Buffer& buffer = buffers[c.buffer];
    const bool refill = c.buffer == cpp && result.cross_program_prefetch->freed &&
                        c.start == result.cross_program_prefetch->reserved_from;
    const TimeStep last = refill ? f.analysis.buffers.time_steps - 1 : buffer.end;
    // An entry parameter's prefetch may be issued before the first op.
    const bool before_first_op =
        c.kind == CopyKind::kPrefetch && c.start == -1 && buffer.start == 0 &&
        std::any_of(buffer.values.begin(), buffer.values.end(), [&](ValueId v) {
          return f.program.values[v].defining_op == kNoId &&
                 f.program.values[v].computation == f.program.entry;
        });
    if (c.start >= c.done || (c.start < buffer.start && !before_first_op) || c.done > last) {
      return Str("bad copy times", c.buffer, buffer);
    }
    // A slice moves its byte range only (msa/sliced_prefetch.h).
    const bool slice = c.slice_count > 1;
    if (slice ? c.bytes <= 0 || c.slice_offset + c.bytes > buffer.size : c.bytes != buffer.size) {
      return Str("copy bytes", c.buffer, buffer);
    }
    const TimeStep opened = std::max<TimeStep>(c.start, 0);  // the segment a prefetch opens starts here
    if (owner[opened] != owner[c.done]) return Str("copy crosses computations", c.buffer, buffer);
    if (!result.needs_default[c.buffer]) return Str("copied buffer without default memory", c.buffer, buffer);
    const std::vector<Allocation>& segs = result.alternate[c.buffer];
    if (c.kind == CopyKind::kPrefetch) {
      if (c.from_space != kDefaultSpace || c.to_space != kAlternateSpace) return Str("prefetch spaces", c.buffer, buffer);
      // A slice fills the segment its last slice opens, at or after its own start.
      auto seg = std::find_if(segs.begin(), segs.end(), [&](const Allocation& a) {
        return slice ? a.start >= opened && a.start < c.done && c.done <= a.end : a.start == opened;
      });
      if (seg == segs.end() || seg->end < c.done) return Str("prefetch opens no segment", c.buffer, buffer);
    } else {
      if (c.from_space != kAlternateSpace || c.to_space != kDefaultSpace) return Str("eviction spaces", c.buffer, buffer);
      auto seg = std::find_if(segs.begin(), segs.end(),
                              [&](const Allocation& a) { return a.start <= c.start && c.done - 1 <= a.end; });
      if (seg == segs.end()) return Str("eviction source not resident", c.buffer, buffer);
    }
  }
  if (options.max_outstanding_prefetches >= 0 &&
      MaxOutstanding(result, CopyKind::kPrefetch) > options.max_outstanding_prefetches) {
    return "too many outstanding prefetches";
  }
  if (options.max_outstanding_evictions >= 0 &&
      MaxOutstanding(result, CopyKind::kEviction) > options.max_outstanding_evictions) {
    return "too many outstanding evictions";
  }

  // Data-validity replay: every read finds current data in the space the
  // conventions say it reads, and entry results end in default memory.
  std::vector<std::vector<std::pair<TimeStep, bool>>> accesses(n);  // (time, write) per read/write
  std::vector<std::vector<TimeStep>> reads(n);
  for (OpId op : f.analysis.schedule.order) {
    const TimeStep t = f.analysis.schedule.op_time[op];
    const OpBuffers& ob = f.analysis.op_buffers[op];
    for (BufferId b : ob.operands) {
      if (b != kNoId) reads[b].push_back(t);
    }
    for (std::size_t r = 0; r < ob.results.size(); ++r) {
      const BufferId b = ob.results[r];
      if (b != kNoId && f.program.values[f.program.ops[op].results[r]].alias != AliasKind::kView) {
        accesses[b].push_back({t, true});
      }
    }
  }
  std::vector<bool> entry_result(n, false);
  for (ValueId v : f.program.computations[f.program.entry].results) {
    if (f.analysis.value_buffer[v] != kNoId) entry_result[f.analysis.value_buffer[v]] = true;
  }
  for (BufferId b = 0; b < static_cast<BufferId>(n); ++b) {
    const Buffer& buffer = buffers[b];
    if (buffer.values.empty() || (buffer.space && *buffer.space > kAlternateSpace)) continue;
    const std::vector<Allocation>& segs = result.alternate[b];
    const bool has_def = !accesses[b].empty() && accesses[b].front().first == buffer.start;
    bool alt_valid = !has_def && (b == cpp || buffer.space == kAlternateSpace) && Covers(segs, buffer.start);
    bool def_valid = !has_def && buffer.space != kAlternateSpace;
    std::map<std::size_t, bool> in_flight;  // copy index -> source data still current
    for (std::size_t i = 0; i < result.copies.size(); ++i) {
      if (result.copies[i].buffer == b && result.copies[i].start == -1) in_flight[i] = def_valid;
    }
    for (TimeStep t = buffer.start; t <= buffer.end; ++t) {
      for (std::size_t i = 0; i < result.copies.size(); ++i) {
        const AsyncCopy& c = result.copies[i];
        if (c.buffer != b || c.done != t) continue;
        (c.kind == CopyKind::kPrefetch ? alt_valid : def_valid) = in_flight[i];
      }
      const bool alt = Covers(segs, t);
      if (std::count(reads[b].begin(), reads[b].end(), t) > 0 && !(alt ? alt_valid : def_valid)) {
        return Str("stale read at step " + std::to_string(t) + (alt ? " (alternate)" : " (default)"), b, buffer);
      }
      const bool writes = std::any_of(accesses[b].begin(), accesses[b].end(),
                                      [&](const auto& a) { return a.first == t; });
      if (writes) {
        alt_valid = alt;
        def_valid = !alt;
        for (auto& [i, ok] : in_flight) ok = false;
      }
      for (std::size_t i = 0; i < result.copies.size(); ++i) {
        const AsyncCopy& c = result.copies[i];
        if (c.buffer == b && c.start == t) in_flight[i] = c.kind == CopyKind::kPrefetch ? def_valid : alt_valid;
      }
      if (!Covers(segs, t + 1) || std::any_of(segs.begin(), segs.end(), [&](const Allocation& a) { return a.start == t + 1; })) {
        alt_valid = false;
      }
    }
    if (entry_result[b] && !def_valid && buffer.space != kAlternateSpace) {
      return Str("entry result not in default memory at the end", b, buffer);
    }
  }
  return "";
}

}  // namespace memplan::testing
