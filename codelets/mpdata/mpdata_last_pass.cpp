#include "mpdata_last_pass.hpp"

#include <cstdlib>
#include <cstring>

namespace tdc {
namespace mpdata {

LastPass last_pass_by_default() {
  const char* e = std::getenv("TASKDYCORE_MPDATA_LAST_PASS");
  if (e && std::strcmp(e, "staged") == 0) return LastPass::Staged;
  if (e && std::strcmp(e, "limiter") == 0) return LastPass::Limiter;
  return LastPass::Whole;
}

}  // namespace mpdata
}  // namespace tdc
