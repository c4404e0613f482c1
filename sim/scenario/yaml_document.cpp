#include "sim/scenario/yaml_document.hpp"

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
#include <boost/locale/utf.hpp>

namespace squall {
namespace {

SourceMark mark_of(const YAML::Mark& mark) {
  return SourceMark{static_cast<std::size_t>(mark.line) + 1, static_cast<std::size_t>(mark.column) + 1};
}

// A syntax error found while building the document; it ends the parse.
struct YamlSyntaxError {
  SourceMark mark;
  std::string message;
};

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

// Whether the text holds a comment: a '#' at a line's start or after a blank.
bool has_comment(std::string_view text) {
  for (std::size_t i = text.find('#'); i != std::string_view::npos; i = text.find('#', i + 1)) {
    if (i == 0 || text[i - 1] == ' ' || text[i - 1] == '\t' || text[i - 1] == '\n' || text[i - 1] == '\r') {
      return true;
    }
  }
  return false;
}

// The names of the C0 control characters (ISO 646 / ECMA-6), for messages.
constexpr std::array<std::string_view, 32> kControlNames{
    "NUL", "SOH", "STX", "ETX", "EOT", "ENQ", "ACK", "BEL", "BS",  "HT", "LF",  "VT",  "FF", "CR", "SO", "SI",
    "DLE", "DC1", "DC2", "DC3", "DC4", "NAK", "SYN", "ETB", "CAN", "EM", "SUB", "ESC", "FS", "GS", "RS", "US"};

// The first character YAML 1.2 does not allow anywhere in a stream (section 5.1,
// c-printable): a C0 control other than tab, LF and CR, or DEL; or the first byte that
// does not start a well-formed UTF-8 sequence (section 5.2: a stream is Unicode, and
// squall reads UTF-8), which yaml-cpp would pass on into the document's strings, where
// JSON rejects it. yaml-cpp reads a NUL as the end of its input or reports it as an
// "unknown escape character" a few columns on; a binary file gives the same. Returns its
// error, located at the character (1-based line, and column in characters: a UTF-8
// sequence counts one).
std::optional<YamlSyntaxError> unreadable_character(std::string_view text) {
  using Utf8 = boost::locale::utf::utf_traits<char>;
  std::size_t line = 1;
  std::size_t column = 1;
  for (auto p = text.begin(); p != text.end(); ++column) {
    const auto c = static_cast<unsigned char>(*p);
    if (c >= 0x80) {
      // Overlong forms, surrogates and code points past U+10FFFF are refused too.
      auto next = p;
      const boost::locale::utf::code_point decoded = Utf8::decode(next, text.end());
      if (decoded == boost::locale::utf::illegal || decoded == boost::locale::utf::incomplete) {
        return YamlSyntaxError{SourceMark{line, column},
                               fmt::format("expected UTF-8 text, got the ill-formed UTF-8 byte 0x{:02X} (YAML 1.2 "
                                           "section 5.2): is the file in another encoding?",
                                           c)};
      }
      p = next;
      continue;
    }
    ++p;
    if (c == '\n') {
      ++line;
      column = 0;
      continue;
    }
    if ((c < 0x20 && c != '\t' && c != '\r') || c == 0x7F) {
      const std::string_view name = c == 0x7F ? "DEL" : kControlNames[c];
      return YamlSyntaxError{SourceMark{line, column},
                             fmt::format("expected printable text, got the control character U+{:04X} ({}), which YAML "
                                         "does not allow (YAML 1.2 section 5.1): is this a binary file?",
                                         c, name)};
    }
  }
  return std::nullopt;
}

// The first tab in a line's indentation at or before 1-based line `last_line`, where
// yaml-cpp stopped: YAML indents with spaces only (YAML 1.2 section 6.1), and yaml-cpp's
// own message for a tab ("illegal map value", "end of map not found") names something else.
std::optional<YamlSyntaxError> tab_in_indentation(std::string_view text, std::size_t last_line) {
  std::size_t line = 1;
  for (std::size_t start = 0; start < text.size() && line <= last_line; ++line) {
    const std::size_t end = std::min(text.find('\n', start), text.size());
    for (std::size_t i = start; i < end && (text[i] == ' ' || text[i] == '\t'); ++i) {
      if (text[i] == '\t') {
        return YamlSyntaxError{SourceMark{line, i - start + 1},
                               "expected spaces for indentation, got a tab: YAML indents with spaces only (YAML 1.2 "
                               "section 6.1)"};
      }
    }
    start = end + 1;
  }
  return std::nullopt;
}

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
