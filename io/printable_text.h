// One-line, printable text for messages that quote what a file contains.
#pragma once

#include <string>
#include <string_view>

namespace memplan {

// `text` with every byte a terminal would not print as one visible character
// escaped, so an error message stays on one line whatever a file holds:
// newline -> `\n`, tab -> `\t`, other control bytes (0x00-0x1f, 0x7f) and
// bytes that are not part of valid UTF-8 -> `\xNN` (two hex digits); valid
// UTF-8 sequences (non-ASCII names) and a backslash are kept as they are.
// Example: "a\nb\xff" (4 bytes) -> `a\nb\xff` (8 characters).
std::string PrintableText(std::string_view text);

}  // namespace memplan
