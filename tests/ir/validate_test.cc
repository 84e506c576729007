// ValidateProgram on programs built in code (no source locations).
#include "ir/validate.h"

#include <cmath>
#include <limits>
#include <string>

#include "gtest/gtest.h"
#include "ir/program_builder.h"

namespace memplan {
namespace {

std::string Check(const Program& p) {
  const absl::Status s = ValidateProgram(p, "built");
  if (s.ok()) return "OK";
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  return std::string(s.message());
}

// main(%x: 16) { %y = exp(%x) : 16; %z = relu(%y) : 16 tied(%y); return %z }
struct Chain {
  ProgramBuilder b{"chain"};
  ComputationId main = b.AddComputation("main");
  ValueId x = b.AddParam(main, "x", 16, TensorType{"f32", {4}});
  OpId exp = b.AddOp(main, "exp", {x});
  ValueId y = b.AddResult(exp, "y", 16, TensorType{"f32", {4}});
  OpId relu = b.AddOp(main, "relu", {y});
  ValueId z = b.AddResult(relu, "z", 16);
  Chain() {
    b.SetEntry(main);
    b.SetReturn(main, {z});
    b.value(z).alias = AliasKind::kTied;
    b.value(z).alias_of = y;
  }
};

TEST(ValidateTest, ValidBuiltProgram) {
  Chain c;
  EXPECT_EQ(Check(c.b.program()), "OK");
}

TEST(ValidateTest, NoEntry) {
  EXPECT_EQ(Check(ProgramBuilder("empty").program()),
            "built: error: no entry computation; mark one computation 'entry'");
  Chain c;
  c.b.SetEntry(kNoId);
  EXPECT_EQ(Check(c.b.program()), "built: error: no entry computation; mark one computation 'entry'");
  c.b.SetEntry(7);
  EXPECT_EQ(Check(c.b.program()), "built: error: entry computation id 7 is out of range");
}

TEST(ValidateTest, IdsOutOfRange) {
  {
    Chain c;
    c.b.op(c.relu).operands = {42};
    EXPECT_EQ(Check(c.b.program()), "built: error: op #1: operand id 42 is out of range");
  }
  {
    Chain c;
    c.b.op(c.relu).callees = {3};
    EXPECT_EQ(Check(c.b.program()), "built: error: op #1: callee id 3 is out of range");
  }
  {
    Chain c;
    c.b.value(c.z).alias_of = -5;
    EXPECT_EQ(Check(c.b.program()), "built: error: value %z aliases value id -5, which is out of range");
  }
  {
    Chain c;
    c.b.SetReturn(c.main, {99});
    EXPECT_EQ(Check(c.b.program()), "built: error: @main: returned value id 99 is out of range");
  }
}

TEST(ValidateTest, OwnershipMismatch) {
  {
    Chain c;
    c.b.computation(c.main).ops.push_back(c.exp);
    EXPECT_EQ(Check(c.b.program()), "built: error: op #0 is scheduled twice");
  }
  {
    Chain c;
    c.b.computation(c.main).ops.pop_back();
    EXPECT_EQ(Check(c.b.program()), "built: error: op #1 (relu) is in no computation's schedule");
  }
  {
    Chain c;
    c.b.op(c.relu).results.push_back(c.y);
    EXPECT_EQ(Check(c.b.program()), "built: error: result %y of op #1 does not record that op as its definition");
  }
  {
    Chain c;
    c.b.computation(c.main).params.clear();
    EXPECT_EQ(Check(c.b.program()), "built: error: value %x is neither a parameter nor an op result");
  }
}

TEST(ValidateTest, Names) {
  {
    Chain c;
    c.b.value(c.z).name = "y";
    EXPECT_EQ(Check(c.b.program()), "built: error: duplicate value name %y");
  }
  {
    Chain c;
    c.b.value(c.z).name = "";
    EXPECT_EQ(Check(c.b.program()), "built: error: value #2 has an empty name");
  }
  {
    Chain c;
    c.b.value(c.z).name = std::string("a\0b", 3);
    EXPECT_EQ(Check(c.b.program()), "built: error: value name #2 contains a NUL byte");
  }
  {
    Chain c;
    c.b.value(c.z).name = "bad\xFF";
    EXPECT_EQ(Check(c.b.program()), "built: error: value name #2 is not valid UTF-8");
  }
  {
    Chain c;
    c.b.AddComputation("main");
    EXPECT_EQ(Check(c.b.program()), "built: error: duplicate computation @main");
  }
}

TEST(ValidateTest, OpcodesAndKinds) {
  {
    Chain c;
    c.b.op(c.exp).opcode = "frobnicate";
    EXPECT_EQ(Check(c.b.program()),
              "built: error: in @main, op %y: unknown opcode 'frobnicate' (custom ops must be namespaced with a '.', "
              "e.g. custom.frobnicate)");
  }
  {
    Chain c;
    c.b.op(c.exp).opcode = "my lib.op";
    EXPECT_EQ(Check(c.b.program()),
              "built: error: in @main, op %y: opcode 'my lib.op' is not an identifier ([A-Za-z_][A-Za-z0-9_.-]*)");
  }
  {
    Chain c;
    c.b.op(c.exp).kind = OpKind::kConstant;
    EXPECT_EQ(Check(c.b.program()), "built: error: in @main, op %y: op kind does not match opcode 'exp'");
  }
  {
    Chain c;
    c.b.op(c.exp).opcode = "onnx.Exp";
    EXPECT_EQ(Check(c.b.program()), "OK");
  }
}

TEST(ValidateTest, OperandsMustBeDefinedEarlierInTheSameComputation) {
  {
    Chain c;
    c.b.op(c.exp).operands = {c.z};
    EXPECT_EQ(Check(c.b.program()), "built: error: in @main, op %y: operand 1 %z is used before its definition");
  }
  {
    Chain c;
    const ComputationId other = c.b.AddComputation("other");
    const ValueId p = c.b.AddParam(other, "p", 16);
    c.b.op(c.relu).operands = {p};
    c.b.value(c.z).alias_of = p;
    EXPECT_EQ(Check(c.b.program()),
              "built: error: in @main, op %z: operand 1 %p belongs to computation @other; pass values to other "
              "computations as operands");
  }
  {
    Chain c;
    const ComputationId other = c.b.AddComputation("other");
    c.b.SetReturn(other, {c.x});
    EXPECT_EQ(Check(c.b.program()), "built: error: @other returns %x, which is not defined in @other");
  }
}

TEST(ValidateTest, ValueSizes) {
  {
    Chain c;
    c.b.value(c.y).size = 12;
    EXPECT_EQ(Check(c.b.program()), "built: error: %y has size 12 but its type f32[...] needs 16 bytes");
  }
  {
    Chain c;
    c.b.value(c.y).type->dtype = "f31";
    EXPECT_EQ(Check(c.b.program()), "built: error: %y: unknown dtype 'f31'");
  }
  {
    Chain c;
    c.b.value(c.z).size = -1;
    EXPECT_EQ(Check(c.b.program()), "built: error: %z has a negative size (-1)");
  }
  {
    Chain c;
    c.b.value(c.x).type.reset();
    c.b.value(c.x).size = 4;
    c.b.value(c.x).is_timepoint = true;
    EXPECT_EQ(Check(c.b.program()), "built: error: timepoint %x must have size 0 and no tensor type");
  }
  {
    Chain c;
    c.b.value(c.x).space = -1;
    EXPECT_EQ(Check(c.b.program()), "built: error: %x is pinned to negative memory space -1");
  }
  {
    Chain c;
    c.b.value(c.y).view_offset = 4;
    EXPECT_EQ(Check(c.b.program()), "built: error: %y has a view offset but is not a view");
  }
}

TEST(ValidateTest, Aliasing) {
  {
    Chain c;
    c.b.value(c.z).alias_of = c.x;
    EXPECT_EQ(Check(c.b.program()), "built: error: %z is tied to %x, which is not an operand of its op");
  }
  {
    Chain c;
    c.b.value(c.z).size = 8;
    EXPECT_EQ(Check(c.b.program()),
              "built: error: tied result %z (8 bytes) must have the size of operand %y (16 bytes)");
  }
  {
    Chain c;
    c.b.value(c.z).alias = AliasKind::kView;
    c.b.value(c.z).size = 8;
    c.b.value(c.z).view_offset = 8;
    EXPECT_EQ(Check(c.b.program()), "OK");
    c.b.value(c.z).view_offset = 9;
    EXPECT_EQ(Check(c.b.program()), "built: error: view %z (8 bytes at offset 9) exceeds operand %y (16 bytes)");
    c.b.value(c.z).view_offset = -1;
    EXPECT_EQ(Check(c.b.program()), "built: error: view %z (8 bytes at offset -1) exceeds operand %y (16 bytes)");
  }
  {
    Chain c;
    c.b.value(c.x).alias = AliasKind::kTied;
    c.b.value(c.x).alias_of = c.y;
    EXPECT_EQ(Check(c.b.program()), "built: error: parameter %x cannot be tied or a view");
  }
}

TEST(ValidateTest, OpFields) {
  const auto check_op = [](auto mutate) {
    Chain c;
    mutate(c.b.op(c.exp));
    return Check(c.b.program());
  };
  EXPECT_EQ(check_op([](Op& o) { o.cost.flops = -1; }),
            "built: error: in @main, op %y: flops must be a finite number >= 0");
  EXPECT_EQ(check_op([](Op& o) { o.cost.flops = std::numeric_limits<double>::infinity(); }),
            "built: error: in @main, op %y: flops must be a finite number >= 0");
  EXPECT_EQ(check_op([](Op& o) { o.cost.transcendentals = std::nan(""); }),
            "built: error: in @main, op %y: transcendentals must be a finite number >= 0");
  EXPECT_EQ(check_op([](Op& o) { o.cost.bytes_accessed = -3; }),
            "built: error: in @main, op %y: bytes_accessed must be >= 0");
  EXPECT_EQ(check_op([](Op& o) { o.scratch_bytes = -3; }), "built: error: in @main, op %y: scratch must be >= 0");
  EXPECT_EQ(check_op([](Op& o) { o.trip_count = 2; }),
            "built: error: in @main, op %y: trip_count is only valid on while");
  EXPECT_EQ(check_op([](Op& o) { o.wave = 0; }),
            "built: error: in @main, op %y: wave is only valid on ops of an execution region");
  EXPECT_EQ(check_op([](Op& o) { o.callees = {0}; }), "built: error: in @main, op %y: 'exp' cannot have callees");
}

TEST(ValidateTest, GenericAttributes) {
  const auto check_attr = [](std::string key, AttrValue value) {
    Chain c;
    c.b.op(c.exp).attributes.push_back(Attribute{std::move(key), std::move(value)});
    return Check(c.b.program());
  };
  AttrValue number;
  number.kind = AttrValue::Kind::kInt;
  EXPECT_EQ(check_attr("axis", number), "OK");
  EXPECT_EQ(check_attr("flops", number),
            "built: error: in @main, op %y: attribute 'flops' is a typed field of Op, not a generic attribute");
  EXPECT_EQ(check_attr("2d", number),
            "built: error: in @main, op %y: attribute key '2d' is not an identifier ([A-Za-z_][A-Za-z0-9_.-]*)");
  AttrValue inf;
  inf.kind = AttrValue::Kind::kFloat;
  inf.f = std::numeric_limits<double>::infinity();
  EXPECT_EQ(check_attr("x", inf), "built: error: in @main, op %y: attribute 'x' is not a finite number");
  AttrValue symbol;
  symbol.kind = AttrValue::Kind::kSymbol;
  EXPECT_EQ(check_attr("s", symbol), "built: error: in @main, op %y: attribute 's' has an empty @name");
  AttrValue text;
  text.kind = AttrValue::Kind::kString;
  text.s = "\xC3";
  AttrValue list;
  list.kind = AttrValue::Kind::kList;
  list.list = {number, text};
  EXPECT_EQ(check_attr("l", list), "built: error: in @main, op %y: attribute 'l' is not valid UTF-8");
  AttrValue deep = number;
  for (int i = 0; i < 33; ++i) {
    AttrValue outer;
    outer.kind = AttrValue::Kind::kList;
    outer.list = {deep};
    deep = outer;
  }
  EXPECT_EQ(check_attr("d", deep), "built: error: in @main, op %y: attribute 'd' nests lists deeper than 32");
  Chain c;
  c.b.op(c.exp).attributes = {{"k", number}, {"k", number}};
  EXPECT_EQ(Check(c.b.program()), "built: error: in @main, op %y: duplicate attribute 'k'");
}

TEST(ValidateTest, Callees) {
  ProgramBuilder b;
  const ComputationId main = b.AddComputation("main");
  const ComputationId body = b.AddComputation("body");
  b.SetEntry(main);
  const ValueId x = b.AddParam(main, "x", 4);
  const OpId loop = b.AddOp(main, "while", {x});
  b.AddResult(loop, "y", 4);
  b.op(loop).callees = {body};
  b.SetReturn(body, {b.AddParam(body, "p", 4)});
  EXPECT_EQ(Check(b.program()), "built: error: in @main, op %y: while must have 2 callees (cond, body), has 1");
  b.op(loop).opcode = "call";
  b.op(loop).kind = OpKind::kCall;
  EXPECT_EQ(Check(b.program()), "OK");
  b.computation(body).kind = ComputationKind::kRegion;
  EXPECT_EQ(Check(b.program()), "built: error: in @main, op %y: call: @body is a region; run regions with execute");
  b.op(loop).opcode = "execute";
  b.op(loop).kind = OpKind::kExecute;
  EXPECT_EQ(Check(b.program()), "OK");
  b.op(loop).callees = {};
  EXPECT_EQ(Check(b.program()), "built: error: in @main, op %y: execute must have exactly 1 callee, has 0");
}

TEST(ValidateTest, CallGraphWithoutLocations) {
  ProgramBuilder b;
  const ComputationId main = b.AddComputation("main");
  const ComputationId f = b.AddComputation("f");
  b.SetEntry(main);
  b.SetReturn(f, {b.AddParam(f, "p", 4)});
  EXPECT_EQ(Check(b.program()),
            "built: error: computation @f is never called; every computation except the entry and the initializers "
            "is called from exactly one op");
  const ValueId x = b.AddParam(main, "x", 4);
  const OpId c1 = b.AddOp(main, "call", {x});
  b.op(c1).callees = {f};
  const ValueId y = b.AddResult(c1, "y", 4);
  EXPECT_EQ(Check(b.program()), "OK");
  const OpId c2 = b.AddOp(main, "call", {y});
  b.op(c2).callees = {f};
  b.AddResult(c2, "z", 4);
  EXPECT_EQ(Check(b.program()),
            "built: error: in @main, op %z: computation @f is called a second time (first by %y); every computation "
            "except the entry and the initializers has exactly one call site");
}

TEST(ValidateTest, AffinityOnlyOnRegions) {
  Chain c;
  c.b.computation(c.main).affinity = "gpu0";
  EXPECT_EQ(Check(c.b.program()), "built: error: @main: affinity is only valid on a region");
}

TEST(ValidateTest, AsyncWithoutLocations) {
  ProgramBuilder b;
  const ComputationId main = b.AddComputation("main");
  b.SetEntry(main);
  const ValueId x = b.AddParam(main, "x", 4);
  const OpId start = b.AddOp(main, "copy-start", {x});
  const ValueId s = b.AddResult(start, "s", 4);
  EXPECT_EQ(Check(b.program()), "built: error: in @main, op %s: copy-start %s is never completed by a copy-done");
  b.AddResult(b.AddOp(main, "copy-done", {s}), "d1", 4);
  EXPECT_EQ(Check(b.program()), "OK");
  b.AddResult(b.AddOp(main, "copy-done", {s}), "d2", 4);
  EXPECT_EQ(Check(b.program()),
            "built: error: in @main, op %d2: copy-start %s is already completed by the copy-done %d1");
}

// --- Dims, symbolic sizes, operand ranges, initializers ------------------------

// main(%x: (4*%n)) { %y = exp(%x) : (4*%n); store(%y[0 for 2*%n]) } with
// dim %n <= 16 (sizes at the evaluation point: 64 bytes).
struct Dynamic {
  ProgramBuilder b{"dynamic"};
  ComputationId main = b.AddComputation("main");
  ValueId x = b.AddParam(main, "x", 64);
  OpId exp = b.AddOp(main, "exp", {x});
  ValueId y = b.AddResult(exp, "y", 64);
  OpId store = b.AddOp(main, "store", {y});
  SizeExpr n = SizeExpr::Dim(b.AddDim("n", 16));
  Dynamic() {
    b.SetEntry(main);
    b.value(x).size_expr = n.Scaled(4);
    b.value(y).size_expr = n.Scaled(4);
    b.op(store).operand_ranges = {OperandRange{SizeExpr::Constant(0), n.Scaled(2)}};
  }
};

TEST(ValidateTest, DynamicProgramIsValid) {
  Dynamic d;
  EXPECT_EQ(Check(d.b.program()), "OK");
}

TEST(ValidateTest, Dims) {
  {
    Dynamic d;
    d.b.dim(0).name = "";
    EXPECT_EQ(Check(d.b.program()), "built: error: dim #0 has an empty name");
  }
  {
    Dynamic d;
    d.b.AddDim("n", 4);
    EXPECT_EQ(Check(d.b.program()), "built: error: duplicate dim %n");
  }
  {
    Dynamic d;
    d.b.dim(0).name = "y";
    EXPECT_EQ(Check(d.b.program()),
              "built: error: value %y reuses the name of dim %y; dims and values share one namespace");
  }
  {
    Dynamic d;
    d.b.dim(0).bound = 0;
    EXPECT_EQ(Check(d.b.program()), "built: error: dim %n has bound 0; a bound must be >= 1");
  }
  {
    Dynamic d;
    d.b.dim(0).binding = 17;
    EXPECT_EQ(Check(d.b.program()), "built: error: dim %n is bound to 17, outside [1, 16]");
    d.b.dim(0).bound.reset();
    d.b.dim(0).binding = 0;
    EXPECT_EQ(Check(d.b.program()), "built: error: dim %n is bound to 0, outside [1, unbounded]");
  }
}

TEST(ValidateTest, SymbolicSizes) {
  {
    Dynamic d;
    d.b.value(d.y).size = 60;
    EXPECT_EQ(Check(d.b.program()),
              "built: error: %y has size 60 but its size 4*%n is 64 at the evaluation point");
  }
  {
    Dynamic d;
    d.b.value(d.y).size_expr = SizeExpr::Dim(3);
    EXPECT_EQ(Check(d.b.program()), "built: error: the size of %y mentions dim #3, but the program declares 1 dim");
  }
  {
    Dynamic d;
    d.b.value(d.y).size_expr = d.n.Scaled(std::int64_t{1} << 62).Scaled(4);
    EXPECT_EQ(Check(d.b.program()), "built: error: the size of %y overflows int64");
  }
  {
    Dynamic d;
    d.b.value(d.y).size_expr = d.n.Scaled((std::int64_t{1} << 58) + 1);
    EXPECT_EQ(Check(d.b.program()),
              "built: error: %y: size 288230376151711745*%n is 4611686018427387920 bytes at %n = 16, above the limit "
              "of 2^62 (4611686018427387904) bytes");
  }
  {
    Dynamic d;
    d.b.value(d.y).type = TensorType{"f32", {16}};
    EXPECT_EQ(Check(d.b.program()), "built: error: %y has a symbolic size but is a tensor (only byte sizes are symbolic)");
  }
  {
    Dynamic d;
    d.b.value(d.y).is_timepoint = true;
    EXPECT_EQ(Check(d.b.program()),
              "built: error: %y has a symbolic size but is a timepoint (only byte sizes are symbolic)");
  }
}

TEST(ValidateTest, SymbolicTiesAndViews) {
  {
    Dynamic d;
    d.b.value(d.y).alias = AliasKind::kTied;
    d.b.value(d.y).alias_of = d.x;
    EXPECT_EQ(Check(d.b.program()), "OK");
    // Equal at the evaluation point, but not the same expression.
    d.b.value(d.y).size_expr = d.n.Scaled(2) + SizeExpr::Constant(32);
    EXPECT_EQ(Check(d.b.program()),
              "built: error: tied result %y (2*%n + 32 bytes) must have the size of operand %x (4*%n bytes)");
    d.b.value(d.y).size_expr.reset();
    EXPECT_EQ(Check(d.b.program()),
              "built: error: tied result %y (64 bytes) must have the size of operand %x (4*%n bytes)");
  }
  {
    Dynamic d;
    d.b.value(d.y).alias = AliasKind::kView;
    d.b.value(d.y).alias_of = d.x;
    d.b.value(d.y).size_expr = d.n.Scaled(2);
    d.b.value(d.y).size = 32;
    d.b.value(d.y).view_offset = 8;
    d.b.op(d.store).operand_ranges.clear();
    // 8 + 2n <= 4n only for n >= 4; dims range over [1, 16].
    EXPECT_EQ(Check(d.b.program()), "built: error: view %y (2*%n bytes at offset 8) exceeds operand %x (4*%n bytes)");
    d.b.value(d.y).view_offset = 0;
    EXPECT_EQ(Check(d.b.program()), "OK");
  }
}

TEST(ValidateTest, OperandRanges) {
  {
    Dynamic d;
    d.b.op(d.store).operand_ranges.emplace_back();
    EXPECT_EQ(Check(d.b.program()),
              "built: error: in @main, op store#1: has 2 operand ranges for 1 operand (empty or one per operand)");
  }
  {
    Dynamic d;
    d.b.op(d.store).operand_ranges[0]->offset = SizeExpr::Dim(1);
    EXPECT_EQ(Check(d.b.program()),
              "built: error: in @main, op store#1: the range of operand 1 mentions dim #1, but the program declares 1 "
              "dim");
  }
  {
    Dynamic d;
    d.b.op(d.store).operand_ranges[0]->offset = d.n.Scaled(3);
    EXPECT_EQ(Check(d.b.program()),
              "built: error: in @main, op store#1: range [3*%n for 2*%n] of %y exceeds its 4*%n bytes");
  }
  {
    Dynamic d;
    d.b.op(d.store).operand_ranges[0]->length = SizeExpr::Constant(65);
    EXPECT_EQ(Check(d.b.program()),
              "built: error: in @main, op store#1: range [0 for 65] of %y exceeds its 4*%n bytes");
  }
}

TEST(ValidateTest, Initializers) {
  Chain c;
  const ComputationId init = c.b.AddComputation("init");
  c.b.computation(init).initializer = true;
  const ValueId k = c.b.AddResult(c.b.AddOp(init, "constant", {}), "k", 8);
  c.b.SetReturn(init, {k});
  EXPECT_EQ(Check(c.b.program()), "OK");
  c.b.computation(init).kind = ComputationKind::kRegion;
  EXPECT_EQ(Check(c.b.program()), "built: error: initializer @init must be a func, not a region");
  c.b.computation(init).kind = ComputationKind::kFunction;
  c.b.AddParam(init, "p", 4);
  EXPECT_EQ(Check(c.b.program()),
            "built: error: initializer @init takes 1 parameter; an initializer takes none (it runs once, before the "
            "entry)");
}

TEST(ValidateTest, InitializerRoots) {
  {
    Chain c;
    c.b.computation(c.main).initializer = true;
    EXPECT_EQ(Check(c.b.program()), "built: error: the entry computation @main cannot be an initializer");
  }
  {
    ProgramBuilder b;
    const ComputationId main = b.AddComputation("main");
    const ComputationId init = b.AddComputation("init");
    b.SetEntry(main);
    b.computation(init).initializer = true;
    b.op(b.AddOp(main, "call", {})).callees = {init};
    EXPECT_EQ(Check(b.program()),
              "built: error: in @main, op call#0: initializer @init cannot be called; it runs once, before the entry");
  }
}

TEST(ValidateTest, TimepointAwaitedBeforeProduced) {
  ProgramBuilder b;
  const ComputationId main = b.AddComputation("main");
  b.SetEntry(main);
  const OpId wait = b.AddOp(main, "barrier", {});
  const OpId signal = b.AddOp(main, "c.signal", {});
  const ValueId t = b.AddResult(signal, "t", 0);
  b.value(t).is_timepoint = true;
  b.op(wait).operands = {t};
  EXPECT_EQ(Check(b.program()),
            "built: error: in @main, op barrier#0: timepoint %t (operand 1) is awaited before it is produced");
}

}  // namespace
}  // namespace memplan
