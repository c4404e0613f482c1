// A corpus file's text already in memory, read as Corpus::load reads the file (the
// fuzzer's entry point, fuzz/corpus.cpp; Corpus::load reads the file and calls it).
#pragma once

#include <string>
#include <string_view>

#include "mocks/corpus.hpp"

namespace squall {

// The documents of `text`, one JSON object a non-blank line, as mocks/corpus.hpp says;
// `where` names the file in messages. Throws CorpusError on the first problem found.
Corpus load_corpus_text(std::string_view text, const std::string& where);

}  // namespace squall
