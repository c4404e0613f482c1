#include "reports/writers/xml_text.hpp"

#include <gtest/gtest.h>

namespace squall {
namespace {

TEST(XmlTextTest, KeepsTextAndMarkupCharactersForTheWriterToEscape) {
  EXPECT_EQ(xml_text("plain <a> & \"b\" 'c'"), "plain <a> & \"b\" 'c'");
  EXPECT_EQ(xml_text(""), "");
}

TEST(XmlTextTest, KeepsTabLineFeedAndCarriageReturn) { EXPECT_EQ(xml_text("a\tb\nc\rd"), "a\tb\nc\rd"); }

TEST(XmlTextTest, AnAttributeShowsTabLineFeedAndCarriageReturnAsHexEscapes) {
  // A parser would read them as spaces (XML 1.0, section 3.3.3).
  EXPECT_EQ(xml_attribute_text("a\tb\nc\rd <e>"), "a\\x09b\\x0Ac\\x0Dd <e>");
  EXPECT_EQ(xml_attribute_text(std::string("\x01\xFF", 2)), "\\x01\xEF\xBF\xBD");
}

TEST(XmlTextTest, ShowsOtherControlCharactersAsHexEscapes) {
  EXPECT_EQ(xml_text(std::string("a\x01"
                                 "b\x1b[31m\x1f",
                                 9)),
            "a\\x01b\\x1B[31m\\x1F");
  EXPECT_EQ(xml_text(std::string("nul\0end", 7)), "nul\\x00end");
}

TEST(XmlTextTest, KeepsWellFormedMultibyteCharacters) {
  EXPECT_EQ(xml_text("✓ ✗ é 𝄞"), "✓ ✗ é 𝄞");
  EXPECT_EQ(xml_text("\xEF\xBF\xBD"), "\xEF\xBF\xBD");  // U+FFFD itself is a Char
}

TEST(XmlTextTest, ReplacesEachIllFormedByteWithTheReplacementCharacter) {
  const std::string r = "\xEF\xBF\xBD";
  EXPECT_EQ(xml_text("a\xFF"
                     "b"),
            "a" + r + "b");
  EXPECT_EQ(xml_text("\xC3"), r);                          // truncated sequence
  EXPECT_EQ(xml_text("\xC0\xAF"), r + r);                  // overlong '/'
  EXPECT_EQ(xml_text("\xED\xA0\x80"), r + r + r);          // a surrogate, U+D800
  EXPECT_EQ(xml_text("\xF4\x90\x80\x80"), r + r + r + r);  // past U+10FFFF
  EXPECT_EQ(xml_text("\x80x"), r + "x");                   // a lone continuation byte
}

TEST(XmlTextTest, ReplacesTheNonCharactersFffeAndFfff) {
  EXPECT_EQ(xml_text("\xEF\xBF\xBE|\xEF\xBF\xBF"), "\xEF\xBF\xBD|\xEF\xBF\xBD");
}

}  // namespace
}  // namespace squall
