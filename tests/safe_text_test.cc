// The output sanitiser (cli/safe_text.h) and the JSON writer's escaping of
// the same controls.
#include <simdjson.h>

#include <sstream>

#include "cli/json_writer.h"
#include "cli/printer.h"
#include "cli/safe_text.h"
#include "tests/support.h"

namespace goalcup {
namespace {

// Any byte a terminal or a bidi renderer acts on, as the issue listed them.
bool has_raw_control(std::string_view s, bool lines_allowed) {
  for (size_t i = 0; i < s.size(); ++i) {
    const auto c = static_cast<unsigned char>(s[i]);
    if ((c == '\n' || c == '\t') && lines_allowed) continue;
    if (c < 0x20 || c == 0x7f) return true;
    char32_t cp = 0;
    const size_t n = decode_utf8(s, i, &cp);
    if (n == 0 || is_hidden_control(cp)) return true;
    i += n - 1;
  }
  return false;
}

TEST(SafeText, EscapesTerminalControlsVisibly) {
  EXPECT_EQ(safe_text("x\x1b]0;PWNED\x07\x1b[2J"), "x\\x1b]0;PWNED\\x07\\x1b[2J");
  EXPECT_EQ(safe_text("a\rb\bc\x7f"), "a\\rb\\x08c\\x7f");
  EXPECT_EQ(safe_text("one\ntwo\tthree"), "one\\ntwo\\tthree");
  EXPECT_EQ(safe_text(std::string_view("nul\0!", 5)), "nul\\x00!");
}

TEST(SafeText, KeepsLinesOnlyWhereTheViewIsMultiLine) {
  EXPECT_EQ(safe_text("one\ntwo\tthree\r\n", Lines::keep), "one\ntwo\tthree\\r\n");
  EXPECT_EQ(safe_text("\x1b[2J\n", Lines::keep), "\\x1b[2J\n");
}

TEST(SafeText, EscapesC1AndBidiControls) {
  EXPECT_EQ(safe_text("\xc2\x9b" "31m"), "\\u009b31m");                        // C1 CSI
  EXPECT_EQ(safe_text("abc\xe2\x80\xae" "fdp.exe"), "abc\\u202efdp.exe");    // RLO
  EXPECT_EQ(safe_text("\xe2\x81\xa6x\xe2\x81\xa9"), "\\u2066x\\u2069");       // isolates
  EXPECT_EQ(safe_text("\xe2\x80\x8e\xe2\x80\x8f\xd8\x9c"), "\\u200e\\u200f\\u061c");
  EXPECT_EQ(safe_text("a\xe2\x80\xa8" "b"), "a\\u2028b");
}

TEST(SafeText, ShowsInvalidUtf8ByteByByte) {
  EXPECT_EQ(safe_text("\x9b" "2J"), "\\x9b2J");         // a raw C1 byte
  EXPECT_EQ(safe_text("\xc0\x80"), "\\xc0\\x80");         // overlong NUL
  EXPECT_EQ(safe_text("\xed\xa0\x80"), "\\xed\\xa0\\x80");  // a surrogate
  EXPECT_EQ(safe_text("\xf4\x90\x80\x80"), "\\xf4\\x90\\x80\\x80");  // above U+10FFFF
  EXPECT_EQ(safe_text("ab\xe2\x82"), "ab\\xe2\\x82");   // cut short
}

TEST(SafeText, LeavesOrdinaryTextAlone) {
  for (std::string_view s : {"plain ASCII ~!@#$%^&*()", "café, 東京, Ελλάδα, עברית, 🦀 and 👩‍💻", "C:\\path\\x1b"}) {
    EXPECT_EQ(safe_text(s), s);
    EXPECT_TRUE(is_safe_text(s));
  }
  EXPECT_FALSE(is_safe_text("a\x1b"));
  EXPECT_FALSE(is_safe_text("a\n"));
  EXPECT_TRUE(is_safe_text("a\n", Lines::keep));
}

TEST(SafeText, EveryByteStringComesOutClean) {
  // Exhaustive over two bytes and a sample of three: the output never holds
  // a raw control, whatever the input.
  std::string s(3, '\0');
  for (unsigned a = 0; a < 256; ++a) {
    for (unsigned b = 0; b < 256; ++b) {
      s[0] = static_cast<char>(a);
      s[1] = static_cast<char>(b);
      s[2] = static_cast<char>((a * 7 + b) & 0xff);
      ASSERT_FALSE(has_raw_control(safe_text(s), false)) << a << " " << b;
      ASSERT_FALSE(has_raw_control(safe_text(s, Lines::keep), true)) << a << " " << b;
    }
  }
}

TEST(SafeText, ThePrinterSeamKeepsOnlyStylesOwnColours) {
  const Style plain = Style::plain();
  EXPECT_EQ(safe_output("ok\n\x1b[31mred\x1b[0m\n", plain), "ok\n\\x1b[31mred\\x1b[0m\n");
  // A Style that colours: what paint writes survives, nothing else does.
  const Style colour = Style::colored();
  const std::string painted = colour.paint("FAIL", Color::red) + " " + colour.paint("x", Color::dim) + "\n";
  EXPECT_EQ(safe_output(painted, colour), painted);
  EXPECT_EQ(safe_output(painted + "\x1b[2J\x1b]0;t\x07\x1b[8m", colour), painted + "\\x1b[2J\\x1b]0;t\\x07\\x1b[8m");
  std::ostringstream os;
  print_text(os, "a\x1b[2Jb\r\n", plain);
  EXPECT_EQ(os.str(), "a\\x1b[2Jb\\r\n");
}

TEST(JsonWriter, EscapesEveryControlAndKeepsTheValue) {
  std::string out;
  append_json_string(&out, std::string_view("a\x1b\x07\x7f\x00\xc2\x9b\xe2\x80\xae\xe4\xb8\xad\xff", 14));
  EXPECT_EQ(out, "\"a\\u001b\\u0007\\u007f\\u0000\\u009b\\u202e\xe4\xb8\xad\xef\xbf\xbd\"");
  simdjson::dom::parser p;
  std::string_view v;
  ASSERT_FALSE(p.parse(out).get(v));
  EXPECT_EQ(v, std::string_view("a\x1b\x07\x7f\x00\xc2\x9b\xe2\x80\xae\xe4\xb8\xad\xef\xbf\xbd", 16));
}

// A view's printer picks one composer from the run's format and writes what
// it composed as that format wants: text and Markdown through print_text()
// (Markdown without colour), JSON as composed. A view without a Markdown
// form is text.
TEST(ViewPrinter, ComposesAndWritesInTheRunsFormat) {
  using Printer = ViewPrinter<std::string>;
  const Printer::Forms forms{
      .text = [](const std::string& v, const Style& st) { return st.paint("T:" + v, Color::red) + "\x1b[2J\n"; },
      .json = [](const std::string& v) { return "{\"v\":\"" + v + "\"}\n"; },
      .markdown = [](const std::string& v) { return "# " + v + "\x1b[2J\n"; }};
  const Style colour = Style::colored();
  auto printed = [&](Format format, Printer::Forms f) {
    std::ostringstream os;
    Printer(format, colour, f).print(os, "x");
    return os.str();
  };
  EXPECT_EQ(printed(Format::text, forms), colour.paint("T:x", Color::red) + "\\x1b[2J\n");
  EXPECT_EQ(printed(Format::json, forms), "{\"v\":\"x\"}\n");
  EXPECT_EQ(printed(Format::markdown, forms), "# x\\x1b[2J\n");
  Printer::Forms no_markdown = forms;
  no_markdown.markdown = {};
  EXPECT_EQ(printed(Format::markdown, no_markdown), colour.paint("T:x", Color::red) + "\\x1b[2J\n");
  // compose() and write() apart: what is written is what the caller passes.
  const Printer json(Format::json, colour, forms);
  std::ostringstream os;
  json.write(os, "masked " + json.compose("x"));
  EXPECT_EQ(os.str(), "masked {\"v\":\"x\"}\n");
}

}  // namespace
}  // namespace goalcup
