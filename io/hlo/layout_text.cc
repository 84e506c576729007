#include "io/hlo/layout_text.h"

#include <cctype>
#include <cstddef>

namespace memplan {
namespace {

// The layout `{minor:tail}` with `S(n)` dropped from tail and `S(space)` added.
std::string LayoutWithSpace(std::string_view body, std::int64_t space) {
  const std::size_t colon = body.find(':');
  const std::string_view minor = body.substr(0, colon);
  std::string tail;
  if (colon != std::string_view::npos) {
    const std::string_view rest = body.substr(colon + 1);
    for (std::size_t i = 0; i < rest.size(); ++i) {
      if (rest[i] == 'S' && i + 1 < rest.size() && rest[i + 1] == '(') {
        const std::size_t close = rest.find(')', i);
        if (close == std::string_view::npos) break;
        i = close;
        continue;
      }
      tail += rest[i];
    }
  }
  if (space != 0) tail += "S(" + std::to_string(space) + ")";
  if (minor.empty() && tail.empty()) return "";  // a scalar's layout, as XLA prints it: none
  std::string out = "{" + std::string(minor);
  if (!tail.empty()) out += ":" + tail;
  return out + "}";
}

class ShapeEditor {
 public:
  ShapeEditor(std::string_view text, const std::vector<std::int64_t>& spaces)
      : text_(text), spaces_(spaces) {}

  std::optional<std::string> Run() {
    if (!Shape()) return std::nullopt;
    SkipSpace();
    if (pos_ != text_.size() || leaf_ != spaces_.size()) return std::nullopt;
    return out_;
  }

 private:
  void SkipSpace() {
    while (pos_ < text_.size()) {
      if (std::isspace(static_cast<unsigned char>(text_[pos_]))) {
        out_ += text_[pos_++];
      } else if (text_.substr(pos_, 2) == "/*") {
        const std::size_t end = text_.find("*/", pos_ + 2);
        const std::size_t stop = end == std::string_view::npos ? text_.size() : end + 2;
        out_ += text_.substr(pos_, stop - pos_);
        pos_ = stop;
      } else {
        return;
      }
    }
  }

  bool Shape() {
    SkipSpace();
    if (pos_ < text_.size() && text_[pos_] == '(') {
      out_ += text_[pos_++];
      SkipSpace();
      if (pos_ < text_.size() && text_[pos_] == ')') {
        out_ += text_[pos_++];
        return true;
      }
      for (;;) {
        if (!Shape()) return false;
        SkipSpace();
        if (pos_ >= text_.size()) return false;
        const char c = text_[pos_++];
        out_ += c;
        if (c == ')') return true;
        if (c != ',') return false;
      }
    }
    return Array();
  }

  bool Array() {
    const std::size_t open = text_.find('[', pos_);
    if (open == std::string_view::npos) return false;
    const std::size_t close = text_.find(']', open);
    if (close == std::string_view::npos) return false;
    const std::string_view dims = text_.substr(open + 1, close - open - 1);
    out_ += text_.substr(pos_, close + 1 - pos_);
    pos_ = close + 1;
    if (leaf_ >= spaces_.size()) return false;
    const std::int64_t space = spaces_[leaf_++];
    if (pos_ < text_.size() && text_[pos_] == '{') {
      const std::size_t end = text_.find('}', pos_);
      if (end == std::string_view::npos) return false;
      out_ += LayoutWithSpace(text_.substr(pos_ + 1, end - pos_ - 1), space);
      pos_ = end + 1;
    } else if (space != 0) {
      // XLA's default layout: minor-to-major is the dims in reverse order.
      std::size_t rank = dims.empty() ? 0 : 1;
      for (char c : dims) rank += c == ',' ? 1 : 0;
      std::string minor;
      for (std::size_t d = rank; d-- > 0;) minor += std::to_string(d) + (d > 0 ? "," : "");
      out_ += LayoutWithSpace(minor, space);
    }
    return true;
  }

  std::string_view text_;
  const std::vector<std::int64_t>& spaces_;
  std::size_t pos_ = 0;
  std::size_t leaf_ = 0;
  std::string out_;
};

}  // namespace

std::optional<std::string> WithMemorySpaces(std::string_view shape,
                                            const std::vector<std::int64_t>& spaces) {
  return ShapeEditor(shape, spaces).Run();
}

}  // namespace memplan
