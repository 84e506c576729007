#include "io/csv/reader.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <cstdint>
#include <limits>
#include <optional>
#include <unordered_map>
#include <utility>
#include <vector>

#include "fmt/format.h"
#include "io/file_io.h"
#include "ir/diagnostic.h"

namespace memplan {
namespace {

enum Column { kId, kLower, kUpper, kSize, kAlignment, kOffset, kGaps, kColumnCount };
constexpr std::array<std::string_view, kColumnCount> kColumnNames = {
    "id", "lower", "upper", "size", "alignment", "offset", "gaps"};
constexpr int kRequiredColumns = 4;  // id, lower, upper, size
constexpr std::string_view kExpectedColumns =
    "expected id, lower, upper, size and optionally alignment, offset, gaps";

// The limit of the numbers of the field `name` ("size", "gap lower", ...;
// ParseNumber's names), as messages state it: a number past 63 bits is
// reported against it, like one past it that fits (e.g. "size ... is above
// the limit of 2^62 (4611686018427387904) bytes").
std::string CsvFieldLimit(std::string_view name) {
  if (name == "alignment") return fmt::format("2^32 ({})", kMaxAlignment);
  if (name == "size" || name == "offset" || name.starts_with("window")) {
    return fmt::format("2^62 ({}) bytes", kMaxTotalBytes);
  }
  return fmt::format("2^62 ({}) time steps", kMaxTimeSteps);  // lower, upper, gap bounds
}

struct Field {
  std::string_view text;  // without surrounding spaces and tabs
  std::int32_t column;    // 1-based byte column of `text` in its line
};

// One line of the file without its line end. `column_base` is the number of
// bytes before `text` on the line (a byte-order mark on line 1).
struct Line {
  std::string_view text;
  std::int64_t number;
  std::int32_t column_base;
};

class CsvParser {
 public:
  CsvParser(std::string_view text, std::string_view path, CsvOffsets offsets)
      : text_(text), path_(path), offsets_(offsets) {}

  absl::StatusOr<BufferSet> Parse();

 private:
  static SourceLocation Location(const Line& line, std::int64_t column) {
    const auto clamp = [](std::int64_t v) {
      return static_cast<std::int32_t>(std::min<std::int64_t>(v, INT32_MAX));
    };
    return SourceLocation{clamp(line.number), clamp(column)};
  }
  absl::Status Error(const Line& line, std::int64_t column, std::string_view message) const {
    return LocatedError(path_, Location(line, column), message);
  }
  absl::Status CheckBytes(const Line& line) const;
  std::vector<Field> Split(const Line& line) const;
  absl::Status ParseHeader(const Line& line);
  absl::Status ParseRow(const Line& line);
  absl::StatusOr<std::int64_t> ParseNumber(const Line& line, const Field& field,
                                           std::string_view name) const;
  absl::Status ParseOffset(const Line& line, const Field& field, Buffer& b) const;
  absl::Status ParseGaps(const Line& line, const Field& field, Buffer& b) const;

