// Reading a YAML scenario or policy file (names ending ".yaml" or ".yml", in any case:
// ".YAML" and ".Yml" too) into the same
// JSON document a JSON file gives, so that the loader applies the same rules and messages
// to both. Parsed with yaml-cpp 0.7 (Debian's libyaml-cpp-dev) through its event API,
// which, unlike its node API, shows every key (yaml-cpp does not report a repeated key)
// and every alias and tag.
//
// The mapping, decided so that a YAML file means exactly what its JSON twin would:
//   - mappings -> objects (keys in file order), sequences -> arrays; a mapping of n keys
//     is read in O(n) expected time (a hash of its keys, not ordered_json's linear search);
//   - a key written twice in one mapping is an error at the second one, naming the first's
//     line (`duplicate key "seed" (also line 3)`); the last value is kept, as for JSON;
//     keys must be scalars (a mapping, sequence, alias or null key is a syntax error);
//   - plain (unquoted) scalars: `true`/`false` -> booleans; `null`, `Null`, `NULL`, `~` and
//     nothing -> null (yaml-cpp's IsNullString); text matching RFC 8259's number grammar
//     (`-1`, `0.25`, `1e3`) -> a number, an integer when written as one; anything else, so
//     `30s`, `0x10`, `.inf` or `1_000`, -> a string. A number beyond a double's range is an
//     error, as in JSON;
//   - YAML 1.1's other booleans (`yes`, `no`, `on`, `off`, `y`, `n`, `True`, `FALSE`, ...)
//     are errors when plain: squall's format has JSON booleans, and YAML 1.1 and 1.2 parsers
//     disagree on them (`expected true, false or a quoted string, got the YAML 1.1 boolean
//     "yes"`: the parser does not know which the key wants);
//   - quoted scalars are always strings;
//   - anchors and aliases are allowed and resolved: `*retry` is a copy of the node anchored
//     `&retry` (an alias to a node not yet complete, or to no anchor, is a syntax error).
//     Merge keys (`<<: *x`) are not YAML 1.2 and are read as an ordinary key `<<`, which the
//     loader rejects as unknown;
//   - explicit tags are errors except `!!str`, which makes a scalar a string
//     (`explicit tag "tag:yaml.org,2002:int" is not supported: only !!str`);
//   - a YAML 1.1 boolean or a tagged scalar is one error, not two: the loader's own error
//     about the same value (`expected an integer, got "yes"`) is not reported
//     (Diagnostics::value_error_at);
//   - a control character YAML does not allow (a C0 control other than tab, LF and CR, or
//     DEL; YAML 1.2 section 5.1), such as the NUL bytes of a binary file, is one syntax
//     error at its line and column (`expected printable text, got the control character
//     U+0000 (NUL), which YAML does not allow (YAML 1.2 section 5.1): is this a binary
//     file?`), before yaml-cpp reads anything; so is a byte that does not start a
//     well-formed UTF-8 sequence (an overlong form, a surrogate, a Latin-1 file's 0xE9:
//     `expected UTF-8 text, got the ill-formed UTF-8 byte 0xE9 (YAML 1.2 section 5.2): is
//     the file in another encoding?`), which JSON files get from their parser too;
//   - a stream of more than one document is an error at the second one's start;
//   - a file with no document (empty, or only comments and blank lines) gets `the file is
//     empty: it holds no YAML value` (`..., only comments`), as JSON's empty files do;
//   - nesting deeper than kMaxJsonDepth is an error, as in JSON;
//   - a document of more than kMaxYamlNodes values, or of more than kMaxYamlTextBytes
//     bytes of keys and strings, once its aliases are expanded is an error at the value
//     that crosses it (`expected at most 1000000 values once aliases are expanded, got
//     more`; `expected at most 67108864 bytes of keys and strings once aliases are
//     expanded (64 MiB), got more`): a few lines of nested aliases (the "billion laughs"
//     expansion), or one long string aliased many times, would otherwise take the
//     machine's memory.
// Syntax errors carry yaml-cpp's message at its 1-based line and column.
#pragma once

#include <cstddef>
#include <filesystem>
#include <optional>
#include <string_view>

#include "sim/scenario/json_reader.hpp"

namespace squall {

// A million values: a hundred times the largest shipped scenario's, and a few hundred MB
// of DOM at most.
inline constexpr std::size_t kMaxYamlNodes = 1'000'000;
// 64 MiB of keys and strings, as much as the largest file read (mocks/input_file.hpp)
// could hold without aliases: a 67 KB file aliasing one 64 KiB string 900,000 times
// (under kMaxYamlNodes) asked for tens of GB.
inline constexpr std::size_t kMaxYamlTextBytes = std::size_t{64} * 1024 * 1024;

// A parsed document and, for YAML, where each node starts: members are marked at their
// key, elements at their first character.
struct ParsedDocument {
  Json root;
  SourceMarks marks;
};

// Whether `file`'s extension is `extension` (lower case, with its dot, e.g. ".json"),
// its ASCII letters compared in any case (".JSON", ".Json"), as the case-folding file
// systems of Windows and macOS match names; no locale is consulted.
bool has_extension(const std::filesystem::path& file, std::string_view extension);

// Whether `file` is read as YAML: its extension is ".yaml" or ".yml" in any case
// (has_extension: ".YAML", ".Yml").
bool is_yaml_file(const std::filesystem::path& file);

// Parses YAML `text` as described above. Errors about single values (a YAML 1.1 boolean,
// a tag, a repeated key) are recorded but the document is still returned, so that the rest
// of it can be checked; syntax errors return nullopt.
std::optional<ParsedDocument> parse_yaml_document(std::string_view text, Diagnostics& diag);

}  // namespace squall
