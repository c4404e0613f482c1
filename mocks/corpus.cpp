#include "mocks/corpus.hpp"

#include <fmt/format.h>

#include <array>
#include <cassert>
#include <fstream>
#include <limits>
#include <nlohmann/json.hpp>

#include "mocks/text.hpp"

namespace squall {
namespace {

using nlohmann::json;

constexpr std::array<std::string_view, 3> kFields{"title", "link", "snippet"};

// What a JSON value is, for "got ..." in error messages: scalars verbatim (long ones cut
// short), containers by kind, so that one bad line cannot flood the message.
std::string describe(const json& value) {
  if (value.is_object()) return "an object";
  if (value.is_array()) return "an array";
  constexpr std::size_t kMaxShown = 40;
  std::string shown = value.dump();
  if (shown.size() > kMaxShown) shown = shown.substr(0, kMaxShown) + "...";
  return shown;
}

bool is_blank(std::string_view line) {
  for (const char c : line) {
    if (!is_space_byte(c)) return false;
  }
  return true;
}

Document parse_line(const std::string& line, const std::string& where) {
  json value;
  try {
    value = json::parse(line);
  } catch (const json::parse_error& e) {
    throw CorpusError(fmt::format("{}: expected a JSON object, got malformed JSON at byte {}", where, e.byte));
  }
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
  // nlohmann's object is a std::map, so the first unknown key reported is the smallest:
  // the same line always yields the same message.
  for (const auto& [key, unused] : value.items()) {
    if (key != kFields[0] && key != kFields[1] && key != kFields[2]) {
      throw CorpusError(fmt::format("{}: /{}: expected only the fields title, link and snippet, got an unknown field",
                                    where, key));
    }
  }
  return Document{std::move(fields[0]), std::move(fields[1]), std::move(fields[2]), 0, {}};
}

}  // namespace

Corpus Corpus::load(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw CorpusError(fmt::format("{}: cannot open the corpus file (missing or unreadable)", path.string()));
  std::vector<Document> documents;
  std::string line;
  for (std::size_t number = 1; std::getline(in, line); ++number) {
    if (!line.empty() && line.back() == '\r') line.pop_back();  // CRLF files
    if (is_blank(line)) continue;
    documents.push_back(parse_line(line, fmt::format("{}:{}", path.string(), number)));
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
