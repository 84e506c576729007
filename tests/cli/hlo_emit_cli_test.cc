// `memplan plan --emit-hlo`: every bundled HLO module, planned with 256 KiB
// to 16 MiB of fast memory, is written back as XLA's memory space assignment
// leaves it: every computation the schedule covers rewritten (a clone per
// call site planned apart), the memory spaces of every aliasing edge (while,
// call, conditional) agreeing; planning the written module gives the same
// plan (placements, copies, estimated time; a clone's values by their own
// names), and writing it again gives the same text.
#include <algorithm>
#include <cctype>
#include <cstdint>
#include <filesystem>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "io/hlo/checker.h"
#include "io/hlo/parser.h"
#include "tests/cli/cli_runner.h"
#include "tests/cli/hlo_examples.h"

namespace memplan {
namespace {

using ::testing::HasSubstr;
using testing_cli::FreshDir;
using testing_cli::Memplan;
using testing_cli::Slurp;
using testing_cli::WriteText;

const std::string kEmitHloDir = MEMPLAN_SOURCE_DIR "/examples/hlo";

std::size_t CountLinesWith(const std::string& text, const std::string& needle) {
  std::istringstream in(text);
  std::size_t n = 0;
  for (std::string line; std::getline(in, line);) n += line.find(needle) != std::string::npos;
  return n;
}

// The lines of `text` as written, long attribute lists cut at ", lhs_".
std::vector<std::string> Lines(const std::string& text) {
  std::istringstream in(text);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line.substr(0, line.find(", lhs_")));
  return lines;
}

// Index of the first line containing `needle` (lines.size() when none).
std::size_t LineWith(const std::vector<std::string>& lines, const std::string& needle) {
  return static_cast<std::size_t>(
      std::find_if(lines.begin(), lines.end(),
                   [&](const std::string& l) { return l.find(needle) != std::string::npos; }) -
      lines.begin());
}

// The memory space of each leaf of `shape`, depth first (no S(n): 0).
std::vector<std::int64_t> LeafSpaces(const HloShape& shape) {
  if (!shape.is_tuple) return {shape.memory_space.value_or(0)};
  std::vector<std::int64_t> out;
  for (const HloShape& e : shape.elements) {
    const std::vector<std::int64_t> sub = LeafSpaces(e);
    out.insert(out.end(), sub.begin(), sub.end());
  }
  return out;
}

const HloShape& ParamShape(const HloComputation& c, std::int64_t n) {
  for (const HloInstruction& in : c.instructions) {
    if (in.parameter_number == n) return in.shape;
  }
  ADD_FAILURE() << "computation %" << c.name << " has no parameter " << n;
  return c.instructions[c.root].shape;
}

// XLA's aliasing rule, checked on a written module: a while's operand,
// result, condition and body parameters and body root have the same leaf
// memory spaces; a call's operands its callee's parameters', its result its
// callee's root's; a conditional's branch operand its branch's parameter's,
// its result every branch root's. Returns the first disagreement, or "".
std::string AliasingDisagreement(const HloModule& m) {
  const auto callee = [&](const std::string& name) -> const HloComputation& {
    return m.computations[static_cast<std::size_t>(FindHloComputation(m, name))];
  };
  const auto root = [](const HloComputation& c) -> const HloShape& {
    return c.instructions[c.root].shape;
  };
  for (const HloComputation& c : m.computations) {
    std::map<std::string, const HloShape*> shape_of;
    for (const HloInstruction& in : c.instructions) {
      shape_of[in.name] = &in.shape;
      const HloCallees callees = CalleesOf(in);
      std::vector<std::pair<const HloShape*, const HloShape*>> edges;  // must agree
      if (in.opcode == "while") {
        const HloComputation& cond = callee(callees.control[0]);
        const HloComputation& body = callee(callees.control[1]);
        edges = {{&in.shape, shape_of.at(in.operands[0].name)},
                 {&in.shape, &ParamShape(body, 0)},
                 {&in.shape, &root(body)},
                 {&in.shape, &ParamShape(cond, 0)}};
      } else if (in.opcode == "call") {
        const HloComputation& f = callee(callees.control[0]);
        edges.push_back({&in.shape, &root(f)});
        for (std::size_t j = 0; j < in.operands.size(); ++j) {
          edges.push_back({shape_of.at(in.operands[j].name), &ParamShape(f, static_cast<std::int64_t>(j))});
        }
      } else if (in.opcode == "conditional") {
        for (std::size_t b = 0; b < callees.control.size(); ++b) {
          const HloComputation& branch = callee(callees.control[b]);
          edges.push_back({&in.shape, &root(branch)});
          edges.push_back({shape_of.at(in.operands[b + 1].name), &ParamShape(branch, 0)});
        }
      }
      for (const auto& [a, b] : edges) {
        if (LeafSpaces(*a) != LeafSpaces(*b)) {
          return "%" + in.name + " (" + in.opcode + "): memory spaces disagree across an aliasing edge";
        }
      }
    }
  }
  return "";
}

// `name` without a clone suffix (".clone", ".clone.2").
std::string Unclone(const std::string& name) {
  const std::size_t at = name.rfind(".clone");
  if (at == std::string::npos) return name;
  const std::string rest = name.substr(at + 6);
  const bool numbered = rest.size() > 1 && rest[0] == '.' &&
                        std::all_of(rest.begin() + 1, rest.end(), [](char c) { return std::isdigit(c) != 0; });
  return rest.empty() || numbered ? name.substr(0, at) : name;
}

// For a written module `m` whose call sites planned apart call clones, the
// names its import gives that the import of the module as read gives
// otherwise: the importer names a computation's first call site's values as
// written and a later one's by the call sites leading to it ("call.10/x.2"),
// so a clone's "x.2.clone" was "call.10/x.2".
std::map<std::string, std::string> ReadNamesOfClones(const HloModule& m) {
  std::map<std::string, std::string> names;
  std::map<std::string, int> imported;  // computation as read -> call sites so far
  std::set<std::string> written;        // computations as written, imported once
  const auto visit = [&](const auto& self, std::size_t c, const std::string& written_site,
                         const std::string& read_site) -> void {
    const HloComputation& hc = m.computations[c];
    const std::string written_path = written.insert(hc.name).second ? "" : written_site;
    const std::string read_path = imported[Unclone(hc.name)]++ == 0 ? "" : read_site;
    const auto qualified = [](const std::string& path, const std::string& name) {
      return path.empty() ? name : path + "/" + name;
    };
    if (qualified(written_path, hc.name) != qualified(read_path, Unclone(hc.name))) {
      names[qualified(written_path, hc.name)] = qualified(read_path, Unclone(hc.name));
    }
    for (const HloInstruction& in : hc.instructions) {
      const std::string as_written = qualified(written_path, in.name);
      const std::string as_read = qualified(read_path, Unclone(in.name));
      if (as_written != as_read) names[as_written] = as_read;
      for (const std::string& callee : CalleesOf(in).control) {
        self(self, static_cast<std::size_t>(FindHloComputation(m, callee)), as_written, as_read);
      }
    }
  };
  visit(visit, m.entry, "", "");
  return names;
}

// `plan` with every name (a run of name characters and '/') renamed as
// `names` says.
nlohmann::json Renamed(const nlohmann::json& plan, const std::map<std::string, std::string>& names) {
  if (plan.is_object() || plan.is_array()) {
    nlohmann::json out = plan;
    for (auto& item : out) item = Renamed(item, names);
    return out;
  }
  if (!plan.is_string()) return plan;
  const std::string text = plan.get<std::string>();
  std::string out;
  for (std::size_t i = 0; i < text.size();) {
    std::size_t end = i;
    while (end < text.size() && (std::isalnum(static_cast<unsigned char>(text[end])) != 0 ||
                                 std::string_view("_.-/").find(text[end]) != std::string_view::npos)) {
      ++end;
    }
    if (end == i) {
      out += text[i++];
      continue;
    }
    const std::string word = text.substr(i, end - i);
    const auto it = names.find(word);
    out += it == names.end() ? word : it->second;
    i = end;
  }
  return out;
}

using EmitPoint = std::tuple<std::string, std::string>;  // module, fast memory

class HloEmitRoundTripTest : public ::testing::TestWithParam<EmitPoint> {};

TEST_P(HloEmitRoundTripTest, ReplansToTheSamePlan) {
  const auto& [module, fast] = GetParam();
  const std::string dir = FreshDir();
  const std::string emitted = dir + "/emitted.hlo";
  const testing_cli::CliRun first = Memplan("plan " + kEmitHloDir + "/" + module + " --fast-memory " +
                                            fast + " --json " + dir + "/a.json --emit-hlo " + emitted);
  ASSERT_EQ(first.exit_code, 0) << first.err;
  const testing_cli::CliRun second = Memplan("plan " + emitted + " --fast-memory " + fast + " --json " +
                                             dir + "/b.json --emit-hlo " + dir + "/again.hlo");
  ASSERT_EQ(second.exit_code, 0) << second.err;
  const std::string text = Slurp(emitted);
  absl::StatusOr<HloModule> parsed = ParseHloModule(text, emitted);
  ASSERT_TRUE(parsed.ok()) << parsed.status();
  // Call sites planned apart call clones, whose values keep their own names.
  nlohmann::json a = nlohmann::json::parse(Slurp(dir + "/a.json"));
  nlohmann::json b = Renamed(nlohmann::json::parse(Slurp(dir + "/b.json")), ReadNamesOfClones(*parsed));
  EXPECT_EQ(a.at("buffers"), b.at("buffers"));          // placements, spaces, offsets
  EXPECT_EQ(a.at("async_copies"), b.at("async_copies"));  // prefetches and evictions
  EXPECT_EQ(a.at("msa").at("estimated_time_s"), b.at("msa").at("estimated_time_s"));
  a.erase("input");
  b.erase("input");
  EXPECT_EQ(a, b);
  // One copy-start and one copy-done per copy; the text is a fixed point.
  const std::size_t copies =
      a.at("msa").at("prefetches").get<std::size_t>() + a.at("msa").at("evictions").get<std::size_t>();
  EXPECT_EQ(CountLinesWith(text, " copy-start("), copies);
  EXPECT_EQ(CountLinesWith(text, " copy-done("), copies);
  EXPECT_EQ(Slurp(dir + "/again.hlo"), text);
  EXPECT_EQ(AliasingDisagreement(*parsed), "");
  std::filesystem::remove_all(dir);
}

INSTANTIATE_TEST_SUITE_P(
    Bundled, HloEmitRoundTripTest,
    ::testing::Combine(testing_cli::BundledHloModules(),
                       ::testing::Values("256KiB", "1MiB", "4MiB", "16MiB")),
    [](const ::testing::TestParamInfo<EmitPoint>& info) {
      return testing_cli::HloModuleTestName({std::get<0>(info.param), info.index}) + "_" +
             std::get<1>(info.param);
    });

// examples/hlo/mlp.hlo with 1 MiB: w2 (%Arg_3.4, 1 MiB) is prefetched while
// the first layer runs and read by %dot.9 from alternate memory.
TEST(HloEmitCliTest, MlpPrefetchIsWrittenAtItsSchedulePosition) {
  const std::string dir = FreshDir();
  const testing_cli::CliRun run = Memplan("plan " + kEmitHloDir + "/mlp.hlo --fast-memory 1MiB --json " +
                                          dir + "/plan.json --emit-hlo " + dir + "/out.hlo");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const nlohmann::json msa = nlohmann::json::parse(Slurp(dir + "/plan.json")).at("msa");
  EXPECT_EQ(msa.at("prefetches"), 1);
  EXPECT_EQ(msa.at("evictions"), 0);
  EXPECT_EQ(msa.at("prefetch_bytes"), 1048576);
  std::istringstream in(Slurp(dir + "/out.hlo"));
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line.substr(0, line.find(", lhs_")));
  ASSERT_EQ(lines.size(), 46u);
  EXPECT_THAT(lines[0], HasSubstr("HloModule jit_mlp_forward, is_scheduled=true"));
  EXPECT_EQ(lines[37],
            "  %Arg_3.4.prefetch = (f32[512,512]{1,0:S(1)}, f32[512,512]{1,0}, u32[]) "
            "copy-start(f32[512,512]{1,0} %Arg_3.4)");
  EXPECT_THAT(lines[38], HasSubstr("%dot.8 = f32[32,512]{1,0} dot("));
  EXPECT_THAT(lines[39], HasSubstr("%fusion = f32[32,512]{1,0} fusion("));
  EXPECT_EQ(lines[40],
            "  %Arg_3.4.prefetched = f32[512,512]{1,0:S(1)} copy-done((f32[512,512]{1,0:S(1)}, "
            "f32[512,512]{1,0}, u32[]) %Arg_3.4.prefetch)");
  EXPECT_EQ(lines[41],
            "  %dot.9 = f32[32,512]{1,0} dot(f32[32,512]{1,0} %fusion, f32[512,512]{1,0:S(1)} "
            "%Arg_3.4.prefetched)");
  EXPECT_THAT(lines[44], HasSubstr("ROOT %fusion.2 = f32[32,10]{1,0} fusion("));
  std::filesystem::remove_all(dir);
}

