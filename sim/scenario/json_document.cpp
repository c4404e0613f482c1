#include "sim/scenario/json_document.hpp"

#include <algorithm>
#include <fstream>
#include <set>
#include <sstream>
#include <vector>

#include <fmt/format.h>

namespace squall {
namespace {

// Follows the parser's position through nlohmann's callback events, so that a duplicate
// key can be reported with its JSON Pointer. One frame per open object or array; `token`
// is the escaped key or index of the member being parsed in it.
class DuplicateKeyFinder {
 public:
  explicit DuplicateKeyFinder(Diagnostics& diag) : diag_(&diag) {}

  bool operator()(int /*depth*/, Json::parse_event_t event, Json& parsed) {
    switch (event) {
      case Json::parse_event_t::object_start:
        enter_value();
        frames_.push_back(Frame{false, {}, 0, {}});
        break;
      case Json::parse_event_t::array_start:
        enter_value();
        frames_.push_back(Frame{true, {}, 0, {}});
        break;
      case Json::parse_event_t::object_end:
      case Json::parse_event_t::array_end:
        frames_.pop_back();
        break;
      case Json::parse_event_t::key: {
        Frame& top = frames_.back();
        const std::string& key = parsed.get_ref<const std::string&>();
        const std::string path = pointer_append(parent_path(), key);
        if (!top.keys.insert(key).second) diag_->error(path, fmt::format("duplicate key \"{}\"", key));
        top.token = path.substr(path.rfind('/') + 1);
        break;
      }
      case Json::parse_event_t::value:
        enter_value();
        break;
    }
    return true;  // keep everything: the document is checked further either way
  }

 private:
  struct Frame {
    bool is_array;
    std::string token;
    std::size_t next_index;
    std::set<std::string> keys;
  };

  // A value starts: inside an array it is the next element.
  void enter_value() {
    if (!frames_.empty() && frames_.back().is_array) frames_.back().token = std::to_string(frames_.back().next_index++);
  }

  // The path of the innermost open container.
  std::string parent_path() const {
    std::string path;
    for (std::size_t i = 0; i + 1 < frames_.size(); ++i) {
      path += '/';
      path += frames_[i].token;
    }
    return path;
  }

  Diagnostics* diag_;
  std::vector<Frame> frames_;
};

}  // namespace

std::optional<std::string> read_text_file(const std::filesystem::path& file, Diagnostics& diag) {
  std::error_code ec;
  if (!std::filesystem::exists(file, ec)) {
    diag.error("", "file not found");
    return std::nullopt;
  }
  if (std::filesystem::is_directory(file, ec)) {
    diag.error("", "is a directory, not a file");
    return std::nullopt;
  }
  std::ifstream in(file, std::ios::binary);
  std::ostringstream text;
  if (in) text << in.rdbuf();
  if (!in || in.bad()) {
    diag.error("", "cannot be read");
    return std::nullopt;
  }
  return std::move(text).str();
}

std::optional<Json> parse_json_document(std::string_view text, Diagnostics& diag) {
  DuplicateKeyFinder finder(diag);
  try {
    return Json::parse(text, std::ref(finder), /*allow_exceptions=*/true, /*ignore_comments=*/true);
  } catch (const Json::parse_error& e) {
    // e.byte is the 1-based offset of the last character read; nlohmann's own line and
    // column are off by one line after a newline, so they are recomputed here.
    const std::size_t offset = std::min<std::size_t>(e.byte > 0 ? e.byte - 1 : 0, text.size());
    const std::string_view before = text.substr(0, offset);
    const std::size_t line = 1 + static_cast<std::size_t>(std::count(before.begin(), before.end(), '\n'));
    const std::size_t line_start = before.rfind('\n');
    const std::size_t column = line_start == std::string_view::npos ? offset + 1 : offset - line_start;
    // what() is "[json.exception.parse_error.101] parse error at line L, column C: <description>".
    const std::string what = e.what();
    const std::size_t colon = what.find(": ");
    diag.syntax_error(line, column, colon == std::string::npos ? what : what.substr(colon + 2));
    return std::nullopt;
  }
}

}  // namespace squall
