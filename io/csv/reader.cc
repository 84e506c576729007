#include "io/csv/reader.h"

#include <sys/stat.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <cstdint>
#include <functional>
#include <iterator>
#include <limits>
#include <optional>
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

// The columns named by `columns` (a header, in file order); nullopt if one
// is not a known column.
std::optional<std::vector<Column>> ColumnOrder(const std::vector<std::string>& columns) {
  std::vector<Column> order;
  for (const std::string& name : columns) {
    const auto known = std::find(kColumnNames.begin(), kColumnNames.end(), name);
    if (known == kColumnNames.end()) return std::nullopt;
    order.push_back(static_cast<Column>(known - kColumnNames.begin()));
  }
  return order;
}

// Number of decimal digits of `value` >= 0.
std::int64_t Digits(std::int64_t value) {
  std::int64_t digits = 1;
  for (; value >= 10; value /= 10) ++digits;
  return digits;
}

// Where the fields of a row holding `b` would be on line `line` if written
// as its values print, without blanks, in the column order `order`, with
// an empty gaps field (CsvRowIndex).
CsvRowFields PrintedFields(const std::vector<Column>& order, const Buffer& b, std::int64_t line) {
  const auto clamp = [](std::int64_t v) {
    return static_cast<std::int32_t>(std::min<std::int64_t>(v, INT32_MAX));
  };
  std::array<SourceLocation, kColumnCount> at;
  at.fill(SourceLocation{clamp(line), 1});  // absent columns: at the first field
  std::int64_t column = 1;
  for (Column c : order) {
    at[c] = SourceLocation{clamp(line), clamp(column)};
    std::int64_t width = 0;
    switch (c) {
      case kId: width = static_cast<std::int64_t>(b.name.size()); break;
      case kLower: width = Digits(b.start); break;
      case kUpper: width = Digits(b.end + 1); break;
      case kSize: width = Digits(b.size); break;
      case kAlignment: width = Digits(b.alignment); break;
      case kOffset: width = b.fixed_offset() ? Digits(*b.fixed_offset()) : 0; break;
      case kGaps:
      case kColumnCount: break;
    }
    column += width + 1;
  }
  return CsvRowFields{at[kId], at[kLower], at[kUpper], at[kSize], at[kOffset], at[kGaps], at[kAlignment]};
}

// The line of row `row` of a file indexed (so far) by `index`.
std::int64_t RowLine(const CsvRowIndex& index, std::int64_t row) {
  // The last stored row at or before `row`; the rows after it follow on
  // consecutive lines.
  auto after = std::upper_bound(index.stored.begin(), index.stored.end(), row,
                                [](std::int64_t x, const CsvRowIndex::Stored& s) { return x < s.row; });
  if (after == index.stored.begin()) return index.header_line + 1 + row;
  return std::prev(after)->line + (row - std::prev(after)->row);
}

// The ids seen so far, to refuse a repeated one. While the ids are 0, 1,
// 2, ... in row order (MiniMalloc's files and the generators') nothing is
// stored: a repeat would have to break that order. At the first other id
// every row so far is entered into an open-addressing table of row indices
// (with their names' hashes), 8 to 16 bytes per row, looked up by name.
class IdIndex {
 public:
  // The row that already has `id`, or nullopt after entering `row` (the
  // next row, whose id is `id`). `name_of(r)` is the id of row r < row.
  template <typename NameOf>
  std::optional<std::int64_t> Insert(std::string_view id, std::int64_t row, NameOf name_of) {
    if (sequential_) {
      if (IsDecimal(id, row)) return std::nullopt;
      sequential_ = false;
      Grow();
      for (std::int64_t r = 0; r < row; ++r) Enter(Hash(name_of(r)), r);
    }
    const std::uint32_t hash = Hash(id);
    for (std::size_t i = Slot(hash);; i = (i + 1) & (table_.size() - 1)) {
      const std::uint64_t entry = table_[i];
      if (entry == 0) break;
      const auto r = static_cast<std::int64_t>(entry & 0xFFFFFFFFu) - 1;
      if (static_cast<std::uint32_t>(entry >> 32) == hash && name_of(r) == id) return r;
    }
    Enter(hash, row);
    return std::nullopt;
  }

