#include <epoxy/gl.h>

#include <engine/shader.hpp>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>
#include <utility>

namespace engine {

namespace {

std::string trimmed_log(std::string log) {
  while (!log.empty() && (log.back() == '\n' || log.back() == '\r' || log.back() == '\0' || log.back() == ' ')) {
    log.pop_back();
  }
  return log.empty() ? std::string("(the driver gave no info log)") : log;
}

std::string shader_log(GLuint shader) {
  GLint length = 0;
  glGetShaderiv(shader, GL_INFO_LOG_LENGTH, &length);
  std::string log(static_cast<std::size_t>(length > 0 ? length : 0), '\0');
  if (length > 0) glGetShaderInfoLog(shader, length, nullptr, log.data());
  return trimmed_log(std::move(log));
}

std::string program_log(GLuint program) {
  GLint length = 0;
  glGetProgramiv(program, GL_INFO_LOG_LENGTH, &length);
  std::string log(static_cast<std::size_t>(length > 0 ? length : 0), '\0');
  if (length > 0) glGetProgramInfoLog(program, length, nullptr, log.data());
  return trimmed_log(std::move(log));
}

Status compile(GLenum stage, std::string_view source, std::string_view name, GLuint& out) {
  const GLuint shader = glCreateShader(stage);
  if (shader == 0) return Status::error("cannot create a shader object for '" + std::string(name) + "'");
  const char* text = source.data();
  const auto length = static_cast<GLint>(source.size());
  glShaderSource(shader, 1, &text, &length);
  glCompileShader(shader);
  GLint ok = GL_FALSE;
  glGetShaderiv(shader, GL_COMPILE_STATUS, &ok);
  if (ok != GL_TRUE) {
    Status s = Status::error("shader '" + std::string(name) + "' does not compile:\n" + shader_log(shader));
    glDeleteShader(shader);
    return s;
  }
  out = shader;
  return Status::ok();
}

}  // namespace

Status read_text_file(const std::string& path, std::string& out) {
  std::ifstream file(path, std::ios::binary);
  if (!file) return Status::error("cannot open '" + path + "': " + std::strerror(errno));
  std::ostringstream text;
  text << file.rdbuf();
  if (file.bad()) return Status::error("cannot read '" + path + "'");
  out = text.str();
  return Status::ok();
}

ShaderProgram::~ShaderProgram() { destroy(); }

ShaderProgram::ShaderProgram(ShaderProgram&& other) noexcept : program_(std::exchange(other.program_, 0u)) {}

ShaderProgram& ShaderProgram::operator=(ShaderProgram&& other) noexcept {
  if (this != &other) {
    destroy();
    program_ = std::exchange(other.program_, 0u);
  }
  return *this;
}

void ShaderProgram::destroy() noexcept {
  if (program_ != 0) glDeleteProgram(program_);
  program_ = 0;
}

Status ShaderProgram::load(const std::string& vertex_path, const std::string& fragment_path) {
  std::string vertex, fragment;
  if (Status s = read_text_file(vertex_path, vertex); !s) return Status::error("shader " + s.message());
  if (Status s = read_text_file(fragment_path, fragment); !s) return Status::error("shader " + s.message());
  return build(vertex, vertex_path, fragment, fragment_path);
}

Status ShaderProgram::build(std::string_view vertex_source, std::string_view vertex_name,
                            std::string_view fragment_source, std::string_view fragment_name) {
  GLuint vs = 0, fs = 0;
  if (Status s = compile(GL_VERTEX_SHADER, vertex_source, vertex_name, vs); !s) return s;
  if (Status s = compile(GL_FRAGMENT_SHADER, fragment_source, fragment_name, fs); !s) {
    glDeleteShader(vs);
    return s;
  }
  const GLuint program = glCreateProgram();
  glAttachShader(program, vs);
  glAttachShader(program, fs);
  glLinkProgram(program);
  // The program keeps what it linked; the shader objects are no longer needed.
  glDetachShader(program, vs);
  glDetachShader(program, fs);
  glDeleteShader(vs);
  glDeleteShader(fs);
  GLint ok = GL_FALSE;
  glGetProgramiv(program, GL_LINK_STATUS, &ok);
  if (ok != GL_TRUE) {
    Status s = Status::error("shaders '" + std::string(vertex_name) + "' + '" + std::string(fragment_name) +
                             "' do not link:\n" + program_log(program));
    glDeleteProgram(program);
    return s;
  }
  destroy();
  program_ = program;
  return Status::ok();
}

int ShaderProgram::uniform(const char* name) const noexcept {
  return program_ != 0 ? glGetUniformLocation(program_, name) : -1;
}

}  // namespace engine
