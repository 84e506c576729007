// Named integer types shared by every layer, so a signature says what it takes.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace memplan {

// A byte count or a byte offset within a memory space.
using Bytes = std::int64_t;
// A logical time step: an index into the flattened schedule (see analysis/).
// Live ranges are closed intervals [start, end] of time steps.
using TimeStep = std::int64_t;

// A closed range [first, last] of time steps, e.g. a dead gap of a buffer
// (ir/buffer_set.h).
struct StepRange {
  TimeStep first = 0;
  TimeStep last = 0;
  bool operator==(const StepRange&) const = default;
};

// Dense indices into Program::values / ops / computations and BufferSet::buffers.
using ValueId = std::int32_t;
using OpId = std::int32_t;
using ComputationId = std::int32_t;
using BufferId = std::int32_t;
inline constexpr std::int32_t kNoId = -1;

// Memory spaces: 0 is the large slow default memory (HBM/DRAM), 1 the small fast
// alternate memory (SRAM/VMEM). More may follow.
using MemorySpace = std::int32_t;
inline constexpr MemorySpace kDefaultSpace = 0;
inline constexpr MemorySpace kAlternateSpace = 1;
// Display name of a memory space: "default", "alternate", "space<N>".
std::string SpaceName(MemorySpace space);

// Who owns a buffer and how long it lives (the IREE notion of resource lifetime).
enum class Lifetime : std::uint8_t {
  kTransient,  // lives inside one run; packed with reuse
  kExternal,   // program input/output, owned by the caller; never reused
  kConstant,   // read-only, uploaded once; never reused
  kVariable,   // persists across runs; never reused
  kStaging,    // host-visible transfer buffer; packed with reuse
};

// Lower-case keyword for `lifetime` ("transient", "external", ...).
std::string_view LifetimeName(Lifetime lifetime);
// Inverse of LifetimeName; nullopt for an unknown keyword.
std::optional<Lifetime> ParseLifetime(std::string_view keyword);
// True for lifetimes whose buffers are packed with reuse (transient, staging).
bool IsReusable(Lifetime lifetime);

// Limits memplan plans within, so that no offset, peak or sum of sizes comes
// near int64 overflow: the buffers of one input total at most kMaxTotalBytes
// counting alignment padding, and no alignment exceeds kMaxAlignment.
inline constexpr Bytes kMaxTotalBytes = Bytes{1} << 62;
inline constexpr Bytes kMaxAlignment = Bytes{1} << 32;

// The least common multiple of two alignments (each clamped to >= 1, at most
// kMaxAlignment): the alignment that satisfies both, e.g. (64, 3) -> 192.
// nullopt when it exceeds kMaxAlignment (computed without overflow).
std::optional<Bytes> AlignmentLcm(Bytes a, Bytes b);
// An input spans at most kMaxTimeSteps time steps (every live range lies in
// [0, kMaxTimeSteps)); the plan reader accepts times up to the same limit.
inline constexpr TimeStep kMaxTimeSteps = TimeStep{1} << 62;

// Rounds `value` up to a multiple of `alignment` (alignment >= 1).
inline Bytes AlignUp(Bytes value, Bytes alignment) {
  return alignment <= 1 ? value : (value + alignment - 1) / alignment * alignment;
}

}  // namespace memplan
