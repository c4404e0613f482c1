// Text made safe for an XML 1.0 document before Boost.PropertyTree escapes its markup
// characters (<, >, &, ", '). PropertyTree writes every other byte as it is, but XML 1.0
// admits only the characters of its Char production (tab, LF, CR, U+0020-U+D7FF,
// U+E000-U+FFFD, U+10000-U+10FFFF) in valid UTF-8, and a consumer rejects the whole file
// over one stray byte. Names in a report come from scenario files and the command line
// (the repro line quotes paths as the shell gave them), so any byte can occur.
#pragma once

#include <string>
#include <string_view>

namespace squall {

// `text` with every character XML cannot hold made visible instead: a control character
// other than tab, LF and CR becomes "\xNN" (two upper-case hex digits), and a byte that is
// not part of a well-formed UTF-8 sequence (overlong forms and surrogates included), or a
// sequence encoding U+FFFE or U+FFFF, becomes U+FFFD (the replacement character), one per
// byte. Everything else is kept byte for byte.
std::string xml_text(std::string_view text);

// The same for an attribute's value, where tab, LF and CR become "\xNN" too: every XML
// parser normalises them to spaces in an attribute (XML 1.0, section 3.3.3), so they would
// be lost.
std::string xml_attribute_text(std::string_view text);

}  // namespace squall
