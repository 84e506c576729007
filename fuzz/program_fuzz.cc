// Fuzz target: the planners, with the independent verifier as the oracle.
// The bytes are decoded (ProgramDecoder) into a small, mostly valid text-IR
// program — computes, in-place ties, views, constants, async copy pairs,
// calls, while loops, conditionals, values pinned to fast memory, or an entry
// that runs one or two execution regions — and planned with a packing
// algorithm, alignment, and fast memory (memory space assignment) that the
// first bytes choose. A plan the verifier refuses (Internal), or whose JSON
// does not read back and verify, aborts; so does a bad-input error that is
// not located. The decoder never needs more bytes than it is given: past the
// end every choice is 0, so every input decodes.
#include <array>
#include <cstdio>
#include <cstdlib>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "fmt/format.h"
#include "fuzz/fuzz_support.h"

namespace {

// Choices read from the fuzzer's bytes; 0 once they run out.
class ChoiceBytes {
 public:
  ChoiceBytes(const std::uint8_t* data, std::size_t size) : data_(data), size_(size) {}
  // A choice in [0, n) (0 for n <= 1).
  std::size_t Below(std::size_t n) { return n <= 1 || pos_ >= size_ ? 0 : data_[pos_++] % n; }
  bool Flag() { return Below(2) == 1; }

 private:
  const std::uint8_t* data_;
  std::size_t size_;
  std::size_t pos_ = 0;
};

struct DecodedValue {
  std::string name;
  std::int64_t size = 0;
  bool constant = false;  // read-only: never written in place or loop-carried
};

// Builds the text of one program from choices (file comment above).
class ProgramDecoder {
 public:
  ProgramDecoder(ChoiceBytes& in, bool fast_memory) : in_(in), fast_memory_(fast_memory) {}

  std::string FuncProgram() {
    std::vector<DecodedValue> values;
    std::string params;
    const std::size_t count = 1 + in_.Below(3);
    for (std::size_t i = 0; i < count; ++i) {
      DecodedValue v{NewName("p"), Size(), in_.Below(4) == 0};
      params += fmt::format("{}%{}: {}{}", i ? ", " : "", v.name, v.size, v.constant ? " constant" : "");
      values.push_back(v);
    }
    std::string body = Body(values, /*depth=*/2, 2 + in_.Below(10));
    body += "  return " + Returns(values) + "\n";
    return fmt::format("program @fuzz\n\nentry func @main({}) {{\n{}}}\n{}", params, body, callees_);
  }

  std::string RegionProgram() {
    const std::int64_t in_size = Size();
    std::string entry = fmt::format("entry func @main(%in: {} external, %ready: timepoint) {{\n", in_size);
    std::string last = "in";
    std::int64_t last_size = in_size;
    std::string await = "ready";
    const std::size_t regions = 1 + in_.Below(2);
    for (std::size_t r = 0; r < regions; ++r) {
      const std::string name = fmt::format("r{}", r);
      const std::int64_t out_size = Size();
      callees_ += Region(name, last_size, out_size);
      const std::string out = NewName("out");
      const std::string done = NewName("done");
      entry += fmt::format("  %{}, %{} = execute(%{}, %{}) : {} external, timepoint {{callee = @{}}}\n",
                           out, done, last, await, out_size, name);
      last = out;
      last_size = out_size;
      await = done;
    }
    entry += fmt::format("  return %{}, %{}\n}}\n", last, await);
    return "program @fuzz_regions\n\n" + entry + callees_;
  }

 private:
  std::string NewName(std::string_view prefix) { return fmt::format("{}{}", prefix, next_name_++); }

  std::int64_t Size() {
    static constexpr std::array<std::int64_t, 12> kSizes = {0, 1, 4, 8, 16, 24, 64, 100, 256, 1000, 4096, 65536};
    return kSizes[in_.Below(kSizes.size())];
  }

  // Picks a value, avoiding constants when `writable`; nullptr if none.
  const DecodedValue* Pick(const std::vector<DecodedValue>& values, bool writable) {
    std::vector<const DecodedValue*> candidates;
    for (const DecodedValue& v : values) {
      if (!writable || !v.constant) candidates.push_back(&v);
    }
    return candidates.empty() ? nullptr : candidates[in_.Below(candidates.size())];
  }

  std::string Operands(const std::vector<DecodedValue>& values, std::size_t count) {
    std::string text;
    for (std::size_t i = 0; i < count && !values.empty(); ++i) {
      text += (i ? ", %" : "%") + Pick(values, false)->name;
    }
    return text;
  }

  std::string Returns(const std::vector<DecodedValue>& values) {
    std::string text;
    const std::size_t count = std::min<std::size_t>(values.size(), 1 + in_.Below(2));
    for (std::size_t i = 0; i < count; ++i) {
      text += (i ? ", %" : "%") + values[values.size() - 1 - i].name;
    }
    return text;
  }