// examples/hlo/call_remat.hlo calls %checkpoint_block from %call.9 and
// %call.10. With 4 MiB the second call site's result stays in alternate
// memory for %tanh.11 and the first's does not, so %call.10 calls a clone
// named as XLA's flattening names it (its fusion a clone of %fused_relu),
// written after the original; %call.9 calls the original. With 256 KiB both
// call sites are planned alike and the module is written as read.
TEST(HloEmitCliTest, CallSitesPlannedApartCallTheirOwnClones) {
  const std::string dir = FreshDir();
  const testing_cli::CliRun run = Memplan("plan " + kEmitHloDir + "/call_remat.hlo --fast-memory 4MiB "
                                          "--emit-hlo " + dir + "/out.hlo");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const std::vector<std::string> lines = Lines(Slurp(dir + "/out.hlo"));
  const std::size_t original = LineWith(lines, "%checkpoint_block (");
  const std::size_t fused = LineWith(lines, "%fused_relu.clone (");
  const std::size_t clone = LineWith(lines, "%checkpoint_block.clone (");
  const std::size_t entry = LineWith(lines, "ENTRY %main.12 ");
  ASSERT_LT(entry, lines.size());
  EXPECT_LT(original, fused);
  EXPECT_LT(fused, clone);
  EXPECT_LT(clone, entry);
  EXPECT_EQ(lines[fused], "%fused_relu.clone (param_0.1.clone: f32[128,4096]) -> f32[128,4096] {");
  EXPECT_EQ(lines[fused + 4],
            "  ROOT %maximum.1.clone = f32[128,4096]{1,0} maximum(f32[128,4096]{1,0} %param_0.1.clone, "
            "f32[128,4096]{1,0} %broadcast.1.clone)");
  EXPECT_EQ(lines[clone],
            "%checkpoint_block.clone (x.2.clone: f32[128,1024], w_in.3.clone: f32[1024,4096], "
            "w_out.4.clone: f32[4096,1024]) -> f32[128,1024] {");
  EXPECT_EQ(lines[clone + 5],
            "  %fusion.6.clone = f32[128,4096]{1,0:S(1)} fusion(f32[128,4096]{1,0:S(1)} %dot.5.clone), "
            "kind=kLoop, calls=%fused_relu.clone");
  EXPECT_EQ(lines[clone + 7],
            "  ROOT %add.8.clone = f32[128,1024]{1,0:S(1)} add(f32[128,1024]{1,0} %x.2.clone, "
            "f32[128,1024]{1,0:S(1)} %dot.7.clone)");
  EXPECT_EQ(lines[original + 7],
            "  ROOT %add.8 = f32[128,1024]{1,0} add(f32[128,1024]{1,0} %x.2, f32[128,1024]{1,0:S(1)} %dot.7)");
  EXPECT_THAT(lines[LineWith(lines, "%call.9 = ")], ::testing::EndsWith("to_apply=%checkpoint_block"));
  EXPECT_THAT(lines[LineWith(lines, "%call.10 = ")],
              ::testing::StartsWith("  %call.10 = f32[128,1024]{1,0:S(1)} call("));
  EXPECT_THAT(lines[LineWith(lines, "%call.10 = ")], ::testing::EndsWith("to_apply=%checkpoint_block.clone"));
  const testing_cli::CliRun alike = Memplan("plan " + kEmitHloDir + "/call_remat.hlo --fast-memory 256KiB "
                                            "--emit-hlo " + dir + "/alike.hlo");
  ASSERT_EQ(alike.exit_code, 0) << alike.err;
  EXPECT_EQ(Slurp(dir + "/alike.hlo"), Slurp(kEmitHloDir + "/call_remat.hlo"));
  std::filesystem::remove_all(dir);
}

