#include "cli/parse_error.h"

#include <string_view>
#include <vector>

#include "cli/did_you_mean.h"
#include "fmt/format.h"

namespace memplan::cli {
namespace {

// " (did you mean --fast-memory?)" when `typo` is close to one of the
// verb's long flags, else "".
std::string FlagSuggestion(std::string_view typo, const CLI::App& verb) {
  if (!typo.starts_with("--")) return "";
  std::vector<std::string> flags;
  for (const CLI::Option* option : verb.get_options()) {
    for (const std::string& name : option->get_lnames()) flags.push_back("--" + name);
  }
  // "--fast-memroy=2MiB": the flag part.
  const std::optional<std::string> closest = ClosestName(typo.substr(0, typo.find('=')), flags);
  return closest ? fmt::format(" (did you mean {}?)", *closest) : "";
}

}  // namespace

// CLI11's parse error `e` as a sentence in memplan's words, for the kinds a
// user meets (a flag given twice or without its value, an argument the verb
// does not take, a value that is not a number, no verb); other kinds keep
// CLI11's text. `verb` is the parsed verb, if any.
std::string ParseErrorMessage(const CLI::ParseError& e, const CLI::App& app,
                              const CLI::App* verb) {
  const std::string text = e.what();
  if (dynamic_cast<const CLI::ArgumentMismatch*>(&e) != nullptr) {
    // `NAME: At Most 1 required but received 2`, `NAME: 1 required TEXT missing`.
    const size_t colon = text.find(": ");
    const std::string name = text.substr(0, colon);
    if (colon != std::string::npos && text.find(": At Most ", colon) == colon) {
      return name + " given more than once";
    }
    if (colon != std::string::npos && text.ends_with(" missing")) return name + " needs a value";
    return text;
  }
  if (dynamic_cast<const CLI::ConversionError*>(&e) != nullptr) {
    // `Could not convert: NAME = VALUE`: a flag whose value is not a number.
    constexpr std::string_view kPrefix = "Could not convert: ";
    const size_t equals = text.find(" = ");
    if (text.starts_with(kPrefix) && equals != std::string::npos) {
      return fmt::format("{} '{}': expected a number", text.substr(kPrefix.size(), equals - kPrefix.size()),
                         text.substr(equals + 3));
    }
    return text;
  }
  if (dynamic_cast<const CLI::ExtrasError*>(&e) != nullptr) {
    const std::vector<std::string> extras = app.remaining(true);
    if (extras.empty() || verb == nullptr) return text;
    if (verb->get_name() == "verify" && extras.front() == "--alignment") {
      return "verify does not take --alignment (the plan records it)";
    }
    return fmt::format("unexpected argument '{}' for '{}'{}", extras.front(), verb->get_name(),
                       FlagSuggestion(extras.front(), *verb));
  }
  if (dynamic_cast<const CLI::RequiredError*>(&e) != nullptr && verb == nullptr) {
    const std::vector<std::string> extras = app.remaining(true);
    if (!extras.empty()) return fmt::format("unexpected argument '{}' before the command", extras.front());
    return "a command is required (plan, verify, execute, stats, schedule, compare, sweep or "
           "targets)";
  }
  return text;
}

}  // namespace memplan::cli
