// A failure that must end the run at once, wherever it is noticed (a failed write on the field
// writer's thread, a checkpoint that cannot be written): unwinding would destroy fields that tasks
// still use, and the other ranks would wait for this one forever. fail_run reports the failure and
// ends the process with exit status 1 through the handler the command line installs (which ends
// every rank of an MPI job); it never returns and runs no destructors or exit handlers.
#pragma once
#include <string>

namespace tdc {

using FailureHandler = void (*)(const std::string& what);
// Installs the handler (the CLI's ends the whole MPI job); it must not return.
void set_failure_handler(FailureHandler handler);
// Prints "taskdycore: error: <what>" and ends the process (status 1).
[[noreturn]] void fail_run(const std::string& what);
// Runs `body`; an exception it throws is a failure of the run (fail_run with its message).
template <class Body>
void or_fail_run(Body body) {
  try {
    body();
  } catch (const std::exception& e) {
    fail_run(e.what());
  }
}

}  // namespace tdc
