// The one output sanitiser. Every string that came from an upload (texts,
// names, kinds, hosts, file and tar member names, error messages quoting
// them) passes through here before a text or Markdown view prints it, so that
// a trace cannot drive the judge's terminal (retitle, clear, move the cursor)
// or reorder what it shows (bidi overrides).
//
// What is shown as a visible escape instead of the raw character:
//   C0 controls and DEL      "\x1b", "\x07", "\x7f"; "\r" as "\r"; LF and TAB
//                            as "\n" and "\t" unless the view keeps lines
//   C1 controls U+0080-9F    "\u009b"
//   bidi controls            "\u202e" (U+061C, U+200E/F, U+202A-E, U+2066-9)
//   line/paragraph separator "\u2028", "\u2029"
//   bytes not valid UTF-8    "\xNN", one per byte (overlong forms, surrogates
//                            and stray continuation bytes included)
// Everything else, any language and emoji, is printed as it is. Backslashes
// are not doubled: "\x1b" in the output may be a literal text; the JSON
// output is the exact one.
//
// Use:
//   - each upload-derived field, where the view composes it:
//       out += "kind " + safe_text(r.kind_text);            // one line
//       out += safe_text(message_body, Lines::keep);         // a body
//   - the whole printed text at the printer seam, as a net for a field a
//     printer forgot: print_text(std::cout, text, style). It keeps LF, TAB
//     and the colour codes `style` itself emits, and escapes the rest.
// JSON and SARIF go through JsonWriter (exact, escaped per RFC 8259), HTML
// and Markdown prose through html_text below.
#pragma once

#include <cstddef>
#include <iosfwd>
#include <string>
#include <string_view>

#include "cli/term.h"

namespace goalcup {

// Whether a field may span lines: `one` for names, kinds, messages and file
// names (LF and TAB escaped, so a field cannot forge a line of the report);
// `keep` for views that are multi-line by design (message bodies, tool
// inputs, decoded answers): LF and TAB stay, CR is still escaped.
enum class Lines { one, keep };

std::string safe_text(std::string_view s, Lines lines = Lines::one);
void append_safe_text(std::string* out, std::string_view s, Lines lines = Lines::one);

// safe_text(s, Lines::keep) with & < > " as entities: upload text placed in
// HTML, or in Markdown prose, where a renderer would run a <script> or load
// an <img>. The entities read back as the characters written.
std::string html_text(std::string_view s);

// True when safe_text(s, lines) == s: nothing would be escaped.
bool is_safe_text(std::string_view s, Lines lines = Lines::one);

// The printer seam for text and Markdown: `text` with every control left in
// it escaped as above, keeping LF, TAB and, when `style` is enabled, only
// the exact colour sequences Style::paint writes.
std::string safe_output(std::string_view text, const Style& style);
void print_text(std::ostream& os, std::string_view text, const Style& style);

// Code points a terminal or a text renderer acts on instead of showing:
// C0, DEL, C1, bidi controls and the line/paragraph separators.
bool is_hidden_control(char32_t cp);

// Length of the well-formed UTF-8 sequence at s[i] (1 to 4) and its code
// point in *cp; 0 when the bytes there are not well-formed UTF-8.
size_t decode_utf8(std::string_view s, size_t i, char32_t* cp);

}  // namespace goalcup
