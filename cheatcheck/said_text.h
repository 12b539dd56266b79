// What was said (a tool's result, a user's prompt) as a harness logs it and
// as the wire carries it, made comparable. Harnesses re-encode what they
// send: a result logged as a string may go out as an array of text blocks
// (or the other way round), and Codex cuts a long tool output's middle out
// before sending it, leaving a marker. GC04 compares what the log says
// with what the model was sent through these, and nothing looser.
#pragma once

#include <simdjson.h>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

namespace goalcup::cheat {

// The text of a content value: a string is itself; an array of parts
// (Anthropic blocks, Responses content items) is its text parts joined,
// each part that is not text (an image) standing as the digest of its JSON
// value; an object with a `content` member (an old Codex output) is that
// member's text. Anything else is its JSON digest.
std::string content_text(simdjson::dom::element content);

// The text without white space and with Unicode's canonical compositions
// made (é as one code point or as e + U+0301): equal for two texts that
// differ only in spacing or Unicode normalization.
std::string loose_text(std::string_view text);

// The text without the `<system-reminder>...</system-reminder>` blocks
// Claude Code adds to what it sends (2.1 releases append them to tool
// results, not to the logged result); the text itself when it has none.
std::string without_reminders(std::string_view text);

// Claude Code's own marker of a turn the user interrupted ("[Request
// interrupted by user]", "... for tool use]", maybe with one line end after
// it): the harness's words, not the user's, held to neither side of the
// prompt checks.
bool claude_interrupt_marker(std::string_view text);

// Claude Code's note after a ToolSearch result that loads deferred tools
// (2.1.3xx: a tool_result of tool_reference blocks, MCP tools among them):
// "Tool loaded.", then up to four "\n[id:...]" tags of Claude Code's ids
// (1 to 8 of [a-z0-9]), sent as a text block beside the result but not
// logged. The harness's fixed words, no user prompt.
bool claude_tool_loaded_note(std::string_view text);

// True when `copy`, a text a harness's structured copy of a tool result
// holds (Claude Code's toolUseResult: a command's stdout, a subagent's text
// blocks, a file's content as read, an error's message), is found in
// `result`, the result as logged beside it and sent. Compared loosely
// (white space, Unicode normalization), without the result's
// <system-reminder> blocks, and with `numbered` without the line numbers
// (`    12→`, or a tab) Claude Code's Read puts before each line. Linear in
// the sizes; its copies of the texts are all it allocates.
bool copy_within(std::string_view copy, std::string_view result, bool numbered);

// Claude Code's Read cuts a line over 2000 characters (UTF-16 code units)
// for the model. True when `copy`, a file's content as read, holds such a
// line and is found in `result` with that cut applied: every line of the
// copy as it is, each long one as its first 1,999 code units (whatever
// marker follows them), compared as copy_within() does with `numbered`.
// The cut is decided on the copy's own lines and the text checked against
// the result (red-team 16a #8: a long line a cheater adds to the copy no
// longer switches its comparison off).
bool copy_within_cut_lines(std::string_view copy, std::string_view result);

// `text` with the HTML entities of < > & " ' (&lt; &gt; &amp; &quot;
// &#39; &#x27; &apos;) read as those characters.
std::string html_unescaped(std::string_view text);

// True when `copy`, a file's content as read, is all `result` (the Read
// result, its lines numbered) holds, compared as copy_within() does: Read
// sends every line it read, so a copy that holds only part of its result
// was cut.
bool copy_is_whole(std::string_view copy, std::string_view result);

// True when `result` shows Claude Code's cut of `copy`, a long output it
// shortened for the model: the copy's head, then a short marker at the cut
// ("... [120 lines truncated] ..."), or a `<persisted-output>` preview the
// copy begins with. Compared loosely, without the result's
// <system-reminder> blocks. A word "truncated" or "omitted" elsewhere in
// the result is no cut.
bool shows_cut_of(std::string_view result, std::string_view copy);

// The recorder stores a wire body after redaction: a secret the harness
// sent is `[REDACTED:rule]` in the body, and verbatim in the native line
// (copied as written). True when `sent` has such markers and matches
// `logged` with each marker standing for kMinSecretBytes to kMaxSecretBytes
// of it, all of them characters keys are written in (letters, digits and
// `_-.+/=~`): the recorder redacts known key formats, never prose or code.
inline constexpr size_t kMinSecretBytes = 8;
inline constexpr size_t kMaxSecretBytes = 8192;
// Whether `text` holds `what`, by glibc's memmem (find() stops at every
// first byte of `what`: each 't' of a tool output when seeking "truncated").
bool holds(std::string_view text, std::string_view what);
// Where `pattern` first occurs in `text`, or npos, by glibc's memmem (the
// two-way algorithm for long patterns): linear however the texts repeat
// themselves, where std::string_view::find can take |text| x |pattern|, and
// it allocates nothing.
size_t find_linear(std::string_view text, std::string_view pattern);

// Whether `whole` is `first` and `second` interleaved: all the bytes of
// both, each text's in its order, taken in turns of any length (as Codex's
// aggregated output gathers a command's stdout and stderr chunks as they
// come). Each byte of `whole` costs the ways its prefix can be split so far
// (almost always one), taken from `budget`; nullopt when the budget runs
// out or the ways grow past a small bound (long runs both texts share): a
// crafted input costs at most 64 steps a byte, and never more than the
// budget.
std::optional<bool> interleaves(std::string_view whole, std::string_view first, std::string_view second,
                                uint64_t& budget);
// `s` without the white space (" \t\r\n") around it.
std::string_view trimmed_text(std::string_view s);

bool has_redaction(std::string_view sent);
bool matches_with_redactions(std::string_view sent, std::string_view logged);

// matches_with_redactions() within a budget, for a check that compares every
// logged text with every redacted sent one: a product a crafted upload can
// make huge. Each comparison is charged the bytes it may look at and a fixed
// cost for setting it up; once the budget is spent no comparison is made,
// and the check says which texts it left uncompared instead of judging them.
class RedactionComparer {
 public:
  enum class Match { yes, no, not_compared };
  static constexpr uint64_t kBudgetBytes = 4ull << 30;  // about a second

  Match compare(std::string_view sent, std::string_view logged);
  // The first of `sents` that `logged` matches (its index), or no, or
  // not_compared once the budget ran out before a match.
  template <class Texts>
  std::pair<Match, size_t> first_match(const Texts& sents, std::string_view logged) {
    size_t index = 0;
    for (const std::string_view sent : sents) {
      const Match match = compare(sent, logged);
      if (match != Match::no) return {match, index};
      ++index;
    }
    return {Match::no, 0};
  }

 private:
  uint64_t budget_ = kBudgetBytes;
};

// The start and end of a logged text, kept for checking a cut-down form
// of it that the wire may carry (at most kExcerptBytes each).
struct Excerpt {
  static constexpr size_t kExcerptBytes = 64 * 1024;
  std::string head, tail;  // tail is empty when head holds the whole text
  uint64_t size = 0;
};
Excerpt excerpt_of(std::string_view text);

// `sent` is the logged text with part of it cut out and a truncation
// marker ("[... omitted 12 of 300 lines ...]", "…2000 tokens truncated…",
// "[omitted 3 text items ...]") where the cut was, maybe after a
// "Total output lines: N" heading. The marker is all that may stand
// between the log's head and tail: one line of at most 64 bytes. This is how Codex shortens a long tool output
// for the model while its log keeps the whole output.
bool is_truncation_of(std::string_view sent, const Excerpt& logged);

}  // namespace goalcup::cheat
