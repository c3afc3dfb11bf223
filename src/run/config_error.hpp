// The one error every case's configuration raises: a bad key or value, named. The program exits with
// status 2 and writes nothing.
#pragma once
#include <stdexcept>
#include <string>

namespace tdc {

class ConfigError : public std::runtime_error {
 public:
  ConfigError(const std::string& key, const std::string& problem)
      : std::runtime_error(printable("config key '" + key + "': " + problem)), key_(key) {}
  const std::string& key() const { return key_; }

 private:
  // Control characters (terminal escape codes, newlines) in a value quoted back are shown as \xNN.
  static std::string printable(const std::string& s) {
    static const char* hex = "0123456789abcdef";
    std::string out;
    for (const char ch : s) {
      const unsigned char c = (unsigned char)ch;
      if (c < 0x20 || c == 0x7f) {
        out += "\\x";
        out += hex[c >> 4];
        out += hex[c & 15];
      } else {
        out += ch;
      }
    }
    return out;
  }
  std::string key_;
};

}  // namespace tdc
