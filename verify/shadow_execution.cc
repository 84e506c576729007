// Rule 5 of verify/region_checks.h: run the host steps on tagged memory.
//
// Each resource's bytes carry the value whose data they hold (the tag of the
// last write, with the command and step that wrote it). A read accepts a tag
// of its own step or of a step that happens before it
// (verify/happens_before.h); a write needs every earlier write and read of
// its bytes by another step to happen before it (verify/pending_reads.h).
// Scratch ranges (no value) carry no data: they only take part in race
// checks. Commands run block by block: a block is a wave (adjacent commands
// of an execute step with one `concurrent` >= 0) or a single command. Within
// a block, the adjacent commands lowered from one op (a transfer's
// invalidate, copy and flush) form a unit that runs in order; no two units
// touch a common byte when either writes it. Race-free units commute, so the
// block then runs command by command, each command's reads checked before
// its writes apply. Cost: O(C log M) for C command ranges and M tagged
// intervals, plus the data-source queries (verify/data_sources.h) and the
// pending reads (verify/pending_reads.h).
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "absl/strings/str_cat.h"
#include "verify/data_sources.h"
#include "verify/interval_map.h"
#include "verify/pending_reads.h"
#include "verify/region_internal.h"

namespace memplan::region_verify {
namespace {

bool Reads(Access a) { return (static_cast<int>(a) & static_cast<int>(Access::kRead)) != 0; }
bool Writes(Access a) { return (static_cast<int>(a) & static_cast<int>(Access::kWrite)) != 0; }

const char* Verb(Access a) {
  switch (a) {
    case Access::kRead: return "reads";
    case Access::kWrite: return "writes";
    case Access::kReadWrite: return "reads and writes";
  }
  return "reads";
}

// Whose data the bytes hold: `value`, written by command `command` of step `step`.
struct Tag {
  ValueId value;
  std::size_t step;
  std::size_t command;
  bool operator==(const Tag&) const = default;
};

// A range of a command of the block being checked for races.
struct Touch {
  std::size_t command;
  std::size_t range;
  bool operator==(const Touch&) const = default;
};

class ShadowExecution {
 public:
  ShadowExecution(const RegionContext& ctx, const HappensBefore& hb)
      : ctx_(ctx),
        hb_(hb),
        sources_(ctx.program),
        memory_(ctx.regions.resources.size()),
        reads_(hb, ctx.regions.resources.size()) {
    for (const Op& op : ctx.program.ops) {
      if (op.opcode != "alloca" && op.opcode != "alloc") continue;
      allocas_.insert(allocas_.end(), op.results.begin(), op.results.end());
    }
  }

  absl::Status Run() {
    for (std::size_t i = 0; i < ctx_.regions.steps.size(); ++i) {
      const HostStep& step = ctx_.regions.steps[i];
      const std::vector<Command>& commands = step.commands;
      for (std::size_t begin = 0; begin < commands.size();) {
        std::size_t end = begin + 1;
        const std::int32_t wave = commands[begin].concurrent;
        if (step.kind == HostStepKind::kExecute && wave >= 0) {
          while (end < commands.size() && commands[end].concurrent == wave) ++end;
        }
        if (absl::Status s = RunBlock(i, begin, end); !s.ok()) return s;
        begin = end;
      }
    }
    return absl::OkStatus();
  }

 private:
  absl::Status RunBlock(std::size_t step, std::size_t begin, std::size_t end) {
    const std::vector<Command>& commands = ctx_.regions.steps[step].commands;
    if (end - begin > 1) {
      if (absl::Status s = CheckRaces(step, begin, end); !s.ok()) return s;
    }
    for (std::size_t c = begin; c < end; ++c) {
      for (const CommandRange& range : commands[c].ranges) {
        if (!Reads(range.access) || range.value == kNoId) continue;
        if (absl::Status s = CheckRead(step, c, range); !s.ok()) return s;
        reads_.Add(range.resource, range.offset_bytes, range.offset_bytes + range.length_bytes,
                   Reader{step, c});
      }
      for (const CommandRange& range : commands[c].ranges) {
        if (!Writes(range.access) || range.value == kNoId) continue;
        if (absl::Status s = CheckWrite(step, c, range); !s.ok()) return s;
        const Bytes hi = range.offset_bytes + range.length_bytes;
        reads_.Clear(range.resource, range.offset_bytes, hi);
        memory_[range.resource].Assign(range.offset_bytes, hi, Tag{range.value, step, c});
      }
    }
    return absl::OkStatus();
  }

