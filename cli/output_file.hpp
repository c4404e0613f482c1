// Reading back a JSON file that squall wrote (a run's report for `squall compare`, a
// shard's partial result for `squall merge`): read as the scenario loader reads its files
// (mocks/input_file.hpp: a regular file of at most 64 MiB, so /dev/zero or a FIFO is
// refused before anything is read) and parsed as strictly (mocks/strict_json.hpp: a
// repeated key is an error, as it would hide which value is used; nesting is bounded; no
// comments: squall writes none).
#pragma once

#include <filesystem>
#include <string>
#include <variant>

#include "mocks/strict_json.hpp"
#include "reports/file_kind.hpp"

namespace squall::cli {

// The document, or why not, naming the file as given:
//   a.json: not a regular file
//   a.json:1:9: not JSON: syntax error while parsing value - invalid literal; last read: 'x'
//   a.json: /tasks/total: duplicate key "total"
//   s.json: this is a scenario file, not a squall report: give it as the scenario (...)
// The last for a file that is recognisably another kind than `expected`
// (reports/file_kind.hpp), JSON with comments and YAML files included.
std::variant<Json, std::string> read_output_file(const std::filesystem::path& file, FileKind expected);
// The same for the file's `text` already read (the fuzzers' entry point).
std::variant<Json, std::string> read_output_text(const std::string& text, const std::filesystem::path& file,
                                                 FileKind expected);

}  // namespace squall::cli
