#include "common.hpp"

#include "../run/case_keys.hpp"
#include "../run/run_failure.hpp"

#include <fcntl.h>
#include <mpi.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <ctime>
#include <fstream>

namespace tdc::cli {

std::string timestamp() {
  const std::time_t now = std::time(nullptr);
  char s[32];
  std::strftime(s, sizeof s, "%Y%m%d-%H%M%S", std::localtime(&now));
  return s;
}

bool failure_reported = false;

const char* const kLockFile = ".taskdycore.lock";

bool is_nonempty_dir(const fs::path& p) {
  std::error_code ec;
  if (!fs::is_directory(p, ec)) return false;
  for (const auto& entry : fs::directory_iterator(p, ec))
    if (entry.path().filename() != kLockFile) return true;  // the lock file of a run that ended
  return false;
}

std::string os_error(const fs::path& path, int err) { return "'" + path.string() + "': " + std::strerror(err); }

void write_atomically(const fs::path& path, const std::string& text) {
  const fs::path tmp = path.string() + ".tmp";
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) throw std::runtime_error("cannot write " + os_error(tmp, errno));
  std::size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      const int err = errno;
      ::close(fd);
      ::unlink(tmp.c_str());
      throw std::runtime_error("cannot write " + os_error(tmp, err));
    }
    done += std::size_t(n);
  }
  if (::fsync(fd) != 0 || ::close(fd) != 0) {
    const int err = errno;
    ::unlink(tmp.c_str());
    throw std::runtime_error("cannot write " + os_error(tmp, err));
  }
  std::error_code ec;
  fs::rename(tmp, path, ec);
  if (ec) throw std::runtime_error("cannot rename '" + tmp.string() + "' to '" + path.string() + "': " + ec.message());
}

void check_out_dir(const std::string& out_dir, bool force) {
  if (out_dir.empty()) throw tdc::ConfigError("--out", "is empty (leave --out out for the default runs/<case>-<time>)");
  if (tdc::launcher_rank() != 0) return;  // rank 0 alone checks, creates and locks the directory
  std::error_code ec;
  const bool existed = fs::exists(out_dir, ec);
  if (existed && !fs::is_directory(out_dir, ec))
    throw tdc::ConfigError("--out", "'" + out_dir + "' exists and is not a directory");
  if (is_nonempty_dir(out_dir) && !force)
    throw tdc::ConfigError("--out", "'" + out_dir +
                                        "' exists and is not empty; refusing to overwrite it (choose "
                                        "another directory or pass --force)");
  // The directory is created and locked now, before StarPU starts, so that an unwritable --out is a
  // named error (status 2) and a second run into the same directory is refused before it writes.
  fs::create_directories(out_dir, ec);
  if (ec) throw tdc::ConfigError("--out", "cannot create '" + out_dir + "': " + ec.message());
  const fs::path lock = fs::path(out_dir) / kLockFile;
  const int fd = ::open(lock.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0) {
    const int err = errno;
    if (!existed) fs::remove(out_dir, ec);
    throw tdc::ConfigError("--out", "cannot write into " + os_error(out_dir, err));
  }
  if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
    const int err = errno;
    ::close(fd);
    throw tdc::ConfigError("--out", "'" + out_dir + "' is in use by another run (" +
                                        (err == EWOULDBLOCK ? std::string("locked") : std::string(std::strerror(err))) +
                                        "); choose another directory");
  }
  // fd stays open (and locked) until the process ends.
}

void check_trace_dir(const std::string& trace_dir) {
  if (trace_dir.empty() || tdc::launcher_rank() != 0) return;
  std::error_code ec;
  fs::create_directories(trace_dir, ec);
  if (ec) throw tdc::ConfigError("--trace", "cannot create '" + trace_dir + "': " + ec.message());
  check_writable_dir(trace_dir, "--trace");
}

void check_writable_dir(const fs::path& dir, const char* option) {
  const fs::path probe = dir / (".taskdycore-probe-" + std::to_string(::getpid()));
  const int fd = ::open(probe.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd < 0) throw tdc::ConfigError(option, "cannot write into " + os_error(dir, errno));
  ::close(fd);
  ::unlink(probe.c_str());
}

void check_new_file(const std::string& path, const char* option) {
  if (path.empty()) return;
  std::error_code ec;
  if (fs::exists(path, ec)) throw tdc::ConfigError(option, "'" + path + "' exists; not overwriting it");
  const fs::path parent = fs::path(path).has_parent_path() ? fs::path(path).parent_path() : fs::path(".");
  if (!fs::is_directory(parent, ec)) throw tdc::ConfigError(option, "'" + parent.string() + "' is not a directory");
  check_writable_dir(parent, option);
}

void prepare_out_dir(const tdc::Runtime& rt, const std::string& out_dir, bool force,
                     std::initializer_list<const char*> files) {
  if (rt.rank() != 0) return;
  fs::create_directories(out_dir);
  if (force)
    for (const char* f : files) fs::remove(fs::path(out_dir) / f);
}

void abort_job(const tdc::Runtime& rt, const std::exception& e) {
  std::fprintf(stderr, "taskdycore: error: rank %d failed: %s\n", rt.rank(), e.what());
  std::fflush(stderr);
  failure_reported = true;
  if (rt.size() > 1) MPI_Abort(MPI_COMM_WORLD, 1);
}

namespace {
int job_ranks = 1;
void end_job(const std::string&) {
  if (job_ranks > 1) MPI_Abort(MPI_COMM_WORLD, 1);
}
}  // namespace

void install_failure_handler(const tdc::Runtime& rt) {
  job_ranks = rt.size();
  tdc::set_failure_handler(&end_job);
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
      throw tdc::ConfigError(option,
                             "'" + text + "' is not " + std::to_string(count) + " positive integers joined by 'x'");
    }
    if (x == std::string::npos) break;
    start = x + 1;
  }
  if (out.size() != count)
    throw tdc::ConfigError(option,
                           "'" + text + "' is not " + std::to_string(count) + " positive integers joined by 'x'");
  return out;
}

void check_bench_grid(int nx, int ny, int nz) {
  try {
    tdc::config_detail::require_memory(tdc::Grid{nx, ny, nz}, 8, "the benchmark's fields");
  } catch (const tdc::ConfigError& e) {
    const std::string what = e.what();
    throw tdc::ConfigError("--grid", what.substr(what.find(": ") + 2));
  }
}

bool on_off(const std::string& v, const char* option) {
  if (v == "on") return true;
  if (v == "off") return false;
  throw tdc::ConfigError(option, "expected on or off, got '" + v + "'");
}

}  // namespace tdc::cli
