// Corpus: the documents a search mock serves, loaded from a JSONL file, with an inverted
// index so that matching a query touches only the documents that contain its words.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <unordered_map>
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
// a file of more distinct words than the index holds (kMaxCorpusWords; a corpus of
// identifiers or hashes, each word new):
//   crm.jsonl: expected at most 2000000 distinct words in a corpus (its word index), got more
// and a file that cannot be read gives mocks/input_file.hpp's reason:
//   crm.jsonl: file not found | not a regular file | larger than 64 MiB | cannot be read
// Distinct words a corpus may hold: 2 million, twenty times the vocabulary of a 60 MB
// English text and about 200 MB of index, where a corpus of hashes, every word new, would
// ask for more than a gigabyte.
inline constexpr std::size_t kMaxCorpusWords = 2'000'000;

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
  // (whatever they held before), and builds the word index, in time linear in the text.
  // Throws CorpusError past kMaxCorpusWords distinct words (`where` names the source).
  explicit Corpus(std::vector<Document> documents, std::string_view where = "corpus");
  // Moved, never copied: the index views the documents' text, which a move keeps in place.
  Corpus(Corpus&&) = default;
  Corpus& operator=(Corpus&&) = default;
  Corpus(const Corpus&) = delete;
  Corpus& operator=(const Corpus&) = delete;

  const std::vector<Document>& documents() const { return documents_; }

  // The indices (ascending, each once) of the documents whose title or snippet contains
  // `word` as a whole word; empty when none does. `word` must be one lower-cased word as
  // mocks/text.hpp cuts them. Lookup allocates nothing.
  std::span<const std::uint32_t> postings(std::string_view word) const;

 private:
  std::vector<Document> documents_;
  // Word (a view into a document's `searchable`, which never moves) -> its id; a hash map:
  // nothing iterates it, so its order never shows, and building it is linear where a
  // std::map of millions of words took minutes.
  std::unordered_map<std::string_view, std::uint32_t> ids_;
  std::vector<std::uint32_t> offsets_;   // id -> its postings [offsets_[id], offsets_[id + 1])
  std::vector<std::uint32_t> postings_;  // by id, then by document ascending
};

}  // namespace squall
