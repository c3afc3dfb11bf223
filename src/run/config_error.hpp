// The one error every case's configuration raises: a bad key or value, named. The program exits with
// status 2 and writes nothing.
#pragma once
#include <stdexcept>
#include <string>

namespace tdc {

class ConfigError : public std::runtime_error {
 public:
  ConfigError(const std::string& key, const std::string& problem)
      : std::runtime_error("config key '" + key + "': " + problem), key_(key) {}
  const std::string& key() const { return key_; }

 private:
  std::string key_;
};

}  // namespace tdc
