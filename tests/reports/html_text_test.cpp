#include "reports/writers/html_text.hpp"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

namespace squall {
namespace {

TEST(HtmlTextTest, EscapesMarkupAndQuotes) {
  EXPECT_EQ(html_text("plain text, ok"), "plain text, ok");
  EXPECT_EQ(html_text("a<b>&\"c\"'d'"), "a&lt;b&gt;&amp;&quot;c&quot;&#39;d&#39;");
  EXPECT_EQ(html_text("</script><!--"), "&lt;/script&gt;&lt;!--");
}

TEST(HtmlTextTest, ControlCharactersAndBrokenUtf8AreMadeVisibleAsInXml) {
  EXPECT_EQ(html_text("bell\x07"), "bell\\x07");
  EXPECT_EQ(html_text("bad \xff byte"), "bad \xEF\xBF\xBD byte");
  EXPECT_EQ(html_text("caf\xC3\xA9 ✓"), "caf\xC3\xA9 ✓");
}

TEST(ScriptJsonTest, NothingCanEndTheScriptElement) {
  const std::string json = R"({"name":"</script><!--x-->&"})";
  EXPECT_EQ(script_json(json), R"({"name":"\u003c/script\u003e\u003c!--x--\u003e\u0026"})");
}

TEST(ScriptJsonTest, LineAndParagraphSeparatorsAreEscaped) {
  EXPECT_EQ(script_json("\"a\xE2\x80\xA8"
                        "b\xE2\x80\xA9"
                        "c\""),
            "\"a\\u2028b\\u2029c\"");
  // Other characters of the same lead bytes are kept: U+2027 and U+202A.
  EXPECT_EQ(script_json("\"\xE2\x80\xA7\xE2\x80\xAA\""), "\"\xE2\x80\xA7\xE2\x80\xAA\"");
}

TEST(ScriptJsonTest, TheEscapedTextParsesToTheSameValue) {
  const nlohmann::json value = {{"name", "</script>\xE2\x80\xA8<!--&"}, {"n", 3}};
  EXPECT_EQ(nlohmann::json::parse(script_json(value.dump())), value);
}

}  // namespace
}  // namespace squall