  // A computation called from one op: parameters of `sizes`, a body, and a
  // last compute op per entry of `result_sizes` that it returns.
  std::string Callee(const std::string& name, const std::vector<std::int64_t>& sizes,
                     const std::vector<std::int64_t>& result_sizes, int depth) {
    std::vector<DecodedValue> values;
    std::string params;
    for (std::size_t i = 0; i < sizes.size(); ++i) {
      DecodedValue v{NewName("a"), sizes[i], false};
      params += fmt::format("{}%{}: {}", i ? ", " : "", v.name, v.size);
      values.push_back(v);
    }
    std::string body = Body(values, depth - 1, in_.Below(5));
    std::string returns;
    for (std::size_t i = 0; i < result_sizes.size(); ++i) {
      const std::string r = NewName("y");
      body += fmt::format("  %{} = add({}) : {}\n", r, Operands(values, 1 + in_.Below(2)), result_sizes[i]);
      returns += (i ? ", %" : "%") + r;
    }
    return fmt::format("\nfunc @{}({}) {{\n{}  return {}\n}}\n", name, params, body, returns);
  }

  std::string Body(std::vector<DecodedValue>& values, int depth, std::size_t ops) {
    std::string text;
    for (std::size_t n = 0; n < ops; ++n) text += Op(values, depth);
    return text;
  }

  std::string Op(std::vector<DecodedValue>& values, int depth) {
    const std::size_t kind = in_.Below(10);
    const DecodedValue* a = Pick(values, kind == 1 || kind >= 4);
    if (a == nullptr || (depth <= 0 && kind >= 4 && kind <= 6)) return Compute(values);
    const DecodedValue operand = *a;  // `values` grows below
    switch (kind) {
      case 1: {  // in place
        DecodedValue r{NewName("t"), operand.size, false};
        values.push_back(r);
        return fmt::format("  %{} = exp(%{}) : {} tied(%{})\n", r.name, operand.name, r.size, operand.name);
      }
      case 2: {  // a view at an offset
        if (operand.constant) return Compute(values);
        const std::int64_t size = static_cast<std::int64_t>(in_.Below(static_cast<std::size_t>(operand.size) + 1));
        const std::int64_t offset = static_cast<std::int64_t>(in_.Below(static_cast<std::size_t>(operand.size - size) + 1));
        DecodedValue r{NewName("v"), size, false};
        values.push_back(r);
        return fmt::format("  %{} = reshape(%{}) : {} view(%{}, {})\n", r.name, operand.name, size, operand.name, offset);
      }
      case 3: {  // a constant
        DecodedValue r{NewName("c"), Size(), true};
        values.push_back(r);
        return fmt::format("  %{} = constant() : {}\n", r.name, r.size);
      }
      case 4: {  // call
        const std::string callee = NewName("f");
        const std::int64_t result = Size();
        callees_ += Callee(callee, {operand.size}, {result}, depth);
        DecodedValue r{NewName("r"), result, false};
        values.push_back(r);
        return fmt::format("  %{} = call(%{}) : {} {{callee = @{}}}\n", r.name, operand.name, result, callee);
      }
      case 5: {  // while: one loop-carried value
        const std::string cond = NewName("cond");
        const std::string body = NewName("body");
        const std::string p = NewName("cp");
        const std::string q = NewName("cq");
        callees_ += fmt::format("\nfunc @{}(%{}: {}) {{\n  %{} = compare(%{}) : pred[]\n  return %{}\n}}\n",
                                cond, p, operand.size, q, p, q);
        callees_ += Callee(body, {operand.size}, {operand.size}, depth);
        DecodedValue r{NewName("w"), operand.size, false};
        values.push_back(r);
        return fmt::format("  %{} = while(%{}) : {} {{cond = @{}, body = @{}, trip_count = {}}}\n", r.name,
                           operand.name, r.size, cond, body, in_.Below(5));
      }
      case 6: {  // conditional with two branches
        const std::string pred = NewName("q");
        const std::string then_branch = NewName("then");
        const std::string else_branch = NewName("else");
        const std::int64_t result = Size();
        callees_ += Callee(then_branch, {operand.size}, {result}, depth);
        callees_ += Callee(else_branch, {operand.size}, {result}, depth);
        DecodedValue r{NewName("k"), result, false};
        values.push_back(r);
        return fmt::format("  %{} = compare(%{}) : pred[]\n  %{} = conditional(%{}, %{}) : {} {{branches = [@{}, @{}]}}\n",
                           pred, operand.name, r.name, pred, operand.name, result, then_branch, else_branch);
      }
      case 7: {  // an async copy around one compute op
        const std::string start = NewName("cs");
        DecodedValue r{NewName("cd"), operand.size, false};
        std::string text = fmt::format("  %{} = copy-start(%{}) : {}\n", start, operand.name, operand.size);
        text += Compute(values);
        values.push_back(r);
        return text + fmt::format("  %{} = copy-done(%{}) : {}\n", r.name, start, r.size);
      }
      case 8:
        if (fast_memory_) {  // pinned to fast memory
          DecodedValue r{NewName("s"), Size(), false};
          values.push_back(r);
          return fmt::format("  %{} = mul(%{}) : {} space(1)\n", r.name, operand.name, r.size);
        }
        return Compute(values);
      default:
        return Compute(values);
    }
  }

