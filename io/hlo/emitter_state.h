// The state and steps of `memplan plan --emit-hlo` (io/hlo/emitter.h), shared
// by its two halves: io/hlo/emitter.cc indexes a computation instance's ops,
// copies and aliasing needs and writes its instructions (layouts, copies,
// rewired operands); io/hlo/emitter_clones.cc orders the computations
// (callees first), groups call sites planned alike, and names and writes the
// clones of those planned apart (XLA's `%f.clone` naming, fusion clones,
// callee edits). Internal to those two files.
#pragma once

#include <cstddef>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "io/hlo/module.h"
#include "ir/program.h"

namespace memplan::hlo_emit {

struct TextEdit {
  std::size_t begin = 0;
  std::size_t end = 0;
  std::string text;
};

class HloEmitter {
 public:
  HloEmitter(std::string_view text, const HloModule& module, const Program& original,
             const Program& rewritten)
      : text_(text), m_(module), in_(original), out_(rewritten) {}

  absl::StatusOr<std::string> Run();

 private:
  std::size_t Offset(SourceLocation loc) const {
    return line_starts_[static_cast<std::size_t>(loc.line) - 1] +
           static_cast<std::size_t>(loc.column) - 1;
  }
  std::size_t LineStart(std::size_t k) const {
    return line_starts_[static_cast<std::size_t>(hc_->instructions[k].loc.line) - 1];
  }
  std::size_t LineEnd(std::size_t k) const {
    const std::size_t nl = text_.find('\n', LineStart(k));
    return nl == std::string_view::npos ? text_.size() : nl + 1;
  }
  // Where the last instruction's text ends: at the line that closes the
  // computation (a line starting with '}'), as an instruction may run over
  // several lines.
  std::size_t LastInstructionEnd() const {
    std::size_t at = LineEnd(hc_->instructions.size() - 1);
    while (at < text_.size()) {
      const std::size_t first = text_.find_first_not_of(" \t", at);
      if (first == std::string_view::npos || text_[first] == '}') return at;
      const std::size_t nl = text_.find('\n', at);
      at = nl == std::string_view::npos ? text_.size() : nl + 1;
    }
    return at;
  }
  static absl::Status Refuse(const std::string& what) {
    return absl::FailedPreconditionError("--emit-hlo: " + what);
  }

  // The current HLO computation as written: the body of the first call
  // site's plan in place, and each clone (header to closing brace, after
  // the clones of the computations its fusions call).
  struct Written {
    std::string body;
    std::vector<std::string> clones;
  };

  void IndexLines();
  void IndexAliasEdges();
  std::vector<std::size_t> CalleesFirst() const;
  absl::StatusOr<Written> WriteComputation(const std::vector<ComputationId>& instances);
  absl::StatusOr<std::string> WriteInstance(ComputationId pc, bool clone);
  std::string CloneHeader(const HloComputation& c, const std::string& name,
                          const std::map<std::string, std::string>& rename) const;
  std::size_t ClosingLineEnd(const HloComputation& c) const;
  std::string FusedClone(const std::string& callee);
  void FusionEdits(std::size_t k, std::vector<TextEdit>& edits);
  std::string Named(const std::string& name) const;
  void CalleeEdits(std::size_t k, std::vector<TextEdit>& edits) const;
  absl::Status IndexOps(bool clone);
  void IndexNeeds();
  absl::Status NameCopies();
  MemorySpace StoredSpace(ValueId v) const;
  MemorySpace SpaceOf(ValueId v) const;
  ValueId Origin(ValueId v) const;
  std::optional<std::string> NameOf(ValueId v) const;
  std::string Unique(const std::string& base);
  std::string UniqueComputation(const std::string& base);
  absl::Status ResolveRoot();
  absl::StatusOr<std::string> Instruction(std::size_t k);
  absl::StatusOr<std::string> CopyLine(OpId op);
  std::string StartLine(const std::string& start, const std::string& source, MemorySpace to);
  std::string DoneLine(const std::string& done, const std::string& start);
  std::vector<ValueId> LeavesOf(std::size_t k) const;
  std::string InSpace(const std::string& name, ValueId v, MemorySpace space);
  void Record(const std::string& name, ValueId v);
  absl::Status OperandEdits(std::size_t k, std::vector<TextEdit>& edits);

  // The module.
  std::string_view text_;
  const HloModule& m_;
  const Program& in_;
  const Program& out_;
  std::vector<std::size_t> line_starts_;
  std::set<std::string> names_;
  std::set<std::string> computation_names_;
  // Each program computation's HLO computation as written (a clone's name
  // for a call site planned unlike the first).
  std::map<ComputationId, std::string> written_as_;
  std::map<ValueId, std::string> name_of_;             // array value -> instruction name
  // Spaces the aliasing edges of structured ops impose (XLA's rule: a while's
  // operand, condition and body parameters, body root and result share
  // buffers; a call's or branch's parameters and root those of its caller):
  std::map<ValueId, MemorySpace> forced_;              // condition parameters, while results
  std::map<OpId, std::vector<std::optional<MemorySpace>>> operand_need_;  // per operand leaf
  std::map<ComputationId, std::vector<MemorySpace>> root_need_;           // per result leaf

  // The computation being written (HLO and program instance).
  const HloComputation* hc_ = nullptr;
  ComputationId pc_ = kNoId;
  std::map<std::string, std::size_t> folded_;          // dropped copy-starts
  std::map<std::string, std::string> rename_;          // instruction -> its clone's name
  std::string fused_clones_;                           // the clone's fused computations' clones
  std::set<std::string> dropped_;                      // their lines and their copy-dones'
  std::map<std::string, std::string> source_of_;       // dropped copy-done -> copied value
  std::map<std::string, const HloShape*> shape_of_;    // instruction -> shape
  std::map<std::size_t, OpId> op_of_;                  // instruction -> its op
  std::map<std::size_t, std::vector<OpId>> copies_before_;  // instruction -> copies
  std::map<std::size_t, std::vector<OpId>> copies_after_;   // copies of a gte's element
  std::map<ValueId, std::size_t> gte_of_;              // tuple element -> its gte instruction
  std::vector<OpId> trailing_;                         // copies after the last instruction
  std::map<std::string, std::string> shape_text_;      // emitted name -> its shape text
  std::map<std::string, std::string> copy_base_;       // copy-start name -> its source's name
  // (instruction, operand leaf) -> the space an aliasing edge needs there.
  std::map<std::pair<std::size_t, std::size_t>, MemorySpace> need_;
  // Per storage origin, the latest written name holding its data per space.
  std::map<ValueId, std::map<MemorySpace, std::string>> latest_;
  std::string prefix_;                                 // copies to write before the instruction
  std::optional<MemorySpace> root_convert_;            // the result copied into this space
  std::string root_source_;                            // ... from this instruction
  std::string root_start_;                             // ... by this copy-start
  std::string root_name_;
  std::string indent_ = "  ";
  bool operand_shapes_ = false;                        // the module prints them
};

}  // namespace memplan::hlo_emit
