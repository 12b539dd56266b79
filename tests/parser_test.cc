// The strict record parser: every malformation the format names.
#include "core/record.h"

#include "core/json_digest.h"
#include "core/lines.h"
#include "core/timefmt.h"
#include "tests/support.h"

namespace goalcup {
namespace {

const std::string kPrev = "sha256:" + std::string(64, '0');

std::string line_with(const std::string& body, const std::string& seq = "0", const std::string& t = "2026-11-29T17:05:16.1Z",
                      const std::string& prev = kPrev) {
  return "{\"seq\":" + seq + ",\"t\":\"" + t + "\",\"kind\":\"gap\",\"prev\":\"" + prev + "\",\"body\":" + body + "}";
}

Result<Record> parse(const std::string& line) {
  static RecordParser parser{Limits{}};
  static std::string padded;
  padded = line + std::string(kLinePadding, '\0');
  return parser.parse(std::string_view(padded.data(), line.size()), 0);
}

Code code_of(const std::string& line) {
  auto r = parse(line);
  EXPECT_FALSE(r.ok()) << line;
  return r.ok() ? Code::internal_error : r.error().code;
}

TEST(RecordParser, AcceptsAValidRecord) {
  auto r = parse(line_with("{\"gap\":\"ClockStep\",\"x\":[1,{\"a\":null}]}"));
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->seq, 0u);
  EXPECT_EQ(r->kind, Kind::gap);
}

TEST(RecordParser, RejectsDuplicateMembersAtAnyDepth) {
  EXPECT_EQ(code_of(line_with("{\"gap\":\"a\",\"gap\":\"b\"}")), Code::duplicate_member);
  EXPECT_EQ(code_of(line_with("{\"x\":[{\"k\":1,\"k\":2}]}")), Code::duplicate_member);
  // The envelope itself.
  EXPECT_EQ(code_of("{\"seq\":0,\"seq\":0,\"t\":\"2026-11-29T17:05:16Z\",\"kind\":\"gap\",\"prev\":\"" + kPrev +
                    "\",\"body\":{}}"),
            Code::duplicate_member);
  // Many members: the sorted path.
  std::string many = "{";
  for (int i = 0; i < 1000; ++i) many += "\"k" + std::to_string(i) + "\":1,";
  EXPECT_TRUE(parse(line_with(many + "\"z\":1}")).ok());
  EXPECT_EQ(code_of(line_with(many + "\"k500\":1}")), Code::duplicate_member);
}

TEST(RecordParser, RejectsWrongEnvelopes) {
  EXPECT_EQ(code_of("{\"seq\":0,\"t\":\"2026-11-29T17:05:16Z\",\"kind\":\"gap\",\"prev\":\"" + kPrev +
                    "\",\"body\":{},\"extra\":1}"),
            Code::envelope_members);
  EXPECT_EQ(code_of("{\"t\":\"2026-11-29T17:05:16Z\",\"seq\":0,\"kind\":\"gap\",\"prev\":\"" + kPrev + "\",\"body\":{}}"),
            Code::envelope_members);
  EXPECT_EQ(code_of("{\"seq\":0,\"t\":\"2026-11-29T17:05:16Z\",\"kind\":\"gap\",\"prev\":\"" + kPrev + "\"}"),
            Code::envelope_members);
  EXPECT_EQ(code_of(line_with("[]")), Code::envelope_type);
  EXPECT_EQ(code_of("[1,2]"), Code::envelope_type);
}

TEST(RecordParser, SeqMustBeAnInteger) {
  EXPECT_EQ(code_of(line_with("{}", "5.0")), Code::seq_not_integer);
  EXPECT_EQ(code_of(line_with("{}", "1e1")), Code::seq_not_integer);
  EXPECT_EQ(code_of(line_with("{}", "-1")), Code::seq_not_integer);
  EXPECT_EQ(code_of(line_with("{}", "\"0\"")), Code::seq_not_integer);
  // Beyond 2^64 (and a 10,000-digit number) cannot be an integer here.
  EXPECT_FALSE(parse(line_with("{}", "18446744073709551616")).ok());
  EXPECT_FALSE(parse(line_with("{}", std::string(10000, '9'))).ok());
  EXPECT_TRUE(parse(line_with("{}", "9007199254740993")).ok());  // beyond 2^53 is still exact
}

TEST(RecordParser, HexMustBeLowercase) {
  std::string upper = "sha256:" + std::string(64, 'A');
  EXPECT_EQ(code_of(line_with("{}", "0", "2026-11-29T17:05:16Z", upper)), Code::bad_hex);
  EXPECT_EQ(code_of(line_with("{}", "0", "2026-11-29T17:05:16Z", "sha256:" + std::string(63, '0'))), Code::bad_hex);
  EXPECT_EQ(code_of(line_with("{}", "0", "2026-11-29T17:05:16Z", "sha512:" + std::string(64, '0'))), Code::bad_hex);
}

TEST(RecordParser, TimesAreRfc3339Utc) {
  for (const char* good : {"2026-11-29T17:05:16Z", "2026-11-29T17:05:16.1Z", "2026-11-29T17:05:16.123456789Z",
                           "2024-02-29T00:00:00Z", "2016-12-31T23:59:60Z",
                           // Any 4-digit year: Go writes an unset time as year 1.
                           "0001-01-01T00:00:00Z", "1000-01-01T00:00:00Z", "2826-11-23T02:25:08Z",
                           "9999-12-31T23:59:59.999999999Z"}) {
    EXPECT_TRUE(parse(line_with("{}", "0", good)).ok()) << good;
  }
  for (const char* bad : {"2026-11-29T17:05:16", "2026-11-29T17:05:16+00:00", "2026-11-29 17:05:16Z",
                          "2026-11-29T17:05:16.Z", "2026-11-29T17:05:16.1234567890Z", "2026-13-01T00:00:00Z",
                          "2026-02-29T00:00:00Z", "2026-11-29t17:05:16z", "2026-11-29T24:00:00Z",
                          "+10000-01-01T00:00:00Z", "-001-01-01T00:00:00Z"}) {
    EXPECT_EQ(code_of(line_with("{}", "0", bad)), Code::bad_time) << bad;
  }
}

// Beyond 1677..2262 the nanosecond clock saturates: order against the times
// of any real run is kept.
TEST(RecordParser, FarTimesKeepTheirOrder) {
  const auto year1 = parse_time("0001-01-01T00:00:00Z"), now = parse_time("2026-11-29T17:05:16Z"),
             year9999 = parse_time("9999-12-31T23:59:59.999999999Z");
  ASSERT_TRUE(year1 && now && year9999);
  EXPECT_LT(*year1, *now);
  EXPECT_LT(*now, *year9999);
  EXPECT_LE(*parse_time("2300-01-01T00:00:00Z"), *year9999);
  EXPECT_EQ(nanos_between(*year1, *year9999), INT64_MAX);
}

// JSON numbers have no range; simdjson holds 64-bit integers and doubles.
// A wider one in a member no check reads is no reason to reject the line;
// in a member that must be an integer it is not one.
TEST(RecordParser, NumbersBeyondSimdjsonAreJson) {
  auto r = parse(line_with("{\"gap\":\"ClockStep\",\"n\":123456789012345678901234567890,\"m\":-1E+400,"
                           "\"l\":[1e999,-99999999999999999999],\"s\":\"99999999999999999999999 \\\" 1e999\"}"));
  ASSERT_TRUE(r.ok()) << r.error().message;
  std::string_view text;
  ASSERT_EQ(json::string(r->body, "s", &text), json::Get::ok);
  EXPECT_EQ(text, "99999999999999999999999 \" 1e999");  // strings are left as they are
  uint64_t n = 0;
  EXPECT_EQ(json::uint(r->body, "n", &n), json::Get::wrong_type);
  // Still refused: a malformed number, a wide one where an integer belongs.
  EXPECT_EQ(code_of(line_with("{\"n\":012345678901234567890123}")), Code::malformed_json);
  EXPECT_EQ(code_of(line_with("{\"n\":1e400.5}")), Code::malformed_json);
  EXPECT_EQ(code_of(line_with("{}", "18446744073709551616")), Code::seq_not_integer);
}

// RFC 8259's grammar allows an escaped lone surrogate (JSON.stringify writes
// one for a string cut inside a pair): it reads as U+FFFD. Raw surrogate
// bytes stay invalid UTF-8 (above), and other bad escapes stay malformed.
TEST(RecordParser, EscapedLoneSurrogatesReadAsReplacement) {
  auto r = parse(line_with("{\"gap\":\"a\\ud83d\",\"x\":\"\\udc00\\ud83d\\ude00\\\\ud800\\ud800\",\"n\":1e999}"));
  ASSERT_TRUE(r.ok()) << r.error().message;
  std::string_view text;
  ASSERT_EQ(json::string(r->body, "gap", &text), json::Get::ok);
  EXPECT_EQ(text, "a\xEF\xBF\xBD");
  ASSERT_EQ(json::string(r->body, "x", &text), json::Get::ok);
  EXPECT_EQ(text, "\xEF\xBF\xBD\xF0\x9F\x98\x80\\ud800\xEF\xBF\xBD");  // an escaped backslash is no escape
  EXPECT_EQ(code_of(line_with("{\"gap\":\"\\ud8\"}")), Code::malformed_json);
  EXPECT_EQ(code_of(line_with("{\"gap\":\"\\ud800\\q\"}")), Code::malformed_json);
  // Two keys that both read as U+FFFD are one name twice.
  EXPECT_EQ(code_of(line_with("{\"\\ud800\":1,\"\\udbff\":2}")), Code::duplicate_member);
}

TEST(RecordParser, RejectsBadBytes) {
  EXPECT_EQ(code_of(line_with("{}") + "\r"), Code::carriage_return);
  EXPECT_EQ(code_of("\xEF\xBB\xBF" + line_with("{}")), Code::byte_order_mark);
  EXPECT_EQ(code_of(""), Code::blank_line);
  EXPECT_EQ(code_of(line_with("{\"gap\":\"\xC3\x28\"}")), Code::invalid_utf8);
  EXPECT_EQ(code_of(line_with("{\"gap\":\"\xED\xA0\x80\"}")), Code::invalid_utf8);  // an encoded surrogate
  EXPECT_EQ(code_of(line_with(std::string("{\"gap\":\"a\0b\"}", 14))), Code::malformed_json);
  EXPECT_TRUE(parse(line_with("{\"gap\":\"\\ud83d\\ude00\"}")).ok());  // a proper pair
  EXPECT_EQ(code_of(line_with("{\"gap\":1,}")), Code::malformed_json);
  EXPECT_EQ(code_of(line_with("{}") + " x"), Code::malformed_json);
}

TEST(RecordParser, NestingIsBounded) {
  std::string deep;
  for (int i = 0; i < 62; ++i) deep += "[";
  for (int i = 0; i < 62; ++i) deep += "]";
  EXPECT_TRUE(parse(line_with("{\"x\":" + deep + "}")).ok());  // 64 levels with the root and body
  EXPECT_EQ(code_of(line_with("{\"x\":[" + deep + "]}")), Code::limit_nesting);
  // The 64th level may hold values (simdjson's own bound refuses them there).
  const std::string full = std::string(61, '[') + "[1,\"a\"]" + std::string(61, ']');
  EXPECT_TRUE(parse(line_with("{\"x\":" + full + "}")).ok());
  EXPECT_EQ(code_of(line_with("{\"x\":[" + full + "]}")), Code::limit_nesting);
  std::string objects;  // 65 levels, the innermost an empty object
  for (int i = 0; i < 62; ++i) objects += "{\"o\":";
  objects += "{}" + std::string(62, '}');
  EXPECT_EQ(code_of(line_with("{\"x\":" + objects + "}")), Code::limit_nesting);
  std::string very(100000, '[');
  EXPECT_EQ(code_of(line_with("{\"x\":" + very + "}")), Code::limit_nesting);
}

// An absent tool input digests as {} without a parser: the same digest as
// {} however written, and not that of any other value.
TEST(JsonDigest, EmptyObjectDigestIsTheParsedEmptyObjects) {
  StrictJsonParser parser{Limits{}};
  const Digest empty = json::empty_object_digest();
  EXPECT_EQ(json::text_value_digest("{}", parser), empty);
  EXPECT_EQ(json::text_value_digest(" { \n} ", parser), empty);
  EXPECT_EQ(json::text_value_digest("", parser), empty);
  EXPECT_NE(json::text_value_digest("[]", parser), empty);
  EXPECT_NE(json::text_value_digest("{\"a\":1}", parser), empty);
  EXPECT_NE(json::text_value_digest("\"{}\"", parser), empty);
}

// Long strings are digested through a cache of recent ones: equal texts
// still digest alike however escaped, a changed byte still shows, and a
// text pushed out of the cache digests as it did before.
TEST(JsonDigest, LongStringsDigestByTheirBytesWhateverTheCacheHolds) {
  StrictJsonParser parser{Limits{}};
  auto digest = [&](const std::string& json) { return json::text_value_digest(json, parser); };
  const std::string text(6000, 'a');
  std::string changed = text;
  changed[5999] = 'b';
  const Digest first = digest("\"" + text + "\"");
  EXPECT_EQ(digest("\"\\u0061" + text.substr(1) + "\""), first);  // another spelling, the same value
  EXPECT_NE(digest("\"" + changed + "\""), first);
  EXPECT_NE(digest("[\"" + text + "\",\"" + changed + "\"]"), digest("[\"" + changed + "\",\"" + text + "\"]"));
  EXPECT_NE(digest("\"" + text.substr(1) + "\""), first);
  for (int i = 0; i < 1000; ++i) digest("\"" + std::to_string(i) + text + "\"");  // 6 MB: more than the cache
  EXPECT_EQ(digest("\"" + text + "\""), first);
  EXPECT_NE(digest("\"" + changed + "\""), first);
}

// release_memory() shrank the structural indexes only: the document's tape
// and string buffer, most of what a long line touched, kept its size, and
// every tool that released a parser after a long line held it to the end.
TEST(StrictJsonParser, ReleaseMemoryGivesBackTheDocumentsBuffers) {
  Limits limits;
  StrictJsonParser parser{limits};
  const std::string big = "{\"text\":\"" + std::string(20 << 20, 'x') + "\"}";
  ASSERT_TRUE(parser.parse_copy(big, 0));
  EXPECT_GE(parser.capacity(), big.size());
  parser.release_memory();
  EXPECT_LE(parser.capacity(), size_t{1} << 20);
  auto small = parser.parse_copy(R"({"a":[1,2,"three"]})", 0);  // still parses, and a long line again
  ASSERT_TRUE(small);
  EXPECT_EQ(std::string_view(small->at_key("a").at(2).get_string().value()), "three");
  auto again = parser.parse_copy(big, 0);
  ASSERT_TRUE(again);
  EXPECT_EQ(again->at_key("text").get_string().value().size(), size_t{20} << 20);
}

}  // namespace
}  // namespace goalcup
