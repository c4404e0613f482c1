// Text made safe for the HTML report (reports/writers/html_writer.hpp). Names in a report
// come from scenario files and the command line, so any byte can occur in them; the page
// must still parse as their authors wrote it and run no script of theirs.
//
// Rules from the HTML Living Standard: in text and double-quoted attribute values, `&`
// and `<` start markup and `"` ends the value (section 13.1.2.6, escaping); the body of a
// <script> element ends at the first "</script" and is parsed differently after "<!--"
// (section 4.12.1.3, restrictions for contents of script elements). JavaScript string
// literals before ES2019 could not hold U+2028 and U+2029 raw, and JSON.parse and
// JavaScript disagree about them in older engines, so they are escaped too.
#pragma once

#include <string>
#include <string_view>

namespace squall {

// `text` for an HTML text node or double-quoted attribute value: first made valid UTF-8
// without control characters as xml_text() does (reports/writers/xml_text.hpp: "\xNN"
// for a control character, U+FFFD for a broken byte), then `&`, `<`, `>`, `"` and `'`
// replaced by the character references &amp; &lt; &gt; &quot; &#39;.
std::string html_text(std::string_view text);

// JSON text (as nlohmann::json::dump writes it) for the body of a
// <script type="application/json"> element: every `<`, `>` and `&` becomes \u003c,
// \u003e, \u0026, and U+2028 and U+2029 become \u2028 and \u2029. Those characters can
// only occur inside JSON strings, where the escapes mean the same characters, so
// JSON.parse of the result gives back the same value, and "</script" and "<!--" cannot
// occur in it.
std::string script_json(std::string_view json);

}  // namespace squall
