#include "io/tflite/importer.h"

#include <unordered_set>
#include <utility>

#include "fmt/format.h"
#include "io/file_io.h"
#include "io/tflite/cost.h"
#include "ir/program_builder.h"
#include "ir/validate.h"

namespace memplan {
namespace {

// Ops imported in all (subgraphs are inlined per call site): a bound against
// files whose control flow nests deeply.
constexpr std::int64_t kMaxTfliteOps = 1'000'000;

bool IsTfliteView(std::int32_t builtin) {
  return builtin == kTfliteReshape || builtin == kTfliteSqueeze || builtin == kTfliteExpandDims;
}

// One subgraph being imported into one computation.
struct TfliteScope {
  int subgraph = 0;
  ComputationId computation = kNoId;
  std::string prefix;                  // "" for the entry, "while3/body/" deeper
  std::vector<ValueId> values;         // per tensor
  std::vector<int> last_read;          // per tensor: index of the last operator reading it
  std::vector<bool> written;           // per tensor: some operator writes it
};

class TfliteProgramImporter {
 public:
  TfliteProgramImporter(const TfliteModel& model, const std::string& path,
                        const TfliteImportOptions& options)
      : model_(model), path_(path), options_(options), builder_("") {}

  absl::StatusOr<TfliteImport> Build() &&;

 private:
  absl::Status Error(std::string_view message) const {
    return absl::InvalidArgumentError(fmt::format("{}: error: {}", path_, message));
  }
  const TfliteTensor& TensorOf(const TfliteScope& scope, int t) const {
    return model_.subgraphs[scope.subgraph].tensors[t];
  }
  std::string TensorLabel(const TfliteScope& scope, int t) const {
    const std::string& name = TensorOf(scope, t).name;
    return fmt::format("subgraph {} tensor {}{}", scope.subgraph, t,
                       name.empty() ? "" : " ('" + name + "')");
  }
  std::string UniqueValueName(const std::string& base) {
    std::string name = base;
    for (int i = 1; !value_names_.insert(name).second; ++i) name = fmt::format("{}.{}", base, i);
    return name;
  }
  std::string ValueName(const TfliteScope& scope, int t) {
    const std::string& name = TensorOf(scope, t).name;
    return UniqueValueName(scope.prefix + (name.empty() ? fmt::format("t{}", t) : name));
  }
  // The tensor's size and type. Errors: no fixed size, a negative dim, too large.
  absl::StatusOr<std::pair<Bytes, TensorType>> SizeOf(const TfliteScope& scope, int t) const;
  absl::StatusOr<ValueId> AddParam(TfliteScope& scope, int t);
  // The value of tensor `t` read by an operator: constants of a called
  // subgraph become `constant` ops on first use.
  absl::StatusOr<ValueId> Read(TfliteScope& scope, int t, int op_index);
  absl::StatusOr<ValueId> AddResult(TfliteScope& scope, OpId op, int t);
  absl::Status AddOps(TfliteScope& scope);
  absl::Status AddPlainOp(TfliteScope& scope, const TfliteOperator& op, int index);
  absl::Status AddControlFlow(TfliteScope& scope, const TfliteOperator& op, int index);
  // Imports subgraph `s` as a new computation whose parameters take the sizes
  // of `params` (kNoId: the subgraph's own input sizes); returns its scope.
  absl::StatusOr<TfliteScope> ImportCallee(int s, const std::string& prefix);
  // The values `scope` returns: each output's value, or a copy when it is
  // not fresh storage of the computation (allowed: `pass_through[i]`).
  absl::StatusOr<std::vector<ValueId>> Results(TfliteScope& scope,
                                               const std::vector<ValueId>& pass_through);
  // A loop's initial value: the tensor itself when this op is its last
  // reader and it is fresh storage, else a copy.
  absl::StatusOr<ValueId> LoopInit(TfliteScope& scope, int t, int index);
  ValueId Copy(ComputationId computation, ValueId of, const std::string& name);
  bool Fresh(ValueId v) const {
    const Value& value = builder_.program().values[v];
    return value.defining_op != kNoId && value.alias == AliasKind::kNone &&
           builder_.program().ops[value.defining_op].kind != OpKind::kConstant;
  }

