// A search corpus (mocks/corpus_text.hpp load_corpus_text, what Corpus::load calls on the
// file's bytes): JSONL documents and the word index built over them. CorpusError is the
// documented refusal.
#include "fuzz/fuzz_support.hpp"
#include "mocks/corpus_text.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  try {
    const squall::Corpus corpus = squall::load_corpus_text(squall::fuzz::text_of(data, size), "fuzz.jsonl");
    squall::fuzz::require(!corpus.documents().empty(), "a loaded corpus has a document");
    (void)corpus.postings("the");
  } catch (const squall::CorpusError&) {
  }
  return 0;
}
