#include "sim/scenario/yaml_document.hpp"
#include "sim/scenario/yaml_text.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <sstream>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <vector>

#include <fmt/format.h>
#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/exceptions.h>
#include <yaml-cpp/mark.h>
#include <yaml-cpp/parser.h>

namespace squall {
namespace {

SourceMark mark_of(const YAML::Mark& mark) {
  return SourceMark{static_cast<std::size_t>(mark.line) + 1, static_cast<std::size_t>(mark.column) + 1};
}

// YAML 1.1's booleans (https://yaml.org/type/bool.html) other than true and false.
constexpr std::array<std::string_view, 20> kYaml11Booleans{"y",  "Y",  "yes", "Yes",  "YES",  "n",     "N",
                                                           "no", "No", "NO",  "True", "TRUE", "False", "FALSE",
                                                           "on", "On", "ON",  "off",  "Off",  "OFF"};

// RFC 8259's number grammar: -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
bool is_json_number(std::string_view s) {
  std::size_t i = 0;
  const auto digits = [&] {
    const std::size_t start = i;
    while (i < s.size() && s[i] >= '0' && s[i] <= '9') ++i;
    return i > start;
  };
  if (i < s.size() && s[i] == '-') ++i;
  if (i < s.size() && s[i] == '0') {
    ++i;
  } else if (!digits()) {
    return false;
  }
  if (i < s.size() && s[i] == '.') {
    ++i;
    if (!digits()) return false;
  }
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    ++i;
    if (i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
    if (!digits()) return false;
  }
  return i == s.size();
}

// Builds the JSON document from yaml-cpp's events.
class Builder : public YAML::EventHandler {
 public:
  Builder(Diagnostics& diag, SourceMarks& marks) : diag_(diag), marks_(marks) {}

  std::size_t documents() const { return documents_; }
  YAML::Mark last_document_start() const { return document_start_; }
  Json take_root() { return std::move(root_); }

  void OnDocumentStart(const YAML::Mark& mark) override {
    ++documents_;
    document_start_ = mark;
  }
  void OnDocumentEnd() override {}

  void OnNull(const YAML::Mark& mark, YAML::anchor_t anchor) override {
    if (expecting_key()) throw YamlSyntaxError{mark_of(mark), "expected a string key, got null"};
    place(Json(nullptr), mark, anchor);
  }

  void OnAlias(const YAML::Mark& mark, YAML::anchor_t anchor) override {
    if (expecting_key()) throw YamlSyntaxError{mark_of(mark), "expected a string key, got an alias"};
    const auto it = anchored_.find(anchor);
    if (it == anchored_.end()) {
      throw YamlSyntaxError{mark_of(mark),
                            "alias to a node that is not complete here (an alias inside its own anchor)"};
    }
    const Size size = anchored_size_[anchor];
    count(mark, Size{size.nodes - 1, size.bytes});  // place() counts the last node
    place(it->second, mark, 0);
  }

  void OnScalar(const YAML::Mark& mark, const std::string& tag, YAML::anchor_t anchor,
                const std::string& value) override {
    const bool plain = tag == "?";
    if (!plain && tag != "!" && tag != "tag:yaml.org,2002:str") {
      std::string message = fmt::format("explicit tag \"{}\" is not supported: only !!str", tag);
      // On a value, the one error of its fault; on a key, the key's own error.
      if (expecting_key()) {
        diag_.error_at(pointer_here(), mark_of(mark), std::move(message));
      } else {
        diag_.value_error_at(pointer_here(), mark_of(mark), std::move(message));
      }
    }
    if (expecting_key()) {
      count(mark, Size{0, value.size()});
      read_key(value, mark);
      return;
    }
    count(mark, Size{0, value.size()});
    place(plain ? plain_scalar(value, mark) : Json(value), mark, anchor);
  }

  void OnSequenceStart(const YAML::Mark& mark, const std::string& tag, YAML::anchor_t anchor,
                       YAML::EmitterStyle::value /*style*/) override {
    open(Json::array(), mark, tag, anchor);
  }
  void OnSequenceEnd() override { close(); }

  void OnMapStart(const YAML::Mark& mark, const std::string& tag, YAML::anchor_t anchor,
                  YAML::EmitterStyle::value /*style*/) override {
    open(Json::object(), mark, tag, anchor);
  }
  void OnMapEnd() override { close(); }