  const TfliteModel& model_;
  const std::string& path_;
  const TfliteImportOptions& options_;
  ProgramBuilder builder_;
  std::unordered_set<std::string> value_names_;
  std::vector<bool> on_stack_;
  int depth_ = 0;  // subgraphs being imported, nested (0 in subgraph 0)
  std::int64_t ops_ = 0;
  std::vector<std::int32_t> entry_operator_;  // TfliteImport::entry_operator
};

absl::StatusOr<std::pair<Bytes, TensorType>> TfliteProgramImporter::SizeOf(
    const TfliteScope& scope, int t) const {
  const TfliteTensor& tensor = TensorOf(scope, t);
  if (model_.subgraphs[scope.subgraph].tensors[t].type == 13 ||
      model_.subgraphs[scope.subgraph].tensors[t].type == 14) {
    // RESOURCE and VARIANT handles: TFLite Micro keeps their storage in the
    // arena's tail; the handle itself takes no head bytes.
    return std::pair<Bytes, TensorType>(0, TensorType{"u8", {0}});
  }
  const std::optional<TfliteDtype> dtype = TfliteDtypeOf(tensor.type);
  if (!dtype) {
    return Error(fmt::format("{} has type code {}, which has no fixed size (STRING and unknown "
                             "types are not supported)",
                             TensorLabel(scope, t), tensor.type));
  }
  TensorType type{dtype->name, {}};
  // Elements times bits, checked against the 2^62-byte input limit.
  const __int128 limit = static_cast<__int128>(kMaxTotalBytes) * 8;
  __int128 bits = dtype->bits;
  for (std::int32_t d : tensor.shape) {
    if (d < 0) {
      return Error(fmt::format("{} has a negative dim {} in its shape", TensorLabel(scope, t), d));
    }
    bits *= d;
    if (bits > limit) {
      return Error(fmt::format("{} has an absurd shape: more than 2^62 bytes",
                               TensorLabel(scope, t)));
    }
    type.dims.push_back(d);
  }
  return std::pair<Bytes, TensorType>(static_cast<Bytes>((bits + 7) / 8), std::move(type));
}

absl::StatusOr<ValueId> TfliteProgramImporter::AddParam(TfliteScope& scope, int t) {
  absl::StatusOr<std::pair<Bytes, TensorType>> sized = SizeOf(scope, t);
  if (!sized.ok()) return sized.status();
  const ValueId v =
      builder_.AddParam(scope.computation, ValueName(scope, t), sized->first, sized->second);
  scope.values[t] = v;
  return v;
}

absl::StatusOr<ValueId> TfliteProgramImporter::Read(TfliteScope& scope, int t, int op_index) {
  if (scope.values[t] != kNoId) return scope.values[t];
  const TfliteTensor& tensor = TensorOf(scope, t);
  if (model_.buffers[tensor.buffer].data_bytes > 0) {
    absl::StatusOr<std::pair<Bytes, TensorType>> sized = SizeOf(scope, t);
    if (!sized.ok()) return sized.status();
    const OpId op = builder_.AddOp(scope.computation, "constant", {});
    scope.values[t] = builder_.AddResult(op, ValueName(scope, t), sized->first, sized->second);
    return scope.values[t];
  }
  if (!scope.written[t] && op_index >= 0) {
    // A tensor no operator writes and no buffer fills (e.g. the scratch
    // tensors of Vela's ethos-u op): TFLite Micro allocates it in the head
    // from its first use; here an `tflite.allocate` op that moves no data.
    absl::StatusOr<std::pair<Bytes, TensorType>> sized = SizeOf(scope, t);
    if (!sized.ok()) return sized.status();
    const OpId op = builder_.AddOp(scope.computation, "tflite.allocate", {});
    builder_.op(op).cost.bytes_accessed = 0;
    scope.values[t] = builder_.AddResult(op, ValueName(scope, t), sized->first, sized->second);
    return scope.values[t];
  }
  return Error(fmt::format("subgraph {} {} reads {} before any operator writes it",
                           scope.subgraph,
                           op_index >= 0 ? fmt::format("operator {}", op_index) : "output list",
                           TensorLabel(scope, t)));
}

absl::StatusOr<ValueId> TfliteProgramImporter::AddResult(TfliteScope& scope, OpId op, int t) {
  if (scope.values[t] != kNoId) {
    return Error(fmt::format("subgraph {}: {} is written twice", scope.subgraph,
                             TensorLabel(scope, t)));
  }
  absl::StatusOr<std::pair<Bytes, TensorType>> sized = SizeOf(scope, t);
  if (!sized.ok()) return sized.status();
  scope.values[t] = builder_.AddResult(op, ValueName(scope, t), sized->first, sized->second);
  return scope.values[t];
}

ValueId TfliteProgramImporter::Copy(ComputationId computation, ValueId of,
                                    const std::string& name) {
  const Value from = builder_.program().values[of];
  const OpId op = builder_.AddOp(computation, "copy", {of});
  return builder_.AddResult(op, UniqueValueName(name), from.size, from.type);
}

absl::Status TfliteProgramImporter::AddPlainOp(TfliteScope& scope, const TfliteOperator& op,
                                               int index) {
  const TfliteOperatorCode& code = model_.operator_codes[op.opcode_index];
  const std::string opcode = code.builtin == kTfliteCustom
                                 ? "tflite.custom." + (code.custom.empty() ? "op" : code.custom)
                                 : "tflite." + TfliteBuiltinName(code.builtin);
  std::vector<ValueId> operands;
  std::vector<std::vector<std::int64_t>> in_dims, out_dims;
  for (std::int32_t t : op.inputs) {
    if (t < 0) continue;
    absl::StatusOr<ValueId> v = Read(scope, t, index);
    if (!v.ok()) return v.status();
    operands.push_back(*v);
    const Value& value = builder_.program().values[*v];
    in_dims.push_back(value.type ? value.type->dims : std::vector<std::int64_t>{});
  }
  const OpId id = builder_.AddOp(scope.computation, opcode, operands);
  for (const std::vector<std::int32_t>* list : {&op.outputs, &op.intermediates}) {
    for (std::int32_t t : *list) {
      if (t < 0) continue;
      absl::StatusOr<ValueId> v = AddResult(scope, id, t);
      if (!v.ok()) return v.status();
      const Value& value = builder_.program().values[*v];
      out_dims.push_back(value.type ? value.type->dims : std::vector<std::int64_t>{});
    }
  }
  builder_.op(id).cost = TfliteOpCost(code.builtin, in_dims, out_dims);
  // A view needs one data input written by an earlier op of this computation
  // (not a weight, variable or parameter) of the same size.
  if (options_.alias && IsTfliteView(code.builtin) && !operands.empty() &&
      op.outputs.size() == 1) {
    Value& out = builder_.value(builder_.program().ops[id].results[0]);
    const Value& in = builder_.program().values[operands[0]];
    const std::vector<std::int32_t>& fixed = options_.offline_offsets;
    const auto offset_of = [&](std::int32_t t) {
      return scope.subgraph == 0 && t >= 0 && static_cast<std::size_t>(t) < fixed.size()
                 ? fixed[t]
                 : -1;
    };
    if (in.defining_op != kNoId && in.size == out.size && !in.lifetime &&
        builder_.program().ops[in.defining_op].kind != OpKind::kConstant &&
        offset_of(op.inputs[0]) == offset_of(op.outputs[0])) {
      out.alias = AliasKind::kView;
      out.alias_of = operands[0];
      out.view_offset = 0;
      builder_.op(id).cost.bytes_accessed = 0;
    }
  }
  return absl::OkStatus();
}

absl::StatusOr<TfliteScope> TfliteProgramImporter::ImportCallee(int s, const std::string& prefix) {
  if (on_stack_[s]) {
    return Error(fmt::format("subgraph {} calls itself (directly or through other subgraphs); "
                             "recursive control flow is not supported",
                             s));
  }
  // Importing recurses per level: bounded here, not by the stack. Deeper
  // programs would be refused by ValidateProgram anyway.
  if (depth_ >= kMaxNestingDepth) {
    return Error(fmt::format("subgraph {} is nested more than {} control-flow operators deep "
                             "(IF, WHILE, CALL_ONCE); the limit is {}",
                             s, kMaxNestingDepth, kMaxNestingDepth));
  }
  const TfliteSubgraph& sg = model_.subgraphs[s];
  TfliteScope scope;
  scope.subgraph = s;
  scope.prefix = prefix;
  scope.values.assign(sg.tensors.size(), kNoId);
  scope.computation = builder_.AddComputation(prefix.substr(0, prefix.size() - 1));
  for (std::int32_t t : sg.inputs) {
    if (scope.values[t] != kNoId) {
      return Error(fmt::format("subgraph {} lists {} twice as an input", s, TensorLabel(scope, t)));
    }
    if (absl::StatusOr<ValueId> v = AddParam(scope, t); !v.ok()) return v.status();
  }
  on_stack_[s] = true;
  ++depth_;
  absl::Status added = AddOps(scope);
  --depth_;
  on_stack_[s] = false;
  if (!added.ok()) return added;
  return scope;
}

absl::StatusOr<std::vector<ValueId>> TfliteProgramImporter::Results(
    TfliteScope& scope, const std::vector<ValueId>& pass_through) {
  std::vector<ValueId> results;
  std::unordered_set<ValueId> returned;
  const TfliteSubgraph& sg = model_.subgraphs[scope.subgraph];
  for (std::size_t i = 0; i < sg.outputs.size(); ++i) {
    absl::StatusOr<ValueId> v = Read(scope, sg.outputs[i], -1);
    if (!v.ok()) return v.status();
    const bool allowed = i < pass_through.size() && pass_through[i] == *v;
    if ((allowed || Fresh(*v)) && returned.insert(*v).second) {
      results.push_back(*v);
    } else {
      results.push_back(Copy(scope.computation, *v,
                             builder_.program().values[*v].name + ".out"));
    }
  }
  return results;
}

absl::StatusOr<ValueId> TfliteProgramImporter::LoopInit(TfliteScope& scope, int t, int index) {
  absl::StatusOr<ValueId> v = Read(scope, t, index);
  if (!v.ok()) return v.status();
  if (scope.last_read[t] == index && Fresh(*v) && !builder_.program().values[*v].lifetime) return *v;
  return Copy(scope.computation, *v, builder_.program().values[*v].name + ".init");
}

absl::Status TfliteProgramImporter::AddControlFlow(TfliteScope& scope, const TfliteOperator& op,
                                                   int index) {
  const std::int32_t builtin = model_.operator_codes[op.opcode_index].builtin;
  const std::string site = fmt::format("{}{}{}", scope.prefix,
                                       builtin == kTfliteIf      ? "if"
                                       : builtin == kTfliteWhile ? "while"
                                                                 : "call_once",
                                       index);
  const std::string label = fmt::format("subgraph {} operator {}", scope.subgraph, index);
  std::vector<ValueId> operands;
  std::vector<ComputationId> callees;
  std::vector<std::vector<ValueId>> returned;
  std::vector<std::int32_t> inputs;
  for (std::int32_t t : op.inputs) {
    if (t >= 0) inputs.push_back(t);
  }
  const auto check_signature = [&](int s, std::size_t n_in, std::size_t n_out) -> absl::Status {
    const TfliteSubgraph& callee = model_.subgraphs[s];
    if (callee.inputs.size() != n_in || callee.outputs.size() != n_out) {
      return Error(fmt::format("{} calls subgraph {} with {} inputs and {} outputs, but it has {} "
                               "and {}",
                               label, s, n_in, n_out, callee.inputs.size(), callee.outputs.size()));
    }
    return absl::OkStatus();
  };
  std::string opcode;
  if (builtin == kTfliteIf) {
    if (inputs.empty()) return Error(label + ": IF without its condition input");
    opcode = "conditional";
    for (std::int32_t t : inputs) {
      absl::StatusOr<ValueId> v = Read(scope, t, index);
      if (!v.ok()) return v.status();
      operands.push_back(*v);
    }
    const char* names[2] = {"then", "else"};
    for (int b = 0; b < 2; ++b) {
      if (absl::Status s = check_signature(op.subgraphs[b], inputs.size() - 1, op.outputs.size());
          !s.ok())
        return s;
      absl::StatusOr<TfliteScope> inner =
          ImportCallee(op.subgraphs[b], fmt::format("{}/{}/", site, names[b]));
      if (!inner.ok()) return inner.status();
      absl::StatusOr<std::vector<ValueId>> results = Results(*inner, {});
      if (!results.ok()) return results.status();
      builder_.SetReturn(inner->computation, *results);
      callees.push_back(inner->computation);
      returned.push_back(*std::move(results));
    }
  } else if (builtin == kTfliteWhile) {
    opcode = "while";
    if (op.outputs.size() != inputs.size()) {
      return Error(fmt::format("{}: WHILE with {} inputs but {} outputs", label, inputs.size(),
                               op.outputs.size()));
    }
    if (absl::Status s = check_signature(op.subgraphs[0], inputs.size(), 1); !s.ok()) return s;
    if (absl::Status s = check_signature(op.subgraphs[1], inputs.size(), inputs.size()); !s.ok())
      return s;
    for (std::int32_t t : inputs) {
      absl::StatusOr<ValueId> v = LoopInit(scope, t, index);
      if (!v.ok()) return v.status();
      operands.push_back(*v);
    }
    absl::StatusOr<TfliteScope> cond = ImportCallee(op.subgraphs[0], site + "/cond/");
    if (!cond.ok()) return cond.status();
    absl::StatusOr<std::vector<ValueId>> predicate = Results(*cond, {});
    if (!predicate.ok()) return predicate.status();
    builder_.SetReturn(cond->computation, *predicate);
    absl::StatusOr<TfliteScope> body = ImportCallee(op.subgraphs[1], site + "/body/");
    if (!body.ok()) return body.status();
    absl::StatusOr<std::vector<ValueId>> next =
        Results(*body, builder_.program().computations[body->computation].params);
    if (!next.ok()) return next.status();
    builder_.SetReturn(body->computation, *next);
    callees = {cond->computation, body->computation};
    returned.push_back(*std::move(next));
  } else {
    opcode = "call";
    if (absl::Status s = check_signature(op.subgraphs[0], inputs.size(), op.outputs.size());
        !s.ok())
      return s;
    for (std::int32_t t : inputs) {
      absl::StatusOr<ValueId> v = Read(scope, t, index);
      if (!v.ok()) return v.status();
      operands.push_back(*v);
    }
    absl::StatusOr<TfliteScope> init = ImportCallee(op.subgraphs[0], site + "/init/");
    if (!init.ok()) return init.status();
    absl::StatusOr<std::vector<ValueId>> results = Results(*init, {});
    if (!results.ok()) return results.status();
    builder_.SetReturn(init->computation, *results);
    callees = {init->computation};
    returned.push_back(*std::move(results));
  }
  // Results: sized as the operator's output tensors, which must match what
  // every callee returns.
  const OpId id = builder_.AddOp(scope.computation, opcode, std::move(operands));
  builder_.op(id).callees = std::move(callees);
  for (std::size_t j = 0; j < op.outputs.size(); ++j) {
    absl::StatusOr<ValueId> v = AddResult(scope, id, op.outputs[j]);
    if (!v.ok()) return v.status();
    for (const std::vector<ValueId>& r : returned) {
      if (builder_.program().values[r[j]].size != builder_.program().values[*v].size) {
        return Error(fmt::format("{}: output {} is {} bytes but a called subgraph returns {} bytes",
                                 label, j, builder_.program().values[*v].size,
                                 builder_.program().values[r[j]].size));
      }
    }
  }
  return absl::OkStatus();
}

absl::Status TfliteProgramImporter::AddOps(TfliteScope& scope) {
  const TfliteSubgraph& sg = model_.subgraphs[scope.subgraph];
  scope.last_read.assign(sg.tensors.size(), -1);
  scope.written.assign(sg.tensors.size(), false);
  for (const TfliteOperator& op : sg.operators) {
    for (std::int32_t t : op.outputs) scope.written[t] = true;
    for (std::int32_t t : op.intermediates) {
      if (t >= 0) scope.written[t] = true;
    }
  }
  for (std::size_t i = 0; i < sg.operators.size(); ++i) {
    for (std::int32_t t : sg.operators[i].inputs) {
      if (t >= 0) scope.last_read[t] = static_cast<int>(i);
    }
  }
  for (std::int32_t t : sg.outputs) scope.last_read[t] = static_cast<int>(sg.operators.size());
  for (std::size_t i = 0; i < sg.operators.size(); ++i) {
    if (++ops_ > kMaxTfliteOps) {
      return Error(fmt::format("more than {} operators once called subgraphs are inlined",
                               kMaxTfliteOps));
    }
    const TfliteOperator& op = sg.operators[i];
    absl::Status s = op.subgraphs.empty() ? AddPlainOp(scope, op, static_cast<int>(i))
                                          : AddControlFlow(scope, op, static_cast<int>(i));
    if (!s.ok()) return s;
    if (depth_ == 0) {
      // The operator's op is the last one it added to the entry (copies come first).
      const OpId id = builder_.program().computations[scope.computation].ops.back();
      entry_operator_.resize(builder_.program().ops.size(), -1);
      entry_operator_[id] = static_cast<std::int32_t>(i);
    }
  }
  return absl::OkStatus();
}

absl::StatusOr<TfliteImport> TfliteProgramImporter::Build() && {
  const TfliteSubgraph& sg = model_.subgraphs[0];
  on_stack_.assign(model_.subgraphs.size(), false);
  TfliteScope entry;
  entry.values.assign(sg.tensors.size(), kNoId);
  entry.computation = builder_.AddComputation(sg.name.empty() ? "main" : sg.name);
  builder_.SetEntry(entry.computation);
  // Graph inputs live in the arena head (transient); weights and variables
  // that some operator reads are parameters of their own lifetimes.
  for (std::int32_t t : sg.inputs) {
    if (entry.values[t] != kNoId) continue;
    absl::StatusOr<ValueId> v = AddParam(entry, t);
    if (!v.ok()) return v.status();
    builder_.value(*v).lifetime = Lifetime::kTransient;
  }
  std::vector<bool> used(sg.tensors.size(), false);
  for (const TfliteOperator& op : sg.operators) {
    for (std::int32_t t : op.inputs) {
      if (t >= 0) used[t] = true;
    }
  }
  for (std::int32_t t : sg.outputs) used[t] = true;
  for (std::size_t t = 0; t < sg.tensors.size(); ++t) {
    const TfliteTensor& tensor = sg.tensors[t];
    if (!used[t] || entry.values[t] != kNoId) continue;
    const bool constant = model_.buffers[tensor.buffer].data_bytes > 0;
    if (!constant && !tensor.is_variable) continue;
    absl::StatusOr<ValueId> v = AddParam(entry, static_cast<int>(t));
    if (!v.ok()) return v.status();
    builder_.value(*v).lifetime = tensor.is_variable ? Lifetime::kVariable : Lifetime::kConstant;
  }
  on_stack_[0] = true;
  if (absl::Status s = AddOps(entry); !s.ok()) return s;
  std::vector<ValueId> results;
  for (std::int32_t t : sg.outputs) {
    if (entry.values[t] == kNoId) {
      return Error(fmt::format("subgraph 0 output {} is never written", TensorLabel(entry, t)));
    }
    Value& value = builder_.value(entry.values[t]);
    if (!value.lifetime) value.lifetime = Lifetime::kTransient;
    results.push_back(entry.values[t]);
  }
  builder_.SetReturn(entry.computation, std::move(results));
  TfliteImport out;
  out.tensor_values = entry.values;
  out.entry_operator = std::move(entry_operator_);
  out.entry_operator.resize(builder_.program().ops.size(), -1);
  out.program = std::move(builder_).Finish();
  out.program.source = path_;
  return out;
}

}  // namespace

absl::StatusOr<TfliteImport> ImportTfliteModel(const TfliteModel& model, const std::string& path,
                                               const TfliteImportOptions& options) {
  absl::StatusOr<TfliteImport> imported = TfliteProgramImporter(model, path, options).Build();
  if (!imported.ok()) return imported.status();
  if (absl::Status s = ValidateProgram(imported->program, path); !s.ok()) return s;
  return imported;
}

absl::StatusOr<TfliteImport> ImportTflite(const std::string& path,
                                          const TfliteImportOptions& options) {
  absl::StatusOr<std::string> bytes = ReadFile(path);
  if (!bytes.ok()) return bytes.status();
  absl::StatusOr<TfliteModel> model = ParseTfliteModel(
      reinterpret_cast<const std::uint8_t*>(bytes->data()), bytes->size(), path);
  if (!model.ok()) return model.status();
  return ImportTfliteModel(*model, path, options);
}

}  // namespace memplan
