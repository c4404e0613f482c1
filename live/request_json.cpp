#include "live/request_json.hpp"

#include <fmt/format.h>

namespace squall::live {
namespace {

// nlohmann's own DOM builder, behind a count of the arrays and objects open: the first
// one past the limit ends the parse (a SAX event answering false stops the parser).
template <class Json>
class DepthLimitedSax {
 public:
  using number_integer_t = typename Json::number_integer_t;
  using number_unsigned_t = typename Json::number_unsigned_t;
  using number_float_t = typename Json::number_float_t;
  using string_t = typename Json::string_t;
  using binary_t = typename Json::binary_t;

  explicit DepthLimitedSax(Json& out) : dom_(out, /*allow_exceptions=*/false) {}
  bool too_deep() const { return too_deep_; }

  bool null() { return dom_.null(); }
  bool boolean(bool value) { return dom_.boolean(value); }
  bool number_integer(number_integer_t value) { return dom_.number_integer(value); }
  bool number_unsigned(number_unsigned_t value) { return dom_.number_unsigned(value); }
  bool number_float(number_float_t value, const string_t& text) { return dom_.number_float(value, text); }
  bool string(string_t& value) { return dom_.string(value); }
  bool binary(binary_t& value) { return dom_.binary(value); }
  bool key(string_t& value) { return dom_.key(value); }
  bool start_object(std::size_t size) { return enter() && dom_.start_object(size); }
  bool end_object() { return leave() && dom_.end_object(); }
  bool start_array(std::size_t size) { return enter() && dom_.start_array(size); }
  bool end_array() { return leave() && dom_.end_array(); }
  bool parse_error(std::size_t position, const std::string& token, const nlohmann::detail::exception& error) {
    return dom_.parse_error(position, token, error);
  }

 private:
  bool enter() {
    if (++depth_ <= kMaxRequestJsonDepth) return true;
    too_deep_ = true;
    return false;
  }
  bool leave() {
    --depth_;
    return true;
  }

  nlohmann::detail::json_sax_dom_parser<Json> dom_;
  int depth_ = 0;
  bool too_deep_ = false;
};

}  // namespace

template <class Json>
RequestJsonError parse_request_json(std::string_view text, Json& out) {
  out = nullptr;
  DepthLimitedSax<Json> sax(out);
  const bool parsed = Json::sax_parse(text, &sax, nlohmann::json::input_format_t::json, /*strict=*/true);
  if (parsed) return RequestJsonError::none;
  out = nullptr;  // what was built before the stop; its destruction is iterative
  return sax.too_deep() ? RequestJsonError::too_deep : RequestJsonError::syntax;
}

std::string too_deep_message() {
  return fmt::format("The JSON body of the request is nested deeper than the server's limit of {} levels.",
                     kMaxRequestJsonDepth);
}

template <class Json>
std::string_view json_type_name(const Json& value) {
  if (value.is_string()) return "a string";
  if (value.is_boolean()) return "a boolean";
  if (value.is_number_integer()) return "an integer";
  if (value.is_number()) return "a number";
  if (value.is_array()) return "an array";
  if (value.is_object()) return "an object";
  return "null";
}

template RequestJsonError parse_request_json(std::string_view, nlohmann::json&);
template RequestJsonError parse_request_json(std::string_view, nlohmann::ordered_json&);
template std::string_view json_type_name(const nlohmann::json&);
template std::string_view json_type_name(const nlohmann::ordered_json&);

}  // namespace squall::live