 private:
  // What a document or node holds once aliases are expanded: values, and bytes of keys
  // and strings.
  struct Size {
    std::size_t nodes = 0;
    std::size_t bytes = 0;
  };
  struct KeyPlace {
    std::size_t line = 0;
    std::size_t index = 0;
  };
  struct Frame {
    Json value;
    std::string pointer;
    YAML::anchor_t anchor = 0;
    std::optional<std::string> key;  // a mapping's key whose value comes next
    std::size_t member = 0;          // that key's place among the members
    // A mapping's keys: the line each was first written on and its place among the
    // members. Looked up here, in O(1), rather than by ordered_json's operator[], which
    // searches every member: a mapping of n keys would take O(n^2) (100 000 keys took 24 s).
    std::unordered_map<std::string, KeyPlace> keys;
    Size before;  // size_ when it opened, itself included
  };

  // Counts `more` of the document being built, aliases expanded: past kMaxYamlNodes
  // values or kMaxYamlTextBytes bytes of keys and strings the file is refused, so a few
  // lines of nested aliases (the "billion laughs" expansion) or one long string aliased
  // many times cannot take the machine's memory.
  void count(const YAML::Mark& mark, Size more) {
    size_.nodes += more.nodes;
    size_.bytes += more.bytes;
    if (size_.nodes > kMaxYamlNodes) {
      throw YamlSyntaxError{
          mark_of(mark), fmt::format("expected at most {} values once aliases are expanded, got more", kMaxYamlNodes)};
    }
    if (size_.bytes > kMaxYamlTextBytes) {
      throw YamlSyntaxError{mark_of(mark),
                            fmt::format("expected at most {} bytes of keys and strings once aliases are expanded "
                                        "(64 MiB), got more",
                                        kMaxYamlTextBytes)};
    }
  }

  bool expecting_key() const { return !stack_.empty() && stack_.back().value.is_object() && !stack_.back().key; }

  // The pointer of the node about to be placed.
  std::string pointer_here() const {
    if (stack_.empty()) return "";
    const Frame& top = stack_.back();
    if (top.value.is_array()) return pointer_append(top.pointer, top.value.size());
    return top.key ? pointer_append(top.pointer, *top.key) : top.pointer;
  }

  void read_key(const std::string& key, const YAML::Mark& mark) {
    Frame& top = stack_.back();
    top.key = key;
    const std::string pointer = pointer_append(top.pointer, key);
    const SourceMark at = mark_of(mark);
    if (const auto it = top.keys.find(key); it != top.keys.end()) {
      diag_.error_at(pointer, at, fmt::format("duplicate key \"{}\" (also line {})", key, it->second.line));
      top.member = it->second.index;
    } else {
      top.member = top.value.size();
      top.keys.emplace(key, KeyPlace{at.line, top.member});
      // std::vector's emplace_back: ordered_map's own emplace searches every key first.
      top.value.get_ref<Json::object_t&>().emplace_back(key, nullptr);
      marks_.emplace(pointer, at);
    }
  }

  Json plain_scalar(const std::string& value, const YAML::Mark& mark) {
    if (value == "true") return Json(true);
    if (value == "false") return Json(false);
    for (const std::string_view word : kYaml11Booleans) {
      if (value == word) {
        diag_.value_error_at(
            pointer_here(), mark_of(mark),
            fmt::format("expected true, false or a quoted string, got the YAML 1.1 boolean \"{}\"", value));
        return Json(value);
      }
    }
    if (!is_json_number(value)) return Json(value);
    try {
      Json number = Json::parse(value);
      if (number.is_number_float() && underflowed_to_zero(number.get<double>(), value)) {
        throw YamlSyntaxError{mark_of(mark), underflow_message(value)};
      }
      return number;
    } catch (const Json::exception&) {
      // JSON's message for the same number (mocks/strict_json.cpp).
      throw YamlSyntaxError{mark_of(mark),
                            fmt::format("expected a number of magnitude at most 1.8e308, got {}", value)};
    }
  }

  void check_container_tag(const std::string& tag, const YAML::Mark& mark) {
    if (tag != "?" && tag != "!") {
      // The container is still read as one: errors inside it are other faults.
      diag_.error_at(pointer_here(), mark_of(mark),
                     fmt::format("explicit tag \"{}\" is not supported: only !!str", tag));
    }
  }

