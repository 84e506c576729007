// Where a place in a JSON document is in its text, for located errors
// (`plan.json:12:20: error: /buffers/0/allocations/0/offset: ...`).
#pragma once

#include <cstddef>
#include <string_view>

#include "ir/diagnostic.h"
#include "ir/program.h"

namespace memplan {

// The location in `text` (a well-formed JSON document: one the parser has
// accepted) of the value at RFC 6901 `pointer` ("/buffers/0/offset"; `~0`
// and `~1` escapes), or of the deepest value on its path that exists when
// the rest is missing ("/buffers/0/nope" -> buffer 0's `{`). The empty
// pointer gives the document's first value. A member's location is that of
// its value, not its key. Does not recurse (deep nesting is safe); O(size
// of the text before the value).
// Example: text "{\n  \"a\": [1, 22]\n}", pointer "/a/1" -> line 2, column 13.
SourceLocation JsonPointerLocation(std::string_view text, std::string_view pointer);

}  // namespace memplan
