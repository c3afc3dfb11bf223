#include "common.hpp"

#include <mpi.h>

#include <ctime>
#include <fstream>

namespace tdc::cli {

std::string timestamp() {
  const std::time_t now = std::time(nullptr);
  char s[32];
  std::strftime(s, sizeof s, "%Y%m%d-%H%M%S", std::localtime(&now));
  return s;
}

bool is_nonempty_dir(const fs::path& p) { return fs::is_directory(p) && !fs::is_empty(p); }

void write_atomically(const fs::path& path, const std::string& text) {
  const fs::path tmp = path.string() + ".tmp";
  {
    std::ofstream out(tmp);
    out << text;
    if (!out) throw std::runtime_error("cannot write " + tmp.string());
  }
  fs::rename(tmp, path);
}

void check_out_dir(const std::string& out_dir, bool force) {
  if (is_nonempty_dir(out_dir) && !force)
    throw tdc::ConfigError("--out", "'" + out_dir + "' exists and is not empty; refusing to overwrite it (choose "
                                    "another directory or pass --force)");
  if (fs::exists(out_dir) && !fs::is_directory(out_dir))
    throw tdc::ConfigError("--out", "'" + out_dir + "' exists and is not a directory");
}

void prepare_out_dir(const tdc::Runtime& rt, const std::string& out_dir, bool force,
                     std::initializer_list<const char*> files) {
  if (rt.rank() != 0) return;
  fs::create_directories(out_dir);
  if (force)
    for (const char* f : files) fs::remove(fs::path(out_dir) / f);
}

void abort_job(const tdc::Runtime& rt, const std::exception& e) {
  std::fprintf(stderr, "taskdycore: rank %d failed: %s\n", rt.rank(), e.what());
  if (rt.size() > 1) MPI_Abort(MPI_COMM_WORLD, 1);
}

std::vector<int> parse_dims(const std::string& text, std::size_t count, const char* option) {
  std::vector<int> out;
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t x = text.find('x', start);
    const std::string part = text.substr(start, x == std::string::npos ? std::string::npos : x - start);
    try {
      std::size_t used = 0;
      const int v = std::stoi(part, &used);
      if (used != part.size() || v <= 0) throw std::invalid_argument(part);
      out.push_back(v);
    } catch (const std::exception&) {
      throw tdc::ConfigError(option, "'" + text + "' is not " + std::to_string(count) + " positive integers joined by 'x'");
    }
    if (x == std::string::npos) break;
    start = x + 1;
  }
  if (out.size() != count)
    throw tdc::ConfigError(option, "'" + text + "' is not " + std::to_string(count) + " positive integers joined by 'x'");
  return out;
}

bool on_off(const std::string& v, const char* option) {
  if (v == "on") return true;
  if (v == "off") return false;
  throw tdc::ConfigError(option, "expected on or off, got '" + v + "'");
}

}  // namespace tdc::cli
