// Corpus: the documents a search mock serves, loaded from a JSONL file.
#pragma once

#include <cstdint>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

namespace squall {

struct Document {
  std::string title;
  std::string link;
  std::string snippet;
  std::int64_t snippet_tokens = 0;  // ceil(snippet bytes / 4), OpenAI's rule of thumb
  std::string searchable;           // lower-cased "title snippet", for matching
};

// Thrown by Corpus::load with a message naming the file, the line and the problem.
class CorpusError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class Corpus {
 public:
  // One JSON object per non-blank line with string fields title, link and snippet and no
  // others. Throws CorpusError on a missing file or a malformed line.
  static Corpus load(const std::filesystem::path& path);
  explicit Corpus(std::vector<Document> documents);
  const std::vector<Document>& documents() const { return documents_; }

 private:
  std::vector<Document> documents_;
};

}  // namespace squall
