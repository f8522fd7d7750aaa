#include <epoxy/gl.h>

#include <engine/imgui_layer.hpp>

#include <imgui.h>
#include <imgui_impl_opengl3.h>
#include <imgui_impl_sdl.h>

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
}

bool ImGuiLayer::process_event(const SDL_Event& event) {
  if (!active_) return false;
  if (event.type == SDL_MOUSEMOTION) {
    event_mouse_valid_ = true;
    event_mouse_x_ = static_cast<float>(event.motion.x);
    event_mouse_y_ = static_cast<float>(event.motion.y);
  } else if (event.type == SDL_WINDOWEVENT && event.window.event == SDL_WINDOWEVENT_LEAVE) {
    event_mouse_valid_ = false;
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
  // No window has SDL's pointer focus (offscreen driver, or the pointer is elsewhere and
  // has not said so yet): fall back to the position the motion events reported.
  if (event_mouse_valid_ && !ImGui::IsMousePosValid(&io.MousePos) && SDL_GetMouseFocus() == nullptr) {
    io.MousePos = ImVec2(event_mouse_x_, event_mouse_y_);
  }
  // After the backend: it has just written its own measured DeltaTime.
  if (fixed_delta_seconds > 0.0) io.DeltaTime = static_cast<float>(fixed_delta_seconds);
  ImGui::NewFrame();
  frame_open_ = true;
}

void ImGuiLayer::end_frame() {
  if (!active_ || !frame_open_) return;
  ImGui::Render();
  frame_open_ = false;
}

void ImGuiLayer::draw() {
  if (!active_) return;
  ImDrawData* data = ImGui::GetDrawData();
  if (data != nullptr && data->Valid) ImGui_ImplOpenGL3_RenderDrawData(data);
}

}  // namespace engine
