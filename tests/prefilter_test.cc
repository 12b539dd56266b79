// The secret scan's prefilter (cheatcheck/secrets/prefilter.h) may only
// skip lines in which the full scan finds nothing. These tests build lines
// that hide each kind of secret every way the engine can see through -
// JSON escaping at several depths, escapes right before the secret, base64,
// percent-encoding, \u escapes, SSE deltas, credential headers, base64 wire
// bodies - and check, line by line, that the full scan and the prefiltered
// scan find the same secrets. They also check that the prefilter does skip
// ordinary lines, or it would be worth nothing.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <random>
#include <sstream>

#include "cheatcheck/secrets/prefilter.h"
#include "cheatcheck/secrets/trace_scan.h"
#include "cli/json_writer.h"
#include "core/keyring.h"
#include "core/lines.h"
#include "core/source.h"
#include "tests/support.h"

namespace goalcup::cheat {
namespace {

// (secret, text around it) pairs, one or more per rule family.
std::vector<std::string> sample_texts() {
  using testing::random_chars;
  const std::string ant = "sk-ant-api03-" + random_chars(93, 1) + "AA";
  const std::string pem = "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA\n-----END OPENSSH PRIVATE KEY-----";
  return {
      "export ANTHROPIC_API_KEY=" + ant,
      "key sk-ant-admin01-" + random_chars(93, 2) + "AA end",
      "sk-proj-" + random_chars(40, 3) + "T3BlbkFJ" + random_chars(40, 4),
      "sk-" + random_chars(20, 5) + "T3BlbkFJ" + random_chars(20, 6),
      "token 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 done",
      "github_pat_" + random_chars(22, 7) + "_" + random_chars(59, 8),
      "glpat-" + random_chars(20, 9),
      "AKIAIOSFODNN7EXAMPLQ",
      "aws_secret_access_key = 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",
      "AIza" + random_chars(35, 10),
      "secret: abc8Q~" + random_chars(34, 11),
      "xoxb-123456789012-123456789012-" + random_chars(24, 12),
      "curl https://hooks.slack.com/services/T01ABCDEF/B01ABCDEF/" + random_chars(24, 13),
      "token MTIzNDU2Nzg5MDEyMzQ1Njc4.GhIjKl." + random_chars(30, 14) + " ok",
      "sk_live_" + random_chars(24, 15),
      "hf_" + random_chars(34, 16, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"),
      "npm_" + random_chars(36, 17),
      "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U",
      "cat id\n" + pem + "\n",
      "Authorization: Bearer abcdef0123456789ABCDEFxyz",
      "x-api-key: q8Zr2Lk9Vm3Xp7Wn5Ty1",
      "DB_PASSWORD=Zq8!rT2#vLm9@pXw",
      R"({"db_password": "Zq8!rT2#vLm9@pXw", "user": "app"})",
      "config:\n  auth_token:\n    \"3f9a1c7e5b2d8f406a1e9c3b7d5f2a8e0c4b6d9f\"",
      "postgresql://app:s3cr3tPa55w0rd@db.internal:5432/prod",
      "curl -u deploy:Zq8rT2vLm9pXw https://ci.internal/api",
      "pypi-AgEIcHlwaS5vcmc" + random_chars(80, 18),
      "SG." + random_chars(22, 19) + "." + random_chars(43, 20),
      // The rules of the held-out round (docs/SECRETS.md).
      "curl -H \"Token: 7c1e04d9a2b35f68\" https://api.internal/v1/items",
      "DATABASE_URL=postgresql://app:pass@db.internal:5432/orders",
      "sshpass -p 'Qw7!rT2x' ssh deploy@host",
      "db_password = \"hunt3r$2go\"",
      "docker login -u ci --password=Hk3!x9Lq registry.internal",
      R"(environment = ["DOCKER_Y2ktYm90OlpxOHJUMnZMbTlLdw==_CONFIG={\"auths\":{\"r.internal\":{\"auth\":\"Y2ktYm90OlpxOHJUMnZMbTlLdw==\"}}}"])",
      "key AKCp" + random_chars(69, 21) + " end",
      "https://contoso.webhook.office.com/webhookb2/" + random_chars(8, 22, "0123456789abcdef") + "-" +
          random_chars(4, 23, "0123456789abcdef") + "-4abc-8def-" + random_chars(12, 24, "0123456789abcdef") +
          "/IncomingWebhook/" + random_chars(32, 25, "0123456789abcdef"),
      "SRC_ACCESS_TOKEN=sgp_" + random_chars(40, 26, "0123456789abcdef"),
      "JWT := eyJhbGciOiJSzzI1NiIsImtpZCI6ImsxIn0.eyJzdWIiOiJ1LTc3MzEiLCJyb2xlIjoib3BzIiwiaWF0IjoxNzAwMDAwMDAwfQ." +
          random_chars(43, 27),
      // Azure's identifiable keys, Salesforce, Kubernetes, provider-named keys.
      "conn " + random_chars(76, 28, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/") + "+ASt" +
          random_chars(5, 29) + "w== end",
      "sf 00D" + random_chars(12, 30) + "!" + random_chars(96, 31) + " end",
      "bootstrapTokens:\n- token: \"" + random_chars(6, 32, "abcdefghijklmnopqrstuvwxyz0123456789") + "." +
          random_chars(16, 33, "abcdefghijklmnopqrstuvwxyz0123456789") + "\"",
      "TWILIO_AUTH_TOKEN = \"" + random_chars(32, 34, "0123456789abcdef") + "\"",
      // The sixth held-out round: cred and pw names, a spaced phrase before ':', Riot and Apify.
      "db_cred = \"" + random_chars(20, 35) + "\"",
      "SMTP_PW=" + random_chars(20, 36),
      "Your API Key: " + random_chars(24, 37),
      "X-Riot-Token: RGAPI-7f3c9e21-4b8d-4a6f-9c2e-d51b7a3e8f04",
      "apify_api_" + random_chars(36, 38),
      "<server><username>ci</username><password>hunt3r!Q9</password></server>",
  };
}

std::string json_string(std::string_view s) {
  std::string out;
  append_json_string(&out, s);
  return out;
}

std::string percent_all(std::string_view s) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  for (unsigned char c : s) {
    out += '%';
    out += kHex[c >> 4];
    out += kHex[c & 15];
  }
  return out;
}

// Letters written as \u00XX (JSON) or \xXX (C, Python).
std::string escape_letters(std::string_view s, std::string_view prefix) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  for (unsigned char c : s) {
    if (c >= 'a' && c <= 'z') {
      out += prefix;
      out += kHex[c >> 4];
      out += kHex[c & 15];
    } else {
      out += static_cast<char>(c);
    }
  }
  return out;
}

// JSON as some encoders write it, with "/" as "\/".
std::string escaped_slashes(std::string_view json) {
  std::string out;
  for (char c : json) {
    if (c == '/') out += '\\';
    out += c;
  }
  return out;
}

// `b64` wrapped over lines of 20 characters (as base64 wraps at 76: a
// secret's encoding then spans lines).
std::string wrapped(const std::string& b64, std::string_view line_break) {
  std::string out;
  for (size_t at = 0; at < b64.size(); at += 20) out += (at ? std::string(line_break) : "") + b64.substr(at, 20);
  return out;
}

// The ways a text can be hidden in a line of text.
std::vector<std::string> disguises(const std::string& t) {
  std::string url = base64_encode(t);
  std::replace(url.begin(), url.end(), '+', '-');
  std::replace(url.begin(), url.end(), '/', '_');
  std::vector<std::string> out = {
      t,
      "\n" + t,
      "line one\n\t" + t + "\r\n",
      base64_encode(t),
      "\n" + base64_encode(t),
      "echo " + url + " | base64 -d",
      "$ base64 .env\n" + wrapped(base64_encode(t), "\n") + "\n",
      "key: |\r\n  " + wrapped(base64_encode(t), "\r\n  ") + "\r\n",
      percent_all(t),
      "q=" + percent_all(t) + "&x=1",
      escape_letters(t, "\\u00"),
      "b'" + escape_letters(t, "\\x") + "'",
      escaped_slashes(json_string(t)),
      json_string(t),
      json_string(json_string(t)),
      json_string(json_string(json_string(t))),
      R"({"type":"tool_result","content":)" + json_string(t) + "}",
      R"({"a":[1,2,{"b":)" + json_string(json_string(t)) + "}]}",
  };
  return out;
}

// A wire record (depth 0 JSON) carrying `body` as its stored body.
std::string wire_record(const std::string& body, const std::string& headers = R"([["content-type","text/plain"]])",
                        std::string_view encoding = "utf8") {
  return R"({"seq":7,"t":"2026-11-26T10:00:00Z","kind":"wire","prev":"sha256:)" + std::string(64, 'a') +
         R"(","body":{"conn":1,"exchange":0,"dir":"request","host":"api.anthropic.com","method":"POST","path":"/v1/messages","headers":)" +
         headers + R"(,"body":)" + json_string(body) + R"(,"encoding":")" + std::string(encoding) + R"("}})";
}

