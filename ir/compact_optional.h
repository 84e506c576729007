// Optional fields in the space of one word, for records kept per buffer
// (Buffer, PackItem) where std::optional's flag and padding double the
// field: at 10^7 buffers each 8 bytes saved is 80 MB.
//
//  * CompactOptional<T>: an integral T whose lowest value is never a real
//    one (offsets, memory spaces), which stands for "empty". Same size as T.
//  * BoxedOptional<T>: any T, on the heap when set (a pointer; nullptr when
//    empty): for a field almost always empty.
//
// Both read like std::optional (has_value, bool, *, value_or, reset,
// comparisons with a T, std::nullopt and std::optional<T>) and convert to
// std::optional<T>.
//
// Example: CompactOptional<Bytes> offset; offset = 64; *offset == 64;
//          offset.reset(); offset == std::nullopt; sizeof(offset) == 8.
#pragma once

#include <compare>
#include <limits>
#include <memory>
#include <optional>
#include <type_traits>
#include <utility>

namespace memplan {

template <typename T>
class CompactOptional {
  static_assert(std::is_integral_v<T> && std::is_signed_v<T>);

 public:
  // The value that stands for "empty": a CompactOptional cannot hold it
  // (setting it empties the field).
  static constexpr T kEmpty = std::numeric_limits<T>::min();

  constexpr CompactOptional() = default;
  constexpr CompactOptional(std::nullopt_t) {}
  constexpr CompactOptional(T value) : value_(value) {}
  constexpr CompactOptional(const std::optional<T>& value) : value_(value.value_or(kEmpty)) {}
  constexpr CompactOptional& operator=(std::nullopt_t) {
    value_ = kEmpty;
    return *this;
  }

  constexpr operator std::optional<T>() const {
    return has_value() ? std::optional<T>(value_) : std::nullopt;
  }

  constexpr bool has_value() const { return value_ != kEmpty; }
  constexpr explicit operator bool() const { return has_value(); }
  // Unchecked, as std::optional's.
  constexpr const T& operator*() const { return value_; }
  constexpr T& operator*() { return value_; }
  constexpr const T& value() const {
    if (!has_value()) throw std::bad_optional_access();
    return value_;
  }
  constexpr T value_or(T other) const { return has_value() ? value_ : other; }
  constexpr void reset() { value_ = kEmpty; }
  constexpr T& emplace(T value) { return value_ = value; }

  friend constexpr bool operator==(const CompactOptional&, const CompactOptional&) = default;
  friend constexpr bool operator==(const CompactOptional& a, std::nullopt_t) {
    return !a.has_value();
  }
  friend constexpr bool operator==(const CompactOptional& a, const T& b) {
    return a.has_value() && a.value_ == b;
  }
  friend constexpr bool operator==(const CompactOptional& a, const std::optional<T>& b) {
    return std::optional<T>(a) == b;
  }
  // Ordered as std::optional: empty before every value.
  friend constexpr std::strong_ordering operator<=>(const CompactOptional& a,
                                                    const CompactOptional& b) {
    return a.value_ <=> b.value_;
  }

 private:
  T value_ = kEmpty;
};

template <typename T>
class BoxedOptional {
 public:
  BoxedOptional() = default;
  BoxedOptional(std::nullopt_t) {}
  BoxedOptional(const T& value) : box_(std::make_unique<T>(value)) {}
  BoxedOptional(const std::optional<T>& value) {
    if (value) box_ = std::make_unique<T>(*value);
  }
  BoxedOptional(const BoxedOptional& other) {
    if (other.box_) box_ = std::make_unique<T>(*other.box_);
  }
  BoxedOptional(BoxedOptional&&) noexcept = default;
  BoxedOptional& operator=(const BoxedOptional& other) {
    if (this != &other) box_ = other.box_ ? std::make_unique<T>(*other.box_) : nullptr;
    return *this;
  }
  BoxedOptional& operator=(BoxedOptional&&) noexcept = default;
  BoxedOptional& operator=(std::nullopt_t) {
    box_.reset();
    return *this;
  }
  ~BoxedOptional() = default;

  operator std::optional<T>() const { return box_ ? std::optional<T>(*box_) : std::nullopt; }

  bool has_value() const { return box_ != nullptr; }
  explicit operator bool() const { return has_value(); }
  const T& operator*() const { return *box_; }
  T& operator*() { return *box_; }
  const T* operator->() const { return box_.get(); }
  T* operator->() { return box_.get(); }
  const T& value() const {
    if (!box_) throw std::bad_optional_access();
    return *box_;
  }
  T value_or(const T& other) const { return box_ ? *box_ : other; }
  void reset() { box_.reset(); }
  template <typename... Args>
  T& emplace(Args&&... args) {
    box_ = std::make_unique<T>(T{std::forward<Args>(args)...});
    return *box_;
  }

  friend bool operator==(const BoxedOptional& a, const BoxedOptional& b) {
    return a.has_value() == b.has_value() && (!a.has_value() || *a == *b);
  }
  friend bool operator==(const BoxedOptional& a, std::nullopt_t) { return !a.has_value(); }
  friend bool operator==(const BoxedOptional& a, const T& b) { return a.has_value() && *a == b; }

 private:
  std::unique_ptr<T> box_;
};

}  // namespace memplan
