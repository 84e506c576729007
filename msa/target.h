// Machine descriptions for memory space assignment: compute rates, memory
// bandwidths and the fast (alternate) memory. Presets are listed by
// `memplan targets`; a JSON file with the same fields defines a custom one.
//
// JSON form (all fields required except name/description):
//   {"name": "my-npu", "description": "...", "flops_per_second": 4e12,
//    "transcendentals_per_second": 1e11, "default_bandwidth": 1.6e10,
//    "alternate_bandwidth": 1.28e11, "copy_bandwidth": 1.6e10,
//    "fast_memory_bytes": 2097152, "alignment": 64}
//
// Hierarchy form (N memory spaces, msa/target_spaces.h): "flops_per_second",
// "transcendentals_per_second", "spaces" and "links" instead of the four
// memory fields; see docs/msa.md ("Memory hierarchies"). The flat form is
// exactly the two-space case.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "ir/units.h"

namespace memplan {

// One memory space of a hierarchy target.
struct MemorySpaceSpec {
  std::string name;
  Bytes capacity_bytes = 0;
  Bytes alignment = 1;              // offsets in it are multiples of this
  double read_bandwidth = 1e10;     // bytes/s an op reads from it
  double write_bandwidth = 1e10;    // bytes/s an op writes to it
  double latency_s = 0;             // seconds before a copy out of it starts moving data
  bool writable = true;             // false: read-only (flash), constants only
  bool flash = false;               // "kind": "flash" (never writable at run time)
  std::vector<std::string> devices; // devices that access it directly; empty: all
};

// A DMA link: copies from space `from` to space `to` (indices into
// Target::spaces), `queues` of them at once, each at `bandwidth` bytes/s.
struct LinkSpec {
  int from = 0;
  int to = 0;
  double bandwidth = 1e10;
  int queues = 1;
  std::optional<std::int64_t> max_outstanding;  // copies in flight at one step
};

// The device an op runs on for access rules: its affinity, else "host".
inline constexpr std::string_view kHostDevice = "host";

struct Target {
  std::string name;
  std::string description;
  double flops_per_second = 1e12;
  double transcendentals_per_second = 1e11;
  double default_bandwidth = 1e10;    // bytes/s of the default memory (DRAM/HBM)
  double alternate_bandwidth = 1e11;  // bytes/s of the alternate (fast) memory
  double copy_bandwidth = 1e10;       // bytes/s of one async copy (DMA) queue
  Bytes fast_memory_bytes = 0;        // alternate-memory size when not overridden
  Bytes alignment = 1;                // alternate-memory offset alignment
  // Hierarchy targets only (empty for the flat two-space form): the memory
  // spaces fastest first, and the DMA links between them. The flat fields
  // above then describe the hierarchy's own two-space view: alternate =
  // spaces[0], default = the slowest writable space, copy = their link.
  std::vector<MemorySpaceSpec> spaces;
  std::vector<LinkSpec> links;
};

// True if `device` may access `space` directly.
bool DeviceMayAccess(const MemorySpaceSpec& space, std::string_view device);

// The link from space index `from` to `to`, or null.
const LinkSpec* FindLink(const Target& t, int from, int to);

// Seconds one leg of a copy of `bytes` from level `from` to `to` takes: the
// source's latency plus bytes / the link's bandwidth (t.copy_bandwidth
// without a link). Example: latency 1e-7 s, 4096 bytes over 8e9 B/s:
// 6.12e-7 s.
double CopyLegSeconds(const Target& t, int from, int to, Bytes bytes);

// How a copy from level `from` to level `to` travels: over their direct
// link (via = -1), or staged through level `via` (links from -> via and
// via -> to; a chunk of `via` holds the bytes between the legs).
struct CopyRoute {
  int via = -1;
};

// The route of a copy from level `from` to level `to`, nullopt when there
// is none. A direct link is always taken (no staging chunk to hold, and a
// plan whose copies all have direct links is what it was before staging
// existed); otherwise the writable level m != from, to with links
// from -> m and m -> to that moves a byte fastest (1 / bandwidth(from, m) +
// 1 / bandwidth(m, to) smallest), ties to the lower level (the faster
// memory). Routes have at most two legs. Example: links flash -> sram and
// sram -> tcm only: FindCopyRoute(t, flash, tcm) = {via = sram's level};
// FindCopyRoute(t, tcm, flash) = nullopt. O(links^2).
std::optional<CopyRoute> FindCopyRoute(const Target& t, int from, int to);

// Index of the slowest writable space (the last writable one) of a
// hierarchy target; -1 for a flat target.
int SlowestWritableSpace(const Target& t);

// Plan memory-space id of hierarchy level `level`: level 0 is the alternate
// space (1), the slowest writable level the default space (0), the others
// 2, 3, ... in level order. LevelOfSpace is its inverse (-1: no such level).
MemorySpace SpaceIdOfLevel(const Target& t, int level);
int LevelOfSpace(const Target& t, MemorySpace space);

// The built-in presets, in listing order (name first).
const std::vector<Target>& BuiltinTargets();

// OK if `t` describes a usable machine: every rate and bandwidth positive,
// finite and <= 1e18 (per second), alternate_bandwidth >= default_bandwidth
// (fast memory is not slower), 0 <= fast_memory_bytes <= kMaxTotalBytes (2^62),
// 1 <= alignment <= kMaxAlignment (2^32; any integer, not only powers of two).
// Errors: InvalidArgument "error: target 'NAME': ..." naming the field. For
// targets built in code or with overridden fields; ResolveTarget already
// applies the same rules to files, with their location.
absl::Status ValidateTarget(const Target& t);

// A preset by name, or a JSON file (any argument containing '/' or ending in
// ".json"). Errors: InvalidArgument naming the unknown preset (with the list)
// or `path:line:col: error: ...` naming the field for a bad file (missing
// field, wrong type, unknown or duplicate key, a rate that is not positive,
// finite and <= 1e18, alternate_bandwidth < default_bandwidth,
// fast_memory_bytes outside [0, 2^62], alignment outside [1, 2^32]).
absl::StatusOr<Target> ResolveTarget(std::string_view name_or_path);

}  // namespace memplan
