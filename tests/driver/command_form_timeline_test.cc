// The JSON plan's host timeline and the command form (`--emit-ir`) describe
// the same waits, joins, allocas, uploads and deallocas, on every region
// example and region test program. Both are reduced to one line per event,
// "kind subject <- base timepoints", where a join is expanded into the
// timepoints it joins (a join that only feeds executes and allocas is their
// wait list, not an event of its own).
#include <algorithm>
#include <filesystem>
#include <functional>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "io/file_io.h"
#include "nlohmann/json.hpp"
#include "regions/command_form.h"
#include "report/plan_json.h"
#include "tests/driver/region_test_util.h"

namespace memplan {
namespace {

using Json = nlohmann::json;
using Events = std::multiset<std::string>;

std::string Line(const std::string& event, const std::set<std::string>& awaits) {
  std::string line = event + " <-";
  for (const std::string& a : awaits) line += " " + a;
  return line;
}

bool WaitListStep(const std::string& kind) { return kind == "execute" || kind == "alloca"; }

// The events of the JSON plan's "regions" block.
Events TimelineEvents(const Json& regions) {
  std::map<std::string, const Json*> join_of;        // signal -> its join step
  std::map<std::string, std::vector<std::string>> awaited_by;  // signal -> kinds awaiting it
  for (const Json& step : regions["steps"]) {
    if (step["kind"] == "join" && !step["awaits"].empty()) join_of[step["signal"]] = &step;
    for (const Json& a : step["awaits"]) awaited_by[a].push_back(step["kind"]);
  }
  std::function<void(const std::string&, std::set<std::string>&)> expand =
      [&](const std::string& signal, std::set<std::string>& out) {
        auto it = join_of.find(signal);
        if (it == join_of.end()) {
          out.insert(signal);
          return;
        }
        for (const Json& a : (*it->second)["awaits"]) expand(a, out);
      };
  Events events;
  for (const Json& step : regions["steps"]) {
    const std::string kind = step["kind"];
    std::set<std::string> awaits;
    for (const Json& a : step["awaits"]) expand(a, awaits);
    if (kind == "dealloca") {
      events.insert(Line("dealloca " + step["signal"].get<std::string>(), awaits));
    } else if (kind == "alloca" || kind == "upload") {
      events.insert(Line(kind + " " + step["resource"].get<std::string>(), awaits));
    } else if (kind == "execute") {
      events.insert(Line("execute @" + step["region"].get<std::string>(), awaits));
    } else if (kind == "join" && !step["awaits"].empty()) {
      const std::vector<std::string>& users = awaited_by[step["signal"]];
      if (!users.empty() && std::all_of(users.begin(), users.end(), WaitListStep)) continue;
      events.insert(Line("join " + step["signal"].get<std::string>(), awaits));
    }
  }
  for (const Json& region : regions["regions"]) {
    events.insert("once @" + region["name"].get<std::string>() + " " +
                  (region["once"].get<bool>() ? "true" : "false"));
  }
  return events;
}

bool IsJoin(const Op& op) { return op.opcode == "timepoint.join" || op.opcode == "join"; }

// The events of a command-form program.
Events CommandFormEvents(const Program& p) {
  // Kinds of the ops using each value; a join whose users are all executes
  // and allocas (an execute's `.await`) counts as an execute.
  const auto kind_of = [](const Op& op) -> std::string {
    return op.opcode == "execute" ? "execute" : op.opcode == "resource.alloca" ? "alloca" : op.opcode;
  };
  std::map<ValueId, std::vector<std::string>> users;
  for (const Op& op : p.ops) {
    for (ValueId v : op.operands) users[v].push_back(kind_of(op));
  }
  std::map<ValueId, std::vector<std::string>> folded;
  for (const Op& op : p.ops) {
    const bool wait_list = IsJoin(op) && !users[op.results[0]].empty() &&
                           std::all_of(users[op.results[0]].begin(), users[op.results[0]].end(),
                                       WaitListStep);
    for (ValueId v : op.operands) folded[v].push_back(wait_list ? "execute" : kind_of(op));
  }
  users = std::move(folded);
  // A parameter of a called func stands for its call site's operand.
  std::map<ValueId, ValueId> param_source;
  for (const Op& op : p.ops) {
    if (op.kind != OpKind::kCall) continue;
    const std::vector<ValueId>& params = p.computations[op.callees.front()].params;
    for (std::size_t i = 0; i < params.size() && i < op.operands.size(); ++i) {
      param_source[params[i]] = op.operands[i];
    }
  }
  std::function<void(ValueId, std::set<std::string>&)> expand = [&](ValueId v,
                                                                   std::set<std::string>& out) {
    if (auto it = param_source.find(v); it != param_source.end()) return expand(it->second, out);
    const OpId def = p.values[v].defining_op;
    // A program's join of nothing is a timepoint of its own; the command
    // form's (timepoint.join) is an execute's empty wait list.
    const bool wait_list = def != kNoId && p.ops[def].opcode == "timepoint.join" &&
                           std::all_of(users[v].begin(), users[v].end(), WaitListStep);
    if (def != kNoId && IsJoin(p.ops[def]) && (!p.ops[def].operands.empty() || wait_list)) {
      for (ValueId u : p.ops[def].operands) expand(u, out);
      return;
    }
    if (def != kNoId && p.ops[def].kind == OpKind::kCall) {  // what the callee returns
      const Op& call = p.ops[def];
      const auto at = std::find(call.results.begin(), call.results.end(), v) - call.results.begin();
      expand(p.computations[call.callees.front()].results[at], out);
      return;
    }
    out.insert(p.values[v].name);
  };
  const auto awaits = [&](const Op& op, std::size_t first) {
    std::set<std::string> out;
    for (std::size_t i = first; i < op.operands.size(); ++i) {
      if (p.values[op.operands[i]].is_timepoint) expand(op.operands[i], out);
    }
    return out;
  };
  Events events;
  for (const Op& op : p.ops) {
    if (op.opcode == "resource.alloca") {
      events.insert(Line("alloca " + p.values[op.results[0]].name, awaits(op, 0)));
    } else if (op.opcode == "resource.constants") {
      events.insert(Line("upload " + p.values[op.results[0]].name, awaits(op, 0)));
    } else if (op.opcode == "resource.dealloca") {
      events.insert(Line("dealloca " + p.values[op.results[0]].name, awaits(op, 0)));
    } else if (op.kind == OpKind::kExecute) {
      const std::string region = p.computations[op.callees.front()].name;
      events.insert(Line("execute @" + region, awaits(op, 0)));
      bool once = false;
      for (const Attribute& a : op.attributes) once = once || (a.key == "once" && a.value.i != 0);
      events.insert("once @" + region + " " + (once ? "true" : "false"));
    } else if (IsJoin(op) && !op.operands.empty()) {
      const std::vector<std::string>& used = users[op.results[0]];
      if (!used.empty() && std::all_of(used.begin(), used.end(), WaitListStep)) continue;
      events.insert(Line("join " + p.values[op.results[0]].name, awaits(op, 0)));
    }
  }
  return events;
}

std::string Text(const Events& events) {
  std::string out;
  for (const std::string& e : events) out += e + "\n";
  return out;
}

TEST(CommandFormTimeline, JsonAndCommandFormDescribeTheSameEvents) {
  const std::string root = MEMPLAN_SOURCE_DIR;
  int seen = 0;
  for (const char* dir : {"/examples", "/tests/data/regions"}) {
    for (const auto& entry : std::filesystem::directory_iterator(root + dir)) {
      absl::StatusOr<std::string> text = ReadFile(entry.path().string());
      // Not call_timepoint.mpir: its result reservation is allocated in a
      // called func and read after the call returns, where the command form
      // cannot name it, so its dealloca stays in the func and waits only on
      // what happens there (the JSON's also awaits the later reader).
      if (entry.path().extension() != ".mpir" || !text.ok() ||
          text->find("region @") == std::string::npos ||
          entry.path().filename() == "call_timepoint.mpir") {
        continue;
      }
      SCOPED_TRACE(entry.path().filename().string());
      ++seen;
      absl::StatusOr<testing_regions::Planned> p = testing_regions::PlanText(*text);
      ASSERT_TRUE(p.ok()) << p.status();
      const Json doc =
          Json::parse(WritePlanJson(p->plan, p->analysis.buffers, &p->program));
      const Program command = CommandProgram(p->program, p->analysis, p->plan);
      EXPECT_EQ(Text(CommandFormEvents(command)), Text(TimelineEvents(doc["regions"])));
    }
  }
  EXPECT_GE(seen, 12);
}

}  // namespace
}  // namespace memplan