 private:
  // Whether `text` is `value` in decimal without leading zeros.
  static bool IsDecimal(std::string_view text, std::int64_t value) {
    char digits[24];
    const auto [end, ec] = std::to_chars(digits, digits + sizeof(digits), value);
    return ec == std::errc() && text == std::string_view(digits, end - digits);
  }
  static std::uint32_t Hash(std::string_view text) {
    const std::size_t h = std::hash<std::string_view>()(text);
    return static_cast<std::uint32_t>(h ^ (h >> 32));
  }
  std::size_t Slot(std::uint32_t hash) const {
    return (hash * std::size_t{0x9E3779B97F4A7C15u} >> 7) & (table_.size() - 1);
  }
  // Enters a row not in the table; rows fit 32 bits (BufferId).
  void Enter(std::uint32_t hash, std::int64_t row) {
    if (2 * (count_ + 1) > table_.size()) Grow();
    std::size_t i = Slot(hash);
    while (table_[i] != 0) i = (i + 1) & (table_.size() - 1);
    table_[i] = std::uint64_t{hash} << 32 | static_cast<std::uint64_t>(row + 1);
    ++count_;
  }
  void Grow() {
    std::vector<std::uint64_t> old = std::move(table_);
    table_.assign(std::max<std::size_t>(1024, 2 * old.size()), 0);
    for (std::uint64_t entry : old) {
      if (entry == 0) continue;
      std::size_t i = Slot(static_cast<std::uint32_t>(entry >> 32));
      while (table_[i] != 0) i = (i + 1) & (table_.size() - 1);
      table_[i] = entry;
    }
  }

  bool sequential_ = true;
  std::vector<std::uint64_t> table_;  // (hash << 32) | (row + 1); 0: free
  std::size_t count_ = 0;
};

// Parses a lifetime CSV fed one line at a time (AddLine), so a large file
// is read in chunks and never held whole.
class CsvParser {
 public:
  // `lines`: how many lines the file has, when known (its rows are at
  // most that many): the buffers are reserved once, as a growing vector
  // would hold up to 3 times their bytes while it moves them.
  CsvParser(std::string_view path, CsvOffsets offsets, std::optional<std::int64_t> lines)
      : path_(path), offsets_(offsets) {
    if (lines) result_.buffers.reserve(static_cast<std::size_t>(std::max<std::int64_t>(0, *lines)));
  }

  // The next line of the file, without its '\n' (a '\r' before it is
  // dropped here).
  absl::Status AddLine(std::string_view text);
  absl::StatusOr<BufferSet> Finish();

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
  const std::vector<Field>& Split(const Line& line);
  absl::Status ParseHeader(const Line& line);
  absl::Status ParseRow(const Line& line);
  absl::StatusOr<std::int64_t> ParseNumber(const Line& line, const Field& field,
                                           std::string_view name) const;
  absl::Status ParseOffset(const Line& line, const Field& field, Buffer& b) const;
  absl::Status ParseGaps(const Line& line, const Field& field, Buffer& b) const;
  const Buffer& RowAt(std::int64_t row) const {
    return result_.buffers[static_cast<std::size_t>(row)];
  }

