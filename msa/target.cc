#include "msa/target.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <set>
#include <fstream>
#include <sstream>
#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "ir/diagnostic.h"
#include "msa/target_spaces.h"
#include "nlohmann/json.hpp"

namespace memplan {
namespace {

using Json = nlohmann::json;

// The numbers and their reasoning are in docs/msa.md ("Targets").
std::vector<Target> MakePresets() {
  std::vector<Target> presets;
  {
    Target t;
    t.name = "edge-npu";
    t.description = "embedded NPU: 2 MiB on-chip SRAM, LPDDR4X share, ~1 TOPS";
    t.flops_per_second = 1e12;
    t.transcendentals_per_second = 2.5e10;
    t.default_bandwidth = 8e9;
    t.alternate_bandwidth = 6.4e10;
    t.copy_bandwidth = 8e9;
    t.fast_memory_bytes = 2 * 1024 * 1024;
    t.alignment = 64;
    presets.push_back(t);
  }
  {
    Target t;
    t.name = "mobile-gpu";
    t.description = "phone GPU: 1 MiB tile/local memory, LPDDR5 share, ~2 TFLOPS fp16";
    t.flops_per_second = 2e12;
    t.transcendentals_per_second = 1.25e11;
    t.default_bandwidth = 2.5e10;
    t.alternate_bandwidth = 2e11;
    t.copy_bandwidth = 2e10;
    t.fast_memory_bytes = 1024 * 1024;
    t.alignment = 128;
    presets.push_back(t);
  }
  {
    Target t;
    t.name = "tpu-like";
    t.description = "datacenter accelerator: 16 MiB VMEM, HBM2e, ~275 TFLOPS bf16";
    t.flops_per_second = 2.75e14;
    t.transcendentals_per_second = 4e12;
    t.default_bandwidth = 1.2e12;
    t.alternate_bandwidth = 1.2e13;
    t.copy_bandwidth = 6e11;
    t.fast_memory_bytes = 16 * 1024 * 1024;
    t.alignment = 512;
    presets.push_back(t);
  }
  for (std::string_view text : HierarchyPresetTexts()) {
    absl::StatusOr<Target> t = HierarchyTargetFromJson(Json::parse(text), text, "<preset>");
    if (t.ok()) presets.push_back(*std::move(t));
  }
  return presets;
}

bool LooksLikePath(std::string_view s) {
  return s.find('/') != std::string_view::npos ||
         (s.size() >= 5 && s.substr(s.size() - 5) == ".json");
}

// Location of the key `"key"` of the top-level object (a quoted string at
// nesting depth 1 followed by ':'), its `occurrence`-th (1-based) when it is
// repeated, else of the object's opening brace.
SourceLocation LocateKey(std::string_view text, std::string_view key, int occurrence = 1) {
  int depth = 0;
  std::size_t brace = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '{' || c == '[') {
      if (depth == 0 && c == '{') brace = i;
      ++depth;
    } else if (c == '}' || c == ']') {
      --depth;
    } else if (c == '"') {
      std::size_t end = i + 1;
      while (end < text.size() && text[end] != '"') end += text[end] == '\\' ? 2 : 1;
      std::size_t after = end + 1;
      while (after < text.size() && std::isspace(static_cast<unsigned char>(text[after]))) ++after;
      if (depth == 1 && after < text.size() && text[after] == ':' &&
          text.substr(i + 1, end - i - 1) == key && --occurrence == 0) {
        return TextLocation(text, i);
      }
      i = end;
    }
  }
  return TextLocation(text, brace);
}

// Larger rates are typos (1e18 flop/s or B/s is beyond any machine); they
// would also turn the cost model's times into denormals. Rates below 1 per
// second are typos too, and would make times infinite (found by fuzzing:
// a bandwidth of 1e-300 B/s).
constexpr double kMinRate = 1;
constexpr double kMaxRate = 1e18;

constexpr const char* kRateFields[] = {"flops_per_second", "transcendentals_per_second",
                                       "default_bandwidth", "alternate_bandwidth",
                                       "copy_bandwidth"};

std::optional<std::string> RateProblem(std::string_view key, double value) {
  return TargetRateProblem(key, value);
}

// Fast memory slower than the default memory makes every placement in it a
// loss; such a target is a typo, not a machine.
std::optional<std::string> BandwidthOrderProblem(const Target& t) {
  if (t.alternate_bandwidth >= t.default_bandwidth) return std::nullopt;
  return absl::StrFormat(
      "\"alternate_bandwidth\" (%g) must be >= \"default_bandwidth\" (%g): the fast memory "
      "cannot be slower than the default memory",
      t.alternate_bandwidth, t.default_bandwidth);
}

// A key of the top-level object given twice (nlohmann keeps the last).
struct DuplicateKey {
  std::string key;
};