std::string native_record(const std::string& text) {
  const std::string native = R"({"type":"user","message":{"role":"user","content":[{"type":"tool_result","content":)" +
                             json_string(text) + "}]}}";
  return R"({"seq":9,"t":"2026-11-26T10:00:00Z","kind":"native","prev":"sha256:)" + std::string(64, 'b') +
         R"(","body":{"source":"claude-code","line":)" + json_string(native) + "}}";
}

// An SSE response whose text arrives in three deltas, cutting `t` apart.
std::string sse_split(const std::string& t) {
  std::string body = "event: message_start\ndata: {\"type\":\"message_start\"}\n\n";
  const size_t a = t.size() / 3, b = 2 * t.size() / 3;
  for (const std::string& part : {t.substr(0, a), t.substr(a, b - a), t.substr(b)}) {
    body += "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":"
            "\"text_delta\",\"text\":" +
            json_string(part) + "}}\n\n";
  }
  return body;
}

struct Found {
  size_t lines = 0, lines_with_secrets = 0, skipped = 0;
};

// Scans `line` with and without the prefilter; the findings must be equal.
void compare(const std::string& line, bool record, Found* found) {
  std::string padded = line + std::string(kLinePadding, '\0');
  const std::string_view view(padded.data(), line.size());
  auto full = record ? make_record_line_scanner(false, Limits{}) : make_text_line_scanner(false, Limits{});
  auto fast = record ? make_record_line_scanner(true, Limits{}) : make_text_line_scanner(true, Limits{});
  ScanOutput a, b;
  full->scan(view, 0, &a);
  fast->scan(view, 0, &b);
  auto summary = [](const ScanOutput& o) {
    std::vector<std::string> s;
    for (const auto& h : o.hits) s.push_back(h.location + " " + h.hit.chain + " " + h.hit.secret);
    std::sort(s.begin(), s.end());
    return s;
  };
  ++found->lines;
  found->lines_with_secrets += !a.hits.empty();
  found->skipped += !Prefilter::instance().may_hold_secret(view);
  EXPECT_EQ(summary(a), summary(b)) << "line: " << line.substr(0, 300);
}

