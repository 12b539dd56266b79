// A whole trace through every cheatcheck check and the secret scan
// (cheatcheck/scanner.h's CheatScan), on any records: the checks judge what
// they read even when the chain is broken, so they must stand any mix of
// wire bodies and harness log lines an uploader can write.
//
// Input: lines (LF). The first byte of each says what the rest is, so that
// mutations land in bodies and log lines rather than in envelopes:
//   R  a whole record line, as in a trace (header, launch, acks, seal...)
//   q  a request on the wire: "<path> <body>" (the host follows the path)
//   s  the response to the last request: its body (an event stream when it
//      starts with "event:" or "data:")
//   c  a Claude Code log line (a native record's text)
//   x  a Codex rollout line
// In q and s bodies the byte RS (0x1E) stands for LF, so that an event
// stream or a pretty-printed body fits on one line. Anything else is skipped. The seeds in fuzz/corpus/checks/ are the
// project's own sample traces written so (scripts/fuzz_seeds_checks.py).
#include <algorithm>
#include <cstdint>
#include <string>
#include <string_view>

#include <simdjson.h>

#include "cheatcheck/scanner.h"
#include "core/keyring.h"
#include "core/lines.h"
#include "core/record.h"
#include "core/sha256.h"
#include "fuzz/json_text.h"

namespace {

using namespace goalcup;
using fuzz::json_escaped;


std::string with_line_feeds(std::string_view s) {
  std::string out(s);
  std::replace(out.begin(), out.end(), '\x1e', '\n');
  return out;
}

// A body's "body" and "encoding" members: its text, or base64 of bytes
// that are not UTF-8.
std::string stored(std::string_view body) {
  if (simdjson::validate_utf8(body.data(), body.size())) {
    return R"("body":")" + json_escaped(body) + R"(","encoding":"utf8")";
  }
  return R"("body":")" + base64_encode(body) + R"(","encoding":"base64")";
}

std::string_view host_of(std::string_view path) {
  return path.starts_with("/v1/messages") ? "api.anthropic.com" : "api.openai.com";
}

// The record body a compact input line stands for, or "" to skip it.
class BodyMaker {
 public:
  std::string body(char kind, std::string_view rest, std::string& kind_name) {
    switch (kind) {
      case 'q': return request(rest, kind_name);
      case 's': return response(rest, kind_name);
      case 'c': return native("claude-code", "projects/p/s.jsonl", rest, kind_name);
      case 'x': return native("codex", "sessions/rollout.jsonl", rest, kind_name);
      default: return {};
    }
  }

 private:
  std::string request(std::string_view rest, std::string& kind_name) {
    const size_t space = rest.find(' ');
    const std::string_view path = rest.substr(0, space);
    const std::string body = with_line_feeds(space == rest.npos ? "" : rest.substr(space + 1));
    path_ = std::string(path);
    ++exchange_;
    kind_name = "wire";
    return R"({"conn":1,"exchange":)" + std::to_string(exchange_) + R"(,"dir":"request","host":")" +
           std::string(host_of(path_)) + R"(","method":"POST","path":")" + json_escaped(path_) +
           R"(","headers":[["content-type","application/json"]],)" + stored(body) + R"(,"size":)" +
           std::to_string(body.size()) + R"(,"sha256":")" + digest_ref(sha256(body)) + R"(","redactions":[],"complete":true})";
  }

  std::string response(std::string_view rest, std::string& kind_name) {
    kind_name = "wire";
    const std::string body = with_line_feeds(rest);
    const bool stream = body.starts_with("event:") || body.starts_with("data:");
    return R"({"conn":1,"exchange":)" + std::to_string(exchange_) + R"(,"dir":"response","host":")" +
           std::string(host_of(path_)) + R"(","status":200,"headers":[["content-type",")" +
           (stream ? "text/event-stream" : "application/json") + R"("]],)" + stored(body) +
           R"(,"size":)" + std::to_string(body.size()) + R"(,"sha256":")" + digest_ref(sha256(body)) +
           R"(","redactions":[],"complete":true})";
  }

  std::string native(std::string_view source, std::string_view file, std::string_view text, std::string& kind_name) {
    kind_name = "native";
    return R"({"source":")" + std::string(source) + R"(","file":")" + std::string(file) + R"(","line_no":)" +
           std::to_string(++line_no_) + R"(,"text":")" + json_escaped(text) + "\"}";
  }

  std::string path_ = "/v1/messages";
  uint64_t exchange_ = 0, line_no_ = 0;
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const Limits limits{};
  RecordParser parser{limits};
  BodyMaker maker;
  cheat::CheatOptions options;
  options.walk.limits = limits;
  cheat::CheatScan scan(options);
  std::string_view input(reinterpret_cast<const char*>(data), size);
  uint64_t seq = 0;
  std::string line;
  while (!input.empty()) {
    const size_t end = input.find('\n');
    const std::string_view text = input.substr(0, end);
    input.remove_prefix(end == input.npos ? input.size() : end + 1);
    if (text.empty()) continue;
    if (text[0] == 'R') {
      line.assign(text.substr(1));
    } else {
      std::string kind;
      const std::string body = maker.body(text[0], text.substr(1), kind);
      if (body.empty()) continue;
      line = R"({"seq":)" + std::to_string(seq) + R"(,"t":"2026-11-29T17:05:16Z","kind":")" + kind +
             R"(","prev":"sha256:)" + std::string(64, '0') + R"(","body":)" + body + "}";
    }
    const size_t length = line.size();
    line.append(kLinePadding, '\0');
    const Line framed{std::string_view(line.data(), length), seq};
    const Digest hash = sha256(framed.bytes);
    if (auto record = parser.parse(framed.bytes, seq)) {
      scan.visitor().on_record(*record, framed, hash);
    } else {
      scan.visitor().on_bad_line(framed, record.error());
    }
    ++seq;
  }
  VerifyReport verify;
  verify.verdict = Verdict::invalid;
  // Crashes, sanitizer reports, hangs and unbounded memory are what this
  // target looks for; which findings an input earns is the tests' business.
  (void)scan.finish("fuzz", std::move(verify));
  return 0;
}