  std::string_view path_;
  CsvOffsets offsets_;
  std::int64_t number_ = 0;  // of the last line added
  bool have_header_ = false;
  std::array<std::optional<size_t>, kColumnCount> index_;  // column -> field position
  size_t field_count_ = 0;
  std::vector<Column> order_;  // the header's columns in file order
  std::vector<Field> fields_;  // of the line being parsed (reused)
  BufferSet result_;
  std::int64_t rows_ = 0;
  std::int64_t last_row_line_ = 0;  // line of the last row (the header's before the first)
  IdIndex ids_;
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
    if (line.text[i] == '\r') {
      return Error(line, line.column_base + i + 1,
                   "carriage return inside a line: lines end with LF or CRLF, not CR alone");
    }
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

const std::vector<Field>& CsvParser::Split(const Line& line) {
  std::vector<Field>& fields = fields_;
  fields.clear();
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
  const std::vector<Field>& fields = Split(line);
  // A first line naming no known column (in any case) is data: the header is missing.
  const bool names_a_column = std::any_of(fields.begin(), fields.end(), [](const Field& f) {
    return !OtherCaseOfColumn(f.text).empty();
  });
  if (!names_a_column) {
    // A header written with another separator names no column either.
    const bool tabs = line.text.find('\t') != std::string_view::npos;
    const bool semicolons = line.text.find(';') != std::string_view::npos;
    const std::string separator =
        fields.size() > 1 || !(tabs || semicolons)
            ? std::string()
            : fmt::format(" (columns are separated by commas; this line has {})",
                          tabs ? "tabs" : "semicolons");
    return Error(line, 1,
                 "missing header: the first line must name the columns, e.g. "
                 "'id,lower,upper,size' (optionally with 'alignment', 'offset', 'gaps')" +
                     separator);
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
  result_.csv_rows.header_line = line.number;
  order_ = *ColumnOrder(result_.csv_columns);
  last_row_line_ = line.number;
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
  const std::vector<Field>& fields = Split(line);
  if (fields.size() != field_count_) {
    const std::int64_t column = fields.size() > field_count_
                                    ? fields[field_count_].column
                                    : line.column_base + static_cast<std::int64_t>(line.text.size()) + 1;
    return Error(line, column,
                 fmt::format("expected {} fields as in the header, found {}", field_count_,
                             fields.size()));
  }
  if (rows_ == std::numeric_limits<BufferId>::max()) {
    return Error(line, line.column_base + 1,
                 fmt::format("more than {} rows: buffer ids are 32-bit",
                             std::numeric_limits<BufferId>::max()));
  }
  const Field& id = fields[*index_[kId]];
  if (id.text.empty()) return Error(line, id.column, "empty id");
  if (const std::optional<std::int64_t> first =
          ids_.Insert(id.text, rows_, [&](std::int64_t r) { return RowAt(r).name.view(); })) {
    return Error(line, id.column,
                 fmt::format("duplicate id '{}' (first on line {})", Shown(id.text),
                             RowLine(result_.csv_rows, *first)));
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
  const CsvRowFields where{
      Location(line, id.column), Location(line, fields[*index_[kLower]].column),
      Location(line, fields[*index_[kUpper]].column), Location(line, fields[*index_[kSize]].column),
      Location(line, offset_field.column), Location(line, gaps_field.column),
      Location(line, (index_[kAlignment] ? fields[*index_[kAlignment]] : fields.front()).column)};
  // Stored only where the values do not say it (CsvRowIndex).
  if (where != PrintedFields(order_, b, last_row_line_ + 1)) {
    result_.csv_rows.stored.push_back({rows_, line.number, where});
  }
  last_row_line_ = line.number;
  result_.buffers.push_back(std::move(b));
  ++rows_;
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
  b.mutable_fixed_offset() = *offset;
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
      b.mutable_windows().push_back(OccupancyWindow{steps, gap.window->first, gap.window->second});
    } else if (!b.gaps().empty() && b.gaps().back().last + 1 == steps.first) {
      b.mutable_gaps().back().last = steps.last;  // adjacent dead gaps are one
    } else {
      b.mutable_gaps().push_back(steps);
    }
  }
  return absl::OkStatus();
}

absl::Status CsvParser::AddLine(std::string_view text) {
  ++number_;
  constexpr std::string_view kBom = "\xEF\xBB\xBF";
  const bool bom = number_ == 1 && text.starts_with(kBom);
  if (bom) text.remove_prefix(kBom.size());
  Line line{text, number_, static_cast<std::int32_t>(bom ? kBom.size() : 0)};
  if (!line.text.empty() && line.text.back() == '\r') line.text.remove_suffix(1);
  if (absl::Status s = CheckBytes(line); !s.ok()) return s;
  if (std::all_of(line.text.begin(), line.text.end(), IsBlank)) return absl::OkStatus();
  absl::Status s = have_header_ ? ParseRow(line) : ParseHeader(line);
  if (!s.ok()) return s;
  have_header_ = true;
  return absl::OkStatus();
}

absl::StatusOr<BufferSet> CsvParser::Finish() {
  if (!have_header_) {
    return LocatedError(path_, SourceLocation{1, 1},
                        "empty file: expected a header line such as 'id,lower,upper,size'");
  }
  result_.input = std::string(path_);
  return std::move(result_);
}

// Splits text given in chunks into lines at '\n' and passes each, without
// it, to `line`: as the file's lines are numbered, an empty input is one
// empty line and a final '\n' ends the last line (no empty line follows).
// A line split between chunks is copied, up to kMaxCsvLineBytes + 2 bytes:
// enough for the parser to refuse a longer one, at the same column.
// `line` must outlive the splitter (a FunctionRef does not own it).
class LineSplitter {
 public:
  explicit LineSplitter(absl::FunctionRef<absl::Status(std::string_view)> line) : line_(line) {}

