#include "ir/pool_name.h"

#include <mutex>
#include <set>

namespace memplan {
namespace {

// Node-based, so the strings never move; never destroyed, so names stay
// valid in static destructors too.
struct Table {
  std::mutex mutex;
  std::set<std::string, std::less<>> names;
};

Table& TheTable() {
  static Table* table = new Table;
  return *table;
}

}  // namespace

const std::string* PoolName::Intern(std::string_view name) {
  if (name.empty()) return Empty();
  Table& table = TheTable();
  std::lock_guard<std::mutex> lock(table.mutex);
  auto it = table.names.find(name);
  if (it == table.names.end()) it = table.names.emplace(name).first;
  return &*it;
}

const std::string* PoolName::Empty() {
  static const std::string* empty = new std::string;
  return empty;
}

}  // namespace memplan
