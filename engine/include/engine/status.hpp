#pragma once
// engine::Status: what a runtime call that can fail returns. Success, or one line that
// names the file or subsystem and the cause, ready to print as-is.
#include <string>
#include <utility>

namespace engine {

class [[nodiscard]] Status {
 public:
  Status() = default;  // success
  static Status ok() { return Status{}; }
  static Status error(std::string message) {  // failure; never an empty message
    Status s;
    s.message_ = message.empty() ? std::string("unknown error") : std::move(message);
    return s;
  }
  bool is_ok() const noexcept { return message_.empty(); }
  explicit operator bool() const noexcept { return is_ok(); }
  const std::string& message() const noexcept { return message_; }  // empty on success

 private:
  std::string message_;
};

}  // namespace engine
