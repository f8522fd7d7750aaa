#include <epoxy/gl.h>

#include <engine/imgui_layer.hpp>

#include <imgui.h>
#include <imgui_impl_opengl3.h>
#include <imgui_impl_sdl.h>

#include <cfloat>
#include <cstdint>

namespace engine {

InputCapture imgui_capture() noexcept {
  if (ImGui::GetCurrentContext() == nullptr) return {};
  const ImGuiIO& io = ImGui::GetIO();
  return {io.WantCaptureMouse, io.WantCaptureKeyboard};
}

ImGuiLayer::~ImGuiLayer() { shutdown(); }

Status ImGuiLayer::init(SDL_Window* window, SDL_GLContext gl_context) {
  shutdown();
  if (window == nullptr || gl_context == nullptr) return Status::error("ImGui needs an open window with a GL context");
  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  ImGuiIO& io = ImGui::GetIO();
  io.IniFilename = nullptr;  // never read or write imgui.ini
  io.LogFilename = nullptr;
  ImGui::StyleColorsDark();
  if (!ImGui_ImplSDL2_InitForOpenGL(window, gl_context)) {
    ImGui::DestroyContext();
    return Status::error("ImGui: the SDL2 backend failed to initialise");
  }
  if (!ImGui_ImplOpenGL3_Init("#version 330 core")) {
    ImGui_ImplSDL2_Shutdown();
    ImGui::DestroyContext();
    return Status::error("ImGui: the OpenGL3 backend failed to initialise (GL 3.3 core needed)");
  }
  if (!ImGui_ImplOpenGL3_CreateDeviceObjects()) {  // now, not at the first frame: the font is set up below
    ImGui_ImplOpenGL3_Shutdown();
    ImGui_ImplSDL2_Shutdown();
    ImGui::DestroyContext();
    return Status::error("ImGui: the OpenGL3 backend could not build its shaders or font texture");
  }
  // The font atlas sampled nearest: ImGui puts glyphs on whole pixels, so text looks the same,
  // and on software GL (llvmpipe) a nearest texel costs a fraction of a bilinear one. The panel
  // is drawn while the sprites are stamped, on the same cores: nearest saves about 3 ms of a
  // held-fire frame's rendering at 1280x720. Thick lines are then anti-aliased with geometry,
  // not with the baked line textures, which need bilinear filtering.
  ImGui::GetStyle().AntiAliasedLinesUseTex = false;
  glBindTexture(GL_TEXTURE_2D, static_cast<GLuint>(reinterpret_cast<std::uintptr_t>(io.Fonts->TexID)));
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
  glBindTexture(GL_TEXTURE_2D, 0);
  active_ = true;
  return Status::ok();
}

void ImGuiLayer::shutdown() noexcept {
  if (!active_) return;
  if (frame_open_) ImGui::EndFrame();
  ImGui_ImplOpenGL3_Shutdown();
  ImGui_ImplSDL2_Shutdown();
  ImGui::DestroyContext();
  active_ = false;
  frame_open_ = false;
  event_mouse_valid_ = false;
  pointer_left_ = false;
  held_.clear();
  keys_fed_.reset();
  buttons_fed_ = 0;
  click_pos_valid_ = false;
}

namespace {

bool is_key(const SDL_Event& e) { return e.type == SDL_KEYDOWN || e.type == SDL_KEYUP; }
bool is_button(const SDL_Event& e) { return e.type == SDL_MOUSEBUTTONDOWN || e.type == SDL_MOUSEBUTTONUP; }
std::uint32_t button_bit(const SDL_Event& e) { return 1u << (e.button.button & 31u); }
bool same_input(const SDL_Event& a, const SDL_Event& b) {
  if (is_key(a) && is_key(b)) return a.key.keysym.scancode == b.key.keysym.scancode;
  if (is_button(a) && is_button(b)) return a.button.button == b.button.button;
  return false;
}

}  // namespace

bool ImGuiLayer::must_hold(const SDL_Event& event) const noexcept {
  if (is_key(event)) {
    const auto code = static_cast<std::size_t>(event.key.keysym.scancode);
    if (code < keys_fed_.size() && keys_fed_[code]) return true;
  } else if (is_button(event)) {
    if ((buttons_fed_ & button_bit(event)) != 0) return true;
  } else {
    return false;
  }
  // Something for the same key is already waiting: this comes after it.
  for (const SDL_Event& h : held_)
    if (same_input(h, event)) return true;
  return false;
}

bool ImGuiLayer::process_event(const SDL_Event& event) {
  if (!active_) return false;
  if (must_hold(event)) {
    held_.push_back(event);
    return true;
  }
  return feed(event);
}

void ImGuiLayer::release_held() {
  keys_fed_.reset();
  buttons_fed_ = 0;
  click_pos_valid_ = false;
  std::vector<SDL_Event> waiting;
  waiting.swap(held_);
  for (const SDL_Event& e : waiting) {
    if (must_hold(e)) {
      held_.push_back(e);
    } else {
      feed(e);
    }
  }
}

bool ImGuiLayer::feed(const SDL_Event& event) {
  if (is_key(event)) {
    const auto code = static_cast<std::size_t>(event.key.keysym.scancode);
    if (code < keys_fed_.size() && event.key.repeat == 0) keys_fed_[code] = true;
  } else if (is_button(event)) {
    buttons_fed_ |= button_bit(event);
    click_pos_valid_ = true;
    click_x_ = static_cast<float>(event.button.x);
    click_y_ = static_cast<float>(event.button.y);
  }
  if (event.type == SDL_MOUSEMOTION) {
    event_mouse_valid_ = true;
    pointer_left_ = false;
    event_mouse_x_ = static_cast<float>(event.motion.x);
    event_mouse_y_ = static_cast<float>(event.motion.y);
  } else if (event.type == SDL_WINDOWEVENT && event.window.event == SDL_WINDOWEVENT_LEAVE) {
    event_mouse_valid_ = false;
    pointer_left_ = true;
  }
  return ImGui_ImplSDL2_ProcessEvent(&event);
}

InputCapture ImGuiLayer::capture() const noexcept { return active_ ? imgui_capture() : InputCapture{}; }

void ImGuiLayer::begin_frame(double fixed_delta_seconds) {
  if (!active_) return;
  if (frame_open_) ImGui::EndFrame();
  ImGui_ImplOpenGL3_NewFrame();
  ImGui_ImplSDL2_NewFrame();
  ImGuiIO& io = ImGui::GetIO();
  // The last motion event says where the pointer is, whatever the backend read. With the
  // window focused, the 1.86 backend reads SDL_GetGlobalMouseState(), which on X11 is a cache
  // that only XInput2 raw motion refreshes: under an XTest pointer (xdotool on Xvfb) it kept
  // the place of the last click, so after a click on the panel ImGui went on hovering the
  // panel, kept the mouse from the game, and the ship aimed at the click. Without pointer
  // focus (the offscreen driver) the backend reads nothing at all. Motion events are exact in
  // both cases, and outside the window too while a held button captures the mouse.
  if (event_mouse_valid_) io.MousePos = ImVec2(event_mouse_x_, event_mouse_y_);
  // Gone from the window (no button held: a drag goes on sending motion events): no pointer,
  // rather than the stale cache's place, which kept a panel hovered with the pointer outside.
  if (pointer_left_) io.MousePos = ImVec2(-FLT_MAX, -FLT_MAX);
  // A click this frame happened where its event says, wherever the pointer went after it.
  if (click_pos_valid_) io.MousePos = ImVec2(click_x_, click_y_);
  // After the backend: it has just written its own measured DeltaTime.
  if (fixed_delta_seconds > 0.0) io.DeltaTime = static_cast<float>(fixed_delta_seconds);
  ImGui::NewFrame();
  frame_open_ = true;
}

void ImGuiLayer::end_frame() {
  if (!active_ || !frame_open_) return;
  ImGui::Render();
  frame_open_ = false;
  release_held();  // the next frame starts with what this one held back
}

void ImGuiLayer::draw() {
  if (!active_) return;
  ImDrawData* data = ImGui::GetDrawData();
  if (data != nullptr && data->Valid) ImGui_ImplOpenGL3_RenderDrawData(data);
}

}  // namespace engine