// examples/hlo/decoder_while.hlo with 1 MiB: the loop body is rewritten as
// XLA's pass leaves it. wo (element 5, %get-tuple-element.15) is prefetched
// inside the body while the attention runs and read by %dot.26 from
// alternate memory; wqkv (element 4) lives in alternate memory through the
// loop, so the while's operand, result, body and condition parameters and
// body root all carry S(1) on element 4 and only there.
TEST(HloEmitCliTest, DecoderLoopBodyCopiesAndCarriedSpaces) {
  const std::string dir = FreshDir();
  const testing_cli::CliRun run = Memplan("plan " + kEmitHloDir + "/decoder_while.hlo --fast-memory 1MiB "
                                          "--emit-hlo " + dir + "/out.hlo");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const std::vector<std::string> lines = Lines(Slurp(dir + "/out.hlo"));
  const std::string carried =
      "(s32[], f32[1,256]{1,0}, f32[128,256]{1,0}, f32[128,256]{1,0}, f32[256,768]{1,0:S(1)}, "
      "/*index=5*/f32[256,256]{1,0})";
  EXPECT_EQ(lines[LineWith(lines, "%carry.1 = ")], "  %carry.1 = " + carried + " parameter(0)");
  EXPECT_EQ(lines[LineWith(lines, "%carry.31 = ")], "  %carry.31 = " + carried + " parameter(0)");
  EXPECT_EQ(lines[LineWith(lines, "%get-tuple-element.14 = ")],
            "  %get-tuple-element.14 = f32[256,768]{1,0:S(1)} get-tuple-element(%carry.1), index=4");
  // The body's copy, at its schedule position: started after the v-cache
  // update, done right before its reader.
  const std::size_t start = LineWith(lines, "%get-tuple-element.15.prefetch = ");
  ASSERT_LT(start, lines.size());
  EXPECT_THAT(lines[start - 1], HasSubstr("%dynamic-update-slice.22 = "));
  EXPECT_EQ(lines[start],
            "  %get-tuple-element.15.prefetch = (f32[256,256]{1,0:S(1)}, f32[256,256]{1,0}, u32[]) "
            "copy-start(f32[256,256]{1,0} %get-tuple-element.15)");
  const std::size_t done = LineWith(lines, "%get-tuple-element.15.prefetched = ");
  ASSERT_LT(done, lines.size());
  EXPECT_EQ(lines[done],
            "  %get-tuple-element.15.prefetched = f32[256,256]{1,0:S(1)} copy-done((f32[256,256]{1,0:S(1)}, "
            "f32[256,256]{1,0}, u32[]) %get-tuple-element.15.prefetch)");
  EXPECT_EQ(lines[done + 1],
            "  %dot.26 = f32[1,256]{1,0} dot(f32[1,256]{1,0} %dot.25, f32[256,256]{1,0:S(1)} "
            "%get-tuple-element.15.prefetched)");
  EXPECT_LT(LineWith(lines, "%body.decode_step ("), start);
  EXPECT_LT(done, LineWith(lines, "%cond.decode_step ("));
  // The body root returns element 5 where the loop carries it (default
  // memory), not the prefetched copy.
  const std::string& root = lines[LineWith(lines, "ROOT %tuple.30 = ")];
  EXPECT_THAT(root, HasSubstr("ROOT %tuple.30 = " + carried + " tuple("));
  EXPECT_THAT(root, HasSubstr("f32[256,768]{1,0:S(1)} %get-tuple-element.14, "
                              "/*index=5*/f32[256,256]{1,0} %get-tuple-element.15)"));
  // The loop's operand takes the counter from its eviction's copy-done (the
  // loop carries it in default memory), wqkv from its prefetch's.
  const std::string& operand = lines[LineWith(lines, "%tuple.38 = ")];
  EXPECT_THAT(operand, HasSubstr("%tuple.38 = " + carried + " tuple(s32[] %copy.36.evicted, "));
  EXPECT_THAT(operand, HasSubstr("f32[256,768]{1,0:S(1)} %Arg_1.2.prefetched, "));
  EXPECT_THAT(lines[LineWith(lines, "%while.39 = ")], HasSubstr("%while.39 = " + carried + " while(" +
                                                                carried + " %tuple.38)"));
  EXPECT_EQ(lines[LineWith(lines, "%copy.36.evicted = ")],
            "  %copy.36.evicted = s32[] copy-done((s32[], s32[]{:S(1)}, u32[]) %copy.36.evict)");
  std::filesystem::remove_all(dir);
}

