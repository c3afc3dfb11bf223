#include "run_failure.hpp"

#include <atomic>
#include <chrono>
#include <thread>
#include <cstdio>
#include <cstdlib>
#include <exception>

namespace tdc {
namespace {
std::atomic<FailureHandler> installed{nullptr};
std::atomic<bool> failing{false};
}  // namespace

void set_failure_handler(FailureHandler handler) { installed = handler; }

void fail_run(const std::string& what) {
  if (failing.exchange(true)) {  // another thread is already ending the process
    for (;;) std::this_thread::sleep_for(std::chrono::seconds(1));
  }
  std::fprintf(stderr, "taskdycore: error: %s\n", what.c_str());
  std::fflush(stderr);
  std::fflush(stdout);
  if (FailureHandler h = installed.load()) h(what);
  std::_Exit(1);
}

}  // namespace tdc