TEST(Prefilter, FindsWhatTheFullScanFindsHoweverItIsHidden) {
  Found text, records;
  for (const auto& t : sample_texts()) {
    for (const auto& d : disguises(t)) {
      compare(d, false, &text);
      compare(wire_record(d), true, &records);
      compare(native_record(d), true, &records);
    }
    compare(wire_record(sse_split(t)), true, &records);
    compare(wire_record(sse_split(base64_encode(t))), true, &records);
    // Binary around it, stored base64: only the decoded body shows it.
    const std::string binary = std::string("\x89PNG\r\n\x1a\n\x00\x01\xff\xfe", 12) + t + std::string(40, '\xee');
    compare(wire_record(base64_encode(binary), R"([["content-type","image/png"]])", "base64"), true, &records);
  }
  // Nearly every constructed line holds a secret the full scan finds; the
  // comparison above is not vacuous.
  EXPECT_GT(text.lines_with_secrets * 10, text.lines * 8) << text.lines_with_secrets << " of " << text.lines;
  EXPECT_GT(records.lines_with_secrets * 10, records.lines * 8) << records.lines_with_secrets << " of " << records.lines;
}

// A wrapped run whose full lines are not text alone (a tenth of their bytes
// not ASCII) but is text with its short last line: only its lines joined
// show the key, to the engine and so to the prefilter.
TEST(Prefilter, WrappedBase64IsReadWithItsLinesJoined) {
  const std::string key = "sk-ant-api03-" + testing::random_chars(93, 331) + "AA";
  std::string text;
  for (int i = 0; i < 8; ++i) text += "\xc3\xa9";  // é, 16 bytes that are not ASCII
  text += key;
  text += std::string(150 - text.size(), '.') + std::string(12, ' ');  // 162 bytes: 216 characters, the last line 16
  const std::string b64 = base64_encode(text);
  const std::string line = "$ base64 notes\n" + b64.substr(0, 200) + "\n" + b64.substr(200) + "\n";
  Found f;
  compare(line, false, &f);
  compare(wire_record(line), true, &f);
  EXPECT_EQ(f.lines_with_secrets, 2u);
}

