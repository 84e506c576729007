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
// parameters are its own resources, then the captured operands, then one
// joined await; the region's body is its commands (`cmd.fill`, `cmd.copy`,
// `cmd.dispatch`, `cmd.call`, `cmd.collective`, `cmd.barrier`,
// `cmd.invalidate`, `cmd.flush`, ...) with explicit ranges, waves kept and
// attributes `access` (read, write, read-write per range), `values` (the
// value each range holds) and the command's detail; the execute is marked
// `once = true` from an initializer. Then a `resource.dealloca` per slab and
// the join later users wait on. Host ops are kept, reading the subviews in
// place of region results; host `load`/`store` become `resource.load` /
// `resource.store`. Ranges into the region's own resources keep their
// symbolic offsets; ranges into captured operands and the subviews' offsets
// are written at the dims' evaluation point. Funcs called only from regions
// are device functions: `cmd.call` names them with a `function` attribute.
#pragma once

#include "analysis/analyze.h"
#include "ir/plan.h"
#include "ir/program.h"

namespace memplan {

// `plan` must be a verified plan of `program` with plan.regions set.
Program CommandProgram(const Program& program, const ProgramAnalysis& analysis, const Plan& plan);

}  // namespace memplan
