// The parsed form of an HLO text module (XLA's `HloModule` dump format), as
// io/hlo/parser.h reads it and io/hlo/importer.h turns it into a Program.
// Only what memory planning needs is kept: names, shapes, opcodes, operands,
// attributes (as raw text, decoded where used) and source locations.
//
// Example (one computation of a scheduled module):
//   ENTRY %main (p: f32[2,3]) -> f32[2,3] {
//     %p = f32[2,3]{1,0} parameter(0)
//     ROOT %e = f32[2,3]{1,0} exponential(%p)
//   }
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "ir/program.h"

namespace memplan {

// An HLO shape: an array `f32[2,3]{1,0:S(1)}` or a tuple `(f32[2], s32[])`.
struct HloShape {
  bool is_tuple = false;
  std::string element_type;             // "f32", "pred", "token", ... (arrays only)
  std::vector<std::int64_t> dims;       // bounds for dynamic dims `<=N`
  std::optional<std::int64_t> memory_space;  // `S(n)` in the layout
  std::vector<HloShape> elements;       // tuples only

  // Leaf arrays in depth-first order (a tuple's nested elements flattened).
  std::size_t LeafCount() const;
  // Text as XLA prints it without layout, e.g. "f32[2,3]" or "(f32[2], s32[])".
  std::string ToString() const;
  // Same element type and dims (tuples: element-wise); layouts are ignored.
  bool SameAs(const HloShape& other) const;
};

// An attribute `key=value` of an instruction or the module header; `value`
// is the raw text (balanced brackets and quotes), decoded where it is used.
struct HloAttribute {
  std::string key;
  std::string value;
  SourceLocation loc;  // of the value
};

struct HloOperand {
  std::string name;                     // without '%'
  std::optional<HloShape> shape;        // when the dump prints operand shapes
  SourceLocation loc;                   // of the name
  SourceLocation shape_loc;
};

struct HloInstruction {
  std::string name;                     // without '%'
  bool is_root = false;
  HloShape shape;
  std::string opcode;
  std::vector<HloOperand> operands;     // empty for parameter and constant
  std::optional<std::int64_t> parameter_number;  // parameter(N)
  std::vector<HloAttribute> attributes;
  SourceLocation loc;                   // of the name
  SourceLocation opcode_loc;

  // The raw value of attribute `key`, or nullptr.
  const HloAttribute* Find(const std::string& key) const;
};

struct HloComputation {
  std::string name;
  bool is_entry = false;
  std::vector<HloInstruction> instructions;  // in text order: the schedule
  std::size_t root = 0;                 // index of the ROOT (else the last)
  SourceLocation loc;
};

struct HloModule {
  std::string name;
  bool is_scheduled = false;
  std::vector<HloAttribute> attributes; // header attributes
  std::vector<HloComputation> computations;
  std::size_t entry = 0;
  SourceLocation loc;

  const HloAttribute* Find(const std::string& key) const;
};

}  // namespace memplan