  std::string_view text_;
  std::string_view path_;
  CsvOffsets offsets_;
  std::array<std::optional<size_t>, kColumnCount> index_;  // column -> field position
  size_t field_count_ = 0;
  BufferSet result_;
  std::unordered_map<std::string_view, std::int64_t> id_lines_;  // id -> line number
};

// `text` shortened for messages, cut at a UTF-8 character boundary.
std::string Shown(std::string_view text) {
  constexpr size_t kMax = 40;
  if (text.size() <= kMax) return std::string(text);
  size_t cut = kMax;
  while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;
  return fmt::format("{}...", text.substr(0, cut));
}

// Length of the valid UTF-8 sequence starting at `s[i]` (1-4), or 0.
size_t Utf8SequenceLength(std::string_view s, size_t i) {
  const auto byte = [&](size_t k) { return static_cast<unsigned char>(s[k]); };
  const unsigned char b = byte(i);
  if (b < 0x80) return 1;
  size_t length;
  unsigned char lo = 0x80, hi = 0xBF;  // range of the second byte
  if (b >= 0xC2 && b <= 0xDF) {
    length = 2;
  } else if (b >= 0xE0 && b <= 0xEF) {
    length = 3;
    if (b == 0xE0) lo = 0xA0;  // no overlong forms
    if (b == 0xED) hi = 0x9F;  // no surrogates
  } else if (b >= 0xF0 && b <= 0xF4) {
    length = 4;
    if (b == 0xF0) lo = 0x90;  // no overlong forms
    if (b == 0xF4) hi = 0x8F;  // nothing above U+10FFFF
  } else {
    return 0;
  }
  if (i + length > s.size()) return 0;
  if (byte(i + 1) < lo || byte(i + 1) > hi) return 0;
  for (size_t k = 2; k < length; ++k) {
    if ((byte(i + k) & 0xC0) != 0x80) return 0;
  }
  return length;
}

absl::Status CsvParser::CheckBytes(const Line& line) const {
  if (line.text.size() > kMaxCsvLineBytes) {
    return Error(line, line.column_base + kMaxCsvLineBytes + 1,
                 fmt::format("line longer than {} bytes", kMaxCsvLineBytes));
  }
  for (size_t i = 0; i < line.text.size();) {
    if (line.text[i] == '\0') return Error(line, line.column_base + i + 1, "NUL byte");
    const size_t length = Utf8SequenceLength(line.text, i);
    if (length == 0) {
      return Error(line, line.column_base + i + 1,
                   fmt::format("invalid UTF-8 sequence starting with byte 0x{:02X}",
                               static_cast<unsigned char>(line.text[i])));
    }
    i += length;
  }
  return absl::OkStatus();
}

bool IsBlank(char c) { return c == ' ' || c == '\t'; }

std::vector<Field> CsvParser::Split(const Line& line) const {
  std::vector<Field> fields;
  size_t start = 0;
  while (true) {
    const size_t comma = line.text.find(',', start);
    const size_t stop = comma == std::string_view::npos ? line.text.size() : comma;
    size_t lo = start, hi = stop;
    while (lo < hi && IsBlank(line.text[lo])) ++lo;
    while (hi > lo && IsBlank(line.text[hi - 1])) --hi;
    if (lo == hi) lo = hi = start;  // an empty field is located at its start
    fields.push_back(Field{line.text.substr(lo, hi - lo),
                           static_cast<std::int32_t>(line.column_base + lo + 1)});
    if (comma == std::string_view::npos) break;
    start = comma + 1;
  }
  return fields;
}

// The known column name that `text` spells in another case, e.g. "ID" ->
// "id"; empty when there is none.
std::string_view OtherCaseOfColumn(std::string_view text) {
  const auto same_ignoring_case = [&](std::string_view name) {
    return name.size() == text.size() &&
           std::equal(name.begin(), name.end(), text.begin(), [](char a, char b) {
             return a == std::tolower(static_cast<unsigned char>(b));
           });
  };
  for (std::string_view name : kColumnNames) {
    if (same_ignoring_case(name)) return name;
  }
  return {};
}

absl::Status CsvParser::ParseHeader(const Line& line) {
  std::vector<Field> fields = Split(line);
  // A first line naming no known column (in any case) is data: the header is missing.
  const bool names_a_column = std::any_of(fields.begin(), fields.end(), [](const Field& f) {
    return !OtherCaseOfColumn(f.text).empty();
  });
  if (!names_a_column) {
    return Error(line, 1,
                 "missing header: the first line must name the columns, e.g. "
                 "'id,lower,upper,size' (optionally with 'alignment', 'offset', 'gaps')");
  }
  std::array<std::int32_t, kColumnCount> seen_at{};
  for (size_t i = 0; i < fields.size(); ++i) {
    const Field& f = fields[i];
    if (f.text.empty()) return Error(line, f.column, "empty column name");
    auto known = std::find(kColumnNames.begin(), kColumnNames.end(), f.text);
    if (const std::string_view lower = OtherCaseOfColumn(f.text);
        known == kColumnNames.end() && !lower.empty()) {
      return Error(line, f.column,
                   fmt::format("unknown column '{}' (column names are lower-case: '{}')",
                               f.text, lower));
    }
    if (known == kColumnNames.end()) {
      return Error(line, f.column,
                   fmt::format("unknown column '{}' ({})", Shown(f.text), kExpectedColumns));
    }
    const size_t column = known - kColumnNames.begin();
    if (index_[column]) {
      return Error(line, f.column,
                   fmt::format("duplicate column '{}' (also at column {})", f.text,
                               seen_at[column]));
    }
    index_[column] = i;
    seen_at[column] = f.column;
  }
  for (int column = 0; column < kRequiredColumns; ++column) {
    if (!index_[column]) {
      return Error(line, line.column_base + 1,
                   fmt::format("header lacks the required column '{}' ({})",
                               kColumnNames[column], kExpectedColumns));
    }
  }
  field_count_ = fields.size();
  for (const Field& f : fields) result_.csv_columns.emplace_back(f.text);
  return absl::OkStatus();
}

absl::StatusOr<std::int64_t> CsvParser::ParseNumber(const Line& line, const Field& field,
                                                    std::string_view name) const {
  if (field.text.empty()) {
    return Error(line, field.column,
                 fmt::format("expected a non-negative integer for '{}', found nothing", name));
  }
  const bool negative = field.text[0] == '-';
  const std::string_view digits = negative ? field.text.substr(1) : field.text;
  const bool all_digits = !digits.empty() && std::all_of(digits.begin(), digits.end(), [](char c) {
    return c >= '0' && c <= '9';
  });
  if (!all_digits) {
    return Error(line, field.column,
                 fmt::format("expected a non-negative integer for '{}', found '{}'", name,
                             Shown(field.text)));
  }
  if (negative) {
    return Error(line, field.column,
                 fmt::format("'{}' must not be negative, found '{}'", name, Shown(field.text)));
  }
  std::int64_t value = 0;
  for (char c : digits) {
    if (value > (std::numeric_limits<std::int64_t>::max() - (c - '0')) / 10) {
      return Error(line, field.column,
                   fmt::format("'{}' value '{}' is above the limit of {}", name,
                               Shown(field.text), CsvFieldLimit(name)));
    }
    value = value * 10 + (c - '0');
  }
  return value;
}

absl::Status CsvParser::ParseRow(const Line& line) {
  std::vector<Field> fields = Split(line);
  if (fields.size() != field_count_) {
    const std::int64_t column = fields.size() > field_count_
                                    ? fields[field_count_].column
                                    : line.column_base + static_cast<std::int64_t>(line.text.size()) + 1;
    return Error(line, column,
                 fmt::format("expected {} fields as in the header, found {}", field_count_,
                             fields.size()));
  }
  const Field& id = fields[*index_[kId]];
  if (id.text.empty()) return Error(line, id.column, "empty id");
  auto [it, inserted] = id_lines_.emplace(id.text, line.number);
  if (!inserted) {
    return Error(line, id.column,
                 fmt::format("duplicate id '{}' (first on line {})", Shown(id.text), it->second));
  }
  std::array<std::int64_t, kOffset> values{0, 0, 0, 0, 1};
  for (int column = kLower; column < kOffset; ++column) {
    if (!index_[column]) continue;
    absl::StatusOr<std::int64_t> v =
        ParseNumber(line, fields[*index_[column]], kColumnNames[column]);
    if (!v.ok()) return v.status();
    values[column] = *v;
  }
  if (values[kUpper] <= values[kLower]) {
    return Error(line, fields[*index_[kUpper]].column,
                 fmt::format("upper {} must be greater than lower {}", values[kUpper],
                             values[kLower]));
  }
  if (values[kUpper] > kMaxTimeSteps) {
    return Error(line, fields[*index_[kUpper]].column,
                 fmt::format("upper {} is above the limit of 2^62 ({}) time steps",
                             values[kUpper], kMaxTimeSteps));
  }
  if (values[kAlignment] < 1) {
    return Error(line, fields[*index_[kAlignment]].column, "alignment must be at least 1");
  }
  if (values[kAlignment] > kMaxAlignment) {
    return Error(line, fields[*index_[kAlignment]].column,
                 fmt::format("alignment {} is above the limit of 2^32 ({})", values[kAlignment],
                             kMaxAlignment));
  }
  if (values[kSize] > kMaxTotalBytes) {
    return Error(line, fields[*index_[kSize]].column,
                 fmt::format("size {} is above the limit of 2^62 ({}) bytes", values[kSize],
                             kMaxTotalBytes));
  }
  // The row alone, padded to its alignment, must fit the 2^62 total (no
  // overflow: size <= 2^62, alignment <= 2^32).
  if (values[kSize] + values[kAlignment] - 1 > kMaxTotalBytes) {
    return Error(line, fields[*index_[kSize]].column,
                 fmt::format("size {} with alignment {} is above the limit of 2^62 ({}) bytes "
                             "counting alignment padding",
                             values[kSize], values[kAlignment], kMaxTotalBytes));
  }
  Buffer b;
  b.name = std::string(id.text);
  b.size = values[kSize];
  b.alignment = values[kAlignment];
  b.start = values[kLower];
  b.end = values[kUpper] - 1;
  const Field& offset_field = index_[kOffset] ? fields[*index_[kOffset]] : fields.front();
  if (index_[kOffset]) {
    if (absl::Status s = ParseOffset(line, offset_field, b); !s.ok()) return s;
  }
  const Field& gaps_field = index_[kGaps] ? fields[*index_[kGaps]] : fields.front();
  if (index_[kGaps]) {
    if (absl::Status s = ParseGaps(line, gaps_field, b); !s.ok()) return s;
  }
  result_.time_steps = std::max(result_.time_steps, values[kUpper]);
  result_.buffers.push_back(std::move(b));
  result_.csv_fields.push_back(CsvRowFields{
      Location(line, id.column), Location(line, fields[*index_[kLower]].column),
      Location(line, fields[*index_[kUpper]].column), Location(line, fields[*index_[kSize]].column),
      Location(line, offset_field.column), Location(line, gaps_field.column),
      Location(line, (index_[kAlignment] ? fields[*index_[kAlignment]] : fields.front()).column)});
  return absl::OkStatus();
}

absl::Status CsvParser::ParseOffset(const Line& line, const Field& field, Buffer& b) const {
  if (field.text.empty()) return absl::OkStatus();  // this buffer is free to move
  absl::StatusOr<std::int64_t> offset = ParseNumber(line, field, "offset");
  if (!offset.ok()) return offset.status();
  if (offsets_ == CsvOffsets::kFixed && *offset % b.alignment != 0) {
    return Error(line, field.column,
                 fmt::format("offset {} is not a multiple of the alignment {}", *offset,
                             b.alignment));
  }
  if (*offset > kMaxTotalBytes - b.size) {
    return Error(line, field.column,
                 fmt::format("offset {} plus size {} is above the limit of 2^62 ({}) bytes",
                             *offset, b.size, kMaxTotalBytes));
  }
  b.fixed_offset = *offset;
  return absl::OkStatus();
}

// One entry of a `gaps` field, as written: half-open steps [lower, upper)
// and, for a window, the bytes [lo, hi) the buffer keeps during them.
struct CsvGap {
  std::int64_t lower = 0;
  std::int64_t upper = 0;
  std::optional<std::pair<Bytes, Bytes>> window;
  std::int32_t column = 0;  // of the entry, for messages
  std::string_view text;
};

absl::Status CsvParser::ParseGaps(const Line& line, const Field& field, Buffer& b) const {
  const std::string_view text = field.text;
  // `text` split at `separator` into two fields located on the line; nullopt
  // when the separator is missing.
  const auto split = [&](const Field& f, char separator) -> std::optional<std::pair<Field, Field>> {
    const size_t at = f.text.find(separator);
    if (at == std::string_view::npos) return std::nullopt;
    return std::make_pair(Field{f.text.substr(0, at), f.column},
                          Field{f.text.substr(at + 1),
                                static_cast<std::int32_t>(f.column + at + 1)});
  };
  std::vector<CsvGap> gaps;
  for (size_t pos = 0; pos < text.size();) {
    if (IsBlank(text[pos])) {
      ++pos;
      continue;
    }
    size_t stop = pos;
    while (stop < text.size() && !IsBlank(text[stop])) ++stop;
    const Field entry{text.substr(pos, stop - pos), static_cast<std::int32_t>(field.column + pos)};
    pos = stop;
    const std::string form = fmt::format(
        "gap '{}' is not of the form LOWER-UPPER or LOWER-UPPER@LO:HI (e.g. 2-5 or 2-5@0:64)",
        Shown(entry.text));
    const size_t at = entry.text.find('@');
    const Field steps{entry.text.substr(0, at), entry.column};
    const auto bounds = split(steps, '-');
    if (!bounds) return Error(line, entry.column, form);
    CsvGap gap;
    gap.column = entry.column;
    gap.text = entry.text;
    absl::StatusOr<std::int64_t> lower = ParseNumber(line, bounds->first, "gap lower");
    if (!lower.ok()) return lower.status();
    absl::StatusOr<std::int64_t> upper = ParseNumber(line, bounds->second, "gap upper");
    if (!upper.ok()) return upper.status();
    gap.lower = *lower;
    gap.upper = *upper;
    if (gap.upper <= gap.lower) {
      return Error(line, entry.column,
                   fmt::format("gap '{}' is empty: its upper must be greater than its lower",
                               Shown(entry.text)));
    }
    if (gap.lower < b.start || gap.upper > b.end + 1) {
      return Error(line, entry.column,
                   fmt::format("gap '{}' is outside the buffer's range [{}, {})",
                               Shown(entry.text), b.start, b.end + 1));
    }
    if (at != std::string_view::npos) {
      const Field window{entry.text.substr(at + 1),
                         static_cast<std::int32_t>(entry.column + at + 1)};
      const auto bytes = split(window, ':');
      if (!bytes) return Error(line, window.column, form);
      absl::StatusOr<std::int64_t> lo = ParseNumber(line, bytes->first, "window lo");
      if (!lo.ok()) return lo.status();
      absl::StatusOr<std::int64_t> hi = ParseNumber(line, bytes->second, "window hi");
      if (!hi.ok()) return hi.status();
      if (*lo > *hi || *hi > b.size) {
        return Error(line, window.column,
                     fmt::format("window {}:{} must satisfy lo <= hi <= size ({})", *lo, *hi,
                                 b.size));
      }
      if (*lo < *hi) gap.window = std::make_pair(*lo, *hi);  // lo == hi: nothing kept
    }
    if (!gap.window && (gap.lower == b.start || gap.upper == b.end + 1)) {
      return Error(line, entry.column,
                   fmt::format("gap '{}' reaches the {} step of the buffer's range [{}, {}): "
                               "shorten the range instead",
                               Shown(entry.text), gap.lower == b.start ? "first" : "last",
                               b.start, b.end + 1));
    }
    gaps.push_back(gap);
  }
  std::stable_sort(gaps.begin(), gaps.end(),
                   [](const CsvGap& x, const CsvGap& y) { return x.lower < y.lower; });
  for (size_t i = 0; i < gaps.size(); ++i) {
    const CsvGap& gap = gaps[i];
    if (i > 0 && gaps[i - 1].upper > gap.lower) {
      return Error(line, gap.column,
                   fmt::format("gap '{}' overlaps gap '{}'", Shown(gap.text),
                               Shown(gaps[i - 1].text)));
    }
    const StepRange steps{gap.lower, gap.upper - 1};
    if (gap.window) {
      b.windows.push_back(OccupancyWindow{steps, gap.window->first, gap.window->second});
    } else if (!b.gaps.empty() && b.gaps.back().last + 1 == steps.first) {
      b.gaps.back().last = steps.last;  // adjacent dead gaps are one
    } else {
      b.gaps.push_back(steps);
    }
  }
  return absl::OkStatus();
}

absl::StatusOr<BufferSet> CsvParser::Parse() {
  result_.input = std::string(path_);
  constexpr std::string_view kBom = "\xEF\xBB\xBF";
  const bool bom = text_.substr(0, kBom.size()) == kBom;
  bool have_header = false;
  size_t pos = bom ? kBom.size() : 0;
  for (std::int64_t number = 1; pos < text_.size() || number == 1; ++number) {
    const size_t newline = text_.find('\n', pos);
    const size_t stop = newline == std::string_view::npos ? text_.size() : newline;
    Line line{text_.substr(pos, stop - pos), number,
              static_cast<std::int32_t>(number == 1 && bom ? kBom.size() : 0)};
    if (!line.text.empty() && line.text.back() == '\r') line.text.remove_suffix(1);
    pos = newline == std::string_view::npos ? text_.size() : newline + 1;
    if (absl::Status s = CheckBytes(line); !s.ok()) return s;
    if (std::all_of(line.text.begin(), line.text.end(), IsBlank)) continue;
    absl::Status s = have_header ? ParseRow(line) : ParseHeader(line);
    if (!s.ok()) return s;
    have_header = true;
  }
  if (!have_header) {
    return LocatedError(path_, SourceLocation{1, 1},
                        "empty file: expected a header line such as 'id,lower,upper,size'");
  }
  return std::move(result_);
}

}  // namespace

absl::StatusOr<BufferSet> ReadLifetimeCsv(std::string_view text, std::string_view path,
                                          CsvOffsets offsets) {
  return CsvParser(text, path, offsets).Parse();
}

absl::StatusOr<BufferSet> ReadLifetimeCsvFile(const std::string& path, CsvOffsets offsets) {
  absl::StatusOr<std::string> text = ReadFile(path);
  if (!text.ok()) return text.status();
  return ReadLifetimeCsv(*text, path, offsets);
}

}  // namespace memplan
