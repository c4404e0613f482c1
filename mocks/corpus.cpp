#include "mocks/corpus.hpp"

#include <fmt/format.h>

#include <array>
#include <cassert>
#include <limits>

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
  const std::string_view text = std::get<std::string>(contents);
  std::vector<Document> documents;
  std::size_t number = 1;
  for (std::size_t start = 0; start < text.size(); ++number) {
    const std::size_t newline = std::min(text.find('\n', start), text.size());
    std::string_view line = text.substr(start, newline - start);
    start = newline + 1;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);  // CRLF files
    if (is_blank(line)) continue;
    documents.push_back(parse_line(line, fmt::format("{}:{}", path.string(), number)));
  }
  // A search mock over nothing answers every query empty: a scenario whose corpus is an
  // empty file (or a truncated download) would run and fail its thresholds for a reason
  // its report never names. An always-empty provider is an `empty` fault of probability 1.
  if (documents.empty()) {
    throw CorpusError(fmt::format("{}: expected at least one document (a JSON object per line), got {}", path.string(),
                                  text.empty() ? "an empty file" : "blank lines only"));
  }
  return Corpus(std::move(documents));
}

Corpus::Corpus(std::vector<Document> documents) : documents_(std::move(documents)) {
  assert(documents_.size() < std::numeric_limits<std::uint32_t>::max());
  for (std::uint32_t id = 0; id < documents_.size(); ++id) {
    Document& doc = documents_[id];
    doc.snippet_tokens = static_cast<std::int64_t>((doc.snippet.size() + 3) / 4);
    doc.searchable.clear();
    append_normalized(doc.title, doc.searchable);
    if (!doc.searchable.empty()) doc.searchable.push_back(' ');
    append_normalized(doc.snippet, doc.searchable);
    if (!doc.searchable.empty() && doc.searchable.back() == ' ') doc.searchable.pop_back();  // empty snippet
    for_each_word(doc.searchable, [&](std::string_view word) {
      auto it = index_.find(word);
      if (it == index_.end()) it = index_.emplace(std::string(word), std::vector<std::uint32_t>{}).first;
      // Documents are visited in order, so a posting list stays sorted and a repeated word
      // in one document only has to be compared with the last entry.
      if (it->second.empty() || it->second.back() != id) it->second.push_back(id);
    });
  }
}

std::span<const std::uint32_t> Corpus::postings(std::string_view word) const {
  const auto it = index_.find(word);
  if (it == index_.end()) return {};
  return it->second;
}

}  // namespace squall
