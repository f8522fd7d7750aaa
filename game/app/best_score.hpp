#pragma once
// game::BestScoreFile: the best score, kept between runs in one small text file,
// "poolshot best score 1\n<score>\n", in SDL_GetPrefPath("poolshot", "poolshot") (main picks
// the directory; $POOLSHOT_PREF_DIR replaces it, for tests and portable installs).
// A missing file is a best of 0. A file that cannot be read, parsed or written costs one
// line on stderr, once, and the game goes on with what it has: a best score never stops play.
#include <cstdint>
#include <string>

namespace game {

struct BestScoreRead {
  std::int64_t best = 0;
  std::string error;  // empty: read fine, or no file yet
};

// The file's text for `best`, and back. parse_best_score fails (false, `why` set) on anything
// but the exact format with a score from 0 to 2^63-1.
std::string format_best_score(std::int64_t best);
bool parse_best_score(const std::string& text, std::int64_t& best, std::string& why);

BestScoreRead read_best_score(const std::string& path);
// Writes through a temporary file renamed over `path`, so a crash never leaves half a file;
// makes the file's folder first when it does not exist.
bool write_best_score(const std::string& path, std::int64_t best, std::string& error);

class BestScoreFile {
 public:
  BestScoreFile() = default;                 // no file: nothing read, nothing saved
  explicit BestScoreFile(std::string path);  // reads it now (one stderr line on trouble)
  std::int64_t loaded() const noexcept { return loaded_; }
  const std::string& path() const noexcept { return path_; }
  // Saves `best`; trouble is reported once per run, then saving stays quiet.
  void save(std::int64_t best);
  bool reported() const noexcept { return reported_; }  // a line went to stderr (tests)

 private:
  void report(const std::string& message);
  std::string path_;
  std::int64_t loaded_ = 0;
  bool reported_ = false;
};

// The best score file's path: $POOLSHOT_PREF_DIR/best_score.txt if set, else under
// `pref_dir` (SDL_GetPrefPath's answer, ending in '/'); empty when neither is known.
std::string best_score_path(const char* pref_dir);

}  // namespace game
