// Writing CSV (RFC 4180) fields, for the CSV files memplan writes
// (report/profile_csv.h, report/sweep/sweep_table.h).
#pragma once

#include <string>

namespace memplan {

// `text` as one CSV field: unchanged, or in double quotes (inner quotes
// doubled) when it holds a comma, a double quote, CR or LF.
// Example: `a,"b"` -> `"a,""b"""`.
std::string CsvField(const std::string& text);

}  // namespace memplan
