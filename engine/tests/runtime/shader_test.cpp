#include <engine/shader.hpp>

#include "gl_test_support.hpp"

#include <epoxy/gl.h>
#include <gtest/gtest.h>

#include <fstream>

namespace {

using test_support::asset_dir;

void write_text(const std::string& path, const std::string& text) {
  std::ofstream f(path, std::ios::binary);
  f << text;
}

class ShaderTest : public test_support::OffscreenWindowTest<64, 64> {};

TEST_F(ShaderTest, TheSpriteShadersCompileAndLink) {
  engine::ShaderProgram program;
  const engine::Status s = program.load(asset_dir() + "/shaders/sprite.vert", asset_dir() + "/shaders/sprite.frag");
  ASSERT_TRUE(s) << s.message();
  EXPECT_NE(program.id(), 0u);
  EXPECT_GE(program.uniform("u_view"), 0);
  EXPECT_GE(program.uniform("u_atlas"), 0);
  EXPECT_EQ(program.uniform("no_such_uniform"), -1);
}

TEST_F(ShaderTest, AMissingShaderNamesTheFile) {
  engine::ShaderProgram program;
  const std::string missing = asset_dir() + "/shaders/does_not_exist.vert";
  const engine::Status s = program.load(missing, asset_dir() + "/shaders/sprite.frag");
  ASSERT_FALSE(s);
  EXPECT_NE(s.message().find(missing), std::string::npos) << s.message();
  EXPECT_EQ(program.id(), 0u);
}

TEST_F(ShaderTest, AShaderThatDoesNotCompileNamesTheFileAndGivesTheLog) {
  const std::string bad = test_support::temp_path("bad.frag");
  write_text(bad, "#version 330 core\nout vec4 c;\nvoid main() { c = vec4(1.0) + undefined_thing; }\n");
  engine::ShaderProgram program;
  const engine::Status s = program.load(asset_dir() + "/shaders/sprite.vert", bad);
  ASSERT_FALSE(s);
  EXPECT_NE(s.message().find(bad), std::string::npos) << s.message();
  EXPECT_NE(s.message().find("does not compile"), std::string::npos) << s.message();
  EXPECT_NE(s.message().find("undefined_thing"), std::string::npos) << "the GL info log is missing:\n" << s.message();
  EXPECT_EQ(program.id(), 0u);
  EXPECT_EQ(glGetError(), static_cast<GLenum>(GL_NO_ERROR));
}

TEST_F(ShaderTest, AFailedReloadKeepsTheWorkingProgram) {
  engine::ShaderProgram program;
  ASSERT_TRUE(program.load(asset_dir() + "/shaders/sprite.vert", asset_dir() + "/shaders/sprite.frag"));
  const unsigned good = program.id();
  EXPECT_FALSE(program.build("#version 330 core\nvoid main() { syntax error }", "inline.vert",
                             "#version 330 core\nvoid main() {}", "inline.frag"));
  EXPECT_EQ(program.id(), good);
}

TEST_F(ShaderTest, ALinkErrorNamesBothFiles) {
  engine::ShaderProgram program;
  // Both stages compile; the program cannot link because the fragment stage has no main().
  const engine::Status s =
      program.build("#version 330 core\nvoid main() { gl_Position = vec4(0.0); }", "a.vert",
                    "#version 330 core\nout vec4 c;\nvoid helper() { c = vec4(1.0); }\n", "b.frag");
  ASSERT_FALSE(s);
  EXPECT_NE(s.message().find("do not link"), std::string::npos) << s.message();
  EXPECT_NE(s.message().find("a.vert"), std::string::npos) << s.message();
  EXPECT_NE(s.message().find("b.frag"), std::string::npos) << s.message();
  EXPECT_EQ(program.id(), 0u);
}

}  // namespace
