#include "cheatcheck/said_text.h"

#include <algorithm>
#include <array>
#include <cstring>
#include <vector>

#include "cheatcheck/secrets/trace_scan.h"
#include "core/json_digest.h"
#include "core/json_strict.h"
#include "core/sha256.h"

namespace goalcup::cheat {
namespace {

bool is_text_part(std::string_view type) { return type == "text" || type == "input_text" || type == "output_text"; }

// A part that is not text (an image, a document) as a stand-in that no
// text holds: its JSON value's digest between unit separators.
std::string part_stand_in(simdjson::dom::element part) { return "\x1f" + to_hex(json::value_digest(part)) + "\x1f"; }

struct Composition {
  char32_t first, second, composed;
};
constexpr Composition kCompositions[] = {
#include "cheatcheck/unicode_compose.inc"
};

// No code point below this is the second half of a composition (the
// table's and Hangul's); ASCII never is.
constexpr char32_t kLowestSecond = [] {
  char32_t lowest = 0x1161;  // Hangul's first vowel
  for (const Composition& c : kCompositions) lowest = std::min(lowest, c.second);
  return lowest;
}();
static_assert(kLowestSecond >= 0x80);

// 1 for the ASCII bytes loose_text keeps, 0 for white space.
constexpr std::array<uint8_t, 128> kKeepAscii = [] {
  std::array<uint8_t, 128> keep{};
  for (size_t b = 0; b < keep.size(); ++b) keep[b] = b == ' ' || (b >= 0x09 && b <= 0x0D) ? 0 : 1;
  return keep;
}();

// Decodes one UTF-8 sequence at s[i] (invalid bytes stand for themselves
// as U+DC80.. so that they still compare).
char32_t next_code_point(std::string_view s, size_t& i) {
  const auto byte = [&](size_t k) { return static_cast<unsigned char>(s[k]); };
  const unsigned char b = byte(i);
  size_t n = b < 0x80 ? 1 : (b >> 5) == 0x6 ? 2 : (b >> 4) == 0xE ? 3 : (b >> 3) == 0x1E ? 4 : 0;
  if (n == 0 || i + n > s.size()) {
    ++i;
    return 0xDC00 + b;
  }
  char32_t cp = n == 1 ? b : b & (0x7F >> n);
  for (size_t k = 1; k < n; ++k) {
    if ((byte(i + k) & 0xC0) != 0x80) {
      ++i;
      return 0xDC00 + b;
    }
    cp = (cp << 6) | (byte(i + k) & 0x3F);
  }
  i += n;
  return cp;
}

// Writes cp as UTF-8 at `at` (room for 4 bytes); returns its length.
size_t put_utf8(char* at, char32_t cp) {
  const auto byte = [](char32_t v) { return static_cast<char>(v); };
  if (cp < 0x80) {
    at[0] = byte(cp);
    return 1;
  }
  if (cp < 0x800) {
    at[0] = byte(0xC0 | (cp >> 6));
    at[1] = byte(0x80 | (cp & 0x3F));
    return 2;
  }
  if (cp < 0x10000) {
    at[0] = byte(0xE0 | (cp >> 12));
    at[1] = byte(0x80 | ((cp >> 6) & 0x3F));
    at[2] = byte(0x80 | (cp & 0x3F));
    return 3;
  }
  at[0] = byte(0xF0 | (cp >> 18));
  at[1] = byte(0x80 | ((cp >> 12) & 0x3F));
  at[2] = byte(0x80 | ((cp >> 6) & 0x3F));
  at[3] = byte(0x80 | (cp & 0x3F));
  return 4;
}

bool is_space(char32_t c) {
  return c == ' ' || (c >= 0x09 && c <= 0x0D) || c == 0x85 || c == 0xA0 || c == 0x1680 || (c >= 0x2000 && c <= 0x200B) ||
         c == 0x2028 || c == 0x2029 || c == 0x202F || c == 0x205F || c == 0x3000 || c == 0xFEFF;
}

// The code point `first` + `second` compose to, or 0.
char32_t composed(char32_t first, char32_t second) {
  // Hangul: L + V -> LV, LV + T -> LVT (Unicode 3.12).
  if (first >= 0x1100 && first < 0x1113 && second >= 0x1161 && second < 0x1176) {
    return 0xAC00 + ((first - 0x1100) * 21 + (second - 0x1161)) * 28;
  }
  if (first >= 0xAC00 && first <= 0xD7A3 && (first - 0xAC00) % 28 == 0 && second > 0x11A7 && second < 0x11C3) {
    return first + (second - 0x11A7);
  }
  auto it = std::lower_bound(std::begin(kCompositions), std::end(kCompositions), std::pair(first, second),
                             [](const Composition& c, const std::pair<char32_t, char32_t>& k) {
                               return std::pair(c.first, c.second) < k;
                             });
  return it != std::end(kCompositions) && it->first == first && it->second == second ? it->composed : 0;
}

size_t common_prefix(std::string_view a, std::string_view b) {
  return static_cast<size_t>(std::mismatch(a.begin(), a.begin() + static_cast<std::ptrdiff_t>(std::min(a.size(), b.size())), b.begin()).first - a.begin());
}

size_t common_suffix(std::string_view a, std::string_view b) {
  size_t n = 0;
  while (n < a.size() && n < b.size() && a[a.size() - 1 - n] == b[b.size() - 1 - n]) ++n;
  return n;
}

// The heading Codex puts before a cut-down exec output.
std::string_view without_heading(std::string_view sent, std::string_view logged_head) {
  constexpr std::string_view kHeading = "Total output lines: ";
  if (!sent.starts_with(kHeading) || logged_head.starts_with(kHeading)) return sent;
  const size_t end = sent.find("\n\n");  // npos, too, is past 64: no heading
  return end > 64 ? sent : sent.substr(end + 2);
}

}  // namespace

std::string content_text(simdjson::dom::element content) {
  std::string_view s;
  if (!content.get(s)) return std::string(s);
  simdjson::dom::array parts;
  if (!content.get(parts)) {
    std::string out;
    for (auto part : parts) {
      simdjson::dom::object o;
      std::string_view type, text;
      if (!part.get(s)) {
        out += s;
      } else if (!part.get(o) && json::string(o, "type", &type) == json::Get::ok && is_text_part(type) &&
                 json::string(o, "text", &text) == json::Get::ok) {
        out += text;
      } else {
        out += part_stand_in(part);
      }
    }
    return out;
  }
  simdjson::dom::object o;
  simdjson::dom::element inner;
  if (!content.get(o) && !o.at_key("content").get(inner)) return content_text(inner);
  return part_stand_in(content);
}

std::string loose_text(std::string_view text) {
  // Written in place, with room for the rest of the text always kept ahead
  // of `w`: an ASCII byte (most of any log) is stored unconditionally and
  // kept by advancing `w` unless it is white space, without a branch. Only
  // code points that can be a composition's second half are looked up, and
  // the last code point kept is then overwritten with the composition.
  // This runs over every distinct tool result of a trace.
  std::string out(text.size(), '\0');
  size_t w = 0;
  char32_t last = 0;                   // the last non-ASCII code point kept
  size_t last_at = std::string::npos;  // where it starts in out
  for (size_t i = 0; i < text.size();) {
    const auto b = static_cast<unsigned char>(text[i]);
    if (b < 0x80) {
      out[w] = static_cast<char>(b);
      w += kKeepAscii[b];
      ++i;
      continue;
    }
    const char32_t c = next_code_point(text, i);
    if (is_space(c)) continue;
    // An invalid byte grows to 3: keep room for the rest and one code point.
    if (const size_t need = w + (text.size() - i) + 4; need > out.size()) out.resize(std::max(2 * out.size(), need));
    if (w > 0 && static_cast<unsigned char>(out[w - 1]) < 0x80) {  // an ASCII byte came last
      last = static_cast<unsigned char>(out[w - 1]);
      last_at = w - 1;
    }
    const char32_t both = last_at != std::string::npos && w > 0 && c >= kLowestSecond ? composed(last, c) : 0;
    if (both != 0) w = last_at;
    last = both != 0 ? both : c;
    last_at = w;
    w += put_utf8(&out[w], last);
  }
  out.resize(w);
  return out;
}

bool claude_interrupt_marker(std::string_view text) {
  // Merging the marker's message with the next prompt's, Claude Code 2.1.332
  // ends the marker's text block with a line end (seen in a real TUI run).
  if (text.ends_with('\n')) text.remove_suffix(1);
  return text == "[Request interrupted by user]" || text == "[Request interrupted by user for tool use]";
}

bool claude_tool_loaded_note(std::string_view text) {
  // Claude Code's own ids (its message ids for the model to name: 1 to 8 of
  // [a-z0-9], as its tag parser reads them); any other text in a tag is words
  // sent the model that the log does not hold (red-team 104 #01).
  constexpr std::string_view kNote = "Tool loaded.", kTag = "\n[id:";
  constexpr size_t kMaxIdChars = 8, kMaxTags = 4;
  auto id_char = [](char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'); };
  if (!text.starts_with(kNote)) return false;
  text.remove_prefix(kNote.size());
  for (size_t tags = 0; text.starts_with(kTag); ++tags) {
    text.remove_prefix(kTag.size());
    size_t n = 0;
    while (n < text.size() && n <= kMaxIdChars && id_char(text[n])) ++n;
    if (tags == kMaxTags || n == 0 || n > kMaxIdChars || n == text.size() || text[n] != ']') return false;
    text.remove_prefix(n + 1);
  }
  return text.empty() || text == "\n";
}

std::string without_reminders(std::string_view text) {
  constexpr std::string_view kOpen = "<system-reminder>", kClose = "</system-reminder>";
  std::string out;
  size_t at = 0;
  for (size_t open; (open = text.find(kOpen, at)) != std::string_view::npos;) {
    const size_t close = text.find(kClose, open);
    if (close == std::string_view::npos) break;
    out += text.substr(at, open - at);
    at = close + kClose.size();
  }
  out += text.substr(at);
  return out;
}

namespace {

// Each line without a leading `  12→` or `12\t`: Claude Code's Read numbers
// the lines it sends (in the arrow form, and the tab form of some releases).
std::string without_line_numbers(std::string_view text) {
  constexpr std::string_view kArrow = "\xE2\x86\x92";  // U+2192
  std::string out;
  out.reserve(text.size() + 1);
  for (size_t at = 0; at <= text.size();) {
    size_t end = text.find('\n', at);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(at, end - at);
    const size_t digits = line.find_first_not_of(' ');
    const size_t after = digits == std::string_view::npos ? digits : line.find_first_not_of("0123456789", digits);
    if (after != std::string_view::npos && after > digits) {
      if (line.substr(after).starts_with(kArrow)) {
        line.remove_prefix(after + kArrow.size());
      } else if (line[after] == '\t') {
        line.remove_prefix(after + 1);
      }
    }
    out += line;
    out += '\n';
    at = end + 1;
  }
  return out;
}

bool contains_linear(std::string_view text, std::string_view pattern) { return find_linear(text, pattern) != std::string_view::npos; }

}  // namespace

namespace {

// A text without the <system-reminder> blocks that end it, where Claude
// Code appends its own (after a file Read sent, say).
std::string_view without_trailing_reminders(std::string_view text) {
  constexpr std::string_view kOpen = "<system-reminder>", kClose = "</system-reminder>";
  for (;;) {
    const size_t end = text.find_last_not_of(" \t\r\n");
    if (end == std::string_view::npos || !text.substr(0, end + 1).ends_with(kClose)) return text;
    const size_t open = text.rfind(kOpen, end);
    if (open == std::string_view::npos) return text;
    text = text.substr(0, open);
  }
}

// Whether `holds` is true of a result without its <system-reminder>
// blocks, which Claude Code adds to some results and the copy does not
// have; or, for a copy that holds such blocks itself (a file or an output
// of a tool that handles transcripts, its tests, grep over them: red-team
// 19 #2), of the result as sent or without the blocks that end it.
template <typename Holds>
bool as_sent_or_unreminded(std::string_view copy, std::string_view result, const Holds& holds) {
  constexpr std::string_view kOpen = "<system-reminder>";
  if (result.find(kOpen) == std::string_view::npos) return holds(result);
  // Text inside the harness's blocks is not what the tool returned: the
  // result as sent counts only for a copy that has such blocks itself.
  if (copy.find(kOpen) == std::string_view::npos) return holds(without_reminders(result));
  const std::string_view untailed = without_trailing_reminders(result);
  return holds(result) || (untailed.size() != result.size() && holds(untailed));
}

}  // namespace

bool copy_within(std::string_view copy, std::string_view result, bool numbered) {
  const std::string wanted = loose_text(copy);
  return as_sent_or_unreminded(copy, result, [&](std::string_view sent) {
    return contains_linear(loose_text(numbered ? without_line_numbers(sent) : std::string(sent)), wanted);
  });
}

namespace {

constexpr size_t kReadLineUnits = 2000;  // Read cuts lines longer than this

// The length in bytes of the longest head of `line` (UTF-8) within `units`
// UTF-16 code units, and whether the line is longer than kReadLineUnits.
struct LineUnits {
  size_t head_bytes = 0;
  bool long_line = false;
};
LineUnits measure_line(std::string_view line, size_t units) {
  LineUnits out;
  size_t counted = 0;
  for (size_t at = 0; at < line.size();) {
    const auto lead = static_cast<unsigned char>(line[at]);
    const size_t bytes = lead < 0x80 ? 1 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4;
    counted += bytes == 4 ? 2 : 1;  // a code point past U+FFFF is two code units
    if (counted <= units) out.head_bytes = std::min(at + bytes, line.size());
    if (counted > kReadLineUnits) {
      out.long_line = true;
      break;
    }
    at += bytes;
  }
  return out;
}

// Lines holding more than white space: a file's lines as Read sends them
// and as its copy keeps them, whatever line end closes the last.
size_t lines_with_text(std::string_view text) {
  size_t count = 0;
  for (size_t at = 0; at < text.size();) {
    const size_t end = std::min(text.find('\n', at), text.size());
    const std::string_view line = text.substr(at, end - at);
    count += line.find_first_not_of(" \t\r") != std::string_view::npos ? 1 : 0;
    at = end + 1;
  }
  return count;
}

// copy_within_cut_lines() on one form of the result.
bool within_cut_lines(std::string_view copy, std::string_view result) {
  const std::string lines = without_line_numbers(result);
  if (lines_with_text(lines) != lines_with_text(copy)) return false;  // a line left out or added
  const std::string sent = loose_text(lines);
  bool any_long = false;
  // Each piece runs from the start of the copy, or the line after a long
  // one, to the head of the next long line (or the copy's end); the result
  // has each piece whole, its marker after it, the first where it starts
  // and the last where it ends (Read sends every line it read).
  // Pieces are looked for in order, each after the one before: searching
  // the whole result for each long line's head cost lines x result bytes.
  size_t piece = 0, placed_through = 0;
  for (size_t at = 0; at <= copy.size();) {
    const size_t end = std::min(copy.find('\n', at), copy.size());
    const LineUnits line = measure_line(copy.substr(at, end - at), kReadLineUnits - 1);
    if (line.long_line || end == copy.size()) {
      const size_t piece_end = line.long_line ? at + line.head_bytes : end;
      const std::string text = loose_text(copy.substr(piece, piece_end - piece));
      const std::string_view rest = std::string_view(sent).substr(placed_through);
      size_t found = std::string_view::npos;
      if (piece == 0) {
        found = rest.starts_with(text) ? 0 : std::string_view::npos;
      } else if (line.long_line) {
        found = find_linear(rest, text);
      } else if (rest.ends_with(text)) {
        found = rest.size() - text.size();
      }
      if (found == std::string_view::npos) return false;
      placed_through += found + text.size();
      any_long = any_long || line.long_line;
      piece = end + 1;
    }
    at = end + 1;
  }
  return any_long;
}

}  // namespace

bool copy_within_cut_lines(std::string_view copy, std::string_view result) {
  return as_sent_or_unreminded(copy, result, [&](std::string_view sent) { return within_cut_lines(copy, sent); });
}

std::string html_unescaped(std::string_view text) {
  static constexpr std::pair<std::string_view, char> kEntities[] = {
      {"&lt;", '<'}, {"&gt;", '>'}, {"&amp;", '&'}, {"&quot;", '"'}, {"&#39;", '\''}, {"&#x27;", '\''}, {"&apos;", '\''}};
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size(); ++i) {
    const auto* entity = text[i] != '&' ? std::end(kEntities) : std::find_if(std::begin(kEntities), std::end(kEntities), [&](const auto& e) {
      return text.substr(i).starts_with(e.first);
    });
    if (entity == std::end(kEntities)) {
      out += text[i];
      continue;
    }
    out += entity->second;
    i += entity->first.size() - 1;
  }
  return out;
}

bool copy_is_whole(std::string_view copy, std::string_view result) {
  const std::string wanted = loose_text(copy);
  return as_sent_or_unreminded(copy, result, [&](std::string_view sent) { return loose_text(without_line_numbers(sent)) == wanted; });
}

namespace {

// A cut's marker at the start of `text` (loose: no white space), as Claude
// Code writes one where it cut a long output ("... [120 lines truncated]
// ...", "[... omitted ...]", "…"): an opening of dots, a bracket or an
// ellipsis, the word, and a closing one, all within 64 bytes.
bool starts_with_marker(std::string_view text) {
  constexpr std::string_view kEllipsis = "\xE2\x80\xA6";
  text = text.substr(0, 64);
  if (!(text.starts_with("...") || text.starts_with('[') || text.starts_with('(') || text.starts_with(kEllipsis))) {
    return false;
  }
  size_t word = text.find("truncated");
  if (word == std::string_view::npos) word = text.find("omitted");
  if (word == std::string_view::npos) return false;
  const std::string_view after = text.substr(word);
  return after.find("...") != std::string_view::npos || after.find(']') != std::string_view::npos ||
         after.find(')') != std::string_view::npos || after.find(kEllipsis) != std::string_view::npos;
}

// `<persisted-output>`: "Output too large (43.2KB). Full output saved to:
// PATH\n\nPreview (first 2KB):\nHEAD\n...\n</persisted-output>": HEAD
// (loose) is the start of `copy`, but for a code point the preview may
// have split at its end.
bool persisted_preview_of(std::string_view result, std::string_view copy) {
  constexpr std::string_view kPreview = "Preview(first", kClose = "</persisted-output>";
  const size_t at = result.find(kPreview);
  const size_t open = at == std::string_view::npos ? at : result.find("):", at);
  if (open == std::string_view::npos || open - at > 64) return false;
  std::string_view preview = result.substr(open + 2);
  preview = preview.substr(0, preview.find(kClose));
  if (preview.ends_with("...")) preview.remove_suffix(3);
  preview.remove_suffix(std::min<size_t>(preview.size(), 3));
  return copy.starts_with(preview);
}

}  // namespace

bool shows_cut_of(std::string_view result, std::string_view copy) {
  const std::string r = loose_text(without_reminders(result)), c = loose_text(copy);
  if (contains_linear(r, "<persisted-output>")) return persisted_preview_of(r, c);
  // The copy's head, at the result's start or where the result has it
  // (after an "Exit code N" line, say), then the marker where the rest of
  // the copy was cut (stderr, or the copy's tail, may follow it).
  auto cut_at = [&](size_t start) {
    const std::string_view from = std::string_view(r).substr(start);
    const size_t head = common_prefix(from, c);
    return head > 0 && head < c.size() && starts_with_marker(from.substr(head));
  };
  if (c.empty()) return false;
  if (cut_at(0)) return true;
  const size_t start = r.find(std::string_view(c).substr(0, std::min<size_t>(c.size(), 64)));
  return start != std::string::npos && cut_at(start);
}

namespace {

constexpr std::string_view kRedacted = "[REDACTED:";

// The end of a redaction marker starting at `at`, or npos.
size_t marker_end(std::string_view s, size_t at) {
  // redaction_marker_close looks within a marker's bound only, so a text of
  // many openers and no `]` is not read to its end once per opener.
  const size_t close = redaction_marker_close(s, at);
  if (close == std::string_view::npos || close - at - kRedacted.size() > 64 || close == at + kRedacted.size()) {
    return std::string_view::npos;
  }
  return close + 1;
}

bool secret_character(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-' ||
         c == '.' || c == '+' || c == '/' || c == '=' || c == '~';
}

// How far from `from` a secret could run in `logged`: the run of secret
// characters, at most kMaxSecretBytes.
size_t secret_run_end(std::string_view logged, size_t from) {
  size_t end = from;
  while (end < logged.size() && end - from < kMaxSecretBytes && secret_character(logged[end])) ++end;
  return end;
}

}  // namespace

size_t find_linear(std::string_view text, std::string_view pattern) {
  if (pattern.empty()) return 0;
  const void* at = ::memmem(text.data(), text.size(), pattern.data(), pattern.size());
  return at ? static_cast<size_t>(static_cast<const char*>(at) - text.data()) : std::string_view::npos;
}

bool holds(std::string_view text, std::string_view what) {
  return ::memmem(text.data(), text.size(), what.data(), what.size()) != nullptr;
}

std::optional<bool> interleaves(std::string_view whole, std::string_view first, std::string_view second,
                                uint64_t& budget) {
  if (whole.size() != first.size() + second.size()) return false;
  if ((whole.starts_with(first) && whole.ends_with(second)) || (whole.starts_with(second) && whole.ends_with(first))) {
    return true;
  }
  constexpr size_t kMaxWays = 64;
  // For each way `whole`'s prefix splits into prefixes of both: the bytes of
  // `first` it takes (ascending, distinct).
  std::vector<size_t> ways = {0}, next;
  for (size_t k = 0; k < whole.size(); ++k) {
    if (ways.size() > budget) return std::nullopt;
    budget -= ways.size();
    next.clear();
    for (const size_t i : ways) {
      const size_t j = k - i;
      if (j < second.size() && second[j] == whole[k] && (next.empty() || next.back() < i)) next.push_back(i);
      if (i < first.size() && first[i] == whole[k]) next.push_back(i + 1);
    }
    if (next.empty()) return false;
    if (next.size() > kMaxWays) return std::nullopt;
    ways.swap(next);
  }
  return true;  // every way left took all of both
}

std::string_view trimmed_text(std::string_view s) {
  const size_t begin = s.find_first_not_of(" \t\r\n");
  if (begin == std::string_view::npos) return {};
  return s.substr(begin, s.find_last_not_of(" \t\r\n") - begin + 1);
}

bool has_redaction(std::string_view sent) {
  const size_t at = sent.find(kRedacted);
  return at != std::string_view::npos && marker_end(sent, at) != std::string_view::npos;
}

bool matches_with_redactions(std::string_view sent, std::string_view logged) {
  // The literal pieces between markers, matched in order; each gap between
  // two pieces is a secret: kMinSecretBytes to kMaxSecretBytes of the
  // characters keys are written in. The recorder redacts known key formats,
  // so a gap with a space, a quote or a shell metacharacter in it is text
  // the log put where the wire has a marker, not the secret.
  std::vector<std::string_view> pieces;
  size_t from = 0;
  for (size_t at = sent.find(kRedacted); at != std::string_view::npos; at = sent.find(kRedacted, at + 1)) {
    const size_t end = marker_end(sent, at);
    if (end == std::string_view::npos) continue;
    pieces.push_back(sent.substr(from, at - from));
    from = end;
    at = end - 1;
  }
  if (pieces.empty()) return false;
  pieces.push_back(sent.substr(from));
  if (!logged.starts_with(pieces.front())) return false;
  size_t pos = pieces.front().size();
  for (size_t i = 1; i + 1 < pieces.size(); ++i) {
    // Only where a secret could end: within the run of secret characters.
    const size_t first_end = pos + kMinSecretBytes, run_end = secret_run_end(logged, pos);
    if (run_end < first_end) return false;
    const std::string_view window = logged.substr(first_end, run_end - first_end + pieces[i].size());
    const size_t found = find_linear(window, pieces[i]);
    if (found == std::string_view::npos) return false;
    pos = first_end + found + pieces[i].size();
  }
  const std::string_view last = pieces.back();
  if (logged.size() < pos + last.size() || !logged.ends_with(last)) return false;
  const size_t secret_end = logged.size() - last.size();
  return secret_end >= pos + kMinSecretBytes && secret_run_end(logged, pos) >= secret_end;
}

RedactionComparer::Match RedactionComparer::compare(std::string_view sent, std::string_view logged) {
  constexpr uint64_t kPerComparison = 256;  // splitting `sent` into pieces, a vector
  const uint64_t cost = sent.size() + logged.size() + kPerComparison;
  if (cost > budget_) {
    budget_ = 0;  // spent: no later, smaller comparison either
    return Match::not_compared;
  }
  budget_ -= cost;
  return matches_with_redactions(sent, logged) ? Match::yes : Match::no;
}

Excerpt excerpt_of(std::string_view text) {
  Excerpt e;
  e.size = text.size();
  if (text.size() <= 2 * Excerpt::kExcerptBytes) {
    e.head = text;
  } else {
    e.head = text.substr(0, Excerpt::kExcerptBytes);
    e.tail = text.substr(text.size() - Excerpt::kExcerptBytes);
  }
  return e;
}

bool is_truncation_of(std::string_view sent, const Excerpt& logged) {
  sent = without_heading(sent, logged.head);
  if (sent.size() >= logged.size) return false;
  const std::string_view end = logged.tail.empty() ? std::string_view(logged.head) : std::string_view(logged.tail);
  const size_t prefix = common_prefix(sent, logged.head);
  const size_t suffix = std::min(common_suffix(sent, end), sent.size() - prefix);
  if (prefix + suffix > logged.size) return false;
  // What is left is the marker alone: one line, short. Anything more would
  // be text the model was sent that the log does not hold.
  std::string_view marker = sent.substr(prefix, sent.size() - prefix - suffix);
  const size_t b = marker.find_first_not_of(" \t\r\n");
  marker = b == std::string_view::npos ? std::string_view() : marker.substr(b, marker.find_last_not_of(" \t\r\n") - b + 1);
  constexpr size_t kMaxMarker = 64;  // Codex's longest is about 45
  return marker.size() <= kMaxMarker && marker.find('\n') == std::string_view::npos &&
         (marker.find("truncated") != std::string_view::npos || marker.find("omitted") != std::string_view::npos);
}

}  // namespace goalcup::cheat