  // Every byte the range reads holds data of one of its value's sources,
  // written by this step or one that happens before it.
  absl::Status CheckRead(std::size_t step, std::size_t command, const CommandRange& range) {
    const Bytes lo = range.offset_bytes;
    const Bytes hi = lo + range.length_bytes;
    std::optional<IntervalMap<Tag>::Piece> bad;
    const bool scratch = FromAlloca(range.value);
    memory_[range.resource].Visit(lo, hi, [&](const IntervalMap<Tag>::Piece& piece) {
      const bool own_data = piece.tag && sources_.IsSource(piece.tag->value, range.value);
      if (own_data && (piece.tag->step == step || hb_.Precedes(piece.tag->step, step))) return true;
      if (scratch && !own_data) return true;  // an alloca's bytes: whatever they hold
      bad = piece;
      return false;
    });
    if (!bad) return absl::OkStatus();
    const Command& reader = ctx_.regions.steps[step].commands[command];
    const std::string read =
        absl::StrCat(CommandRef(ctx_.program, reader), " reads ", RangePlace(ctx_, range));
    const std::string bytes = absl::StrCat(" but bytes ", ByteRange(bad->begin, bad->end));
    if (!bad->tag) {
      return CommandViolation(
          ctx_, step, command, 5,
          absl::StrCat("uninitialized read: ", read, bytes, " were never written"));
    }
    const Tag& tag = *bad->tag;
    const Command& writer = ctx_.regions.steps[tag.step].commands[tag.command];
    if (!sources_.IsSource(tag.value, range.value)) {
      return CommandViolation(
          ctx_, step, command, 5,
          absl::StrCat("clobber: ", read, bytes, " hold ", ValueRef(ctx_.program, tag.value),
                       " (written by ", CommandShortRef(ctx_.program, writer), ")"));
    }
    return CommandViolation(ctx_, step, command, 5,
                            absl::StrCat("unordered read: ", read, ", written by ",
                                         CommandShortRef(ctx_.program, writer), " in step ",
                                         tag.step, ", which step ", step, " does not wait for"));
  }

  // Whether `value` holds an `alloca`'s or `alloc`'s storage (through ties and views): its
  // bytes are uninitialised scratch, so reading bytes no source of it wrote
  // is not an error (IREE's scratch pattern: a dispatch result tied to an
  // alloca, or an alloca returned as is).
  bool FromAlloca(ValueId value) {
    if (auto it = from_alloca_.find(value); it != from_alloca_.end()) return it->second;
    bool found = false;
    for (ValueId a : allocas_) found = found || sources_.IsSource(a, value);
    from_alloca_[value] = found;
    return found;
  }

  // The bytes the range writes were last written, and since read, by this
  // step or steps that happen before it.
  absl::Status CheckWrite(std::size_t step, std::size_t command, const CommandRange& range) {
    const Bytes lo = range.offset_bytes;
    const Bytes hi = lo + range.length_bytes;
    std::optional<Tag> written;
    memory_[range.resource].Visit(lo, hi, [&](const IntervalMap<Tag>::Piece& piece) {
      if (!piece.tag || piece.tag->step == step || hb_.Precedes(piece.tag->step, step)) return true;
      written = *piece.tag;
      return false;
    });
    std::string other;
    std::size_t other_step = 0;
    if (written) {
      other = absl::StrCat(" over ", ValueRef(ctx_.program, written->value), ", written by ",
                           ShortRef(written->step, written->command));
      other_step = written->step;
    } else if (std::optional<Reader> reader = reads_.Unordered(range.resource, lo, hi, step)) {
      other = absl::StrCat(", read by ", ShortRef(reader->step, reader->command));
      other_step = reader->step;
    } else {
      return absl::OkStatus();
    }
    const Command& writer = ctx_.regions.steps[step].commands[command];
    return CommandViolation(ctx_, step, command, 5,
                            absl::StrCat("unordered write: ", CommandRef(ctx_.program, writer),
                                         " writes ", RangePlace(ctx_, range), other, " in step ",
                                         other_step, ", which step ", step, " does not wait for"));
  }