// examples/hlo/conditional_branches.hlo with 4 MiB: w is prefetched before
// the conditional and every branch reads it from alternate memory: each
// branch operand tuple holds the prefetched copy and each branch parameter
// has S(1) on element 1.
TEST(HloEmitCliTest, ConditionalBranchParametersTakeTheirOperandsSpaces) {
  const std::string dir = FreshDir();
  const testing_cli::CliRun run = Memplan("plan " + kEmitHloDir + "/conditional_branches.hlo "
                                          "--fast-memory 4MiB --emit-hlo " + dir + "/out.hlo");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const std::string text = Slurp(dir + "/out.hlo");
  for (const std::string param : {"branch_arg.4", "branch_arg.9", "branch_arg.14"}) {
    EXPECT_THAT(text, HasSubstr("  %" + param + " = (f32[64,1024]{1,0}, f32[1024,1024]{1,0:S(1)}) parameter(0)\n"));
  }
  for (const std::string tuple : {"tuple.19", "tuple.21", "tuple.22"}) {
    EXPECT_THAT(text, HasSubstr("  %" + tuple + " = (f32[64,1024]{1,0}, f32[1024,1024]{1,0:S(1)}) tuple("
                                "f32[64,1024]{1,0} %Arg_1.2, f32[1024,1024]{1,0:S(1)} %Arg_2.3.prefetched)\n"));
  }
  EXPECT_THAT(text, HasSubstr("  %gte.11 = f32[1024,1024]{1,0:S(1)} get-tuple-element(%branch_arg.9), index=1\n"));
  std::filesystem::remove_all(dir);
}

