// The TOML reading that every case's configuration shares: typed access by dotted key, --set
// overrides, and the rule that a key nobody read is an error. Header-only so each case's parser
// stays in its own file.
#pragma once
#include <array>
#include <cerrno>
#include <climits>
#include <cmath>
#include <cstdlib>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <set>
#include <sstream>
#include <string>
#include <toml.hpp>
#include <vector>

#include "config_error.hpp"
#include "../../codelets/mpdata/mpdata_formulae.hpp"

namespace tdc {
namespace config_detail {

inline std::string type_name(const toml::value& v) {
  switch (v.type()) {
    case toml::value_t::boolean: return "a boolean";
    case toml::value_t::integer: return "an integer";
    case toml::value_t::floating: return "a number";
    case toml::value_t::string: return "a string";
    case toml::value_t::array: return "an array";
    case toml::value_t::table: return "a table";
    default: return "a date/time";
  }
}

// Reads typed values by dotted key and remembers what was read, so that any key left over is
// reported as unknown (a typo must not be silently ignored).
class Reader {
 public:
  explicit Reader(const toml::value& root) : root_(root) {}

  const toml::value* find(const std::string& key) {
    known_.insert(key);
    const toml::value* v = &root_;
    std::stringstream ss(key);
    std::string part;
    while (std::getline(ss, part, '.')) {
      if (!v->is_table()) return nullptr;
      const auto& t = v->as_table();
      auto it = t.find(part);
      if (it == t.end()) return nullptr;
      v = &it->second;
    }
    return v;
  }
  // An integer that must fit the int every setting is held in: checked as the 64-bit value TOML
  // gives, before any narrowing (2^32 + 32 is an error, not 32).
  long integer(const std::string& key, long fallback) {
    const toml::value* v = find(key);
    if (!v) return fallback;
    if (!v->is_integer()) throw ConfigError(key, "expected an integer, got " + type_name(*v));
    const auto n = v->as_integer();
    if (n < INT_MIN || n > INT_MAX)
      throw ConfigError(key,
                        std::to_string(n) + " is out of range (at most " + std::to_string(INT_MAX) + " in magnitude)");
    return long(n);
  }
  // A finite number (nan and inf are refused: no key of a case accepts them).
  double number(const std::string& key, double fallback) {
    const toml::value* v = find(key);
    if (!v) return fallback;
    return as_number(key, *v);
  }
  // A key that this kind of case (or this choice of another key) does not use: an error if given,
  // rather than silently ignored.
  void reject_if_set(const std::string& key, const std::string& why) {
    if (find(key)) throw ConfigError(key, "not used " + why);
  }
  bool boolean(const std::string& key, bool fallback) {
    const toml::value* v = find(key);
    if (!v) return fallback;
    if (!v->is_boolean()) throw ConfigError(key, "expected true or false, got " + type_name(*v));
    return v->as_boolean();
  }
  std::string choice(const std::string& key, const std::string& fallback, const std::vector<std::string>& allowed) {
    const toml::value* v = find(key);
    if (!v) return fallback;
    if (!v->is_string()) throw ConfigError(key, "expected a string, got " + type_name(*v));
    const std::string s = v->as_string().str;
    for (const auto& a : allowed)
      if (a == s) return s;
    std::string list;
    for (const auto& a : allowed) list += (list.empty() ? "" : ", ") + a;
    throw ConfigError(key, "'" + s + "' is not one of: " + list);
  }
  std::string text(const std::string& key, const std::string& fallback) {
    const toml::value* v = find(key);
    if (!v) return fallback;
    if (!v->is_string()) throw ConfigError(key, "expected a string, got " + type_name(*v));
    return v->as_string().str;
  }
  template <std::size_t N>
  std::array<double, N> numbers(const std::string& key, std::array<double, N> fallback) {
    const toml::value* v = find(key);
    if (!v) return fallback;
    if (!v->is_array() || v->as_array().size() != N)
      throw ConfigError(key, "expected an array of " + std::to_string(N) + " numbers");
    std::array<double, N> out;
    for (std::size_t n = 0; n < N; ++n) out[n] = as_number(key, v->as_array()[n]);
    return out;
  }
  // An array of any length (at least one number).
  std::vector<double> number_list(const std::string& key) {
    const toml::value* v = find(key);
    if (!v) return {};
    if (!v->is_array() || v->as_array().empty()) throw ConfigError(key, "expected a non-empty array of numbers");
    std::vector<double> out;
    for (const auto& x : v->as_array()) out.push_back(as_number(key, x));
    return out;
  }
  // Every key in the file must have been read by now.
  void reject_unknown() const { walk(root_, ""); }

