// Reading a scenario or policy file into a JSON document.
//
// Files are JSON with // and /* */ comments allowed, parsed by mocks/strict_json.hpp:
// every key that appears twice in one object is an error (`duplicate key "seed"`, at the
// key's path), since a silently ignored first value is a classic way to test a policy
// that is not the one written; nesting deeper than kMaxJsonDepth and numbers beyond a
// double's range are syntax errors.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

#include "sim/scenario/json_reader.hpp"
#include "sim/scenario/yaml_document.hpp"

namespace squall {

// The file's contents, or nullopt after recording, as an error about the whole file, why
// mocks/input_file.hpp's read_input_file did not read it: `file not found`, `not a
// regular file`, `larger than 64 MiB` or `cannot be read`.
std::optional<std::string> read_text_file(const std::filesystem::path& file, Diagnostics& diag);

// Parses `text`. A text with no JSON value in it (nothing but whitespace, or whitespace and
// comments) is recorded as an error about the whole file: `the file is empty: it holds no
// JSON value` (`..., only comments` when it has comments). A syntax error is recorded with its 1-based line and column
// (in bytes) and returns nullopt. Duplicate keys are recorded too, but the document is still returned (with the last
// value of each key) so that the rest of it can be checked.
std::optional<Json> parse_json_document(std::string_view text, Diagnostics& diag);

// A scenario or policy file's text by its name: YAML (parse_yaml_document) when
// is_yaml_file(file), JSON otherwise (no marks). Callers pass the marks to
// Diagnostics::locate_with so that later errors name their line and column.
std::optional<ParsedDocument> parse_document(std::string_view text, const std::filesystem::path& file,
                                             Diagnostics& diag);

}  // namespace squall
