#include "sim/json_reader.hpp"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>

namespace game::detail {

std::string read_small_file(const std::string& path, std::uintmax_t max_bytes, std::string& text) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::file_status status = fs::status(path, ec);
  if (ec || !fs::exists(status)) return "cannot open: no such file";
  if (fs::is_directory(status)) return "cannot open: is a directory";
  const std::uintmax_t bytes = fs::is_regular_file(status) ? fs::file_size(path, ec) : 0;
  if (!fs::is_regular_file(status) || ec) return "cannot open: not a regular file";
  if (bytes > max_bytes) {
    return "file is " + std::to_string(bytes) + " bytes; the limit is " + std::to_string(max_bytes) + " bytes";
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::string("cannot open: ") + std::strerror(errno);
  std::ostringstream out;
  out << in.rdbuf();
  if (in.bad()) return "read error";
  text = out.str();
  return {};
}

}  // namespace game::detail
