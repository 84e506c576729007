#include "msa/target_spaces.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "ir/diagnostic.h"

namespace memplan {
namespace {

using Json = nlohmann::json;

// Offset just past the string literal opening at `i` (text[i] == '"').
std::size_t SkipString(std::string_view text, std::size_t i) {
  std::size_t end = i + 1;
  while (end < text.size() && text[end] != '"') end += text[end] == '\\' ? 2 : 1;
  return end + 1;
}

// Offset of the key `"key"` directly inside the object opening at `open`,
// else `open`.
std::size_t KeyIn(std::string_view text, std::size_t open, std::string_view key) {
  int depth = 0;
  for (std::size_t i = open; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '{' || c == '[') {
      ++depth;
    } else if (c == '}' || c == ']') {
      if (--depth == 0) break;
    } else if (c == '"') {
      const std::size_t end = SkipString(text, i);
      std::size_t after = end;
      while (after < text.size() && std::isspace(static_cast<unsigned char>(text[after]))) ++after;
      if (depth == 1 && after < text.size() && text[after] == ':' &&
          text.substr(i + 1, end - i - 2) == key) {
        return i;
      }
      i = end - 1;
    }
  }
  return open;
}

// Offset of the `index`-th object element of the array whose key starts at
// `key_at` (elements that are not objects are not counted), else `key_at`.
std::size_t ElementIn(std::string_view text, std::size_t key_at, std::size_t index) {
  const std::size_t open = text.find('[', SkipString(text, key_at));
  if (open == std::string_view::npos) return key_at;
  int depth = 0;
  std::size_t element = 0;
  for (std::size_t i = open; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '"') {
      i = SkipString(text, i) - 1;
    } else if (c == '{' || c == '[') {
      if (depth == 1 && c == '{' && element++ == index) return i;
      ++depth;
    } else if ((c == '}' || c == ']') && --depth == 0) {
      break;
    }
  }
  return key_at;
}

class Parser {
 public:
  Parser(const Json& json, std::string_view text, std::string_view path)
      : json_(json), text_(text), path_(path) {
    top_ = text.find('{');
    if (top_ == std::string_view::npos) top_ = 0;
  }

  absl::StatusOr<Target> Parse() {
    static const std::vector<std::string> kKnown = {
        "name", "description", "flops_per_second", "transcendentals_per_second", "spaces",
        "links"};
    if (auto bad = UnknownKey(json_, kKnown, top_)) return *bad;
    Target t;
    for (const char* key : {"name", "description"}) {
      if (!json_.contains(key)) continue;
      if (!json_[key].is_string()) {
        return Fail(top_, key, absl::StrCat("\"", key, "\" must be a string"));
      }
      (std::string_view(key) == "name" ? t.name : t.description) = json_[key].get<std::string>();
    }
    if (t.name.empty()) t.name = std::string(path_);
    for (const char* key : {"flops_per_second", "transcendentals_per_second"}) {
      absl::StatusOr<double> rate = Rate(json_, top_, key);
      if (!rate.ok()) return rate.status();
      (std::string_view(key) == "flops_per_second" ? t.flops_per_second
                                                   : t.transcendentals_per_second) = *rate;
    }
    const std::size_t spaces_at = KeyIn(text_, top_, "spaces");
    const Json& spaces = json_["spaces"];
    if (!spaces.is_array() || spaces.empty()) {
      return Located(spaces_at, "\"spaces\" must be a non-empty array of memory spaces");
    }
    for (std::size_t i = 0; i < spaces.size(); ++i) {
      absl::StatusOr<MemorySpaceSpec> s = Space(spaces[i], ElementIn(text_, spaces_at, i), t);
      if (!s.ok()) return s.status();
      t.spaces.push_back(*std::move(s));
    }
    if (!t.spaces[0].writable) {
      return Located(ElementIn(text_, spaces_at, 0),
                     absl::StrCat("the first (fastest) space '", t.spaces[0].name,
                                  "' must be writable: memory space assignment copies into it"));
    }
    const int slowest = SlowestWritableSpace(t);
    if (slowest <= 0) {
      return Located(spaces_at,
                     "a hierarchy needs a writable space besides the first (fastest) one, for "
                     "the data that does not fit there");
    }
    if (!json_.contains("links")) return Located(top_, "missing field \"links\"");
    const std::size_t links_at = KeyIn(text_, top_, "links");
    const Json& links = json_["links"];
    if (!links.is_array()) return Located(links_at, "\"links\" must be an array of DMA links");
    for (std::size_t i = 0; i < links.size(); ++i) {
      absl::StatusOr<LinkSpec> l = Link(links[i], ElementIn(text_, links_at, i), t);
      if (!l.ok()) return l.status();
      t.links.push_back(*l);
    }
    // The two-space view: the fastest space as alternate memory, the slowest
    // writable one as default memory.
    const LinkSpec* in = FindLink(t, slowest, 0);
    const LinkSpec* out = FindLink(t, 0, slowest);
    if (!in || !out) {
      return Located(links_at, absl::StrCat("the links must connect the fastest space '",
                                            t.spaces[0].name, "' and the slowest writable space '",
                                            t.spaces[static_cast<std::size_t>(slowest)].name,
                                            "' both ways (prefetch and eviction)"));
    }
    const MemorySpaceSpec& fast = t.spaces[0];
    const MemorySpaceSpec& slow = t.spaces[static_cast<std::size_t>(slowest)];
    t.alternate_bandwidth = std::min(fast.read_bandwidth, fast.write_bandwidth);
    t.default_bandwidth = std::min(slow.read_bandwidth, slow.write_bandwidth);
    if (t.alternate_bandwidth < t.default_bandwidth) {
      return Located(ElementIn(text_, spaces_at, 0),
                     absl::StrCat("the first space '", fast.name,
                                  "' must be the fastest: its bandwidths are below those of '",
                                  slow.name, "'"));
    }
    t.copy_bandwidth = std::min(in->bandwidth, out->bandwidth);
    t.fast_memory_bytes = fast.capacity_bytes;
    t.alignment = fast.alignment;
    return t;
  }

