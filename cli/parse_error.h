// CLI11 parse errors in memplan's words.
#pragma once

#include <string>

#include "CLI/CLI.hpp"

namespace memplan::cli {

// CLI11's parse error `e` as a sentence in memplan's words, for the kinds a
// user meets (a flag given twice or without its value, an argument the verb
// does not take, no verb); other kinds keep CLI11's text. `verb` is the
// parsed verb, if any.
std::string ParseErrorMessage(const CLI::ParseError& e, const CLI::App& app,
                              const CLI::App* verb);

}  // namespace memplan::cli
