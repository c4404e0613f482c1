#include "mocks/corpus.hpp"

#include <fmt/format.h>

#include <array>
#include <cassert>
#include <limits>

#include "mocks/corpus_text.hpp"
#include "mocks/input_file.hpp"
#include "mocks/strict_json.hpp"
#include "mocks/text.hpp"

namespace squall {
namespace {

constexpr std::array<std::string_view, 3> kFields{"title", "link", "snippet"};

bool is_blank(std::string_view line) {
  for (const char c : line) {
    if (!is_space_byte(c)) return false;
  }
  return true;
}

// `where` is "<file>:<line>".
Document parse_line(std::string_view line, const std::string& where) {
  const auto reject_duplicate = [&where](const std::string& pointer, const std::string& key) {
    throw CorpusError(fmt::format("{}: {}: duplicate key \"{}\"", where, pointer, key));
  };
  auto parsed = parse_strict_json(line, JsonComments::rejected, reject_duplicate);
  if (const auto* error = std::get_if<JsonSyntaxError>(&parsed)) {
    throw CorpusError(fmt::format("{}:{}: {}", where, error->column, error->message));
  }
  const Json& value = std::get<Json>(parsed);
  if (!value.is_object()) throw CorpusError(fmt::format("{}: expected a JSON object, got {}", where, describe(value)));

  std::array<std::string, 3> fields;
  for (std::size_t i = 0; i < kFields.size(); ++i) {
    const auto it = value.find(kFields[i]);
    if (it == value.end()) {
      throw CorpusError(fmt::format("{}: /{}: expected a string, got no such field", where, kFields[i]));
    }
    if (!it->is_string()) {
      throw CorpusError(fmt::format("{}: /{}: expected a string, got {}", where, kFields[i], describe(*it)));
    }
    fields[i] = it->get<std::string>();
  }
  // Keys keep their order in the line, so the first unknown key written is the one
  // reported: the same line always yields the same message.
  for (const auto& [key, unused] : value.items()) {
    if (key != kFields[0] && key != kFields[1] && key != kFields[2]) {
      throw CorpusError(fmt::format("{}: {}: expected only the fields title, link and snippet, got an unknown field",
                                    where, (Json::json_pointer() / key).to_string()));
    }
  }
  return Document{std::move(fields[0]), std::move(fields[1]), std::move(fields[2]), 0, {}};
}

}  // namespace

Corpus Corpus::load(const std::filesystem::path& path) {
  auto contents = read_input_file(path);
  if (const auto* error = std::get_if<InputFileError>(&contents)) {
    throw CorpusError(fmt::format("{}: {}", path.string(), error->message));
  }
  return load_corpus_text(std::get<std::string>(contents), path.string());
}

Corpus load_corpus_text(std::string_view text, const std::string& where) {
  if (const auto encoding = other_unicode_encoding(text)) throw CorpusError(fmt::format("{}: {}", where, *encoding));
  std::vector<Document> documents;
  std::size_t number = 1;
  for (std::size_t start = 0; start < text.size(); ++number) {
    const std::size_t newline = std::min(text.find('\n', start), text.size());
    std::string_view line = text.substr(start, newline - start);
    start = newline + 1;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);  // CRLF files
    if (is_blank(line)) continue;
    documents.push_back(parse_line(line, fmt::format("{}:{}", where, number)));
  }
  // A search mock over nothing answers every query empty: a scenario whose corpus is an
  // empty file (or a truncated download) would run and fail its thresholds for a reason
  // its report never names. An always-empty provider is an `empty` fault of probability 1.
  if (documents.empty()) {
    throw CorpusError(fmt::format("{}: expected at least one document (a JSON object per line), got {}", where,
                                  text.empty() ? "an empty file" : "blank lines only"));
  }
  return Corpus(std::move(documents), where);
}

Corpus::Corpus(std::vector<Document> documents, std::string_view where) : documents_(std::move(documents)) {
  assert(documents_.size() < std::numeric_limits<std::uint32_t>::max());
  // Two passes, each linear: word ids with each word's document count and, per document,
  // its distinct words; then the posting lists laid out end to end.
  std::vector<std::uint32_t> counts;      // id -> documents holding it
  std::vector<std::uint32_t> last_doc;    // id -> the last document that counted it
  std::vector<std::uint32_t> doc_words;   // every document's distinct word ids, in order
  std::vector<std::uint32_t> doc_starts;  // document -> where its ids start in doc_words
  for (std::uint32_t d = 0; d < documents_.size(); ++d) {
    Document& doc = documents_[d];
    doc.snippet_tokens = static_cast<std::int64_t>((doc.snippet.size() + 3) / 4);
    doc.searchable.clear();
    append_normalized(doc.title, doc.searchable);
    if (!doc.searchable.empty()) doc.searchable.push_back(' ');
    append_normalized(doc.snippet, doc.searchable);
    if (!doc.searchable.empty() && doc.searchable.back() == ' ') doc.searchable.pop_back();  // empty snippet
    doc_starts.push_back(static_cast<std::uint32_t>(doc_words.size()));
    for_each_word(doc.searchable, [&](std::string_view word) {
      const auto [it, added] = ids_.try_emplace(word, static_cast<std::uint32_t>(counts.size()));
      if (added) {
        if (counts.size() == kMaxCorpusWords) {
          throw CorpusError(fmt::format("{}: expected at most {} distinct words in a corpus (its word index), got more",
                                        where, kMaxCorpusWords));
        }
        counts.push_back(0);
        last_doc.push_back(std::numeric_limits<std::uint32_t>::max());
      }
      if (last_doc[it->second] == d) return;  // a word repeated in one document
      last_doc[it->second] = d;
      ++counts[it->second];
      doc_words.push_back(it->second);
    });
  }
  doc_starts.push_back(static_cast<std::uint32_t>(doc_words.size()));
  offsets_.assign(counts.size() + 1, 0);
  for (std::size_t id = 0; id < counts.size(); ++id) offsets_[id + 1] = offsets_[id] + counts[id];
  postings_.resize(doc_words.size());
  std::vector<std::uint32_t> next(offsets_.begin(), offsets_.end() - 1);
  // Documents in order, so every list comes out ascending.
  for (std::uint32_t d = 0; d + 1 < doc_starts.size(); ++d) {
    for (std::uint32_t k = doc_starts[d]; k < doc_starts[d + 1]; ++k) postings_[next[doc_words[k]]++] = d;
  }
}

std::span<const std::uint32_t> Corpus::postings(std::string_view word) const {
  const auto it = ids_.find(word);
  if (it == ids_.end()) return {};
  return {postings_.data() + offsets_[it->second], postings_.data() + offsets_[it->second + 1]};
}

}  // namespace squall