 private:
  absl::Status Located(std::size_t at, std::string_view message) const {
    return LocatedError(path_, TextLocation(text_, at), message);
  }
  absl::Status Fail(std::size_t object_at, std::string_view key, std::string_view message) const {
    return Located(KeyIn(text_, object_at, key), message);
  }

  std::optional<absl::Status> UnknownKey(const Json& object, const std::vector<std::string>& known,
                                         std::size_t at) const {
    for (const auto& [key, value] : object.items()) {
      if (std::find(known.begin(), known.end(), key) == known.end()) {
        return Fail(at, key, absl::StrCat("unknown key \"", key, "\" (expected ",
                                          absl::StrJoin(known, ", "), ")"));
      }
    }
    return std::nullopt;
  }

  absl::StatusOr<double> Rate(const Json& object, std::size_t at, const char* key) const {
    if (!object.contains(key)) return Located(at, absl::StrCat("missing field \"", key, "\""));
    const Json& v = object[key];
    if (!v.is_number()) return Fail(at, key, absl::StrCat("\"", key, "\" must be a number"));
    if (std::optional<std::string> bad = TargetRateProblem(key, v.get<double>())) {
      return Fail(at, key, *bad);
    }
    return v.get<double>();
  }

  absl::StatusOr<std::int64_t> Integer(const Json& object, std::size_t at, const char* key,
                                       std::int64_t min, std::int64_t max,
                                       std::optional<std::int64_t> fallback) const {
    if (!object.contains(key)) {
      if (fallback) return *fallback;
      return Located(at, absl::StrCat("missing field \"", key, "\""));
    }
    const Json& v = object[key];
    const bool representable =
        v.is_number_integer() &&
        !(v.is_number_unsigned() && v.get<std::uint64_t>() > static_cast<std::uint64_t>(INT64_MAX));
    if (!representable || v.get<std::int64_t>() < min || v.get<std::int64_t>() > max) {
      return Fail(at, key,
                  absl::StrCat("\"", key, "\" must be an integer in [", min, ", ", max, "]"));
    }
    return v.get<std::int64_t>();
  }

  absl::StatusOr<bool> Bool(const Json& object, std::size_t at, const char* key,
                            bool fallback) const {
    if (!object.contains(key)) return fallback;
    if (!object[key].is_boolean()) {
      return Fail(at, key, absl::StrCat("\"", key, "\" must be true or false"));
    }
    return object[key].get<bool>();
  }

