#pragma once
// game::detail::ObjectReader: the strict reader behind the scenario and script files. Each
// read checks one key's type and range; finish() rejects any key nobody asked for, and the
// first problem is thrown as a JsonKeyError (the key's dotted path and the reason) so the
// loaders can turn it into one line: "<kind> 'FILE': key 'waves[2].count': must be ...".
#include "sim/walk_mode.hpp"

#include <engine/pool/handle.hpp>
#include <nlohmann/json.hpp>

#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <set>
#include <sstream>
#include <string>
#include <type_traits>
#include <utility>

namespace game::detail {

using nlohmann::json;

// The first problem found; thrown to unwind out of the nested readers in one step.
struct JsonKeyError {
  std::string key;
  std::string reason;
};

inline std::string shown(const json& value) {
  std::string text = value.dump();
  if (text.size() > 40) text = text.substr(0, 37) + "...";
  return text;
}

template <class T>
inline std::string range_text(T lo, T hi) {
  std::ostringstream out;
  out << lo << ".." << hi;
  return out.str();
}

// Reads the keys of one JSON object; finish() rejects any key nobody asked for, so a typo
// ("bullet_sped") is an error instead of a silently ignored setting.
class ObjectReader {
 public:
  ObjectReader(const json& object, std::string path) : object_(object), path_(std::move(path)) {
    if (!object_.is_object()) fail_here("must be an object (got " + shown(object_) + ")");
  }

  const json* find(const char* key) {
    seen_.insert(key);
    const auto it = object_.find(key);
    return it == object_.end() ? nullptr : &*it;
  }

  template <class Int>
  void integer(const char* key, Int& out, Int lo, Int hi) {
    const json* v = find(key);
    if (!v) return;
    const std::string want = "must be an integer in " + range_text(lo, hi);
    if (!v->is_number_integer()) fail(key, want + " (got " + shown(*v) + ")");
    if (v->is_number_unsigned()) {
      const auto u = v->get<std::uint64_t>();
      if (u > static_cast<std::uint64_t>(hi)) fail(key, want + " (got " + shown(*v) + ")");
      out = static_cast<Int>(u);
      if (out < lo) fail(key, want + " (got " + shown(*v) + ")");
      return;
    }
    // Here the value is negative (nlohmann stores non-negative integers as unsigned).
    if constexpr (std::is_unsigned_v<Int>) {
      fail(key, want + " (got " + shown(*v) + ")");
    } else {
      const auto s = v->get<std::int64_t>();
      if (s < static_cast<std::int64_t>(lo)) fail(key, want + " (got " + shown(*v) + ")");
      out = static_cast<Int>(s);
    }
  }

  void number(const char* key, float& out, float lo, float hi) {
    const json* v = find(key);
    if (!v) return;
    const std::string want = "must be a number in " + range_text(lo, hi);
    if (!v->is_number()) fail(key, want + " (got " + shown(*v) + ")");
    const double d = v->get<double>();
    if (!std::isfinite(d) || d < lo || d > hi) fail(key, want + " (got " + shown(*v) + ")");
    out = static_cast<float>(d);
  }

  void boolean(const char* key, bool& out) {
    const json* v = find(key);
    if (!v) return;
    if (!v->is_boolean()) fail(key, "must be true or false (got " + shown(*v) + ")");
    out = v->get<bool>();
  }

  template <class Enum>
  void choice(const char* key, Enum& out, std::initializer_list<std::pair<const char*, Enum>> names) {
    choice_among(key, out, names);
  }
  // Same, spelled by a table whose row i names Enum(i) in its `name` (sim/enemy_kinds.hpp).
  template <class Enum, class Row, std::size_t N>
  void choice(const char* key, Enum& out, const std::array<Row, N>& rows) {
    std::array<std::pair<const char*, Enum>, N> names{};
    for (std::size_t i = 0; i < N; ++i) names[i] = {rows[i].name, static_cast<Enum>(i)};
    choice_among(key, out, names);
  }

  template <class Enum, class Names>  // Names: a range of (name, value) pairs
  void choice_among(const char* key, Enum& out, const Names& names) {
    const json* v = find(key);
    if (!v) return;
    std::string allowed;
    for (const auto& n : names) allowed += std::string(allowed.empty() ? "" : ", ") + '"' + n.first + '"';
    if (v->is_string()) {
      for (const auto& n : names) {
        if (v->get<std::string>() == n.first) {
          out = n.second;
          return;
        }
      }
    }
    fail(key, "must be one of " + allowed + " (got " + shown(*v) + ")");
  }

  void text(const char* key) {  // free text (a description): only its type is checked
    const json* v = find(key);
    if (v && !v->is_string()) fail(key, "must be a string (got " + shown(*v) + ")");
  }

  std::string key_path(const std::string& key) const { return path_.empty() ? key : path_ + "." + key; }

  [[noreturn]] void fail(const std::string& key, const std::string& reason) const {
    throw JsonKeyError{key_path(key), reason};
  }
  [[noreturn]] void fail_here(const std::string& reason) const {
    throw JsonKeyError{path_.empty() ? "(top level)" : path_, reason};
  }

  void finish() const {
    for (auto it = object_.begin(); it != object_.end(); ++it) {
      if (seen_.count(it.key()) == 0) fail(it.key(), "unknown key");
    }
  }

 private:
  const json& object_;
  std::string path_;
  std::set<std::string> seen_;
};

// Reads a whole file of at most `max_bytes` into `text`. Returns "" or the reason it could
// not ("cannot open: no such file", "file is N bytes; the limit is M bytes", ...). The size
// is checked before reading, so a huge (or endless, like /dev/zero) file is never loaded.
std::string read_small_file(const std::string& path, std::uintmax_t max_bytes, std::string& text);

// Parses `text` and hands the root to read(root), which throws JsonKeyError at the first
// problem. Returns "" or the reason: "not valid JSON: ..." (e.what() names the line, column
// and what was expected) or "key 'K': reason". Scenario and script files share it.
template <class Read>
std::string read_json_document(const std::string& text, Read&& read) {
  json root;
  try {
    root = json::parse(text);
  } catch (const json::parse_error& e) {
    return std::string("not valid JSON: ") + e.what();
  }
  try {
    read(static_cast<const json&>(root));
  } catch (const JsonKeyError& e) {
    return "key '" + e.key + "': " + e.reason;
  }
  return {};
}

// The names scenario files and scripts share for a storage mode and a walk.
inline void read_storage(ObjectReader& r, const char* key, engine::StorageMode& out) {
  r.choice(key, out,
           {{"contiguous", engine::StorageMode::contiguous},
            {"stable", engine::StorageMode::stable},
            {"packed", engine::StorageMode::packed},
            {"packed_pages", engine::StorageMode::packed_pages}});
}
inline void read_walk(ObjectReader& r, const char* key, WalkMode& out) {
  r.choice(key, out,
           {{"bitmap", WalkMode::bitmap}, {"swap_pop", WalkMode::swap_pop}, {"slot_order", WalkMode::slot_order}});
}

}  // namespace game::detail
