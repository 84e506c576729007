// Builders of hand-made region plans for the region verifier's tests
// (verify/region_checks.h): constant sizes, one default-space segment each.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "ir/buffer_set.h"
#include "ir/plan.h"

namespace memplan::region_test {

inline Buffer MakeBuffer(std::string name, std::vector<ValueId> values, Bytes size, TimeStep start,
                         TimeStep end) {
  Buffer b;
  b.name = std::move(name);
  b.values = std::move(values);
  b.size = size;
  b.start = start;
  b.end = end;
  return b;
}

inline Slice MakeSlice(BufferId buffer, Bytes offset, const Buffer& b) {
  Slice s;
  s.buffer = buffer;
  s.offset = SizeExpr::Constant(offset);
  s.size = SizeExpr::Constant(b.size);
  s.offset_bytes = offset;
  s.size_bytes = b.size;
  s.start = b.start;
  s.end = b.end;
  return s;
}

inline Resource MakeResource(std::string name, ResourceKind kind, Bytes size, TimeStep start,
                             TimeStep end) {
  Resource r;
  r.name = std::move(name);
  r.kind = kind;
  r.size = SizeExpr::Constant(size);
  r.size_bytes = size;
  r.start = start;
  r.end = end;
  return r;
}

inline PoolInfo MakePool(std::string name, Bytes offset, Bytes size) {
  PoolInfo p;
  p.name = std::move(name);
  p.offset = offset;
  p.size = size;
  return p;
}

inline CommandRange MakeRange(std::int32_t resource, Bytes offset, Bytes length, Access access,
                              ValueId value) {
  CommandRange r;
  r.resource = resource;
  r.offset = SizeExpr::Constant(offset);
  r.length = SizeExpr::Constant(length);
  r.offset_bytes = offset;
  r.length_bytes = length;
  r.access = access;
  r.value = value;
  return r;
}

inline Command MakeCommand(CommandKind kind, OpId op, TimeStep time,
                           std::vector<CommandRange> ranges, std::int32_t concurrent = -1) {
  Command c;
  c.kind = kind;
  c.op = op;
  c.time = time;
  c.concurrent = concurrent;
  c.ranges = std::move(ranges);
  return c;
}

inline HostStep MakeStep(HostStepKind kind, std::string signal, std::vector<std::string> awaits,
                         std::int32_t resource = kNoId) {
  HostStep s;
  s.kind = kind;
  s.signal = std::move(signal);
  s.awaits = std::move(awaits);
  s.resource = resource;
  return s;
}

inline std::string Message(const absl::Status& s) { return std::string(s.message()); }

}  // namespace memplan::region_test