absl::StatusOr<Target> TargetFromJson(std::string_view text, std::string_view path) {
  Json json;
  std::set<std::string> top_keys;
  const Json::parser_callback_t reject_duplicates = [&](int depth, Json::parse_event_t event,
                                                        Json& parsed) {
    // Nested objects are not fields; the type checks below reject them.
    if (event == Json::parse_event_t::key && depth == 1 &&
        !top_keys.insert(parsed.get<std::string>()).second) {
      throw DuplicateKey{parsed.get<std::string>()};
    }
    return true;
  };
  try {
    json = Json::parse(text.begin(), text.end(), reject_duplicates);
  } catch (const DuplicateKey& e) {
    return LocatedError(path, LocateKey(text, e.key, 2),
                        absl::StrCat("duplicate key \"", e.key, "\""));
  } catch (const Json::parse_error& e) {
    const std::size_t byte = e.byte > 0 ? e.byte - 1 : 0;
    std::string what = e.what();
    // nlohmann prefixes "[json.exception.parse_error.101] parse error at line
    // L, column C: "; keep only the reason.
    if (std::size_t colon = what.find(": "); colon != std::string::npos) what = what.substr(colon + 2);
    return LocatedError(path, TextLocation(text, byte), what);
  } catch (const Json::exception& e) {
    // A number beyond double range ("number overflow parsing '1e400'"):
    // point at the first occurrence of the quoted token.
    const std::string what = e.what();
    std::size_t at = 0;
    const std::size_t open = what.find('\'');
    const std::size_t close = open == std::string::npos ? open : what.find('\'', open + 1);
    if (close != std::string::npos) {
      at = text.find(what.substr(open + 1, close - open - 1));
      if (at == std::string_view::npos) at = 0;
    }
    return LocatedError(path, TextLocation(text, at),
                        "number out of range (rates must be positive, finite and <= 1e18)");
  }
  if (!json.is_object()) {
    return LocatedError(path, TextLocation(text, 0), "a target file must hold a JSON object");
  }
  if (json.contains("spaces")) return HierarchyTargetFromJson(json, text, path);
  auto fail = [&](std::string_view key, const std::string& message) {
    return LocatedError(path, LocateKey(text, key), message);
  };
  static const std::vector<std::string> kKnown = {
      "name",           "description",         "flops_per_second", "transcendentals_per_second",
      "default_bandwidth", "alternate_bandwidth", "copy_bandwidth", "fast_memory_bytes",
      "alignment"};
  for (const auto& [key, value] : json.items()) {
    if (std::find(kKnown.begin(), kKnown.end(), key) == kKnown.end()) {
      return fail(key, absl::StrCat("unknown key \"", key, "\" (expected ",
                                    absl::StrJoin(kKnown, ", "), ")"));
    }
  }
  Target t;
  for (const char* key : {"name", "description"}) {
    if (!json.contains(key)) continue;
    if (!json[key].is_string()) return fail(key, absl::StrCat("\"", key, "\" must be a string"));
    (std::string_view(key) == "name" ? t.name : t.description) = json[key].get<std::string>();
  }
  if (t.name.empty()) t.name = std::string(path);
  double* rates[] = {&t.flops_per_second, &t.transcendentals_per_second, &t.default_bandwidth,
                     &t.alternate_bandwidth, &t.copy_bandwidth};
  for (std::size_t i = 0; i < std::size(kRateFields); ++i) {
    const char* key = kRateFields[i];
    if (!json.contains(key)) return fail(key, absl::StrCat("missing field \"", key, "\""));
    const Json& v = json[key];
    if (!v.is_number()) return fail(key, absl::StrCat("\"", key, "\" must be a number"));
    *rates[i] = v.get<double>();
    if (std::optional<std::string> bad = RateProblem(key, *rates[i])) return fail(key, *bad);
  }
  if (std::optional<std::string> bad = BandwidthOrderProblem(t)) {
    return fail("alternate_bandwidth", *bad);
  }
  for (const char* key : {"fast_memory_bytes", "alignment"}) {
    if (!json.contains(key)) return fail(key, absl::StrCat("missing field \"", key, "\""));
    const Json& v = json[key];
    const bool is_alignment = std::string_view(key) == "alignment";
    const std::int64_t min = is_alignment ? 1 : 0;
    const std::int64_t max = is_alignment ? kMaxAlignment : kMaxTotalBytes;
    const bool representable =
        v.is_number_integer() &&
        !(v.is_number_unsigned() && v.get<std::uint64_t>() > static_cast<std::uint64_t>(INT64_MAX));
    if (!representable || v.get<std::int64_t>() < min || v.get<std::int64_t>() > max) {
      return fail(key, absl::StrCat("\"", key, "\" must be an integer in [", min, ", ", max, "]",
                                    is_alignment ? " (at most 2^32)" : " (at most 2^62)"));
    }
    (is_alignment ? t.alignment : t.fast_memory_bytes) = v.get<std::int64_t>();
  }
  return t;
}

}  // namespace

