// The command form of a program with execution regions: what `memplan plan
// --emit-ir` writes for such programs. It is ordinary memplan text IR, so it
// parses and prints back unchanged (generated names are made unique against
// the program's); it spells out what IREE's ScheduleAllocation produces:
//
//   entry func @main(%input: 4096 external, %ready: timepoint) {
//     %stage.results, %stage.results.ready = resource.alloca(%ready) : 4096 transient, timepoint {affinity = "gpu0"}
//     %o = resource.subview(%stage.results) : 4096 view(%stage.results, 0)
//     %stage.slab, %stage.slab.ready = resource.alloca(%ready) : 17408 transient, timepoint {affinity = "gpu0"}
//     %stage.await = timepoint.join(%ready, %stage.results.ready, %stage.slab.ready) : timepoint
//     %stage.done = execute(%stage.results, %stage.slab, %input, %stage.await) : timepoint {callee = @stage}
//     %stage.slab.freed = resource.dealloca(%stage.slab, %stage.done) : timepoint
//     %stage.joined = timepoint.join(%stage.done, %stage.slab.freed) : timepoint
//     return %o, %stage.joined
//   }
//   region @stage(%stage/stage.results: 4096, %stage/stage.slab: 17408, %stage/input: 4096,
//                 %stage/await: timepoint) affinity("gpu0") {
//     cmd.fill(%stage/stage.slab[0 for 8192]) {wave = 0, access = ["write"], values = ["zeros"]}
//     ...
//     return %stage/await
//   }
//
// Per execute: its upload resources (`resource.constants`), result and slab
// allocations (`resource.alloca`, awaiting the execute's timepoints), a
// subview for every escaping result, the execute of a rebuilt region whose
// parameters are the own resources its commands touch, then the captured
// operands, then one joined await (the execute's timepoints, its allocas'
// and the uploads the region reads; an upload it does not read joins the
// downstream timepoint instead, as in the JSON timeline); the region's body is its commands (`cmd.fill`, `cmd.copy`,
// `cmd.dispatch`, `cmd.call`, `cmd.collective`, `cmd.barrier`,
// `cmd.invalidate`, `cmd.flush`, ...) with explicit ranges, waves kept and
// attributes `access` (read, write, read-write per range), `values` (the
// value each range holds) and the command's detail; the execute is marked
// `once = true` when it runs at most once (RegionInfo::once). Then a
// `resource.dealloca` per slab and the join later users wait on; a transient
// result reservation gets its `resource.dealloca` after the last op of its
// host computation that uses it, awaiting what the timeline's dealloca step
// awaits. Host ops are kept, reading the subviews in place of region
// results; host `load`/`store` become `resource.load` / `resource.store`.
// Ranges keep their symbolic offsets and lengths (into the region's own
// resources and into captured operands); a subview at a symbolic offset is
// written as a range. Funcs called only from regions
// are device functions: `cmd.call` names them with a `function` attribute.
#pragma once

#include "analysis/analyze.h"
#include "ir/plan.h"
#include "ir/program.h"

namespace memplan {

// `plan` must be a verified plan of `program` with plan.regions set.
Program CommandProgram(const Program& program, const ProgramAnalysis& analysis, const Plan& plan);

}  // namespace memplan
