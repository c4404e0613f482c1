// Corpus: the documents a search mock serves, loaded from a JSONL file, with an inverted
// index so that matching a query touches only the documents that contain its words.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace squall {

struct Document {
  std::string title;
  std::string link;
  std::string snippet;
  std::int64_t snippet_tokens = 0;  // ceil(snippet bytes / 4), OpenAI's rule of thumb
  // "title snippet", normalized as mocks/text.hpp says (ASCII lower case, whitespace
  // runs collapsed to one space), for matching.
  std::string searchable;
};

// Thrown by Corpus::load with a message naming the file, the line and the problem, in the
// form "<file>:<line>: <where>: expected <what>, got <what was found>", e.g.
//   crm.jsonl:7: /link: expected a string, got 42
//   crm.jsonl:9: expected a JSON object, got [1,2]
//   crm.jsonl:4: /title: duplicate key "title"
// JSON syntax errors add the column (in bytes) and give mocks/strict_json.hpp's message:
//   crm.jsonl:3:11: syntax error while parsing value - invalid literal; last read: '{"title": x'
//   crm.jsonl:5:12: expected a number of magnitude at most 1.8e308, got 1e999
// a file without documents:
//   crm.jsonl: expected at least one document (a JSON object per line), got an empty file
// and a file that cannot be read gives mocks/input_file.hpp's reason:
//   crm.jsonl: file not found | not a regular file | larger than 64 MiB | cannot be read
class CorpusError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class Corpus {
 public:
  // One JSON object per non-blank line (LF or CRLF) with string fields title, link and
  // snippet, each once, and no others; lines are numbered from 1, blank lines included.
  // At least one document: a file with none (empty, or blank lines only) is refused.
  // The file is read as mocks/input_file.hpp says. Throws CorpusError on the first
  // problem found.
  static Corpus load(const std::filesystem::path& path);
  // Computes every document's snippet_tokens and searchable from its title and snippet
  // (whatever they held before), and builds the word index.
  explicit Corpus(std::vector<Document> documents);

  const std::vector<Document>& documents() const { return documents_; }

  // The indices (ascending, each once) of the documents whose title or snippet contains
  // `word` as a whole word; empty when none does. `word` must be one lower-cased word as
  // mocks/text.hpp cuts them. Lookup allocates nothing.
  std::span<const std::uint32_t> postings(std::string_view word) const;

 private:
  std::vector<Document> documents_;
  // A sorted map rather than a hash map: iteration order is fixed, and with a few thousand
  // distinct words a lookup is about a dozen short string comparisons.
  std::map<std::string, std::vector<std::uint32_t>, std::less<>> index_;
};

}  // namespace squall
