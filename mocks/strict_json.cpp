#include "mocks/strict_json.hpp"

#include <algorithm>
#include <iterator>
#include <optional>
#include <unordered_map>
#include <vector>

#include <fmt/format.h>

namespace squall {
namespace {

constexpr std::size_t kDescribeLimit = 60;

// `text` cut to kDescribeLimit bytes, ending in "..." when cut, at a UTF-8 character
// boundary.
std::string cut_short(std::string text) {
  if (text.size() > kDescribeLimit) {
    std::size_t cut = kDescribeLimit - 3;
    while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;
    text.resize(cut);
    text += "...";
  }
  return text;
}

// A pointer into the text that records how far the parser has read. nlohmann's SAX events
// carry no position, and the nesting limit is reported at the bracket that exceeds it:
// when start_array or start_object is called, the last character read is that bracket
// (the lexer reads nothing past a bracket).
class TrackingIterator {
 public:
  using iterator_category = std::input_iterator_tag;
  using value_type = char;
  using difference_type = std::ptrdiff_t;
  using pointer = const char*;
  using reference = const char&;

  TrackingIterator(const char* position, const char** furthest) : position_(position), furthest_(furthest) {}
  reference operator*() const { return *position_; }
  TrackingIterator& operator++() {
    *furthest_ = ++position_;
    return *this;
  }
  TrackingIterator operator++(int) {
    TrackingIterator before = *this;
    ++*this;
    return before;
  }
  friend bool operator==(const TrackingIterator& a, const TrackingIterator& b) { return a.position_ == b.position_; }

 private:
  const char* position_;
  const char** furthest_;
};

// Builds the document from SAX events with an explicit stack (no recursion), one frame
// per open array or object.
class DocumentBuilder final : public nlohmann::json_sax<Json> {
 public:
  // A syntax error, with the 1-based byte offset of the character it is located at.
  struct Failure {
    std::size_t byte;
    std::string message;
  };

  DocumentBuilder(const DuplicateKeyHandler& on_duplicate_key, const char* text_begin, const char* const* furthest)
      : on_duplicate_key_(&on_duplicate_key), text_begin_(text_begin), furthest_(furthest) {}

  bool null() override { return put(Json(nullptr)); }
  bool boolean(bool value) override { return put(Json(value)); }
  bool number_integer(number_integer_t value) override { return put(Json(value)); }
  bool number_unsigned(number_unsigned_t value) override { return put(Json(value)); }
  bool number_float(number_float_t value, const string_t& text) override {
    if (underflowed_to_zero(value, text)) {
      // Located at the number's first character: the lexer has read it and at most one
      // character more, so it is the last occurrence of its text in what was read.
      const std::string_view read(text_begin_, static_cast<std::size_t>(*furthest_ - text_begin_));
      const std::size_t at = read.rfind(text);
      error_ = Failure{(at == std::string_view::npos ? read.size() : at) + 1, underflow_message(text)};
      return false;
    }
    return put(Json(value));
  }
  bool string(string_t& value) override { return put(Json(std::move(value))); }
  bool binary(binary_t& value) override { return put(Json::binary(std::move(value))); }  // never in JSON text

  bool start_object(std::size_t /*elements*/) override { return open(Json::object()); }
  bool start_array(std::size_t /*elements*/) override { return open(Json::array()); }
  bool end_object() override { return close(); }
  bool end_array() override { return close(); }

  bool key(string_t& key) override {
    Frame& top = frames_.back();
    auto& members = top.container->get_ref<Json::object_t&>();
    const auto [entry, inserted] = top.positions.try_emplace(key, members.size());
    // std::vector's emplace_back: ordered_map's own emplace searches every key first.
    if (inserted) members.emplace_back(key, nullptr);
    top.key = &entry->first;
    top.member = &(members.begin() + static_cast<std::ptrdiff_t>(entry->second))->second;
    if (!inserted) (*on_duplicate_key_)(pointer_to_member(), key);
    return true;
  }

  bool parse_error(std::size_t position, const std::string& last_token, const Json::exception& error) override {
    if (error.id == 406) {
      // A number overflow: the lexer has read exactly the number, so it starts
      // last_token.size() bytes before `position`.
      error_ = Failure{position - std::min(position, last_token.size()) + 1,
                       fmt::format("expected a number of magnitude at most 1.8e308, got {}", last_token)};
    } else {
      // what() is "[json.exception.parse_error.101] parse error at line L, column C: <description>";
      // nlohmann's own line and column are off by one line after a newline, so only the
      // description is kept. It quotes the token read ("last read: '<token>'"), which can
      // be a whole string literal of megabytes: it is cut short.
      const std::string what = error.what();
      const std::size_t colon = what.find(": ");
      std::string description = colon == std::string::npos ? what : what.substr(colon + 2);
      const std::string quoted = "last read: '" + last_token + "'";
      if (const std::size_t at = description.find(quoted); at != std::string::npos) {
        description.replace(at, quoted.size(), "last read: '" + cut_short(last_token) + "'");
      }
      error_ = Failure{position, std::move(description)};
    }
    return false;
  }

  bool too_deep() const { return too_deep_; }
  const std::optional<Failure>& failure() const { return error_; }
  Json take_document() { return std::move(root_); }

 private:
  struct Frame {
    Json* container;
    // Objects only: the position of each key in `container`, the last key read (owned
    // by `positions`) and the value it names.
    std::unordered_map<std::string, std::size_t> positions;
    const std::string* key = nullptr;
    Json* member = nullptr;
  };

  // Where the next value goes: the root, the next element of an array, or the member
  // named by the last key. Elements and members are only added to the innermost open
  // container, so pointers to the open ones stay valid.
  Json* slot() {
    if (frames_.empty()) return &root_;
    Frame& top = frames_.back();
    if (top.container->is_array()) {
      auto& elements = top.container->get_ref<Json::array_t&>();
      elements.emplace_back();
      return &elements.back();
    }
    return top.member;
  }

