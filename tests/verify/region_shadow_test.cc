// The region verifier (verify/region_checks.h), rule 5: shadow execution on
// tagged memory, with its data sources and interval map.
#include <string>
#include <utility>
#include <vector>

#include "gtest/gtest.h"
#include "ir/program_builder.h"
#include "region_fixture.h"
#include "verify/data_sources.h"
#include "verify/interval_map.h"

namespace memplan {
namespace {

using namespace region_test;

// Rule 5.

TEST(RegionChecks, Clobber) {
  // %t1 shares bytes with %zeros, which the update still reads after %t1 is
  // written.
  Fixture f(Layout{.zeros = 0, .t0 = 8192, .t1 = 0});
  EXPECT_EQ(Message(f.Verify()),
            "region rule 5 (shadow execution): clobber: copy %acc (op update#4) reads %zeros at "
            "@stage.slab [0, 4096) but bytes [0, 4096) hold %t1 (written by dispatch %t1)");
}

TEST(RegionChecks, FailureSiteNamesTheClobberingReader) {
  Fixture f(Layout{.zeros = 0, .t0 = 8192, .t1 = 0});
  RegionFailureSite site{9, 9, false};
  EXPECT_FALSE(VerifyRegionPlan(f.program, f.buffers, f.plan, &site).ok());
  EXPECT_TRUE(site.has_command);
  EXPECT_EQ(site.step, Fixture::kExecuteStep);
  EXPECT_EQ(site.command, 3u);  // the update's copy
}

TEST(RegionChecks, FailureSiteIsEmptyForAViolationOfNoCommand) {
  Fixture f;
  AddOtherSlab(f, 7, 7, {});
  RegionFailureSite site{9, 9, true};
  EXPECT_FALSE(VerifyRegionPlan(f.program, f.buffers, f.plan, &site).ok());
  EXPECT_FALSE(site.has_command);
  EXPECT_EQ(site.step, 0u);
  EXPECT_EQ(site.command, 0u);
}

TEST(RegionChecks, UnorderedReadOfAResult) {
  // The output awaits the results alloca but not the execute writing %o.
  Fixture f;
  f.rp().steps[6].awaits = {"a1"};
  RegionFailureSite site;
  EXPECT_EQ(Message(VerifyRegionPlan(f.program, f.buffers, f.plan, &site)),
            "region rule 5 (shadow execution): unordered read: output reads %out at "
            "@stage.results [0, 4096), written by dispatch %o in step 3, which step 6 does not "
            "wait for");
  EXPECT_TRUE(site.has_command);
  EXPECT_EQ(site.step, 6u);
  EXPECT_EQ(site.command, 0u);
}

TEST(RegionChecks, UnorderedWriteOverBytesAnotherStepReads) {
  // A host store into the external input before anything awaits the
  // execute that reads it.
  Fixture f;
  HostStep store = MakeStep(HostStepKind::kHost, "", {});
  store.commands = {MakeCommand(CommandKind::kStore, kNoId, 6,
                                {MakeRange(kExternal, 0, 4096, Access::kWrite, f.id.input)})};
  f.rp().steps.insert(f.rp().steps.begin() + 4, store);
  RegionFailureSite site;
  EXPECT_EQ(Message(VerifyRegionPlan(f.program, f.buffers, f.plan, &site)),
            "region rule 5 (shadow execution): unordered write: store writes %input at external "
            "[0, 4096), read by dispatch %t0 in step 3, which step 4 does not wait for");
  EXPECT_TRUE(site.has_command);
  EXPECT_EQ(site.step, 4u);
  EXPECT_EQ(site.command, 0u);
}

TEST(RegionChecks, WriteAfterTheReadersPasses) {
  Fixture f;
  HostStep store = MakeStep(HostStepKind::kHost, "", {"e0"});
  store.commands = {MakeCommand(CommandKind::kStore, kNoId, 6,
                                {MakeRange(kExternal, 0, 4096, Access::kWrite, f.id.input)})};
  f.rp().steps.insert(f.rp().steps.begin() + 4, store);
  EXPECT_TRUE(f.Verify().ok()) << f.Verify();
}

TEST(RegionChecks, UnorderedWriteOverAnotherStepsData) {
  // A host store into the results, awaiting their alloca but not the
  // execute that writes them.
  Fixture f;
  HostStep store = MakeStep(HostStepKind::kHost, "", {"a1"});
  store.commands = {MakeCommand(CommandKind::kStore, kNoId, 7,
                                {MakeRange(kResults, 0, 4096, Access::kWrite, f.id.out)})};
  f.rp().steps.insert(f.rp().steps.begin() + 4, store);
  EXPECT_EQ(Message(f.Verify()),
            "region rule 5 (shadow execution): unordered write: store writes %out at "
            "@stage.results [0, 4096) over %o, written by dispatch %o in step 3, which step 4 "
            "does not wait for");
}

TEST(RegionChecks, ReadOfNeverWrittenBytes) {
  Fixture f;
  f.commands().erase(f.commands().begin());  // no fill
  EXPECT_EQ(Message(f.Verify()),
            "region rule 5 (shadow execution): uninitialized read: dispatch %t1 (op dispatch#3) "
            "reads %zeros at @stage.slab [0, 8192) but bytes [0, 8192) were never written");
}

TEST(RegionChecks, RaceInsideAWave) {
  Fixture f;
  f.commands()[2].concurrent = 0;  // %t1 joins the wave that writes %t0
  EXPECT_EQ(Message(f.Verify()),
            "region rule 5 (shadow execution): race in wave 0 of step 3 (execute @stage): "
            "dispatch %t0 (op dispatch#2) writes %t0 at @stage.slab [8192, 16384) while "
            "dispatch %t1 (op dispatch#3) reads %t0 at @stage.slab [8192, 16384): both touch "
            "bytes [8192, 16384)");
}

TEST(RegionChecks, RaceWithAnEarlierWriterOfTheWave) {
  // The reader comes after the writer in the list: still a race.
  Fixture f;
  std::swap(f.commands()[0], f.commands()[1]);
  f.commands()[1].ranges.push_back(MakeRange(kSlab, 8192, 64, Access::kRead, f.id.t0));
  EXPECT_EQ(Message(f.Verify()),
            "region rule 5 (shadow execution): race in wave 0 of step 3 (execute @stage): "
            "dispatch %t0 (op dispatch#2) writes %t0 at @stage.slab [8192, 16384) while fill "
            "%zeros (op fill#1) reads %t0 at @stage.slab [8192, 8256): both touch bytes "
            "[8192, 8256)");
}

TEST(RegionChecks, ScratchRangesTakePartInRaces) {
  // A scratch buffer at %zeros's bytes (rule 2 does not check overlaps; the
  // plan verifier does): the fill of the same wave writes them.
  Fixture f;
  AddScratch(f, 0, 1024, 1, 1);
  f.commands()[1].ranges.push_back(MakeRange(kSlab, 0, 1024, Access::kReadWrite, kNoId));
  EXPECT_EQ(Message(f.Verify()),
            "region rule 5 (shadow execution): race in wave 0 of step 3 (execute @stage): fill "
            "%zeros (op fill#1) writes %zeros at @stage.slab [0, 8192) while dispatch %t0 (op "
            "dispatch#2) reads and writes scratch at @stage.slab [0, 1024): both touch bytes "
            "[0, 1024)");
}

TEST(RegionChecks, NonAdjacentRepeatOfAWaveIsANewBlock) {
  // The update (wave 0 again, after %t1) reads %zeros, which the first wave 0
  // block writes: no race, as the blocks are apart.
  Fixture f;
  f.commands()[3].concurrent = 0;
  EXPECT_TRUE(f.Verify().ok()) << f.Verify();
}

TEST(RegionChecks, ACommandReadsTheMemoryBeforeItsWrites) {
  // The read-write range of %acc2 split into a write listed first and a read
  // of %acc: the read still sees %acc's bytes (and %t1's), not %acc2's.
  Fixture f;
  std::vector<CommandRange>& ranges = f.commands()[4].ranges;
  ranges[1] = MakeRange(kSlab, 16384, 8192, Access::kWrite, f.id.acc2);
  ranges.push_back(MakeRange(kSlab, 16384, 8192, Access::kRead, f.id.acc));
  EXPECT_TRUE(f.Verify().ok()) << f.Verify();
}

// Data sources, directly.

TEST(DataSources, CallWhileConditionalAndAsync) {
  ProgramBuilder b;
  const ComputationId main = b.AddComputation("main");
  const ComputationId f = b.AddComputation("f");
  const ComputationId cond = b.AddComputation("cond");
  const ComputationId body = b.AddComputation("body");
  const ComputationId then_b = b.AddComputation("then");
  const ComputationId else_b = b.AddComputation("else");
  b.SetEntry(main);
  const ValueId x = b.AddParam(main, "x", 8);
  const ValueId p = b.AddParam(main, "p", 1);
  // call
  const OpId call = b.AddOp(main, "call", {x});
  b.op(call).callees = {f};
  const ValueId fx = b.AddParam(f, "fx", 8);
  const OpId fop = b.AddOp(f, "neg", {fx});
  const ValueId fy = b.AddResult(fop, "fy", 8);
  b.SetReturn(f, {fy});
  const ValueId y = b.AddResult(call, "y", 8);
  // while
  const OpId loop = b.AddOp(main, "while", {y});
  b.op(loop).callees = {cond, body};
  const ValueId cx = b.AddParam(cond, "cx", 8);
  const OpId cop = b.AddOp(cond, "less", {cx});
  b.SetReturn(cond, {b.AddResult(cop, "c", 1)});
  const ValueId bx = b.AddParam(body, "bx", 8);
  const OpId bop = b.AddOp(body, "inc", {bx});
  const ValueId by = b.AddResult(bop, "by", 8);
  b.SetReturn(body, {by});
  const ValueId w = b.AddResult(loop, "w", 8);
  // conditional
  const OpId cnd = b.AddOp(main, "conditional", {p, w});
  b.op(cnd).callees = {then_b, else_b};
  const ValueId tx = b.AddParam(then_b, "tx", 8);
  b.SetReturn(then_b, {tx});
  const ValueId ex = b.AddParam(else_b, "ex", 8);
  const OpId eop = b.AddOp(else_b, "neg", {ex});
  const ValueId ey = b.AddResult(eop, "ey", 8);
  b.SetReturn(else_b, {ey});
  const ValueId r = b.AddResult(cnd, "r", 8);
  // async pair
  const OpId start = b.AddOp(main, "copy-start", {r});
  const ValueId s = b.AddResult(start, "s", 8);
  const OpId done = b.AddOp(main, "copy-done", {s});
  const ValueId d = b.AddResult(done, "d", 8);
  const Program program = std::move(b).Finish();

  region_verify::DataSources sources(program);
  EXPECT_TRUE(sources.IsSource(d, d));
  EXPECT_TRUE(sources.IsSource(s, d));   // X-done result <- X-start result
  EXPECT_FALSE(sources.IsSource(r, d));  // the copy-start writes s itself
  EXPECT_TRUE(sources.IsSource(ey, r));  // any branch's result
  EXPECT_TRUE(sources.IsSource(tx, r));
  EXPECT_TRUE(sources.IsSource(w, tx));  // branch param <- arg (not the predicate)
  EXPECT_FALSE(sources.IsSource(p, tx));
  EXPECT_TRUE(sources.IsSource(by, w));   // while result <- body result
  EXPECT_TRUE(sources.IsSource(by, bx));  // later iterations
  EXPECT_TRUE(sources.IsSource(by, cx));
  EXPECT_TRUE(sources.IsSource(y, cx));  // first iteration
  EXPECT_TRUE(sources.IsSource(fy, y));  // call result <- callee result
  EXPECT_TRUE(sources.IsSource(x, fx));  // callee param <- call operand
  EXPECT_FALSE(sources.IsSource(x, y));  // f computes fy, it does not pass fx through
  EXPECT_FALSE(sources.IsSource(y, x));  // parents only point backwards in data flow
  EXPECT_FALSE(sources.IsSource(by, y));
}

// The interval map behind the tagged memory.

TEST(IntervalMap, SplitsAndMerges) {
  region_verify::IntervalMap<int> map;
  map.Assign(0, 100, 1);
  map.Assign(40, 60, 2);
  map.Assign(60, 80, 2);  // merges with [40, 60)
  map.Assign(200, 300, 1);
  std::vector<std::string> pieces;
  map.Visit(10, 250, [&](const region_verify::IntervalMap<int>::Piece& p) {
    pieces.push_back(std::to_string(p.begin) + "-" + std::to_string(p.end) + ":" +
                     (p.tag ? std::to_string(*p.tag) : "none"));
    return true;
  });
  EXPECT_EQ(pieces, (std::vector<std::string>{"10-40:1", "40-80:2", "80-100:1", "100-200:none",
                                              "200-250:1"}));
  map.Assign(30, 90, 1);  // everything from 0 to 100 is 1 again: one piece
  pieces.clear();
  map.Visit(0, 100, [&](const region_verify::IntervalMap<int>::Piece& p) {
    pieces.push_back(std::to_string(p.begin) + "-" + std::to_string(p.end));
    return true;
  });
  EXPECT_EQ(pieces, (std::vector<std::string>{"0-100"}));
}

TEST(IntervalMap, LargeRangesCostNoMemoryPerByte) {
  region_verify::IntervalMap<int> map;
  const Bytes gib = Bytes{1} << 30;
  for (int i = 0; i < 64; ++i) map.Assign(i * gib, (i + 1) * gib, i % 2);
  int pieces = 0;
  map.Visit(0, 64 * gib, [&](const region_verify::IntervalMap<int>::Piece&) {
    ++pieces;
    return true;
  });
  EXPECT_EQ(pieces, 64);
}

}  // namespace
}  // namespace memplan