// An output evicted at the end becomes the ROOT: its copy-done, in default memory.
TEST(HloEmitCliTest, EvictedOutputIsReturnedFromItsCopyDone) {
  const std::string dir = FreshDir();
  const testing_cli::CliRun run = Memplan("plan " + kEmitHloDir + "/transformer_block.hlo "
                                          "--fast-memory 1MiB --emit-hlo " + dir + "/out.hlo");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const std::string text = Slurp(dir + "/out.hlo");
  EXPECT_THAT(text, HasSubstr("%add.26.evict = (bf16[4,128,512]{2,1,0}, "
                              "bf16[4,128,512]{2,1,0:S(1)}, u32[]) copy-start("));
  EXPECT_THAT(text, HasSubstr("%add.26.evicted.prefetch = (bf16[4,128,512]{2,1,0:S(1)}, "
                              "bf16[4,128,512]{2,1,0}, u32[]) copy-start("));
  EXPECT_EQ(CountLinesWith(text, "ROOT "), 7u);  // one per computation, as read
  std::filesystem::remove_all(dir);
}

TEST(HloEmitCliTest, RefusedForOtherInputsWithExitTwo) {
  const std::string dir = FreshDir();
  const testing_cli::CliRun onnx = Memplan("plan " MEMPLAN_SOURCE_DIR "/examples/mobilenet_v2.onnx "
                                           "--fast-memory 1MiB --emit-hlo " + dir + "/out.hlo");
  EXPECT_EQ(onnx.exit_code, 2);
  EXPECT_THAT(onnx.err, HasSubstr("mobilenet_v2.onnx: error: --emit-hlo writes an HLO module back "
                                  "with its plan; this input is an ONNX model, not an HLO module"));
  const testing_cli::CliRun ir = Memplan("plan " + testing_cli::kMlp +
                                         " --fast-memory 1MiB --emit-hlo " + dir + "/out.hlo");
  EXPECT_EQ(ir.exit_code, 2);
  EXPECT_THAT(ir.err, HasSubstr("not an HLO module"));
  const testing_cli::CliRun no_fast = Memplan("plan " + kEmitHloDir + "/mlp.hlo --emit-hlo " + dir + "/out.hlo");
  EXPECT_EQ(no_fast.exit_code, 2);
  EXPECT_THAT(no_fast.err, HasSubstr("memplan: error: --emit-hlo writes the module rewritten by "
                                     "memory space assignment (it needs --fast-memory or --target)"));
  EXPECT_FALSE(std::filesystem::exists(dir + "/out.hlo"));
  std::filesystem::remove_all(dir);
}

