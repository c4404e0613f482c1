// Text placed in GitHub-flavoured Markdown (CommonMark plus tables) so that it reads as
// written: names and expressions from a scenario may hold characters Markdown treats as
// markup (`|` ends a table cell, `*` and `_` emphasise, `<` opens HTML, a backtick a code
// span) or line breaks, which would end a table row.
#pragma once

#include <string>
#include <string_view>

namespace squall {

// `text` as literal inline text, for a table cell or a heading: each character that is
// markup wherever it stands (\ ` * _ [ ] < > # | ~ &) is backslash-escaped, which
// CommonMark defines for every ASCII punctuation character (spec section 2.4) and GFM
// tables honour for `|`; control characters (line breaks and tabs included) become spaces.
// Characters that are markup only at the start of a line (. - + for lists, ! and ( ) only
// after a bracket) are kept, since such text never starts a line.
std::string markdown_text(std::string_view text);

// `text` as an inline code span: fenced with one backtick more than its longest run of
// backticks, padded with a space when it starts or ends with a backtick (CommonMark 6.1);
// `|` is backslash-escaped (GFM reads it as a cell boundary even in code, and removes the
// backslash); control characters become spaces.
std::string markdown_code(std::string_view text);

}  // namespace squall
