// The "regions" object of the JSON plan (Plan::regions, ir/region_plan.h;
// field by field in docs/formats.md): written by WritePlanJson, read back by
// ReadPlanJson. Internal to io/.
//
// Layout (keys in this order; names instead of indices, sizes and offsets as
// expression text, SizeExpr::ToString with the program's dim names, next to
// their value in bytes at the evaluation point):
//   {"options": {"offset_alignment", "range_alignment",
//                "max_allocation_size" (null: unset), "pack"},
//    "resources": [{"name", "kind", "lifetime", "affinity", "region", "size",
//                   "size_bytes", "start", "end", "escaping", "over_limit",
//                   "slices": [{"buffer" (id), "name" (buffer name), "offset",
//                               "offset_bytes", "size", "size_bytes", "start", "end"}]}],
//    "regions": [{"name", "execute" (op), "affinity", "once", "resources" (names),
//                 "slab_size", "slab_bytes", "slab_lower_bound_bytes",
//                 with fast memory "estimated_time_s", "all_default_time_s",
//                 "downstream"}],
//    "steps": [{"kind", "signal", "awaits", "resource" (name|null),
//               "region" (name|null),
//               "commands": [{"kind", "op" (Program::OpName|null), "time",
//                             "concurrent", "detail",
//                             "ranges": [{"resource" (name), "offset",
//                                         "offset_bytes", "length", "length_bytes",
//                                         "access", "value" (name|null)}]}]}],
//    "warnings": [text],
//    with fast memory "estimated_time_s", "all_default_time_s" (the program)}
// Op and value names are written without their sigil.
#pragma once

#include <string>

#include "io/json_util.h"
#include "ir/buffer_set.h"
#include "ir/program.h"
#include "ir/region_plan.h"

namespace memplan::json_internal {

// `regions` as the "regions" object. Without a program (never the case for a
// plan with regions in practice) ops and values are written as ids and dims
// as `%d`.
Json RegionsJson(const RegionPlan& regions, const BufferSet& buffers, const Program* program);

// Appends `regions` (a RegionsJson result) as the value of the top-level key
// "regions", in the plan's line layout: every key of the object and every
// element of its arrays on its own line, and likewise every slice of a
// resource and every command of a step (indented further), so plans diff
// well. `out` ends just after the "regions": key; nothing follows the `}`.
void AppendRegionsText(std::string& out, const Json& regions);

// Reads the "regions" object at `pointer` for `program` and the buffers
// analysed from it: resource, region, buffer, op and value names are resolved
// (resource and region names must be unique), expression texts are parsed
// with ParseSizeExpr (ir/text_parser.h), figures are range-checked like the
// rest of the plan (bytes, offsets and times 0..kMaxTotalBytes, alignments
// 1..kMaxAlignment). A slice's buffer name must be its buffer's name.
// Everything else (offsets, timepoints, data flow) is for VerifyRegionPlan to
// judge. Throws SchemaError.
RegionPlan ReadRegions(const Json& value, const std::string& pointer, const BufferSet& buffers,
                       const Program& program);

}  // namespace memplan::json_internal
