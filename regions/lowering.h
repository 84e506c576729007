// Lowering async ops to commands with explicit ranges and access bits (IREE
// ScheduleAllocation's conversion of stream.async.* to stream.cmd.*). Ranges
// come out *value-relative*: CommandRange::resource is kNoId and the offset
// counts from the start of CommandRange::value; ResolveCommandRanges
// (regions/allocate_regions.h) later places them in resources.
//
// Rules (operand ranges `%x[OFF for LEN]` default to the whole operand):
//   splat                      fill: write the result
//   fill(%t[r]) tied(%t)       fill: write the result over r
//   update(%u, %t[r]) tied     copy: read %u, write the result over r
//   copy(%s[a], %t[b]) tied    copy: read %s over a, write the result over b
//   slice(%s[r]) / clone(%s)   copy: read %s (over r), write the result
//   transfer(%s)               copy: read %s, write the result; preceded by
//                              invalidate (read of %s) when the data comes
//                              from another affinity (`source_affinity`
//                              attribute) or from staging memory, followed by
//                              flush (read of the result) when it goes to
//                              another affinity (`target_affinity`) or staging
//   collective(%send, %recv) tied(%recv)
//                              collective: send read-only, receive write-only
//                              (no in-place collectives, as in IREE #11249)
//   barrier(%x) tied(%x)       barrier: read of %x, ordering only (IREE lowers
//                              it to a copy; memplan moves no data)
//   load(%r[range])            load: read
//   store(%v, %r[range]) tied(%r)
//                              store: read %v, write the result over range
//   constant / alloca / alloc / views (import, export) / timepoint-only ops:
//                              no command
//   call                       call: like dispatch
//   dispatch and any other compute op
//                              dispatch: each operand read, read-write when a
//                              result is tied to it (the range then carries
//                              that result), each untied fresh result write,
//                              and the op's scratch (if any) read-write with
//                              CommandRange::value kNoId
// Values without storage (timepoints) and zero-length ranges are skipped.
#pragma once

#include <string>
#include <vector>

#include "ir/program.h"
#include "ir/region_plan.h"

namespace memplan {

// What lowering needs to know about the op's surroundings.
struct LoweringContext {
  std::string affinity;                  // the region's device ("" on the host)
  std::vector<Lifetime> value_lifetime;  // per ValueId: its buffer's lifetime
};

// The commands of op `o` at flattened time `time`, value-relative.
std::vector<Command> LowerOp(const Program& program, OpId o, TimeStep time,
                             const LoweringContext& context);

}  // namespace memplan