TEST(Prefilter, CredentialHeadersAreCheckedWhateverTheirFormatAndCase) {
  Found f;
  for (const char* h : {R"([["authorization","Bearer opaque-session-value-1234"]])",
                               R"([["Authorization", "Bearer opaque-session-value-1234"]])",
                               R"([["X-Api-Key","opaque-session-value-1234"]])",
                               R"([[ "proxy-authorization" , "Basic dXNlcjpwYXNzd29yZDEyMw==" ]])"}) {
    compare(wire_record("{}", h), true, &f);
  }
  EXPECT_EQ(f.lines_with_secrets, f.lines);
  EXPECT_EQ(f.skipped, 0u);
}

TEST(Prefilter, QuotedGenericValuesMayHoldOtherQuotesAndControlBytes) {
  // A quoted value runs to its own quote: other quotes, NULs and
  // backslashes inside it are part of it (both found by fuzzing).
  Found f;
  for (const std::string& line : {std::string("DEPLOY_API_KEY=`Q7v:K29:x1Z\",\"ya29.\",\"k1-2T6:0100`"),
                                 std::string("pwd\":\"bq7\0fe\0\0Zr8KEY=sk-apWDding9\"}", 34),
                                 std::string(R"(password 'Zr8\x\y"Q7v2mK9pLs')")}) {
    compare(line, false, &f);
  }
  EXPECT_EQ(f.lines_with_secrets, f.lines);
  EXPECT_EQ(f.skipped, 0u);
}

TEST(Prefilter, SkipsOrdinaryLines) {
  // A request with a redacted key and prose, code and digests in its tool
  // output: nothing to decode, so the prefilter must let it pass.
  std::string tool_output;
  for (int i = 0; i < 200; ++i) {
    tool_output += "src/cache_" + std::to_string(i) + ".py:12: def load(path): return open(path).read()  # sha " +
                   std::string(64, "0123456789abcdef"[i % 16]) + "\n";
  }
  const std::string body = R"({"model":"claude-sonnet-4-5","max_tokens":32000,"messages":[{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_01ABCdefGHIjklMNOpqrSTU","content":)" +
                           json_string(tool_output) + "}]}]}";
  const std::string line =
      wire_record(body, R"([["content-type","application/json"],["x-api-key","[REDACTED:anthropic-key]"]])");
  std::string padded = line + std::string(kLinePadding, '\0');
  EXPECT_FALSE(Prefilter::instance().may_hold_secret(std::string_view(padded.data(), line.size())));
}

TEST(Prefilter, FindsTheSameOnEveryLineOfTheSamplesAndPlantedTraces) {
  std::vector<std::string> paths;
  for (const auto& name : {"claude-code-leaks.jsonl", "claude-code-verified.jsonl.zst", "codex-verified.jsonl",
                           "claude-code-restart.jsonl"}) {
    paths.push_back(testing::sample_path(name));
  }
  fixtures::TraceSpec spec;
  spec.plants = {"secret-plain", "secret-base64", "secret-uescape", "secret-url", "secret-sse-split", "secret-header",
                 "secret-base64-lines"};
  fixtures::WrittenTrace written;
  paths.push_back(testing::write_temp(
      "prefilter-planted.jsonl", fixtures::join(fixtures::conversation_lines(spec, testing::dev_key(), &written))));
  Found f;
  for (const auto& path : paths) {
    auto opened = open_trace(path, Limits{});
    ASSERT_TRUE(opened) << path;
    LineReader reader(std::move(opened->source), Limits{});
    Line line;
    while (reader.next(&line) == LineReader::Status::line) compare(std::string(line.bytes), true, &f);
  }
  EXPECT_GT(f.lines_with_secrets, 15u);  // the leaks sample alone holds 15 credentials
  EXPECT_GT(f.skipped, f.lines / 4);     // and most ordinary lines are skipped
}

}  // namespace
}  // namespace goalcup::cheat
