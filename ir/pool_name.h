// The name of the pool a buffer is placed in (BufferPlacement::pool), in
// one pointer: every placement in a pool shares one copy of its name, kept
// in a process-wide table of the names in use (never freed: a plan has a
// handful of pool names, a program with regions one per resource). At 10^7
// buffers 80 MB instead of the 320 MB of a std::string each.
//
// It reads as a const std::string& (implicitly), compares with strings,
// formats with fmt and prints to streams. Safe to create from any thread.
//
// Example: PoolName p = "transient"; p == "transient";
//          &p.str() == &PoolName("transient").str().
#pragma once

#include <compare>
#include <ostream>
#include <string>
#include <string_view>

#include "fmt/format.h"

namespace memplan {

class PoolName {
 public:
  PoolName() = default;  // ""
  PoolName(std::string_view name) : name_(Intern(name)) {}
  PoolName(const std::string& name) : PoolName(std::string_view(name)) {}
  PoolName(const char* name) : PoolName(std::string_view(name)) {}

  const std::string& str() const { return *name_; }
  operator const std::string&() const { return *name_; }
  std::size_t size() const { return name_->size(); }
  bool empty() const { return name_->empty(); }

  friend bool operator==(const PoolName& a, const PoolName& b) { return a.name_ == b.name_; }
  friend bool operator==(const PoolName& a, std::string_view b) { return *a.name_ == b; }
  friend bool operator==(const PoolName& a, const std::string& b) { return *a.name_ == b; }
  friend bool operator==(const PoolName& a, const char* b) { return *a.name_ == b; }
  friend std::strong_ordering operator<=>(const PoolName& a, const PoolName& b) {
    return *a.name_ <=> *b.name_;
  }
  friend std::ostream& operator<<(std::ostream& os, const PoolName& p) { return os << *p.name_; }

 private:
  // The table's copy of `name`, added on first use.
  static const std::string* Intern(std::string_view name);
  static const std::string* Empty();

  const std::string* name_ = Empty();
};

}  // namespace memplan

template <>
struct fmt::formatter<memplan::PoolName> : fmt::formatter<std::string_view> {
  template <typename FormatContext>
  auto format(const memplan::PoolName& name, FormatContext& ctx) const {
    return fmt::formatter<std::string_view>::format(name.str(), ctx);
  }
};
