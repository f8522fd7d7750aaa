#include "app/best_score.hpp"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <system_error>
#include <limits>

namespace game {

namespace {

constexpr const char* kHeader = "poolshot best score 1";
constexpr std::size_t kMaxFileBytes = 256;  // the real file is under 40 bytes

}  // namespace

std::string format_best_score(std::int64_t best) { return std::string(kHeader) + "\n" + std::to_string(best) + "\n"; }

bool parse_best_score(const std::string& text, std::int64_t& best, std::string& why) {
  const std::string header = std::string(kHeader) + "\n";
  if (text.compare(0, header.size(), header) != 0) {
    why = "not a best-score file (the first line is not '" + std::string(kHeader) + "')";
    return false;
  }
  std::string number = text.substr(header.size());
  if (!number.empty() && number.back() == '\n') number.pop_back();
  if (number.empty() || number.size() > 19) {
    why = "the score line is empty or too long";
    return false;
  }
  std::int64_t value = 0;
  for (const char c : number) {
    if (c < '0' || c > '9') {
      why = "the score '" + number + "' is not a whole number";
      return false;
    }
    const std::int64_t digit = c - '0';
    if (value > (std::numeric_limits<std::int64_t>::max() - digit) / 10) {
      why = "the score '" + number + "' is too large";
      return false;
    }
    value = value * 10 + digit;
  }
  best = value;
  return true;
}

BestScoreRead read_best_score(const std::string& path) {
  BestScoreRead r;
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    if (errno != ENOENT) r.error = "cannot read best score '" + path + "': " + std::strerror(errno);
    return r;  // no file yet: a best of 0
  }
  std::string text(kMaxFileBytes + 1, '\0');
  in.read(text.data(), static_cast<std::streamsize>(text.size()));
  text.resize(static_cast<std::size_t>(in.gcount()));
  std::string why;
  if (text.size() > kMaxFileBytes) {
    r.error = "best score '" + path + "' ignored: the file is too large";
  } else if (!parse_best_score(text, r.best, why)) {
    r.best = 0;
    r.error = "best score '" + path + "' ignored: " + why;
  }
  return r;
}

bool write_best_score(const std::string& path, std::int64_t best, std::string& error) {
  // A folder that is not there yet (a fresh $POOLSHOT_PREF_DIR) is made, with its parents.
  const std::filesystem::path folder = std::filesystem::path(path).parent_path();
  std::error_code ec;
  if (!folder.empty() && !std::filesystem::is_directory(folder, ec)) {
    std::filesystem::create_directories(folder, ec);
    if (ec) {
      error = "cannot save best score to '" + path + "': cannot create the folder '" + folder.string() +
              "': " + ec.message();
      return false;
    }
  }
  const std::string temporary = path + ".tmp";
  {
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    if (!out) {
      error = "cannot save best score to '" + path + "': " + std::strerror(errno);
      return false;
    }
    out << format_best_score(best);
    out.flush();
    if (!out) {
      error = "cannot save best score to '" + path + "': write failed";
      std::remove(temporary.c_str());
      return false;
    }
  }
  if (std::rename(temporary.c_str(), path.c_str()) != 0) {
    error = "cannot save best score to '" + path + "': " + std::strerror(errno);
    std::remove(temporary.c_str());
    return false;
  }
  return true;
}

BestScoreFile::BestScoreFile(std::string path) : path_(std::move(path)) {
  const BestScoreRead r = read_best_score(path_);
  loaded_ = r.best;
  if (!r.error.empty()) report(r.error);
}

void BestScoreFile::save(std::int64_t best) {
  if (path_.empty()) return;
  std::string error;
  if (!write_best_score(path_, best, error)) report(error);
}

void BestScoreFile::report(const std::string& message) {
  if (reported_) return;  // one line per run, however often it fails
  reported_ = true;
  std::fprintf(stderr, "poolshot: %s (the game goes on)\n", message.c_str());
}

std::string best_score_path(const char* pref_dir) {
  const char* override_dir = std::getenv("POOLSHOT_PREF_DIR");
  std::string dir = override_dir != nullptr && override_dir[0] != '\0' ? override_dir : pref_dir ? pref_dir : "";
  if (dir.empty()) return {};
  if (dir.back() != '/') dir += '/';
  return dir + "best_score.txt";
}

}  // namespace game