  std::string Compute(std::vector<DecodedValue>& values) {
    const std::string operands = Operands(values, in_.Below(4));
    DecodedValue r{NewName("x"), Size(), false};
    std::string attributes;
    if (in_.Below(4) == 0) attributes = fmt::format(" {{scratch = {}, flops = {}}}", Size(), in_.Below(1000));
    values.push_back(r);
    return fmt::format("  %{} = add({}) : {}{}\n", r.name, operands, r.size, attributes);
  }

  // An execution region reading `in_size` bytes and producing `out_size`.
  std::string Region(const std::string& name, std::int64_t in_size, std::int64_t out_size) {
    std::vector<DecodedValue> values = {{NewName("rin"), in_size, false}};
    const std::string await = NewName("aw");
    std::string body;
    std::int64_t wave = 0;
    const std::size_t ops = in_.Below(6);
    for (std::size_t n = 0; n < ops; ++n) {
      const DecodedValue operand = values[in_.Below(values.size())];
      switch (in_.Below(3)) {
        case 0: {
          DecodedValue r{NewName("z"), Size(), false};
          body += fmt::format("  %{} = splat() : {} {{wave = {}}}\n", r.name, r.size, wave);
          values.push_back(r);
          break;
        }
        case 1: {  // copy `operand` into a slice of a fresh buffer, in place
          DecodedValue dst{NewName("d"), operand.size + static_cast<std::int64_t>(in_.Below(64)), false};
          body += fmt::format("  %{} = splat() : {} {{wave = {}}}\n", dst.name, dst.size, wave++);
          const std::int64_t offset = static_cast<std::int64_t>(in_.Below(static_cast<std::size_t>(dst.size - operand.size) + 1));
          DecodedValue r{NewName("u"), dst.size, false};
          body += fmt::format("  %{} = update(%{}, %{}[{} for {}]) : {} tied(%{}) {{wave = {}}}\n", r.name,
                              operand.name, dst.name, offset, operand.size, r.size, dst.name, wave);
          values.push_back(r);
          break;
        }
        default: {
          DecodedValue r{NewName("g"), Size(), false};
          body += fmt::format("  %{} = dispatch(%{}) : {} {{wave = {}, scratch = {}}}\n", r.name, operand.name,
                              r.size, wave, Size());
          values.push_back(r);
          break;
        }
      }
      wave += 1;
    }
    const std::string out = NewName("o");
    body += fmt::format("  %{} = dispatch({}) : {} {{wave = {}}}\n", out, Operands(values, 1 + in_.Below(2)), out_size, wave);
    return fmt::format("\nregion @{}(%{}: {}, %{}: timepoint) affinity(\"gpu0\") {{\n{}  return %{}, %{}\n}}\n",
                       name, values[0].name, in_size, await, body, out, await);
  }

  ChoiceBytes& in_;
  bool fast_memory_;
  int next_name_ = 0;
  std::string callees_;
};

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  memplan::fuzz::PreferOneThread();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace memplan;
  ChoiceBytes in(data, size);
  const bool regions = in.Below(4) == 0;
  const bool fast_memory = !regions && in.Flag();
  PlanJobOptions options = fuzz::FuzzPlanOptions();
  static constexpr std::array<Bytes, 4> kAlignments = {1, 8, 64, 3};
  options.pools.alignment = kAlignments[in.Below(kAlignments.size())];
  // kAuto half the time, else one named algorithm.
  options.pools.algorithm = in.Flag() ? PackingAlgorithm::kAuto
                                      : static_cast<PackingAlgorithm>(in.Below(11));
  if (fast_memory) {
    static constexpr std::array<Bytes, 6> kFastBytes = {0, 64, 256, 1024, 4096, 1 << 20};
    MsaJobOptions msa;
    msa.fast_memory_bytes = kFastBytes[in.Below(kFastBytes.size())];
    msa.msa.mode = in.Flag() ? MsaMode::kReference : MsaMode::kDefault;
    msa.msa.max_outstanding_prefetches = static_cast<std::int64_t>(in.Below(4)) - 1;
    msa.msa.max_outstanding_evictions = static_cast<std::int64_t>(in.Below(4)) - 1;
    msa.msa.enforce_prefetch_fifo = in.Flag();
    options.msa = msa;
  }
  ProgramDecoder decoder(in, fast_memory);
  const std::string text = regions ? decoder.RegionProgram() : decoder.FuncProgram();
  const std::string path = fuzz::WriteScratchFile("program.mpir", text);
  if (std::getenv("MEMPLAN_FUZZ_SHOW") != nullptr) std::fprintf(stderr, "%s\n", text.c_str());
  fuzz::PlanAndCheck(path, options, "plan (decoded program)");
  return 0;
}
