// Reading a scenario or policy file into a JSON document.
//
// Files are JSON with // and /* */ comments allowed (nlohmann's ignore_comments). The
// parser reports what nlohmann's does not: every key that appears twice in one object is
// an error (`duplicate key "seed"`, at the second occurrence's path), since a silently
// ignored first value is a classic way to test a policy that is not the one written.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

#include "sim/scenario/json_reader.hpp"

namespace squall {

// The file's contents, or nullopt after recording `file not found`, `is a directory, not
// a file` or `cannot be read`.
std::optional<std::string> read_text_file(const std::filesystem::path& file, Diagnostics& diag);

// Parses `text`. A syntax error is recorded with its 1-based line and column (counted in
// bytes up to the character the parser stopped at) and nlohmann's description, and
// returns nullopt. Duplicate keys are recorded too, but the document is still returned
// (with the last value of each key) so that the rest of it can be checked.
std::optional<Json> parse_json_document(std::string_view text, Diagnostics& diag);

}  // namespace squall