std::optional<std::string> TargetRateProblem(std::string_view key, double value) {
  if (std::isfinite(value) && value >= kMinRate && value <= kMaxRate) return std::nullopt;
  return absl::StrFormat("\"%s\" must be a number from %g to %g per second (got %g)", key,
                         kMinRate, kMaxRate, value);
}

bool DeviceMayAccess(const MemorySpaceSpec& space, std::string_view device) {
  if (space.devices.empty()) return true;
  return std::any_of(space.devices.begin(), space.devices.end(),
                     [&](const std::string& d) { return d == "*" || d == device; });
}

const LinkSpec* FindLink(const Target& t, int from, int to) {
  for (const LinkSpec& l : t.links) {
    if (l.from == from && l.to == to) return &l;
  }
  return nullptr;
}

double CopyLegSeconds(const Target& t, int from, int to, Bytes bytes) {
  const LinkSpec* link = FindLink(t, from, to);
  return t.spaces[static_cast<std::size_t>(from)].latency_s +
         static_cast<double>(bytes) / (link ? link->bandwidth : t.copy_bandwidth);
}

std::optional<CopyRoute> FindCopyRoute(const Target& t, int from, int to) {
  if (FindLink(t, from, to)) return CopyRoute{};
  std::optional<CopyRoute> best;
  double best_seconds_per_byte = 0;
  for (int via = 0; via < static_cast<int>(t.spaces.size()); ++via) {
    if (via == from || via == to || !t.spaces[static_cast<std::size_t>(via)].writable) continue;
    const LinkSpec* in = FindLink(t, from, via);
    const LinkSpec* out = FindLink(t, via, to);
    if (!in || !out) continue;
    const double seconds_per_byte = 1 / in->bandwidth + 1 / out->bandwidth;
    if (!best || seconds_per_byte < best_seconds_per_byte) {
      best = CopyRoute{via};
      best_seconds_per_byte = seconds_per_byte;
    }
  }
  return best;
}

int SlowestWritableSpace(const Target& t) {
  for (int i = static_cast<int>(t.spaces.size()) - 1; i >= 0; --i) {
    if (t.spaces[static_cast<std::size_t>(i)].writable) return i;
  }
  return -1;
}

MemorySpace SpaceIdOfLevel(const Target& t, int level) {
  if (level == 0) return kAlternateSpace;
  const int slowest = SlowestWritableSpace(t);
  if (level == slowest) return kDefaultSpace;
  return level < slowest ? level + 1 : level;
}

int LevelOfSpace(const Target& t, MemorySpace space) {
  for (int level = 0; level < static_cast<int>(t.spaces.size()); ++level) {
    if (SpaceIdOfLevel(t, level) == space) return level;
  }
  return -1;
}

absl::Status ValidateTarget(const Target& t) {
  const double rates[] = {t.flops_per_second, t.transcendentals_per_second, t.default_bandwidth,
                          t.alternate_bandwidth, t.copy_bandwidth};
  auto error = [&](const std::string& what) {
    return absl::InvalidArgumentError(absl::StrCat("error: target '", t.name, "': ", what));
  };
  for (std::size_t i = 0; i < std::size(kRateFields); ++i) {
    if (std::optional<std::string> bad = RateProblem(kRateFields[i], rates[i])) return error(*bad);
  }
  if (std::optional<std::string> bad = BandwidthOrderProblem(t)) return error(*bad);
  if (t.fast_memory_bytes < 0 || t.fast_memory_bytes > kMaxTotalBytes) {
    return error(absl::StrCat("\"fast_memory_bytes\" must be in [0, ", kMaxTotalBytes,
                              "] (at most 2^62)"));
  }
  if (t.alignment < 1 || t.alignment > kMaxAlignment) {
    return error(absl::StrCat("\"alignment\" must be in [1, ", kMaxAlignment, "] (at most 2^32)"));
  }
  return absl::OkStatus();
}

const std::vector<Target>& BuiltinTargets() {
  static const std::vector<Target> presets = MakePresets();
  return presets;
}

absl::StatusOr<Target> ResolveTarget(std::string_view name_or_path) {
  if (!LooksLikePath(name_or_path)) {
    std::vector<std::string> names;
    for (const Target& t : BuiltinTargets()) {
      if (t.name == name_or_path) return t;
      names.push_back(t.name);
    }
    return absl::InvalidArgumentError(
        absl::StrCat("error: unknown target '", std::string(name_or_path), "' (presets: ",
                     absl::StrJoin(names, ", "), "; or a .json file)"));
  }
  const std::string path(name_or_path);
  std::error_code ec;
  std::ifstream in(path, std::ios::binary);
  if (!std::filesystem::is_regular_file(path, ec) || !in) return absl::InvalidArgumentError(path + ": error: cannot read target file");
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) return absl::InvalidArgumentError(path + ": error: cannot read target file");
  return TargetFromJson(text.str(), path);
}

}  // namespace memplan
