#pragma once
// engine::ShaderProgram: a GL program built from a vertex and a fragment shader file.
// A shader that is missing or does not compile is a Status naming the file, with the
// driver's info log; never a crash and never a half-built program.
// Needs a current GL context for everything but the default constructor.
#include <engine/status.hpp>

#include <string>
#include <string_view>

namespace engine {

class ShaderProgram {
 public:
  ShaderProgram() = default;
  ~ShaderProgram();  // deletes the program (context current)
  ShaderProgram(ShaderProgram&& other) noexcept;
  ShaderProgram& operator=(ShaderProgram&& other) noexcept;
  ShaderProgram(const ShaderProgram&) = delete;
  ShaderProgram& operator=(const ShaderProgram&) = delete;

  // Reads, compiles and links; on success replaces the current program.
  Status load(const std::string& vertex_path, const std::string& fragment_path);
  // The same from source text; the names appear in error messages.
  Status build(std::string_view vertex_source, std::string_view vertex_name, std::string_view fragment_source,
               std::string_view fragment_name);

  unsigned id() const noexcept { return program_; }  // 0 until a successful load
  int uniform(const char* name) const noexcept;      // -1 if absent (or optimised out)
  void destroy() noexcept;

 private:
  unsigned program_ = 0;
};

// Reads a whole text file; errors name the file.
Status read_text_file(const std::string& path, std::string& out);

}  // namespace engine
