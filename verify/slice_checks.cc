// Rule 4 for sliced prefetches (verify/verifier.h, msa/sliced_prefetch.h):
// the slices of one prefetch checked as a group, and each slice's chunk
// before the whole segment begins checked against every other chunk of
// its space.
#include <algorithm>
#include <cstddef>
#include <map>
#include <optional>
#include <tuple>
#include <vector>

#include "absl/strings/str_cat.h"
#include "ir/plural.h"
#include "verify/checks.h"
#include "verify/describe.h"

namespace memplan::verify_internal {
namespace {

// A slice's bytes held before its group's segment begins.
struct SliceChunk {
  std::size_t copy = 0;
  MemorySpace space = kAlternateSpace;
  Bytes offset = 0;
  Bytes bytes = 0;
  TimeStep start = 0;
  TimeStep end = 0;
};

bool Overlap(Bytes a, Bytes a_bytes, TimeStep a_start, TimeStep a_end, Bytes b, Bytes b_bytes,
             TimeStep b_start, TimeStep b_end) {
  return a < b + b_bytes && b < a + a_bytes && a_start <= b_end && b_start <= a_end;
}

// Checks one group (copies of one buffer, destination space and done,
// ordered by slice index) and appends its slices' chunks.
absl::Status CheckGroup(const BufferSet& buffers, const Plan& plan,
                        const std::vector<std::size_t>& group,
                        std::map<std::pair<BufferId, std::size_t>, std::size_t>& opener,
                        std::vector<SliceChunk>& chunks) {
  const AsyncCopy& first = plan.copies[group.front()];
  const Buffer& b = buffers.buffers[first.buffer];
  const std::string ref = CopyRef(buffers, plan, group.front());
  const auto count = static_cast<std::size_t>(first.slice_count);
  if (group.size() != count) {
    return Violation(absl::StrCat(ref, " is slice ", first.slice_index, " of ", count, " but ",
                                  CountOf(group.size(), "slice copy", "slice copies"),
                                  " of the buffer are done at time ", first.done));
  }
  for (std::size_t k = 0; k < count; ++k) {
    const AsyncCopy& c = plan.copies[group[k]];
    const std::string slice = CopyRef(buffers, plan, group[k]);
    if (c.kind != CopyKind::kPrefetch) return Violation(slice + " is a slice but not a prefetch");
    if (c.slice_count != first.slice_count || c.slice_index != static_cast<std::int32_t>(k)) {
      return Violation(absl::StrCat(slice, " is slice ", c.slice_index, " of ", c.slice_count,
                                    ": its group needs slices 0 to ", count - 1, " of ", count,
                                    ", each once"));
    }
    if (k > 0 && c.start < plan.copies[group[k - 1]].start) {
      return Violation(absl::StrCat(slice, " starts at time ", c.start, ", before slice ", k - 1,
                                    " (time ", plan.copies[group[k - 1]].start,
                                    "): slices start in index order"));
    }
  }
  // In byte order, the slices tile the buffer: adjacent, non-empty.
  std::vector<std::size_t> by_byte = group;
  std::sort(by_byte.begin(), by_byte.end(), [&](std::size_t x, std::size_t y) {
    return plan.copies[x].slice_offset < plan.copies[y].slice_offset;
  });
  Bytes next_byte = 0;
  for (std::size_t i : by_byte) {
    const AsyncCopy& c = plan.copies[i];
    if (c.bytes <= 0 || c.slice_offset != next_byte) {
      return Violation(absl::StrCat(CopyRef(buffers, plan, i), " moves bytes [", c.slice_offset, ", ",
                                    c.slice_offset + c.bytes, ") but the slices below it end at byte ",
                                    next_byte, ": slices must tile the buffer, each non-empty"));
    }
    next_byte += c.bytes;
  }
  if (next_byte != b.size) {
    return Violation(absl::StrCat(ref, ": the slices move ", CountOf(next_byte, "byte"),
                                  " but the buffer has ", b.size));
  }
  // The whole value: one segment from the last slice's start through done.
  const std::size_t last = group.back();
  const AsyncCopy& lc = plan.copies[last];
  const AllocationList& segs = plan.placements[first.buffer].allocations;
  std::optional<std::size_t> dest;
  for (std::size_t k = 0; k < segs.size(); ++k) {
    if (segs[k].space == lc.to_space && segs[k].start <= lc.done && lc.done <= segs[k].end) dest = k;
  }
  if (!dest || segs[*dest].start != OpenedAt(lc)) {
    return Violation(absl::StrCat(CopyRef(buffers, plan, last), ", the last slice, opens no ",
                                  "allocation in space ", lc.to_space, " that starts at time ",
                                  OpenedAt(lc), " and lasts until time ", lc.done,
                                  " (the whole value, contiguous at its use)"));
  }
  const Allocation& seg = segs[*dest];
  auto [it, inserted] = opener.emplace(std::make_pair(first.buffer, *dest), last);
  if (!inserted) {
    return Violation(absl::StrCat(CopyRef(buffers, plan, last), " opens ",
                                  SegmentRef(buffers, plan, first.buffer, *dest), ", which copy ",
                                  it->second, " already opens"));
  }
  // Slices before the segment: their bytes are reserved from their start.
  const TimeStep from = OpenedAt(first);
  for (std::size_t k = 0; k < segs.size(); ++k) {
    if (k != *dest && segs[k].space == seg.space && segs[k].start < seg.start && segs[k].end >= from) {
      return Violation(absl::StrCat(SegmentRef(buffers, plan, first.buffer, k),
                                    " overlaps the time its sliced prefetch fills [", from, ", ",
                                    seg.start - 1, "]"));
    }
  }
  for (std::size_t k = 0; k < count; ++k) {
    const AsyncCopy& c = plan.copies[group[k]];
    if (OpenedAt(c) >= seg.start) continue;
    chunks.push_back(SliceChunk{group[k], seg.space, seg.offset + c.slice_offset, c.bytes,
                                OpenedAt(c), seg.start - 1});
  }
  return absl::OkStatus();
}

}  // namespace

absl::Status CheckSlicedPrefetches(const BufferSet& buffers, const Plan& plan,
                                   std::map<std::pair<BufferId, std::size_t>, std::size_t>& opener) {
  // (buffer, to_space, done, slice index) -> copy.
  std::map<std::tuple<BufferId, MemorySpace, TimeStep, std::int32_t>, std::size_t> slices;
  for (std::size_t i = 0; i < plan.copies.size(); ++i) {
    const AsyncCopy& c = plan.copies[i];
    if (c.slice_count <= 1) {
      if (c.slice_count < 1 || c.slice_index != 0 || c.slice_offset != 0) {
        return Violation(absl::StrCat(CopyRef(buffers, plan, i), " is slice ", c.slice_index,
                                      " of ", c.slice_count, " at byte ", c.slice_offset,
                                      ": an unsliced copy is slice 0 of 1 at byte 0"));
      }
      continue;
    }
    auto [it, inserted] = slices.emplace(std::make_tuple(c.buffer, c.to_space, c.done, c.slice_index), i);
    if (!inserted) {
      return Violation(absl::StrCat(CopyRef(buffers, plan, i), " and copy ", it->second,
                                    " are both slice ", c.slice_index, " of one prefetch"));
    }
  }
  std::vector<SliceChunk> chunks;
  for (auto it = slices.begin(); it != slices.end();) {
    std::vector<std::size_t> group;
    const auto key = std::make_tuple(std::get<0>(it->first), std::get<1>(it->first), std::get<2>(it->first));
    for (; it != slices.end() &&
           std::make_tuple(std::get<0>(it->first), std::get<1>(it->first), std::get<2>(it->first)) == key;
         ++it) {
      group.push_back(it->second);
    }
    if (absl::Status s = CheckGroup(buffers, plan, group, opener, chunks); !s.ok()) return s;
  }
  // Each slice chunk against every segment of its space and the other chunks.
  for (std::size_t a = 0; a < chunks.size(); ++a) {
    const SliceChunk& x = chunks[a];
    for (BufferId id = 0; id < static_cast<BufferId>(plan.placements.size()); ++id) {
      const AllocationList& segs = plan.placements[id].allocations;
      for (std::size_t k = 0; k < segs.size(); ++k) {
        const Allocation& s = segs[k];
        if (s.space != x.space) continue;
        const Bytes size = buffers.buffers[id].size;
        if (Overlap(x.offset, x.bytes, x.start, x.end, s.offset, size, s.start, s.end)) {
          return Violation(absl::StrCat(CopyRef(buffers, plan, x.copy), " fills bytes [", x.offset,
                                        ", ", x.offset + x.bytes, ") of space ", x.space,
                                        " during [", x.start, ", ", x.end, "], which ",
                                        SegmentRef(buffers, plan, id, k), " also holds"));
        }
      }
    }
    for (std::size_t b = a + 1; b < chunks.size(); ++b) {
      const SliceChunk& y = chunks[b];
      if (y.space == x.space && Overlap(x.offset, x.bytes, x.start, x.end, y.offset, y.bytes, y.start, y.end)) {
        return Violation(absl::StrCat(CopyRef(buffers, plan, x.copy), " and copy ", y.copy,
                                      " fill the same bytes of space ", x.space, " at one time"));
      }
    }
  }
  return absl::OkStatus();
}

}  // namespace memplan::verify_internal