  // The short form of steps[step].commands[command].
  std::string ShortRef(std::size_t step, std::size_t command) const {
    return CommandShortRef(ctx_.program, ctx_.regions.steps[step].commands[command]);
  }

  // No two units of the block (commands of one op) touch a common byte when
  // either writes it.
  absl::Status CheckRaces(std::size_t step, std::size_t begin, std::size_t end) {
    const std::vector<Command>& commands = ctx_.regions.steps[step].commands;
    std::map<std::int32_t, IntervalMap<Touch>> reads;   // by resource: earlier units' reads
    std::map<std::int32_t, IntervalMap<Touch>> writes;  // ... and writes
    std::size_t unit = begin;  // first command of the current unit
    for (std::size_t c = begin; c < end; ++c) {
      if (commands[c].op != commands[unit].op || commands[c].op == kNoId) {
        for (std::size_t u = unit; u < c; ++u) Record(commands, u, reads, writes);
        unit = c;
      }
      const std::vector<CommandRange>& ranges = commands[c].ranges;
      for (std::size_t k = 0; k < ranges.size(); ++k) {
        const CommandRange& range = ranges[k];
        const Bytes lo = range.offset_bytes;
        const Bytes hi = lo + range.length_bytes;
        std::optional<IntervalMap<Touch>::Piece> hit = FirstTouch(writes[range.resource], lo, hi);
        if (!hit && Writes(range.access)) hit = FirstTouch(reads[range.resource], lo, hi);
        if (!hit) continue;
        const Command& other = commands[hit->tag->command];
        const CommandRange& other_range = other.ranges[hit->tag->range];
        return CommandViolation(
            ctx_, step, c, 5,
            absl::StrCat("race in wave ", commands[c].concurrent, " of ", StepRef(ctx_, step), ": ",
                         CommandRef(ctx_.program, other), " ", Verb(other_range.access), " ",
                         RangePlace(ctx_, other_range), " while ",
                         CommandRef(ctx_.program, commands[c]), " ", Verb(range.access), " ",
                         RangePlace(ctx_, range), ": both touch bytes ",
                         ByteRange(hit->begin, hit->end)));
      }
    }
    return absl::OkStatus();
  }

  static void Record(const std::vector<Command>& commands, std::size_t c,
                     std::map<std::int32_t, IntervalMap<Touch>>& reads,
                     std::map<std::int32_t, IntervalMap<Touch>>& writes) {
    const std::vector<CommandRange>& ranges = commands[c].ranges;
    for (std::size_t k = 0; k < ranges.size(); ++k) {
      const CommandRange& range = ranges[k];
      const Bytes hi = range.offset_bytes + range.length_bytes;
      const Touch touch{c, k};
      if (Reads(range.access)) reads[range.resource].Assign(range.offset_bytes, hi, touch);
      if (Writes(range.access)) writes[range.resource].Assign(range.offset_bytes, hi, touch);
    }
  }

  // The first piece of [lo, hi) an earlier command of the block touched.
  static std::optional<IntervalMap<Touch>::Piece> FirstTouch(const IntervalMap<Touch>& map,
                                                             Bytes lo, Bytes hi) {
    std::optional<IntervalMap<Touch>::Piece> hit;
    map.Visit(lo, hi, [&](const IntervalMap<Touch>::Piece& piece) {
      if (!piece.tag) return true;
      hit = piece;
      return false;
    });
    return hit;
  }

  const RegionContext& ctx_;
  const HappensBefore& hb_;
  DataSources sources_;
  std::vector<IntervalMap<Tag>> memory_;  // per resource
  PendingReads reads_;
  std::vector<ValueId> allocas_;                   // results of alloca and alloc ops
  std::unordered_map<ValueId, bool> from_alloca_;  // FromAlloca, cached
};

}  // namespace

absl::Status CheckShadowExecution(const RegionContext& ctx, const HappensBefore& hb) {
  return ShadowExecution(ctx, hb).Run();
}

}  // namespace memplan::region_verify