  absl::Status Add(std::string_view chunk) {
    for (std::size_t pos = 0;;) {
      const std::size_t newline = chunk.find('\n', pos);
      const std::string_view piece =
          chunk.substr(pos, newline == std::string_view::npos ? std::string_view::npos : newline - pos);
      if (newline == std::string_view::npos) {
        Keep(piece);
        return absl::OkStatus();
      }
      absl::Status s;
      if (pending_.empty()) {
        s = line_(piece);
      } else {
        Keep(piece);
        s = line_(pending_);
        pending_.clear();
      }
      if (!s.ok()) return s;
      any_ = true;
      pos = newline + 1;
    }
  }
  absl::Status Finish() {
    if (!pending_.empty() || !any_) return line_(pending_);
    return absl::OkStatus();
  }

 private:
  void Keep(std::string_view piece) {
    constexpr std::size_t kKept = kMaxCsvLineBytes + 2;
    if (pending_.size() < kKept) pending_.append(piece.substr(0, kKept - pending_.size()));
  }

  absl::FunctionRef<absl::Status(std::string_view)> line_;
  std::string pending_;
  bool any_ = false;
};

}  // namespace

absl::StatusOr<BufferSet> ReadLifetimeCsv(std::string_view text, std::string_view path,
                                          CsvOffsets offsets) {
  CsvParser parser(path, offsets, static_cast<std::int64_t>(std::count(text.begin(), text.end(), '\n')) + 1);
  const auto add_line = [&](std::string_view line) { return parser.AddLine(line); };
  LineSplitter lines(add_line);
  if (absl::Status s = lines.Add(text); !s.ok()) return s;
  if (absl::Status s = lines.Finish(); !s.ok()) return s;
  return parser.Finish();
}

absl::StatusOr<BufferSet> ReadLifetimeCsvFile(const std::string& path, CsvOffsets offsets) {
  // A first pass counts the lines of a regular file (no more than reading
  // it); a pipe is read once, its buffers reserved as they come.
  std::optional<std::int64_t> line_count;
  if (struct stat st; ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode)) {
    std::int64_t newlines = 0;
    if (ReadFileInChunks(path, 1 << 20, [&](std::string_view chunk) {
          newlines += std::count(chunk.begin(), chunk.end(), '\n');
          return absl::OkStatus();
        }).ok()) {
      line_count = newlines + 1;
    }
  }
  CsvParser parser(path, offsets, line_count);
  const auto add_line = [&](std::string_view line) { return parser.AddLine(line); };
  LineSplitter lines(add_line);
  if (absl::Status s = ReadFileInChunks(path, 1 << 20, [&](std::string_view chunk) { return lines.Add(chunk); });
      !s.ok()) {
    return s;
  }
  if (absl::Status s = lines.Finish(); !s.ok()) return s;
  return parser.Finish();
}

std::optional<CsvRowFields> CsvFieldsOf(const BufferSet& buffers, std::size_t row) {
  const CsvRowIndex& index = buffers.csv_rows;
  if (index.header_line == 0 || row >= buffers.buffers.size()) return std::nullopt;
  const auto r = static_cast<std::int64_t>(row);
  auto stored = std::lower_bound(index.stored.begin(), index.stored.end(), r,
                                 [](const CsvRowIndex::Stored& s, std::int64_t x) { return s.row < x; });
  if (stored != index.stored.end() && stored->row == r) return stored->fields;
  const std::optional<std::vector<Column>> order = ColumnOrder(buffers.csv_columns);
  if (!order) return std::nullopt;
  return PrintedFields(*order, buffers.buffers[row], RowLine(index, r));
}

}  // namespace memplan