 private:
  static double as_number(const std::string& key, const toml::value& v) {
    double d;
    if (v.is_floating())
      d = v.as_floating();
    else if (v.is_integer())
      d = double(v.as_integer());
    else
      throw ConfigError(key, "expected a number, got " + type_name(v));
    if (!std::isfinite(d))
      throw ConfigError(key, "must be a finite number, got " + std::string(std::isnan(d) ? "nan" : "inf"));
    // (the TOML reader turns an overflowing literal such as 1e400 into the largest double)
    if (std::fabs(d) >= std::numeric_limits<double>::max()) throw ConfigError(key, "is out of the range of a double");
    return d;
  }
  void walk(const toml::value& v, const std::string& prefix) const {
    for (const auto& [name, child] : v.as_table()) {
      const std::string key = prefix.empty() ? name : prefix + "." + name;
      if (known_.count(key)) continue;
      if (child.is_table()) {
        bool any = false;
        for (const auto& k : known_) any = any || k.rfind(key + ".", 0) == 0;
        if (any) {
          walk(child, key);
          continue;
        }
      }
      throw ConfigError(key, "unknown key (check the spelling; see cases/*.toml for the accepted keys)");
    }
  }
  const toml::value& root_;
  std::set<std::string> known_;
};

// Applies "a.b.c=value": the value is parsed as TOML, or taken as a plain string when it is not
// valid TOML (so --set case.flow=translation works without quotes).
inline void apply_override(toml::value& root, const std::string& assignment) {
  const auto eq = assignment.find('=');
  if (eq == std::string::npos || eq == 0) throw ConfigError(assignment, "an override must look like key=value");
  const std::string key = assignment.substr(0, eq), text = assignment.substr(eq + 1);
  for (const char ch : assignment)
    if ((unsigned char)ch < 0x20 || ch == 0x7f)
      throw ConfigError(
          key.find_first_of("\n\r") == std::string::npos ? key : std::string("--set"),
          "an override must be one line of printable text (it contains a control character such as a newline)");
  toml::value value;
  try {
    std::istringstream is("v = " + text);
    value = toml::parse(is, "--set").at("v");
  } catch (const std::exception&) {
    value = toml::value(text);
  }
  toml::value* t = &root;
  std::stringstream ss(key);
  std::string part;
  std::vector<std::string> parts;
  while (std::getline(ss, part, '.')) parts.push_back(part);
  for (std::size_t n = 0; n + 1 < parts.size(); ++n) {
    auto& table = t->as_table();
    if (!table.count(parts[n])) table[parts[n]] = toml::table{};
    t = &table[parts[n]];
    if (!t->is_table()) throw ConfigError(key, "'" + parts[n] + "' is not a table");
  }
  t->as_table()[parts.back()] = value;
}

inline void require(bool ok, const std::string& key, const std::string& problem) {
  if (!ok) throw ConfigError(key, problem);
}

// Parses a TOML file or text; a parse failure is a ConfigError naming the file.
inline toml::value parse_toml(std::istream& in, const std::string& name) {
  try {
    return toml::parse(in, name);
  } catch (const std::exception& e) {
    throw ConfigError("<file>", std::string("not valid TOML: ") + e.what());
  }
}

// Reads and parses a case file: a regular file of at most 1 MiB (not a directory, device or FIFO)
// that sets at least one key (an empty or comment-only file is refused rather than run as the
// built-in defaults).
inline toml::value parse_case_file(const std::string& path) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::file_status st = fs::status(path, ec);
  if (ec || !fs::exists(st))
    throw ConfigError("<file>",
                      "cannot open '" + path + "': " + (ec ? ec.message() : std::string(std::strerror(ENOENT))));
  if (fs::is_directory(st)) throw ConfigError("<file>", "'" + path + "' is a directory, not a case file");
  if (!fs::is_regular_file(st)) throw ConfigError("<file>", "'" + path + "' is not a regular file");
  const auto size = fs::file_size(path, ec);
  if (ec) throw ConfigError("<file>", "cannot read '" + path + "': " + ec.message());
  if (size > (1u << 20)) throw ConfigError("<file>", "'" + path + "' is larger than 1 MiB; not a case file");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw ConfigError("<file>", "cannot open '" + path + "': " + std::strerror(errno));
  toml::value root = parse_toml(in, path);
  if (!root.is_table() || root.as_table().empty())
    throw ConfigError("<file>", "'" + path + "' sets no keys (an empty or comment-only case file); see cases/*.toml");
  return root;
}

// Loads a configuration of one kind from a file or from text with its `read(root, overrides)`.
template <class Read>
auto load_file(const std::string& path, const std::vector<std::string>& overrides, Read read) {
  toml::value root = parse_case_file(path);
  return read(root, overrides);
}
template <class Read>
auto load_text(const std::string& text, const std::vector<std::string>& overrides, Read read) {
  std::istringstream in(text);
  toml::value root = parse_toml(in, "<text>");
  return read(root, overrides);
}

// A number as text that reads back to the same double (checkpoint fingerprints compare these).
inline std::string exact_text(double v) {
  char s[40];
  std::snprintf(s, sizeof s, "%.17g", v);
  return std::string(s);
}

// The MPDATA kernel variant (bitwise the same results) where a configuration does not choose one
// ([mpdata] kernel, fused_block): TASKDYCORE_KERNEL=fused and TASKDYCORE_FUSED_BLOCK=32x4, the
// benchmark scripts' switches, else the staged kernels.
inline void default_mpdata_kernel(mpdata::Options& o) {
  const char* kernel = std::getenv("TASKDYCORE_KERNEL");
  const char* block = std::getenv("TASKDYCORE_FUSED_BLOCK");
  o.fused = kernel && std::string(kernel) == "fused";
  o.fused_block_y = block && std::string(block) == "32x4" ? 4 : 8;
}

// [mpdata] kernel = "staged" | "fused", fused_block = "32x8" | "32x4" (bitwise the same results).
inline void read_mpdata_kernel(Reader& r, mpdata::Options& o) {
  default_mpdata_kernel(o);
  o.fused = r.choice("mpdata.kernel", o.fused ? "fused" : "staged", {"staged", "fused"}) == "fused";
  o.fused_block_y =
      r.choice("mpdata.fused_block", o.fused_block_y == 4 ? "32x4" : "32x8", {"32x8", "32x4"}) == "32x4" ? 4 : 8;
}

}  // namespace config_detail
}  // namespace tdc
