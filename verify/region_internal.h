// Private pieces of the execution-region checks (verify/region_checks.h):
// the context every rule reads, message fragments and the rule groups. Each
// rule group assumes the groups before it passed (e.g. rule 3 relies on every
// resource having its pool, rule 5 on every range naming a real resource and
// value).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "ir/buffer_set.h"
#include "ir/plan.h"
#include "ir/program.h"
#include "ir/region_plan.h"
#include "verify/happens_before.h"
#include "verify/region_checks.h"

namespace memplan::region_verify {

struct RegionContext {
  const Program& program;
  const BufferSet& buffers;
  const Plan& plan;
  const RegionPlan& regions;
  // Per resource: index into plan.pools of the pool with its name in its
  // memory space, or -1 (rule 1 reports that).
  std::vector<std::int32_t> pool_of;
  // Per value: the buffer whose alias set holds it, or kNoId (timepoints).
  std::vector<BufferId> buffer_of;
  // Where a violation of one command is recorded (may be null).
  RegionFailureSite* site = nullptr;
};

// Fills pool_of and buffer_of.
RegionContext MakeContext(const Program& program, const BufferSet& buffers, const Plan& plan,
                          RegionFailureSite* site);

// "region rule 3 (command ranges): <message>" as FailedPrecondition.
absl::Status RuleViolation(int rule, const std::string& message);
// The same, recording steps[step].commands[command] in ctx.site.
absl::Status CommandViolation(const RegionContext& ctx, std::size_t step, std::size_t command,
                              int rule, const std::string& message);

// "%name" ("value #id" for an id outside the program).
std::string ValueRef(const Program& program, ValueId value);
// The resource's name ("resource #i" for an index outside the plan).
std::string ResourceRef(const RegionPlan& regions, std::int32_t resource);
// "[begin, end)".
std::string ByteRange(Bytes begin, Bytes end);
// "dispatch %t1 (op dispatch#3)": kind, the op's first result, the op by
// opcode and id; "barrier barrier#5" for an op without results; "input" for
// a command without op.
std::string CommandRef(const Program& program, const Command& command);
// The shorter "dispatch %t1" (kind and op name), for the writer of a tag.
std::string CommandShortRef(const Program& program, const Command& command);
// "%t0 at @stage.slab [0, 8192)": the value and bytes of a command range
// ("scratch at ..." for a scratch range).
std::string RangePlace(const RegionContext& ctx, const CommandRange& range);
// "read %t0 at @stage.slab [0, 8192)".
std::string RangeRef(const RegionContext& ctx, const CommandRange& range);
// "step 3 (execute @stage)", "step 1 (alloca @stage.slab)", "step 5 (join)".
std::string StepRef(const RegionContext& ctx, std::size_t step);

// a + b, or false when it overflows.
bool CheckedAdd(Bytes a, Bytes b, Bytes& sum);

// Rule 1: options, resource names, pools, time ranges, byte sharing in time.
absl::Status CheckResources(const RegionContext& ctx);
// Rule 2: slices, and the evaluation of every symbolic size.
absl::Status CheckSlices(const RegionContext& ctx);
// Rule 2's last part: every view at an offset given by dims lies in its
// slice for every binding of the dims (verify/region_view_checks.cc).
absl::Status CheckDynamicViews(const RegionContext& ctx);
// Rule 3: every command range lies in its value's segment.
absl::Status CheckCommandRanges(const RegionContext& ctx);
// Rule 6 (checked after rule 3): each captured copy (RegionInfo::copies)
// copies a parameter of its region from its home range in default memory
// into bytes of one of the region's fast slabs that no slice or other copy
// live at the same steps shares, by one copy command of the region's
// execute; every other range of the fast copy is a read after it, within
// the copy's steps (verify/region_copy_checks.cc).
absl::Status CheckCopies(const RegionContext& ctx);
// The captured copy whose fast range holds `range` (same resource and
// value, inside its bytes), or null: rule 3 accepts such ranges, rule 6
// checks them.
const RegionCopy* CopyHolding(const RegionContext& ctx, const CommandRange& range);
// Rule 4: timepoints order allocas, uploads, executes and deallocas.
absl::Status CheckTimepoints(const RegionContext& ctx, const HappensBefore& hb);
// Rule 4's last part: resources sharing bytes are ordered by HB. `alloca` and
// `dealloca` give each resource's alloca / dealloca step, kNone when it has none.
inline constexpr std::size_t kNone = static_cast<std::size_t>(-1);
absl::Status CheckMemoryReuse(const RegionContext& ctx, const HappensBefore& hb,
                              const std::vector<std::size_t>& alloca,
                              const std::vector<std::size_t>& dealloca);
// Rule 5: shadow execution on tagged memory.
absl::Status CheckShadowExecution(const RegionContext& ctx, const HappensBefore& hb);

}  // namespace memplan::region_verify
