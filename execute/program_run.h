// Runs a program's ops on the executor's machine (execute/executor.h
// describes the semantics), and with a region plan its regions' commands.
#pragma once

#include <map>
#include <set>
#include <string>

#include "absl/status/status.h"
#include "execute/executor.h"
#include "execute/machine.h"
#include "execute/program_layout.h"
#include "ir/program.h"

namespace memplan {

class ProgramRun {
 public:
  ProgramRun(const Program& program, const ProgramLayout& layout, ExecutionMachine& machine,
             const ExecuteOptions& options);

  // The whole run: inputs, uploads, initializers, entry, outputs.
  absl::Status Run();

 private:
  absl::Status RunComputation(ComputationId id);
  absl::Status RunOp(OpId id);
  absl::Status RunWhile(const Op& op);
  absl::Status RunConditional(const Op& op);
  absl::Status RunCompute(OpId id);
  absl::Status RunRegionCommands(std::size_t step);
  // Runs `wave` on `device` (a region's affinity, "host" for uploads and
  // regions without one); a range in a resource whose devices
  // (Resource::devices) exclude it fails.
  absl::Status RunCommandWave(const std::vector<const Command*>& wave,
                              const std::string& device = "host");

  // Checks bytes [lo, lo + length) of value `v` (all of it with length < 0).
  // With `in_home`, in its home space's segment (the caller's side: the
  // pinned space, else default memory).
  absl::Status CheckValue(ValueId v, Bytes lo, Bytes length, const std::string& reader,
                          bool in_home = false);
  // Writes bytes [lo, hi) of value `v`'s storage as a new write of `v` by `by`.
  absl::Status WriteValue(ValueId v, Bytes lo, Bytes hi, const std::string& by,
                          bool in_home = false);
  bool HasStorage(ValueId v) const;
  std::string OpLabel(OpId id) const;
  std::string ValueLabel(ValueId v) const;

  const Program& program_;
  const ProgramLayout& layout_;
  ExecutionMachine& machine_;
  const ExecuteOptions& options_;
  std::map<std::string, BufferId> scratch_buffer_;  // "<op>.scratch" -> buffer
  // The buffers of `alloca` and `alloc` results: uninitialised storage, whose
  // bytes no one wrote may be read (IREE's scratch pattern: a dispatch
  // result tied to an alloca), as the verifier's shadow execution allows.
  std::set<BufferId> uninitialised_storage_;
  std::map<OpId, std::size_t> execute_step_;        // execute op -> region plan step
};

}  // namespace memplan