  void open(Json empty, const YAML::Mark& mark, const std::string& tag, YAML::anchor_t anchor) {
    if (expecting_key()) throw YamlSyntaxError{mark_of(mark), "expected a string key, got a mapping or sequence"};
    check_container_tag(tag, mark);
    if (stack_.size() >= kMaxJsonDepth) {
      throw YamlSyntaxError{
          mark_of(mark),
          fmt::format("expected at most {} levels of nested arrays and objects, got more", kMaxJsonDepth)};
    }
    const std::string pointer = pointer_here();
    mark_element(pointer, mark);
    count(mark, Size{1, 0});
    stack_.push_back(Frame{std::move(empty), pointer, anchor, std::nullopt, 0, {}, size_});
  }

  void close() {
    Frame frame = std::move(stack_.back());
    stack_.pop_back();
    if (frame.anchor != 0) {
      anchored_[frame.anchor] = frame.value;
      anchored_size_[frame.anchor] = Size{size_.nodes - frame.before.nodes + 1, size_.bytes - frame.before.bytes};
    }
    attach(std::move(frame.value));
  }

  // Records where an element of a sequence (or the root) starts; members are marked at
  // their key by read_key.
  void mark_element(const std::string& pointer, const YAML::Mark& mark) {
    if (stack_.empty() || stack_.back().value.is_array()) marks_.emplace(pointer, mark_of(mark));
  }

  void place(Json value, const YAML::Mark& mark, YAML::anchor_t anchor) {
    mark_element(pointer_here(), mark);
    count(mark, Size{1, 0});
    if (anchor != 0) {
      anchored_[anchor] = value;
      anchored_size_[anchor] = Size{1, value.is_string() ? value.get_ref<const std::string&>().size() : 0};
    }
    attach(std::move(value));
  }

  void attach(Json value) {
    if (stack_.empty()) {
      root_ = std::move(value);
      return;
    }
    Frame& top = stack_.back();
    if (top.value.is_array()) {
      top.value.push_back(std::move(value));
    } else {
      // The member read_key made (the first one of that key: the last value is kept).
      (top.value.get_ref<Json::object_t&>().begin() + static_cast<std::ptrdiff_t>(top.member))->second =
          std::move(value);
      top.key.reset();
    }
  }

  Diagnostics& diag_;
  SourceMarks& marks_;
  std::vector<Frame> stack_;
  std::unordered_map<YAML::anchor_t, Json> anchored_;
  std::unordered_map<YAML::anchor_t, Size> anchored_size_;  // what each expands to
  Size size_;
  Json root_;
  std::size_t documents_ = 0;
  YAML::Mark document_start_;
};

}  // namespace

bool has_extension(const std::filesystem::path& file, std::string_view extension) {
  const std::string actual = file.extension().string();
  if (actual.size() != extension.size()) return false;
  for (std::size_t i = 0; i < actual.size(); ++i) {
    char c = actual[i];
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    if (c != extension[i]) return false;
  }
  return true;
}

bool is_yaml_file(const std::filesystem::path& file) {
  return has_extension(file, ".yaml") || has_extension(file, ".yml");
}

std::optional<ParsedDocument> parse_yaml_document(std::string_view text, Diagnostics& diag) {
  if (const auto unreadable = unreadable_character(text)) {
    diag.syntax_error(unreadable->mark.line, unreadable->mark.column, unreadable->message);
    return std::nullopt;
  }
  ParsedDocument document;
  std::istringstream in{std::string(text)};
  Builder builder(diag, document.marks);
  try {
    YAML::Parser parser(in);
    if (!parser.HandleNextDocument(builder)) {
      diag.error("", has_comment(text) ? "the file is empty: it holds no YAML value, only comments"
                                       : "the file is empty: it holds no YAML value");
      return std::nullopt;
    }
    if (parser.HandleNextDocument(builder)) {
      diag.syntax_error(mark_of(builder.last_document_start()).line, mark_of(builder.last_document_start()).column,
                        "expected one YAML document, found a second one here");
      return std::nullopt;
    }
  } catch (const YamlSyntaxError& error) {
    diag.syntax_error(error.mark.line, error.mark.column, error.message);
    return std::nullopt;
  } catch (const YAML::Exception& error) {
    if (const auto tab = tab_in_indentation(text, mark_of(error.mark).line)) {
      diag.syntax_error(tab->mark.line, tab->mark.column, tab->message);
    } else {
      diag.syntax_error(mark_of(error.mark).line, mark_of(error.mark).column, error.msg);
    }
    return std::nullopt;
  }
  document.root = builder.take_root();
  return document;
}

}  // namespace squall