// A module whose two instructions share a line cannot be rewritten line by
// line: refused with the instruction's name, nothing written.
TEST(HloEmitCliTest, InstructionsSharingALineAreRefused) {
  const std::string dir = FreshDir();
  WriteText(dir + "/m.hlo",
            "HloModule m, is_scheduled=true\nENTRY %main (a: f32[4]) -> f32[4] {\n"
            "  %a = f32[4]{0} parameter(0) %b = f32[4]{0} exponential(%a)\n"
            "  ROOT %c = f32[4]{0} add(%b, %a)\n}\n");
  const testing_cli::CliRun run = Memplan("plan " + dir + "/m.hlo --fast-memory 1MiB --emit-hlo " +
                                          dir + "/out.hlo");
  EXPECT_EQ(run.exit_code, 1);
  EXPECT_THAT(run.err, HasSubstr("m.hlo: error: --emit-hlo: instruction %b shares its line with "
                                 "another; write one instruction per line"));
  EXPECT_FALSE(std::filesystem::exists(dir + "/out.hlo"));
  std::filesystem::remove_all(dir);
}

// A ROOT instruction over two lines (fuzz/corpus/hlo/regress-multiline-root.hlo):
// it is written once, and the written module plans again.
TEST(HloEmitCliTest, AnInstructionOverTwoLinesIsWrittenOnce) {
  const std::string dir = FreshDir();
  const std::string input = MEMPLAN_SOURCE_DIR "/fuzz/corpus/hlo/regress-multiline-root.hlo";
  const testing_cli::CliRun run =
      Memplan("plan " + input + " --fast-memory 1MiB --quiet --emit-hlo " + dir + "/out.hlo");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const std::string text = Slurp(dir + "/out.hlo");
  EXPECT_EQ(CountLinesWith(text, "ROOT %tuple.44"), 1u);
  EXPECT_EQ(CountLinesWith(text, "256]{1,0}, f32[128,256]{1,0}, f32[128,256]{1,0}) tuple("), 1u);
  const testing_cli::CliRun again = Memplan("plan " + dir + "/out.hlo --fast-memory 1MiB --quiet");
  EXPECT_EQ(again.exit_code, 0) << again.err;
  std::filesystem::remove_all(dir);
}

// A hierarchy target's plans are not written back (the error named
// --emit-ir alone, though --emit-hlo was given); nothing is written.
TEST(HloEmitCliTest, HierarchyTargetIsRefusedNamingBothFlags) {
  const std::string out = FreshDir() + "/out.hlo";
  const testing_cli::CliRun run =
      Memplan("plan " + kEmitHloDir + "/decoder_while.hlo --target npu-3level --emit-hlo " + out);
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_EQ(run.err,
            "memplan: error: --emit-ir and --emit-hlo are not supported yet with a "
            "memory-hierarchy target (spaces[] in the target)\n");
  EXPECT_FALSE(std::filesystem::exists(out));
}

}  // namespace
}  // namespace memplan