  bool put(Json value) {
    *slot() = std::move(value);
    return true;
  }

  bool open(Json container) {
    if (frames_.size() >= kMaxJsonDepth) {
      too_deep_ = true;
      return false;
    }
    Json* target = slot();
    *target = std::move(container);
    frames_.push_back(Frame{target, {}, nullptr, nullptr});
    return true;
  }

  bool close() {
    frames_.pop_back();
    return true;
  }

  // The pointer of the member named by the innermost object's last key; built only for
  // duplicates, so the cost of the path is paid once per error, not once per key.
  std::string pointer_to_member() const {
    Json::json_pointer pointer;
    for (const Frame& frame : frames_) {
      if (frame.container->is_array()) {
        pointer /= frame.container->size() - 1;
      } else {
        pointer /= *frame.key;
      }
    }
    return pointer.to_string();
  }

  const DuplicateKeyHandler* on_duplicate_key_;
  const char* text_begin_;
  const char* const* furthest_;  // how far the parser has read (TrackingIterator)
  Json root_;
  std::vector<Frame> frames_;
  std::optional<Failure> error_;
  bool too_deep_ = false;
};

JsonSyntaxError locate(std::string_view text, std::size_t byte, std::string message) {
  // `byte` is the 1-based offset of the character; past the end (unexpected end of input)
  // the position is that of the end.
  const std::size_t offset = std::min<std::size_t>(byte > 0 ? byte - 1 : 0, text.size());
  const std::string_view before = text.substr(0, offset);
  const std::size_t line = 1 + static_cast<std::size_t>(std::count(before.begin(), before.end(), '\n'));
  const std::size_t line_start = before.rfind('\n');
  const std::size_t column = line_start == std::string_view::npos ? offset + 1 : offset - line_start;
  return JsonSyntaxError{line, column, std::move(message)};
}

// Appends `s` as a JSON string, escaped as dump() escapes it. Each byte of `s` yields at
// least one byte of output, so only a prefix of limit + 1 bytes is read, cut back to a
// UTF-8 character boundary.
void append_string(const std::string& s, std::size_t limit, std::string& out) {
  std::size_t n = std::min(s.size(), limit + 1);
  if (n < s.size()) {
    while (n > 0 && (static_cast<unsigned char>(s[n]) & 0xC0) == 0x80) --n;
  }
  out += Json(s.substr(0, n)).dump(-1, ' ', false, Json::error_handler_t::replace);
}

// Appends the JSON text of `value` (as dump() writes it) until `out` is longer than
// `limit`. Each level of nesting writes at least one character, so the recursion is at
// most limit + 1 deep.
void append_json(const Json& value, std::size_t limit, std::string& out) {
  if (out.size() > limit) return;
  if (value.is_object()) {
    out += '{';
    for (auto it = value.begin(); it != value.end() && out.size() <= limit; ++it) {
      if (it != value.begin()) out += ',';
      append_string(it.key(), limit, out);
      out += ':';
      append_json(it.value(), limit, out);
    }
    out += '}';
  } else if (value.is_array()) {
    out += '[';
    for (auto it = value.begin(); it != value.end() && out.size() <= limit; ++it) {
      if (it != value.begin()) out += ',';
      append_json(*it, limit, out);
    }
    out += ']';
  } else if (value.is_string()) {
    append_string(value.get_ref<const std::string&>(), limit, out);
  } else {
    out += value.dump();  // a number, a boolean or null: short
  }
}

}  // namespace

bool underflowed_to_zero(double value, std::string_view text) {
  if (value != 0) return false;
  const std::string_view mantissa = text.substr(0, text.find_first_of("eE"));
  return mantissa.find_first_of("123456789") != std::string_view::npos;
}

std::string underflow_message(std::string_view text) {
  return fmt::format("expected 0 or a number of magnitude at least 4.9e-324, got {}", text);
}

std::variant<Json, JsonSyntaxError> parse_strict_json(std::string_view text, JsonComments comments,
                                                      const DuplicateKeyHandler& on_duplicate_key) {
  const char* furthest = text.data();
  DocumentBuilder builder(on_duplicate_key, text.data(), &furthest);
  const TrackingIterator first(text.data(), &furthest);
  const TrackingIterator last(text.data() + text.size(), &furthest);
  Json::sax_parse(first, last, &builder, Json::input_format_t::json, /*strict=*/true,
                  /*ignore_comments=*/comments == JsonComments::allowed);
  if (builder.too_deep()) {
    return locate(text, static_cast<std::size_t>(furthest - text.data()),
                  fmt::format("expected at most {} levels of nested arrays and objects, got more", kMaxJsonDepth));
  }
  // nlohmann's lexer reads a NUL byte as the end of its input (for C strings), so a
  // document followed by a NUL and anything at all would parse, the rest unread. JSON
  // text holds no raw control character anywhere (RFC 8259 sections 2 and 7), so the
  // first NUL is an error unless the parser failed before reaching it.
  const std::size_t nul = text.find('\0');  // 0-based; failure->byte is 1-based
  const auto& failure = builder.failure();
  if (failure && failure->byte <= nul) return locate(text, failure->byte, failure->message);
  if (nul != std::string_view::npos) {
    return locate(text, nul + 1,
                  "expected JSON text, got the control character U+0000 (NUL), which JSON does not allow outside "
                  "strings and escapes inside them (RFC 8259): is this a binary file?");
  }
  return builder.take_document();
}

std::string describe(const Json& value) {
  std::string text;
  append_json(value, kDescribeLimit, text);
  return cut_short(std::move(text));
}

}  // namespace squall