  absl::StatusOr<MemorySpaceSpec> Space(const Json& j, std::size_t at, const Target& t) const {
    if (!j.is_object()) return Located(at, "a memory space must be a JSON object");
    static const std::vector<std::string> kKnown = {
        "name",      "kind",           "capacity_bytes",  "alignment", "read_bandwidth",
        "write_bandwidth", "latency_seconds", "writable", "devices"};
    if (auto bad = UnknownKey(j, kKnown, at)) return *bad;
    MemorySpaceSpec s;
    if (!j.contains("name") || !j["name"].is_string() || j["name"].get<std::string>().empty()) {
      return Fail(at, "name", "a memory space needs a \"name\" (a non-empty string)");
    }
    s.name = j["name"].get<std::string>();
    for (const MemorySpaceSpec& other : t.spaces) {
      if (other.name == s.name) {
        return Fail(at, "name", absl::StrCat("duplicate memory space name '", s.name, "'"));
      }
    }
    if (j.contains("kind")) {
      const std::string kind = j["kind"].is_string() ? j["kind"].get<std::string>() : "";
      if (kind != "ram" && kind != "flash") {
        return Fail(at, "kind", "\"kind\" must be \"ram\" or \"flash\"");
      }
      s.flash = kind == "flash";
    }
    absl::StatusOr<std::int64_t> capacity =
        Integer(j, at, "capacity_bytes", 0, kMaxTotalBytes, std::nullopt);
    if (!capacity.ok()) return capacity.status();
    s.capacity_bytes = *capacity;
    absl::StatusOr<std::int64_t> alignment = Integer(j, at, "alignment", 1, kMaxAlignment, 1);
    if (!alignment.ok()) return alignment.status();
    s.alignment = *alignment;
    for (const char* key : {"read_bandwidth", "write_bandwidth"}) {
      absl::StatusOr<double> rate = Rate(j, at, key);
      if (!rate.ok()) return rate.status();
      (std::string_view(key) == "read_bandwidth" ? s.read_bandwidth : s.write_bandwidth) = *rate;
    }
    if (j.contains("latency_seconds")) {
      const Json& v = j["latency_seconds"];
      if (!v.is_number() || !std::isfinite(v.get<double>()) || v.get<double>() < 0 ||
          v.get<double>() > 1) {
        return Fail(at, "latency_seconds", "\"latency_seconds\" must be a number from 0 to 1");
      }
      s.latency_s = v.get<double>();
    }
    absl::StatusOr<bool> writable = Bool(j, at, "writable", !s.flash);
    if (!writable.ok()) return writable.status();
    if (s.flash && *writable) {
      return Fail(at, "writable",
                  absl::StrCat("space '", s.name,
                               "' is flash and cannot be writable: flash holds constants, "
                               "programmed with the image, and is read in place"));
    }
    s.writable = *writable;
    if (j.contains("devices")) {
      const Json& d = j["devices"];
      if (!d.is_array() || d.empty() ||
          !std::all_of(d.begin(), d.end(), [](const Json& x) { return x.is_string(); })) {
        return Fail(at, "devices",
                    "\"devices\" must be a non-empty array of device names (\"*\": every device)");
      }
      for (const Json& x : d) s.devices.push_back(x.get<std::string>());
    }
    return s;
  }

  absl::StatusOr<int> SpaceIndex(const Json& j, std::size_t at, const char* key,
                                 const Target& t) const {
    if (!j.contains(key) || !j[key].is_string()) {
      return Fail(at, key, absl::StrCat("a link needs \"", key, "\" (a space name)"));
    }
    const std::string name = j[key].get<std::string>();
    for (std::size_t i = 0; i < t.spaces.size(); ++i) {
      if (t.spaces[i].name == name) return static_cast<int>(i);
    }
    std::vector<std::string> names;
    for (const MemorySpaceSpec& s : t.spaces) names.push_back(s.name);
    return Fail(at, key, absl::StrCat("link ", key, " unknown space '", name, "' (spaces: ",
                                      absl::StrJoin(names, ", "), ")"));
  }

  absl::StatusOr<LinkSpec> Link(const Json& j, std::size_t at, const Target& t) const {
    if (!j.is_object()) return Located(at, "a link must be a JSON object");
    static const std::vector<std::string> kKnown = {"from", "to", "bandwidth", "queues",
                                                    "max_outstanding"};
    if (auto bad = UnknownKey(j, kKnown, at)) return *bad;
    LinkSpec l;
    absl::StatusOr<int> from = SpaceIndex(j, at, "from", t);
    if (!from.ok()) return from.status();
    absl::StatusOr<int> to = SpaceIndex(j, at, "to", t);
    if (!to.ok()) return to.status();
    l.from = *from;
    l.to = *to;
    const MemorySpaceSpec& target_space = t.spaces[static_cast<std::size_t>(l.to)];
    if (l.from == l.to) return Fail(at, "to", "a link must join two different spaces");
    if (!target_space.writable) {
      return Fail(at, "to", absl::StrCat("a link cannot copy into read-only space '",
                                         target_space.name, "'"));
    }
    if (FindLink(t, l.from, l.to)) {
      return Located(at, absl::StrCat("duplicate link from '",
                                      t.spaces[static_cast<std::size_t>(l.from)].name, "' to '",
                                      target_space.name, "'"));
    }
    absl::StatusOr<double> bandwidth = Rate(j, at, "bandwidth");
    if (!bandwidth.ok()) return bandwidth.status();
    l.bandwidth = *bandwidth;
    absl::StatusOr<std::int64_t> queues = Integer(j, at, "queues", 1, 64, 1);
    if (!queues.ok()) return queues.status();
    l.queues = static_cast<int>(*queues);
    if (j.contains("max_outstanding")) {
      absl::StatusOr<std::int64_t> limit =
          Integer(j, at, "max_outstanding", 1, INT32_MAX, std::nullopt);
      if (!limit.ok()) return limit.status();
      l.max_outstanding = *limit;
    }
    return l;
  }

  const Json& json_;
  std::string_view text_;
  std::string_view path_;
  std::size_t top_ = 0;
};

}  // namespace

absl::StatusOr<Target> HierarchyTargetFromJson(const Json& json, std::string_view text,
                                               std::string_view path) {
  return Parser(json, text, path).Parse();
}

}  // namespace memplan
