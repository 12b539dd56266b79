// goalcup-cheatcheck: each check with a trace that has its evidence (planted
// by the fixture writer, chain and statements intact) and one that does not.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <functional>

#include "cheatcheck/checks/check.h"
#include "cheatcheck/report.h"
#include "cheatcheck/sarif.h"
#include "cheatcheck/scanner.h"
#include "cheatcheck/suppress.h"
#include "fixtures/writer/coop.h"
#include "tests/support.h"

namespace goalcup::cheat {
namespace {

using fixtures::HarnessStyle;
using fixtures::TraceSpec;

struct Planted {
  std::string path;
  fixtures::WrittenTrace written;
};

Planted write_trace(TraceSpec spec, const std::string& name) {
  Planted p;
  auto lines = fixtures::conversation_lines(spec, testing::dev_key(), &p.written);
  p.path = testing::write_temp(name + ".jsonl", fixtures::join(lines));
  return p;
}

CheatReport check(const std::string& path, const Policy* policy = nullptr) {
  static const Keyring ring = testing::dev_keyring();
  CheatOptions opt;
  opt.walk.keyring = &ring;
  opt.policy = policy;
  return check_trace(path, opt);
}

std::vector<const Finding*> of(const CheatReport& r, std::string_view check) {
  std::vector<const Finding*> out;
  for (const auto& f : r.findings) {
    if (f.check == check) out.push_back(&f);
  }
  return out;
}

std::string describe(const CheatReport& r) {
  std::string s;
  for (const auto& f : r.findings) s += f.check + "/" + std::string(severity_name(f.severity)) + ": " + f.message + "\n";
  return s;
}

// A trace built record by record: its opening (header, start receipt, a
// launch decrypting one provider's host and path; Claude Code's by default)
// is written at once; close() ends it (exit 0, seal, seal ack) and writes
// the file.
struct BuiltTrace {
  fixtures::Lines lines;
  fixtures::TraceBuilder b = testing::trace_builder([this](const std::string& l) { lines.push_back(l); });
  explicit BuiltTrace(const std::string& harness = "claude-code", const std::string& host = "api.anthropic.com",
                      const std::string& path = "/v1/messages") {
    b.add_header(harness);
    b.add_start_receipt();
    b.add("launch", R"({"capture":{"decrypt":[{"host":")" + host + R"(","paths":[")" + path + R"("]}],"tunnel":[]}})");
  }
  // A connection passed through undecrypted to `host` (port 443); its seq.
  uint64_t add_tunnel(const std::string& host) {
    return b.add("tunnel", R"({"conn":9,"host":")" + host + R"(","port":443,"bytes_up":48000,"bytes_down":391000,"closed":")" +
                               b.now_text() + "\"}");
  }
  std::string close(const std::string& name) {
    b.add_exit(0);
    b.add_seal("exit");
    b.add_seal_ack();
    return testing::write_temp(name, fixtures::join(lines));
  }
};

struct PlantCase {
  const char* plant;
  const char* check;
  Severity severity;
  HarnessStyle style = HarnessStyle::claude_code;
  fixtures::Ending ending = fixtures::Ending::sealed;
  bool never_higher = false;  // no finding of the check names the plant above `severity`
};

class PlantTest : public ::testing::TestWithParam<PlantCase> {};

TEST_P(PlantTest, FindsThePlantAndNothingOfItsKindWithoutIt) {
  const PlantCase& c = GetParam();
  TraceSpec spec;
  spec.style = c.style;
  spec.ending = c.ending;
  spec.turns = 4;
  auto clean = check(write_trace(spec, std::string("clean-") + c.plant).path);
  spec.plants = {c.plant};
  Planted planted = write_trace(spec, c.plant);
  auto dirty = check(planted.path);

  // The plant keeps the evidence sound: the trace still verifies.
  EXPECT_VERDICT(dirty.verify, c.ending == fixtures::Ending::sealed || c.ending == fixtures::Ending::restart
                                   ? Verdict::verified : Verdict::incomplete);
  for (const Finding* f : of(clean, c.check)) {
    EXPECT_NE(f->severity, c.severity) << "clean trace:\n" << describe(clean);
  }
  auto found = of(dirty, c.check);
  ASSERT_FALSE(found.empty()) << "planted " << c.plant << ":\n" << describe(dirty);
  bool at_seq = false, severity = false;
  for (const Finding* f : found) {
    severity |= f->severity == c.severity;
    for (uint64_t s : planted.written.seqs_of(c.plant)) {
      const bool names_it = std::find(f->seqs.begin(), f->seqs.end(), s) != f->seqs.end();
      at_seq |= names_it;
      // A plant that deserves a look is never called proof by this check.
      if (names_it && c.never_higher) {
        EXPECT_LE(f->severity, c.severity) << describe(dirty);
      }
    }
  }
  EXPECT_TRUE(severity) << describe(dirty);
  EXPECT_TRUE(at_seq) << "no finding names the planted seq\n" << describe(dirty);
}

INSTANTIATE_TEST_SUITE_P(
    Checks, PlantTest,
    ::testing::Values(
        PlantCase{"unproxied-answer", "GC04", Severity::high}, PlantCase{"native-text-differs", "GC04", Severity::high},
        PlantCase{"native-text-differs", "GC04", Severity::high, HarnessStyle::codex},
        PlantCase{"unlogged-response", "GC04", Severity::warning},
        PlantCase{"unlogged-response", "GC04", Severity::warning, HarnessStyle::codex},
        PlantCase{"no-native-log", "GC04", Severity::warning},
        PlantCase{"no-native-log", "GC04", Severity::warning, HarnessStyle::codex},
        PlantCase{"synthetic-message", "GC04", Severity::info},
        PlantCase{"unproxied-answer", "GC05", Severity::high},
        PlantCase{"unproxied-answer", "GC05", Severity::high, HarnessStyle::codex},
        PlantCase{"tunnel-to-provider", "GC05", Severity::high},
        PlantCase{"tunnel-to-provider", "GC11", Severity::high},
        PlantCase{"tool-calls-provider", "GC05", Severity::warning},
        PlantCase{"tunnel-to-other-model", "GC05", Severity::warning},
        PlantCase{"tunnel-to-other-model", "GC05", Severity::warning, HarnessStyle::codex},
        PlantCase{"secret-plain", "GC05", Severity::warning},  // a provider key in tool output
        PlantCase{"double-ingest-lost", "GC06", Severity::high, HarnessStyle::claude_code, fixtures::Ending::restart},
        PlantCase{"wire-after-ingest-lost", "GC06", Severity::high, HarnessStyle::claude_code, fixtures::Ending::restart},
        PlantCase{"tunnel-after-ingest-lost", "GC06", Severity::high, HarnessStyle::claude_code, fixtures::Ending::restart},
        PlantCase{"nonzero-exit", "GC09", Severity::warning}, // A kind a newer recorder may add: a look, never proof (the format allows it).
        PlantCase{"record-after-exit", "GC09", Severity::warning, HarnessStyle::claude_code,
                  fixtures::Ending::sealed, true},
        PlantCase{"slow-seal", "GC09", Severity::warning}, PlantCase{"early-record", "GC10", Severity::warning},
        PlantCase{"early-wire", "GC10", Severity::high},
        PlantCase{"clock-step", "GC10", Severity::warning}, PlantCase{"ack-skew", "GC10", Severity::warning},
        PlantCase{"undeclared-host", "GC11", Severity::high}, PlantCase{"undeclared-path", "GC11", Severity::high},
        PlantCase{"native-line-skip", "GC12", Severity::warning}, PlantCase{"native-dup-uuid", "GC12", Severity::warning},
        PlantCase{"native-orphan", "GC12", Severity::warning}, PlantCase{"native-time-back", "GC12", Severity::info},
        PlantCase{"native-truncated", "GC12", Severity::warning}, PlantCase{"bad-digest", "GC13", Severity::high},
        PlantCase{"bad-size", "GC13", Severity::high}, PlantCase{"bad-redaction", "GC13", Severity::high},
        PlantCase{"secret-plain", "GC02", Severity::high}, PlantCase{"secret-base64", "GC03", Severity::high},
        PlantCase{"secret-uescape", "GC03", Severity::high}, PlantCase{"secret-url", "GC03", Severity::high},
        PlantCase{"secret-sse-split", "GC03", Severity::high}, PlantCase{"secret-header", "GC03", Severity::high},
        PlantCase{"secret-pem", "GC03", Severity::high}, PlantCase{"secret-env-base64", "GC03", Severity::high},
        PlantCase{"secret-json-twice", "GC02", Severity::high}, PlantCase{"secret-db-url", "GC03", Severity::warning},
        PlantCase{"secret-base64-lines", "GC02", Severity::high},
        // Codex traces carry [REDACTED:openai-key] markers: the redactor knows the format.
        PlantCase{"secret-base64", "GC02", Severity::high, HarnessStyle::codex},
        PlantCase{"secret-patch-split", "GC03", Severity::high, HarnessStyle::codex}),
    [](const auto& test) {
      std::string n = std::string(test.param.plant) + "_" + test.param.check +
                      (test.param.style == HarnessStyle::codex ? "_codex" : "");
      std::replace(n.begin(), n.end(), '-', '_');
      return n;
    });

// A finding's seqs are the lowest kMaxSeqs of all added: the same whatever
// order a check adds them in (hash maps iterate differently each run), and
// the first ones when added in order. Every one is counted.
TEST(CheatCheck, SeqListKeepsTheLowestSeqsInAnyOrder) {
  SeqList ascending, scrambled;
  std::vector<uint64_t> seqs(3 * kMaxSeqs);
  for (size_t i = 0; i < seqs.size(); ++i) seqs[i] = 10 + i;
  for (uint64_t s : seqs) ascending.add(s);
  std::reverse(seqs.begin(), seqs.end());
  std::rotate(seqs.begin(), seqs.begin() + 17, seqs.end());
  for (uint64_t s : seqs) scrambled.add(s);
  std::vector<uint64_t> lowest(kMaxSeqs);
  for (size_t i = 0; i < lowest.size(); ++i) lowest[i] = 10 + i;
  EXPECT_EQ(ascending.seqs, lowest);
  std::sort(scrambled.seqs.begin(), scrambled.seqs.end());
  EXPECT_EQ(scrambled.seqs, lowest);
  EXPECT_EQ(ascending.count, 3 * kMaxSeqs);
  EXPECT_EQ(scrambled.count, 3 * kMaxSeqs);
}

// Merging keeps what adding every seq of both would: the lowest kMaxSeqs
// of all, and every one counted (GC13 merges the digests its workers found).
TEST(CheatCheck, SeqListMergeKeepsTheLowestOfBoth) {
  SeqList all, a, b;
  for (uint64_t s = 0; s < 3 * kMaxSeqs; ++s) {
    all.add(s);
    (s % 3 == 0 ? a : b).add(s);
  }
  a.merge(b);
  std::sort(a.seqs.begin(), a.seqs.end());
  std::sort(all.seqs.begin(), all.seqs.end());
  EXPECT_EQ(a.seqs, all.seqs);
  EXPECT_EQ(a.count, all.count);
  SeqList none;
  none.merge(SeqList{});
  EXPECT_TRUE(none.empty());
}

// GC13 hashes stored bodies on the secret scan's workers when it has some:
// the same finding as hashing them on the walking thread, or with no scan.
TEST(CheatCheck, BodyDigestsOnWorkersFindWhatTheWalkingThreadFinds) {
  static const Keyring ring = testing::dev_keyring();
  TraceSpec spec;
  spec.turns = 6;
  const std::string clean = write_trace(spec, "digest-clean").path;
  spec.plants = {"bad-digest"};
  Planted planted = write_trace(spec, "digest-planted");
  auto gc13 = [&](const std::string& path, bool secrets, unsigned workers) {
    CheatOptions opt;
    opt.walk.keyring = &ring;
    opt.secrets = secrets;
    opt.secret_threads = workers;
    std::vector<std::string> out;
    const CheatReport report = check_trace(path, opt);
    for (const Finding* f : of(report, "GC13")) {
      if (f->severity == Severity::high) out.push_back(f->message + " " + ::testing::PrintToString(f->seqs));
    }
    return out;
  };
  const auto in_place = gc13(planted.path, true, 0);
  ASSERT_EQ(in_place.size(), 1u);
  EXPECT_NE(in_place[0].find("sha256 does not match"), std::string::npos) << in_place[0];
  EXPECT_EQ(gc13(planted.path, true, 2), in_place);
  EXPECT_EQ(gc13(planted.path, false, 0), in_place);
  EXPECT_TRUE(gc13(clean, true, 2).empty());

  // A stated digest of another length than any digest_ref() is wrong
  // without hashing, on workers or not (the chain breaks too: no matter).
  std::ifstream in(clean);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const size_t at = text.find("\"sha256\":\"sha256:");
  ASSERT_NE(at, std::string::npos);
  text.insert(at + std::string_view("\"sha256\":\"sha256:").size() + 64, "00");
  const std::string longer = ::testing::TempDir() + "digest-longer.jsonl";
  std::ofstream(longer, std::ios::binary) << text;
  const auto on_workers = gc13(longer, true, 2);
  ASSERT_EQ(on_workers.size(), 1u);
  EXPECT_NE(on_workers[0].find("1 wire record(s) whose sha256 does not match"), std::string::npos) << on_workers[0];
  EXPECT_EQ(gc13(longer, true, 0), on_workers);
}

// Claude Code writes API errors into its log as assistant lines of model
// <synthetic>. They never crossed the wire and are no model answer: GC04
// lists them for reading, and neither GC04 nor GC05 calls them cheating.
// Each check file registers itself; a file the build did not link (or an
// archive the linker picked it out of) would silently drop its check. The
// registry must hold exactly the checks whose files are in checks/, and the
// reports' rules must be verify and GC01..GC13.
TEST(CheatCheck, EveryCheckFileIsLinkedAndRegistered) {
  std::vector<std::string> files;
  for (const auto& e : std::filesystem::directory_iterator(std::string(GOALCUP_SOURCE_DIR) + "/cheatcheck/checks")) {
    const std::string name = e.path().filename().string();
    if (name.size() > 5 && name.starts_with("gc") && name.ends_with(".cc")) files.push_back("GC" + name.substr(2, 2));
  }
  std::sort(files.begin(), files.end());
  std::vector<std::string> registered;
  for (const RegisteredCheck& c : registered_checks()) registered.emplace_back(c.rule.id);
  EXPECT_EQ(registered, files);
  EXPECT_EQ(registered, (std::vector<std::string>{"GC01", "GC04", "GC05", "GC06", "GC07", "GC08", "GC09", "GC10",
                                                  "GC11", "GC12", "GC13"}));
  for (const RegisteredCheck& c : registered_checks()) {
    EXPECT_EQ(c.make()->id(), c.rule.id) << "the factory registered under " << c.rule.id << " makes another check";
    EXPECT_FALSE(c.rule.name.empty() || c.rule.gap.empty() || c.rule.bound.empty() || c.rule.evidence.empty());
  }
  std::vector<std::string> rules;
  for (const GapRule& r : gap_rules()) rules.emplace_back(r.id);
  EXPECT_EQ(rules, (std::vector<std::string>{"verify", "GC01", "GC02", "GC03", "GC04", "GC05", "GC06", "GC07", "GC08",
                                             "GC09", "GC10", "GC11", "GC12", "GC13"}));
  EXPECT_EQ(make_trace_checks().size(), registered.size());
}

TEST(CheatCheck, SyntheticAssistantLinesAreNotModelOutput) {
  TraceSpec spec;
  spec.turns = 4;
  spec.plants = {"synthetic-message"};
  auto r = check(write_trace(spec, "synthetic").path);
  for (const Finding& f : r.findings) {
    EXPECT_FALSE((f.check == "GC04" || f.check == "GC05") && f.severity != Severity::info) << describe(r);
  }
}

TEST(CheatCheck, UnloggedResponsesAreCountedByModel) {
  TraceSpec spec;
  spec.turns = 4;
  spec.plants = {"unlogged-response"};
  auto r = check(write_trace(spec, "unlogged-models").path);
  auto found = of(r, "GC04");
  auto unlogged = std::find_if(found.begin(), found.end(), [](const Finding* f) { return f->severity == Severity::warning; });
  ASSERT_NE(unlogged, found.end()) << describe(r);
  EXPECT_NE((*unlogged)->message.find("(claude-sonnet-4-5-20250929: 1)"), std::string::npos) << (*unlogged)->message;
}

// A Responses answer may hold several message items, and Codex logs each on
// a line of its own: each must match the wire, not only their sum.
TEST(CheatCheck, CodexAnswerOfTwoMessageItemsMatchesItsTwoLines) {
  BuiltTrace t("codex", "api.openai.com", "/v1/responses");
  auto& b = t.b;
  auto wire = [&](const std::string& dir_fields, const std::string& body) {
    std::string q;
    append_json_string(&q, body);
    return b.add("wire", R"({"conn":1,"exchange":0,)" + dir_fields + R"(,"host":"api.openai.com","headers":[],"body":)" + q +
                             R"(,"encoding":"utf8","size":)" + std::to_string(body.size()) + R"(,"sha256":")" +
                             digest_ref(sha256(body)) + R"(","redactions":[],"complete":true})");
  };
  auto event = [](const std::string& type, const std::string& fields) {
    return "event: " + type + "\ndata: {\"type\":\"" + type + "\"," + fields + "}\n\n";
  };
  wire(R"("dir":"request","method":"POST","path":"/v1/responses")", R"({"model":"gpt-5-codex","input":[]})");
  wire(R"("dir":"response","status":200)",
       event("response.created", R"("response":{"id":"resp_1","model":"gpt-5-codex"})") +
           event("response.output_text.delta", R"("output_index":0,"delta":"First, a look.")") +
           event("response.output_text.delta", R"("output_index":1,"delta":"Then the answer.")") +
           event("response.completed", R"("response":{"id":"resp_1","status":"completed"})"));
  for (const char* text : {"First, a look.", "Then the answer."}) {
    std::string q;
    append_json_string(&q, std::string(R"({"type":"response_item","payload":{"type":"message","role":"assistant",)") +
                               R"("content":[{"type":"output_text","text":")" + text + R"("}]}})");
    b.add("native", R"({"source":"codex","file":"rollout.jsonl","line_no":1,"text":)" + q + "}");
  }
  auto r = check(t.close("two-items.jsonl"));
  EXPECT_VERDICT(r.verify, Verdict::verified);
  for (const Finding* f : of(r, "GC04")) EXPECT_NE(f->severity, Severity::high) << describe(r);
}

// A Codex answer the recorder stored redacted (its body lists the span)
// matches the line that keeps the secret; the same marker in a body that
// lists no span is text the answer carried, so a log putting a key in its
// place logged words the model never sent: high in GC04 and GC05 alike.
TEST(CheatCheck, ARedactionMarkerStandsForASecretOnlyWhereTheRecorderListsIt) {
  const std::string key = "sk-ant-api03-" + std::string(40, 'x');
  for (const bool listed : {true, false}) {
    SCOPED_TRACE(listed ? "spans listed" : "no span listed");
    BuiltTrace t("codex", "api.openai.com", "/v1/responses");
    auto& b = t.b;
    auto wire = [&](const std::string& dir_fields, const std::string& body) {
      std::string q;
      append_json_string(&q, body);
      const size_t at = body.find("[REDACTED:");
      const std::string spans = listed && at != std::string::npos
                                    ? R"([{"offset":)" + std::to_string(at) + R"(,"length":24,"rule":"anthropic-key"}])"
                                    : "[]";
      return b.add("wire", R"({"conn":1,"exchange":0,)" + dir_fields + R"(,"host":"api.openai.com","headers":[],"body":)" +
                               q + R"(,"encoding":"utf8","size":)" + std::to_string(body.size()) + R"(,"sha256":")" +
                               digest_ref(sha256(body)) + R"(","redactions":)" + spans + R"(,"complete":true})");
    };
    wire(R"("dir":"request","method":"POST","path":"/v1/responses")", R"({"model":"gpt-5-codex","input":[]})");
    wire(R"("dir":"response","status":200)",
         "event: response.created\ndata: {\"type\":\"response.created\",\"response\":{\"id\":\"resp_1\",\"model\":\"gpt-5-codex\"}}\n\n"
         "event: response.output_text.delta\ndata: {\"type\":\"response.output_text.delta\",\"output_index\":0,"
         "\"delta\":\"Key [REDACTED:anthropic-key] rotated.\"}\n\n"
         "event: response.completed\ndata: {\"type\":\"response.completed\",\"response\":{\"id\":\"resp_1\",\"status\":\"completed\"}}\n\n");
    std::string q;
    append_json_string(&q, R"({"type":"response_item","payload":{"type":"message","role":"assistant","content":[{"type":"output_text","text":"Key )" +
                               key + R"( rotated."}]}})");
    b.add("native", R"({"source":"codex","file":"rollout.jsonl","line_no":1,"text":)" + q + "}");
    const CheatReport r = check(t.close("redaction-listed.jsonl"));
    EXPECT_VERDICT(r.verify, Verdict::verified);
    for (const char* id : {"GC04", "GC05"}) {
      const auto found = of(r, id);
      const bool high = std::any_of(found.begin(), found.end(), [](const Finding* f) { return f->severity == Severity::high; });
      EXPECT_EQ(high, !listed) << id << "\n" << describe(r);
    }
  }
}

// A wire record with a body stored as `stored`, `size` long as received.
std::string stored_wire(const std::string& dir_fields, const std::string& host, const std::string& stored, size_t size,
                        bool complete) {
  std::string q;
  append_json_string(&q, stored);
  return R"({"conn":1,"exchange":0,)" + dir_fields + R"(,"host":")" + host + R"(","headers":[],"body":)" + q +
         R"(,"encoding":"utf8","size":)" + std::to_string(size) + R"(,"sha256":")" + digest_ref(sha256(stored)) +
         R"(","redactions":[],"complete":)" + (complete ? "true" : "false") + "}";
}

bool any_high(const CheatReport& r, std::string_view check_id) {
  const auto found = of(r, check_id);
  return std::any_of(found.begin(), found.end(), [](const Finding* f) { return f->severity == Severity::high; });
}

bool has_key_word(const CheatReport& r, std::string_view check_id, Severity severity, std::string_view word) {
  const auto found = of(r, check_id);
  return std::any_of(found.begin(), found.end(), [&](const Finding* f) {
    return f->severity == severity && f->message.find(word) != std::string::npos;
  });
}

// A response the recorder cut at its size cap (complete false, size past
// the stored bytes) reached the harness whole: a logged answer that starts
// with what was stored is not judged past the cap (a warning), one that
// does not is still high, and so is a longer answer to a stream that broke
// (size no more than stored: the harness got no more either).
TEST(CheatCheck, AnAnswerCutAtTheCapIsHeldToItsStoredPrefix) {
  struct Case {
    const char* name;
    const char* logged;
    bool cap;  // size past the stored bytes
    bool high;
  };
  const Case cases[] = {{"prefix", "First part of a long answer, and the rest.", true, false},
                        {"other", "Something the stream never began with.", true, true},
                        {"broken", "First part of a long answer, and the rest.", false, true}};
  for (const Case& c : cases) {
    for (const bool codex : {true, false}) {
      SCOPED_TRACE(std::string(c.name) + (codex ? " codex" : " claude-code"));
      const std::string host = codex ? "api.openai.com" : "api.anthropic.com";
      BuiltTrace t(codex ? "codex" : "claude-code", host, codex ? "/v1/responses" : "/v1/messages");
      auto& b = t.b;
      const std::string request = R"({"model":"m","stream":true,"input":[]})";
      b.add("wire", stored_wire(R"("dir":"request","method":"POST","path":")" + std::string(codex ? "/v1/responses" : "/v1/messages") + "\"",
                                host, request, request.size(), true));
      const std::string stream =
          codex ? "event: response.created\ndata: {\"type\":\"response.created\",\"response\":{\"id\":\"resp_1\",\"model\":\"m\"}}\n\n"
                  "event: response.output_text.delta\ndata: {\"type\":\"response.output_text.delta\",\"output_index\":0,"
                  "\"delta\":\"First part of a long\"}\n\nevent: response.output_text.delta\ndata: {\"type\":\"resp"
                : "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"id\":\"msg_1\",\"model\":\"m\","
                  "\"role\":\"assistant\",\"content\":[]}}\n\nevent: content_block_start\ndata: {\"type\":\"content_block_start\","
                  "\"index\":0,\"content_block\":{\"type\":\"text\",\"text\":\"\"}}\n\nevent: content_block_delta\ndata: "
                  "{\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"First part of a long\"}}"
                  "\n\nevent: content_block_delta\ndata: {\"type\":\"conte";
      b.add("wire", stored_wire(R"("dir":"response","status":200)", host, stream, stream.size() + (c.cap ? 5000 : 0), false));
      std::string q;
      append_json_string(&q, codex ? std::string(R"({"type":"response_item","payload":{"type":"message","role":"assistant",)") +
                                         R"("content":[{"type":"output_text","text":")" + c.logged + R"("}]}})"
                                   : std::string(R"({"type":"assistant","uuid":"u1","sessionId":"s","message":{"id":"msg_1",)") +
                                         R"("type":"message","role":"assistant","model":"m","content":[{"type":"text","text":")" +
                                         c.logged + R"("}]}})");
      b.add("native", std::string(R"({"source":")") + (codex ? "codex" : "claude-code") +
                          R"(","file":"s.jsonl","line_no":1,"text":)" + q + "}");
      const CheatReport r = check(t.close(std::string("cap-cut-") + c.name + ".jsonl"));
      EXPECT_VERDICT(r.verify, Verdict::verified);
      EXPECT_EQ(any_high(r, "GC04") || any_high(r, "GC05"), c.high) << describe(r);
      if (!c.high) {
        EXPECT_TRUE(has_key_word(r, "GC04", Severity::warning, "size cap")) << describe(r);
      }
      if (!c.high && codex) {
        EXPECT_TRUE(has_key_word(r, "GC05", Severity::warning, "size cap")) << describe(r);
      }
    }
  }
}

// Codex logs a message item with no words as streamed: such a line names no
// answer and claims none, so it is no answer from outside the proxy.
TEST(CheatCheck, AnEmptyCodexMessageClaimsNoAnswer) {
  for (const bool empty : {true, false}) {
    SCOPED_TRACE(empty ? "empty" : "words");
    BuiltTrace t("codex", "api.openai.com", "/v1/responses");
    auto& b = t.b;
    const std::string request = R"({"model":"m","input":[]})";
    b.add("wire", stored_wire(R"("dir":"request","method":"POST","path":"/v1/responses")", "api.openai.com", request,
                              request.size(), true));
    const std::string stream =
        "event: response.created\ndata: {\"type\":\"response.created\",\"response\":{\"id\":\"resp_1\",\"model\":\"m\"}}\n\n"
        "event: response.output_text.done\ndata: {\"type\":\"response.output_text.done\",\"output_index\":0,\"text\":\"\"}\n\n"
        "event: response.completed\ndata: {\"type\":\"response.completed\",\"response\":{\"id\":\"resp_1\",\"status\":\"completed\"}}\n\n";
    b.add("wire", stored_wire(R"("dir":"response","status":200)", "api.openai.com", stream, stream.size(), true));
    std::string q;
    append_json_string(&q, std::string(R"({"type":"response_item","payload":{"type":"message","role":"assistant",)") +
                               R"("content":[{"type":"output_text","text":")" + (empty ? " " : "Words never streamed.") +
                               R"("}]}})");
    b.add("native", R"({"source":"codex","file":"rollout.jsonl","line_no":1,"text":)" + q + "}");
    const CheatReport r = check(t.close("empty-codex-message.jsonl"));
    EXPECT_VERDICT(r.verify, Verdict::verified);
    EXPECT_EQ(any_high(r, "GC05"), !empty) << describe(r);
  }
}

// Codex's TUI names each new thread by asking the model on a hidden
// ephemeral thread (codex-rs/tui thread titles, built as its public source
// builds them): no tools, no earlier turn, Codex's title instructions as the
// last user text, a one-member {"title"} JSON schema as text.format. Codex
// keeps the answer as the thread's name, never in a rollout: a title
// answering that request is no unlogged answer. A real answer, a tool call
// or a request with history dressed as a title exchange still is one.
namespace codex_title {

std::string event(const std::string& type, const std::string& fields) {
  return "event: " + type + "\ndata: {\"type\":\"" + type + "\"," + fields + "}\n\n";
}

std::string quoted(const std::string& text) {
  std::string q;
  append_json_string(&q, text);
  return q;
}

// An answer of one message item saying `text` (and `extra_items`, finished
// output items, after it).
std::string answer(const std::string& id, const std::string& text, const std::string& extra_items = "") {
  return event("response.created", R"("response":{"id":")" + id + R"(","model":"gpt-5-codex"})") +
         event("response.output_item.added", R"("output_index":0,"item":{"id":"msg_)" + id +
                                                  R"(","type":"message","role":"assistant","content":[]})") +
         event("response.output_text.delta", R"("output_index":0,"content_index":0,"delta":)" + quoted(text)) +
         event("response.output_item.done", R"("output_index":0,"item":{"id":"msg_)" + id +
                                                 R"(","type":"message","role":"assistant","content":[{"type":"output_text","text":)" +
                                                 quoted(text) + "}]}") +
         extra_items + event("response.completed", R"("response":{"id":")" + id + R"(","status":"completed"})");
}

const std::string kInstructions =
    "Generate a concise, single-line task title of at most 36 characters and under five words where possible. "
    "Start with an imperative verb. Do not use quotes, markdown, or trailing punctuation. Do not answer the request.";

std::string message(const std::string& role, const std::string& text) {
  return R"({"type":"message","role":")" + role + R"(","content":[{"type":"input_text","text":)" + quoted(text) + "}]}";
}

// Codex's title request: its instructions, the thread's context, the title
// prompt (after `history`, which Codex never sends there), `tools`.
std::string request(const std::string& prompt, const std::string& history = "", const std::string& tools = "[]") {
  const std::string schema =
      R"({"type":"json_schema","strict":true,"name":"codex_output_schema","schema":{"type":"object","properties":)"
      R"({"title":{"type":"string","minLength":1,"maxLength":36}},"required":["title"],"additionalProperties":false}})";
  return R"({"model":"gpt-5-codex","stream":true,"input":[)" + message("developer", "You are Codex, a coding agent.") + "," +
         message("user", "<environment_context>\n  <cwd>/work</cwd>\n</environment_context>") + "," + history +
         message("user", prompt) + R"(],"tools":)" + tools +
         R"(,"tool_choice":"auto","parallel_tool_calls":true,"store":false,"text":{"format":)" + schema + "}}";
}

const std::string kTitlePrompt = kInstructions + "\n\nUser prompt:\nFix the flaky parser test.";

// A wire record of exchange `exchange` to api.openai.com (`dir_fields`:
// its direction's own members), holding `body` as sent.
void add_wire(fixtures::TraceBuilder& b, int exchange, const std::string& dir_fields, const std::string& body) {
  b.add("wire", R"({"conn":1,"exchange":)" + std::to_string(exchange) + "," + dir_fields +
                    R"(,"host":"api.openai.com","headers":[],"body":)" + quoted(body) + R"(,"encoding":"utf8","size":)" +
                    std::to_string(body.size()) + R"(,"sha256":")" + digest_ref(sha256(body)) +
                    R"(","redactions":[],"complete":true})");
}

}  // namespace codex_title

TEST(CheatCheck, CodexThreadTitleAnswersAreAccountedForOnlyWhenTheyAreTitles) {
  using namespace codex_title;
  const std::string call_item = event(
      "response.output_item.done",
      R"("output_index":1,"item":{"id":"fc_1","type":"function_call","call_id":"call_1","name":"shell","arguments":"{\"command\":[\"ls\"]}"})");
  const std::string tool = R"([{"type":"function","name":"shell","parameters":{"type":"object"}}])";
  const std::string earlier = R"({"type":"message","role":"assistant","content":[{"type":"output_text","text":"Done."}]},)"
                              R"({"type":"function_call_output","call_id":"call_0","output":"ok"},)";
  struct Case {
    const char* name;
    std::string request, answer;
    bool title;
  };
  const Case cases[] = {
      {"title", request(kTitlePrompt), answer("resp_t", R"({"title":"Fix flaky parser test"})"), true},
      {"rename suggestion", request(kInstructions + "\nRecent conversation messages:\n<conversation>\n</conversation>"),
       answer("resp_t", R"({ "title": "Fix flaky parser test" })"), true},
      {"real answer", request(kTitlePrompt), answer("resp_t", "The parser test fails because the fixture is stale; "
                                                               "here is the whole fix, step by step."), false},
      {"tool call", request(kTitlePrompt), answer("resp_t", R"({"title":"Fix flaky parser test"})", call_item), false},
      {"long title", request(kTitlePrompt), answer("resp_t", R"({"title":")" + std::string(120, 'x') + R"("})"), false},
      {"two lines", request(kTitlePrompt), answer("resp_t", R"({"title":"Fix it\nthen run rm -rf"})"), false},
      {"more members", request(kTitlePrompt), answer("resp_t", R"({"title":"Fix it","answer":"42"})"), false},
      {"history", request(kTitlePrompt, earlier), answer("resp_t", R"({"title":"Fix flaky parser test"})"), false},
      {"tools", request(kTitlePrompt, "", tool), answer("resp_t", R"({"title":"Fix flaky parser test"})"), false},
      {"other prompt", request("Fix the flaky parser test."), answer("resp_t", R"({"title":"Fix flaky parser test"})"), false},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    BuiltTrace t("codex", "api.openai.com", "/v1/responses");
    auto& b = t.b;
    auto wire = [&](int exchange, const std::string& dir_fields, const std::string& body) { add_wire(b, exchange, dir_fields, body); };
    const std::string post = R"("dir":"request","method":"POST","path":"/v1/responses")";
    // The thread's own turn, logged.
    wire(0, post, R"({"model":"gpt-5-codex","stream":true,"input":[)" + message("user", "Fix the flaky parser test.") + "]}");
    wire(0, R"("dir":"response","status":200)", answer("resp_1", "Fixed."));
    wire(1, post, c.request);
    wire(1, R"("dir":"response","status":200)", c.answer);
    int line_no = 0;
    for (const std::string& line : {R"({"type":"response_item","payload":)" + message("user", "Fix the flaky parser test.") + "}",
                                    std::string(R"({"type":"response_item","payload":{"type":"message","role":"assistant",)"
                                                R"("content":[{"type":"output_text","text":"Fixed."}]}})")}) {
      b.add("native", R"({"source":"codex","file":"rollout.jsonl","line_no":)" + std::to_string(++line_no) +
                          R"(,"text":)" + quoted(line) + "}");
    }
    const CheatReport r = check(t.close("codex-title-" + std::to_string(&c - cases) + ".jsonl"));
    EXPECT_VERDICT(r.verify, Verdict::verified);
    EXPECT_EQ(has_key_word(r, "GC04", Severity::warning, "never logged by the harness"), !c.title) << describe(r);
    EXPECT_EQ(has_key_word(r, "GC04", Severity::info, "thread titles"), c.title) << describe(r);
    if (c.title) {
      for (const Finding& f : r.findings) EXPECT_EQ(f.severity, Severity::info) << describe(r);
    }
    // The call a "title" answer made is still one the log must show.
    if (std::string_view(c.name) == "tool call") {
      EXPECT_TRUE(any_high(r, "GC04")) << describe(r);
    }
  }
}

// Codex asks for one title per thread (on its first user message, while the
// thread has no name): title answers are accounted for up to the threads
// the rollouts log (each rollout that logs a prompt, as its session_meta's
// id), the first ones on the wire. More title exchanges than threads may be
// questions hidden as titles, 80 characters at a time: they stay unlogged.
TEST(CheatCheck, CodexThreadTitlesAreAccountedForAtMostOncePerThread) {
  using namespace codex_title;
  struct Case {
    const char* name;
    int titles;
    std::vector<std::string> rollouts;  // each rollout's session id ("" for no session_meta line)
    int accounted;
  };
  const Case cases[] = {
      {"one thread, one title", 1, {"s1"}, 1},
      {"two threads, two titles", 2, {"s1", "s2"}, 2},
      {"a rollout without session_meta", 1, {""}, 1},
      {"one thread, five titles", 5, {"s1"}, 1},
      {"one thread in two rollouts, two titles", 2, {"s1", "s1"}, 1},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    BuiltTrace t("codex", "api.openai.com", "/v1/responses");
    auto& b = t.b;
    auto wire = [&](int exchange, const std::string& dir_fields, const std::string& body) { add_wire(b, exchange, dir_fields, body); };
    const std::string post = R"("dir":"request","method":"POST","path":"/v1/responses")";
    int exchange = 0;
    for (size_t i = 0; i < c.rollouts.size(); ++i) {
      const std::string prompt = "Fix the flaky parser test " + std::to_string(i) + ".";
      wire(exchange, post, R"({"model":"gpt-5-codex","stream":true,"input":[)" + message("user", prompt) + "]}");
      wire(exchange++, R"("dir":"response","status":200)", answer("resp_" + std::to_string(i), "Fixed " + std::to_string(i) + "."));
      const std::string file = "rollout-" + std::to_string(i) + ".jsonl";
      std::vector<std::string> lines;
      if (!c.rollouts[i].empty()) {
        lines.push_back(R"({"type":"session_meta","payload":{"id":")" + c.rollouts[i] + R"(","cli_version":"0.171.0"}})");
      }
      lines.push_back(R"({"type":"response_item","payload":)" + message("user", prompt) + "}");
      lines.push_back(R"({"type":"response_item","payload":{"type":"message","role":"assistant","content":[{"type":"output_text","text":"Fixed )" +
                      std::to_string(i) + R"(."}]}})");
      int line_no = 0;
      for (const std::string& line : lines) {
        b.add("native", R"({"source":"codex","file":")" + file + R"(","line_no":)" + std::to_string(++line_no) +
                            R"(,"text":)" + quoted(line) + "}");
      }
    }
    for (int i = 0; i < c.titles; ++i) {
      wire(exchange, post, request(kInstructions + "\n\nUser prompt:\nQuestion " + std::to_string(i)));
      wire(exchange++, R"("dir":"response","status":200)", answer("resp_t" + std::to_string(i), R"({"title":"Answer )" + std::to_string(i) + R"("})"));
    }
    const CheatReport r = check(t.close("codex-titles-" + std::to_string(&c - cases) + ".jsonl"));
    EXPECT_VERDICT(r.verify, Verdict::verified);
    EXPECT_TRUE(has_key_word(r, "GC04", Severity::info, std::to_string(c.accounted) + " wire response(s) are Codex's thread titles"))
        << describe(r);
    const int hidden = c.titles - c.accounted;
    EXPECT_EQ(has_key_word(r, "GC04", Severity::warning, std::to_string(hidden) + " wire response(s) were never logged by the harness"),
              hidden > 0)
        << describe(r);
    EXPECT_EQ(has_key_word(r, "GC04", Severity::warning, "never logged by the harness"), hidden > 0) << describe(r);
  }
}

// Tool output that runs a client against a provider's host is a warning,
// one that only names a host is listed: hosts are found without regard to
// case, also where one straddles the 64 KiB windows the search lowercases,
// and text that only holds "api" names no host.
TEST(CheatCheck, ToolOutputNamingProviderHostsInAnyCaseAndPlace) {
  BuiltTrace t;
  auto& b = t.b;
  auto tool_output = [&](const std::string& output) {
    std::string q;
    append_json_string(&q, R"({"type":"user","message":{"role":"user","content":")" + output + R"("}})");
    return b.add("native", R"({"source":"claude-code","file":"s.jsonl","line_no":1,"text":)" + q + "}");
  };
  // The host starts 5 bytes before the second window (which overlaps the
  // first by a host's length) in the native line, the text searched.
  const std::string head = R"({"type":"user","message":{"role":"user","content":")";
  const std::string call = "curl -s https://API.OpenAI.COM/v1/responses";
  const std::string pad(65536 - 5 - head.size() - std::string("curl -s https://").size(), 'x');
  const uint64_t called = tool_output(pad + call);
  const uint64_t mentioned = tool_output("see https://generativelanguage.GoogleApis.com/v1 for the docs");
  tool_output("a rapid api for capital letters, apiary and openrouter.ai without its path");
  auto r = check(t.close("tool-output-hosts.jsonl"));
  std::vector<std::pair<Severity, std::vector<uint64_t>>> hosts;
  for (const Finding* f : of(r, "GC05")) {
    if (f->message.find("Tool output") == std::string::npos) continue;
    hosts.emplace_back(f->severity, f->seqs);
    const bool openai = f->message.find("api.openai.com") != std::string::npos;
    EXPECT_TRUE(openai || f->message.find("generativelanguage.googleapis.com") != std::string::npos) << f->message;
    EXPECT_EQ(f->severity, openai ? Severity::warning : Severity::info) << f->message;
  }
  EXPECT_EQ(hosts, (std::vector<std::pair<Severity, std::vector<uint64_t>>>{{Severity::warning, {called}},
                                                                            {Severity::info, {mentioned}}}))
      << describe(r);
}

// A request body nested past every bound (1,024 levels: no harness writes
// one) is a high finding naming it, not a check quietly switched off; a
// judge who raises --max-depth past it has it read.
TEST(CheatCheck, ARequestBodyNestedPastTheBoundsIsHigh) {
  TraceSpec spec;
  spec.plants = {"deep-request"};
  const Planted p = write_trace(spec, "deep-request");
  static const Keyring ring = testing::dev_keyring();
  auto run = [&](uint32_t max_depth) {
    CheatOptions opt;
    opt.walk.keyring = &ring;
    opt.walk.limits.max_depth = max_depth;
    return check_trace(p.path, opt);
  };
  auto past_limits = [](const CheatReport& r) {
    return std::any_of(r.findings.begin(), r.findings.end(), [](const Finding& f) {
      return f.check == "GC04" && f.severity == Severity::high && f.message.find("limit_nesting") != std::string::npos;
    });
  };
  const CheatReport deep = run(Limits{}.max_depth);
  EXPECT_EQ(deep.verify.verdict, Verdict::verified) << describe(deep);
  EXPECT_TRUE(past_limits(deep)) << describe(deep);
  EXPECT_EQ(of(deep, "GC04").front()->seqs, std::vector<uint64_t>{p.written.seqs_of("deep-request").at(0)});
  const CheatReport raised = run(2048);
  EXPECT_EQ(raised.verify.verdict, Verdict::verified) << describe(raised);
  EXPECT_FALSE(past_limits(raised)) << describe(raised);
}

TEST(CheatCheck, HostsCompareAsDnsNames) {
  EXPECT_TRUE(same_host("api.anthropic.com", "API.Anthropic.com"));
  EXPECT_TRUE(same_host("api.anthropic.com", "api.anthropic.com:443"));
  // A tunnel to "api.anthropic.com." went to the provider all the same.
  EXPECT_TRUE(same_host("api.anthropic.com", "api.anthropic.com."));
  EXPECT_TRUE(same_host("api.anthropic.com", "API.Anthropic.com.:443"));
  EXPECT_FALSE(same_host("api.anthropic.com", "api.anthropic.com.."));
  EXPECT_FALSE(same_host("api.anthropic.com", "api.anthropic.com:8443"));
  EXPECT_FALSE(same_host("api.anthropic.com", "api.anthropic.co"));
  // A name under a domain, by whole labels.
  EXPECT_TRUE(in_domain("my-east.OpenAI.Azure.com.:443", "openai.azure.com"));
  EXPECT_TRUE(in_domain("openai.azure.com", "openai.azure.com"));
  EXPECT_FALSE(in_domain("notopenai.azure.com", "openai.azure.com"));
  EXPECT_FALSE(in_domain("openai.azure.com.evil.net", "openai.azure.com"));
  EXPECT_FALSE(same_host("api.anthropic.com", "evil-api.anthropic.com"));
  EXPECT_FALSE(same_host(std::string_view("a\0b", 3), std::string_view("a\0c", 3)));
}

// The launch's decrypt rules are looked up by an index built once (a
// crafted launch can list 500,000 hosts, and every wire record looks its
// host up): it must say what same_host() says, the last rule naming a host
// winning as before.
TEST(CheatCheck, DecryptRulesAreFoundAsSameHostFindsThem) {
  LaunchFacts l;
  l.decrypt = {{"api.anthropic.com", {"/v1/messages"}}, {"chatgpt.com.", {}}, {"API.Anthropic.com:443", {"/v1/complete"}}};
  l.index_decrypt();
  const std::vector<std::string_view> hosts{"api.anthropic.com", "API.Anthropic.com.:443", "api.anthropic.com..",
                                            "api.anthropic.com:8443", "chatgpt.com", "CHATGPT.COM:443", "evil-api.anthropic.com",
                                            std::string_view("a\0b", 3)};
  for (const std::string_view host : hosts) {
    const DecryptRule* linear = nullptr;
    for (const auto& d : l.decrypt) {
      if (same_host(d.host, host)) linear = &d;
    }
    EXPECT_EQ(l.decrypt_rule(host), linear) << host;
  }
  const DecryptRule* anthropic = l.decrypt_rule("api.anthropic.com");
  ASSERT_NE(anthropic, nullptr);
  EXPECT_TRUE(l.path_listed(*anthropic, "/v1/complete"));
  EXPECT_FALSE(l.path_listed(*anthropic, "/v1/messages"));  // the first rule's, overridden by the last
  EXPECT_TRUE(l.decrypt_listed("chatgpt.com"));
  EXPECT_FALSE(l.decrypt_listed("example.com"));
}

// The format lists the paths a recorder retains without saying whether
// they are exact or prefixes: a request under a listed path (a token count
// under /v1/messages) is a warning, one beside it a high finding.
TEST(CheatCheck, GC11RequestUnderADeclaredPathIsAWarningBesideItHigh) {
  BuiltTrace t;
  auto& b = t.b;
  uint64_t exchange = 0;
  auto request = [&](const std::string& path) {
    return b.add("wire", testing::wire_body_json(exchange++, R"("dir":"request","method":"POST","path":")" + path + "\"",
                                                 "api.anthropic.com", R"({"model":"m","messages":[]})", "[]"));
  };
  request("/v1/messages?beta=true");
  const uint64_t under = request("/v1/messages/count_tokens?beta=true");
  const uint64_t beside = request("/v1/messagesX");
  auto r = check(t.close("gc11-paths.jsonl"));
  std::vector<std::pair<Severity, std::vector<uint64_t>>> paths;
  for (const Finding* f : of(r, "GC11")) paths.emplace_back(f->severity, f->seqs);
  EXPECT_EQ(paths, (std::vector<std::pair<Severity, std::vector<uint64_t>>>{{Severity::high, {beside}},
                                                                            {Severity::warning, {under}}}))
      << describe(r);
  const DecryptRule rule{"h", {"/v1/messages"}};
  EXPECT_TRUE(LaunchFacts::path_under_listed(rule, "/v1/messages/batches"));
  EXPECT_FALSE(LaunchFacts::path_under_listed(rule, "/v1/messages"));
  EXPECT_FALSE(LaunchFacts::path_under_listed(rule, "/v1/messages2"));
  EXPECT_TRUE(LaunchFacts::path_under_listed(DecryptRule{"h", {"/v1/"}}, "/v1/messages"));
  EXPECT_TRUE(LaunchFacts::path_under_listed(DecryptRule{"h", {"/"}}, "/v1"));
}

// A tunnel to a provider written as an address, or with another port, is
// still traffic the proxy could not read (red-team 14 #5): an address is a
// warning (which service it reached cannot be told), a declared host on any
// port high; a tunnel to a package registry says nothing.
TEST(CheatCheck, GC05TunnelsByAddressOrPortAreNotMissed) {
  BuiltTrace t;
  const uint64_t v4 = t.add_tunnel("160.79.104.10"), v6 = t.add_tunnel("[2607:6bc0::10]:443"), bare_v6 = t.add_tunnel("2607:6bc0::10");
  const uint64_t other_port = t.add_tunnel("api.anthropic.com:8443");
  t.add_tunnel("registry.npmjs.org");
  auto r = check(t.close("tunnel-forms.jsonl"));
  std::vector<std::pair<Severity, std::vector<uint64_t>>> gc05;
  for (const Finding* f : of(r, "GC05")) gc05.emplace_back(f->severity, f->seqs);
  EXPECT_EQ(gc05, (std::vector<std::pair<Severity, std::vector<uint64_t>>>{
                      {Severity::high, {other_port}}, {Severity::warning, {v4}}, {Severity::warning, {v6}},
                      {Severity::warning, {bare_v6}}}))
      << describe(r);
  ASSERT_EQ(of(r, "GC11").size(), 1u) << describe(r);
  EXPECT_EQ(of(r, "GC11")[0]->seqs, std::vector<uint64_t>{other_port});
  EXPECT_EQ(without_port("[::1]:8080"), "::1");
  EXPECT_EQ(without_port("h:443"), "h");
  EXPECT_FALSE(ip_literal("api.anthropic.com"));
  EXPECT_FALSE(ip_literal("1.2.3.example"));
  // getaddrinfo() reads these as 160.79.104.10 (inet_aton), and so as one.
  for (const char* form : {"2689558538", "0xa04f680a", "160.79.26634", "0240.0117.0150.012", "160.79.104.10.", "1.2.3"}) {
    EXPECT_TRUE(ip_literal(form)) << form;
  }
}

// The command a tool call ran is where a call to a provider shows, not
// only its output (which may be the provider's JSON, naming no host).
TEST(CheatCheck, GC05ReadsTheCommandsToolCallsRan) {
  BuiltTrace t;
  auto& b = t.b;
  auto call = [&](const std::string& id, const std::string& command) {
    std::string q;
    append_json_string(&q, R"({"type":"assistant","uuid":")" + id + R"(","message":{"id":"msg_)" + id +
                               R"(","role":"assistant","model":"m","content":[{"type":"tool_use","id":"toolu_)" + id +
                               R"(","name":"Bash","input":{"command":")" + command + R"("}}]}})");
    return b.add("native", R"({"source":"claude-code","file":"s.jsonl","line_no":1,"text":)" + q + "}");
  };
  const uint64_t curl = call("1", "curl -s https://api.openai.com/v1/chat/completions -H 'Authorization: Bearer '$KEY");
  call("2", "grep -rn api.openai.com src/");
  auto r = check(t.close("command-calls-provider.jsonl"));
  bool named = false;
  for (const Finding* f : of(r, "GC05")) {
    if (f->message.find("command") == std::string::npos) continue;
    EXPECT_EQ(f->severity, Severity::warning);
    EXPECT_EQ(f->seqs, std::vector<uint64_t>{curl}) << describe(r);
    named = true;
  }
  EXPECT_TRUE(named) << describe(r);
}

// Vertex AI serves each region under its own name ({region}-aiplatform,
// not under aiplatform.googleapis.com) and Bedrock has FIPS names: tunnels
// to them are model traffic too. Look-alike names are not.
TEST(CheatCheck, GC05KnowsRegionalAndFipsModelHosts) {
  BuiltTrace t;
  std::vector<uint64_t> models;
  for (const char* host : {"us-east5-aiplatform.googleapis.com", "EUROPE-WEST1-aiplatform.googleapis.com.",
                           "bedrock-runtime-fips.us-east-1.amazonaws.com", "bedrock-runtime.us-west-2.amazonaws.com",
                           "chatgpt.com"}) {
    models.push_back(t.add_tunnel(host));
  }
  for (const char* host : {"aiplatform.googleapis.com.evil.example", "storage.googleapis.com", "-aiplatform.googleapis.com",
                           "bedrock-runtime-fipsx.us-east-1.amazonaws.com", "s3.amazonaws.com"}) {
    t.add_tunnel(host);
  }
  auto r = check(t.close("model-host-forms.jsonl"));
  std::vector<uint64_t> flagged;
  for (const Finding* f : of(r, "GC05")) {
    EXPECT_EQ(f->severity, Severity::warning) << describe(r);
    flagged.insert(flagged.end(), f->seqs.begin(), f->seqs.end());
  }
  std::sort(flagged.begin(), flagged.end());
  EXPECT_EQ(flagged, models) << describe(r);
}

// A stored body the format describes by its digest: one without (absent or
// null sha256) is said; a record without a body is a warning.
TEST(CheatCheck, GC13SaysAStoredBodyHasNoDigest) {
  for (const std::string& digest :
       std::vector<std::string>{"", R"(,"sha256":null)", R"(,"sha256":"sha256:)" + std::string(64, '0') + "\""}) {
    SCOPED_TRACE(digest);
    BuiltTrace t;
    const std::string request = R"({"model":"m","messages":[]})";
    std::string q;
    append_json_string(&q, request);
    const uint64_t seq = t.b.add("wire", R"({"conn":1,"exchange":0,"dir":"request","method":"POST","path":"/v1/messages",)"
                                         R"("host":"api.anthropic.com","headers":[],"body":)" + q +
                                             R"(,"encoding":"utf8","size":)" + std::to_string(request.size()) + digest +
                                             R"(,"redactions":[],"complete":true})");
    const uint64_t no_body = t.b.add("wire", R"({"conn":1,"exchange":1,"dir":"request","method":"POST","path":"/v1/messages",)"
                                             R"("host":"api.anthropic.com","headers":[],"body":null,"encoding":"utf8",)"
                                             R"("size":10,"redactions":[],"complete":true})");
    const CheatReport r = check(t.close("no-digest.jsonl"));
    bool high_at = false, body_warned = false;
    for (const Finding* f : of(r, "GC13")) {
      high_at |= f->severity == Severity::high && f->seqs == std::vector<uint64_t>{seq};
      body_warned |= f->severity == Severity::warning && f->seqs == std::vector<uint64_t>{no_body};
    }
    EXPECT_TRUE(high_at) << describe(r);  // the zero digest does not match either
    EXPECT_TRUE(body_warned) << describe(r);
  }
}

// A request stored cut at the cap is no whole JSON: the model it names
// before the cut is judged all the same, and the request is listed.
TEST(CheatCheck, GC13ReadsTheModelOfARequestCutAtTheCap) {
  const auto parsed = parse_policy(R"({"models": ["claude-sonnet-4-5"]})");
  ASSERT_TRUE(parsed.ok());
  const Policy& policy = *parsed;
  for (const std::string model : {"claude-opus-4-1", "claude-sonnet-4-5"}) {
    SCOPED_TRACE(model);
    BuiltTrace t;
    const std::string stored = R"({"max_tokens":32000,"metadata":{"user_id":"u, \"x\" {"},"model":")" + model +
                               R"(","messages":[{"role":"user","content":"a very long)";
    const uint64_t seq = t.b.add("wire", stored_wire(R"("dir":"request","method":"POST","path":"/v1/messages")",
                                                     "api.anthropic.com", stored, stored.size() + 100000, false));
    const CheatReport r = check(t.close("cut-request-model.jsonl"), &policy);
    const bool disallowed = model == "claude-opus-4-1";
    EXPECT_EQ(any_high(r, "GC13"), disallowed) << describe(r);
    EXPECT_TRUE(has_key_word(r, "GC13", Severity::warning, "size cap")) << describe(r);
    for (const Finding* f : of(r, "GC13")) EXPECT_EQ(f->seqs, std::vector<uint64_t>{seq});
  }
}

TEST(CheatCheck, GC06ReportsAnyGap) {
  TraceSpec spec;
  spec.ending = fixtures::Ending::restart;
  auto r = check(write_trace(spec, "restart").path);
  auto f = of(r, "GC06");
  ASSERT_EQ(f.size(), 1u) << describe(r);
  EXPECT_EQ(f[0]->severity, Severity::warning);
  EXPECT_TRUE(of(check(write_trace(TraceSpec{}, "norestart").path), "GC06").empty());
}

// A kind this tool does not know after IngestLost may be a newer recorder's
// status record: a warning naming it (GC09 and verify rate it so too), while
// a wire record there stays high.
TEST(CheatCheck, GC06AnUnknownKindAfterIngestLostIsAWarning) {
  for (const char* plant : {"unknown-after-ingest-lost", "wire-after-ingest-lost"}) {
    SCOPED_TRACE(plant);
    TraceSpec spec;
    spec.ending = fixtures::Ending::restart;
    spec.plants = {plant};
    Planted t = write_trace(spec, plant);
    auto r = check(t.path);
    const uint64_t seq = t.written.seqs_of(plant).at(0);
    bool named = false;
    for (const Finding* f : of(r, "GC06")) {
      if (std::find(f->seqs.begin(), f->seqs.end(), seq) == f->seqs.end()) continue;
      named = true;
      EXPECT_EQ(f->severity, std::string_view(plant) == "wire-after-ingest-lost" ? Severity::high : Severity::warning)
          << describe(r);
    }
    EXPECT_TRUE(named) << describe(r);
  }
}

// A restart (or the recorder's death) can fall between a streamed tool call
// and the harness log line that records it: Claude Code logs an answer's
// text and its call as two lines, and a recovered capture records no log
// after its IngestLost gap. The call then is not a sign of a log edited
// (a warning beside GC06's); a call followed by a later request and a
// later log line, before the restart, stays high.
TEST(CheatCheck, GC04ACallCutOffByARestartIsAWarning) {
  TraceSpec spec;
  spec.ending = fixtures::Ending::restart;
  const fixtures::Lines full = fixtures::conversation_lines(spec, testing::dev_key(), nullptr);
  const size_t gap = static_cast<size_t>(fixtures::find_last(full, "gap"));
  const size_t seal = static_cast<size_t>(fixtures::find_last(full, "seal"));
  // The last answer with a call, and its call's log line (the one after its text line).
  size_t call_line = 0;
  for (size_t i = 0; i < gap; ++i) {
    if (fixtures::line_kind(full[i]) == "native" && full[i].find("\\\"tool_use\\\"") != std::string::npos) call_line = i;
  }
  ASSERT_GT(call_line, 2u);
  size_t response = call_line;
  while (fixtures::line_kind(full[response]) != "wire") --response;
  auto restart_after = [&](std::vector<size_t> keep_after_cut, bool sealed) {
    fixtures::Lines lines(full.begin(), full.begin() + static_cast<std::ptrdiff_t>(call_line));
    for (size_t i : keep_after_cut) lines.push_back(full[i]);
    if (sealed) {
      lines.push_back(full[gap]);
      lines.push_back(fixtures::with_body(full[seal], fixtures::set_member(fixtures::line_body(full[seal]), "records",
                                                                             std::to_string(lines.size()))));
    }
    fixtures::rechain(lines, call_line);
    return check(testing::write_temp("call-cut-by-restart.jsonl", fixtures::join(lines)));
  };
  auto call_severity = [&](const CheatReport& r) -> std::optional<Severity> {
    for (const Finding* f : of(r, "GC04")) {
      const bool names_call = f->message.find("The model called tool") != std::string::npos;
      if (names_call && std::find(f->seqs.begin(), f->seqs.end(), response) != f->seqs.end()) return f->severity;
    }
    return std::nullopt;
  };
  const size_t result_line = call_line + 1, next_request = call_line + 2;
  ASSERT_EQ(fixtures::line_kind(full[next_request]), "wire");
  const CheatReport restarted = restart_after({}, true);
  EXPECT_EQ(call_severity(restarted), Severity::warning) << describe(restarted);
  const CheatReport died = restart_after({}, false);
  EXPECT_EQ(call_severity(died), Severity::warning) << describe(died);
  const CheatReport went_on = restart_after({result_line, next_request}, true);
  EXPECT_EQ(call_severity(went_on), Severity::high) << describe(went_on);
  // The call's result captured and the call left out: the harness writes the
  // call first, so the recorder read past it (red-team 104 #05).
  for (const bool sealed : {true, false}) {
    const CheatReport result_kept = restart_after({result_line}, sealed);
    EXPECT_EQ(call_severity(result_kept), Severity::high) << describe(result_kept);
  }
}

// A seal relabelled "recovered" with no restart behind it (no IngestLost).
TEST(CheatCheck, GC06ARecoveredSealNeedsItsRestart) {
  fixtures::Lines lines = testing::valid_trace();
  const size_t seal = static_cast<size_t>(fixtures::find_last(lines, "seal"));
  lines[seal] = fixtures::with_body(lines[seal], fixtures::set_member(fixtures::line_body(lines[seal]), "reason", "\"recovered\""));
  fixtures::rechain(lines, seal + 1);
  lines.pop_back();  // its seal_ack no longer matches
  auto r = check(testing::write_temp("recovered-no-gap.jsonl", fixtures::join(lines)));
  auto f = of(r, "GC06");
  ASSERT_EQ(f.size(), 1u) << describe(r);
  EXPECT_EQ(f[0]->severity, Severity::warning);
  EXPECT_NE(f[0]->message.find("no IngestLost"), std::string::npos);
}

TEST(CheatCheck, GC01UnattestedTail) {
  TraceSpec spec;
  EXPECT_TRUE(of(check(write_trace(spec, "sealed").path), "GC01").empty());
  for (auto ending : {fixtures::Ending::unacked, fixtures::Ending::unsealed}) {
    spec.ending = ending;
    auto r = check(write_trace(spec, "tail").path);
    auto f = of(r, "GC01");
    ASSERT_EQ(f.size(), 1u) << describe(r);
    EXPECT_EQ(f[0]->severity, Severity::high);
    EXPECT_EQ(f[0]->seqs.front(), static_cast<uint64_t>(r.verify.attested_through_seq + 1));
  }
  // A judge's threshold can make a small tail a warning.
  Policy p;
  p.thresholds.max_unattested_share = 0.5;
  spec.ending = fixtures::Ending::unacked;
  auto lenient = check(write_trace(spec, "tail2").path, &p);
  EXPECT_EQ(of(lenient, "GC01").at(0)->severity, Severity::warning);
}

Policy policy_from(const std::string& json) {
  auto p = parse_policy(json);
  EXPECT_TRUE(p.ok()) << (p.ok() ? "" : p.error().message);
  return p.ok() ? *p : Policy{};
}

// Acks are rate-limited and big bodies upload slowly: an ack half a minute
// after its record is no evidence unless the judge's policy says so.
TEST(CheatCheck, GC10AllowsSlowAcksUpToThePolicysDelay) {
  TraceSpec spec;
  spec.turns = 4;
  spec.plants = {"ack-late"};
  Planted t = write_trace(spec, "ack-late");
  const auto lenient = check(t.path);
  EXPECT_TRUE(of(lenient, "GC10").empty()) << describe(lenient);
  Policy strict = policy_from(R"({"thresholds": {"max_ack_delay_seconds": 10}})");
  const auto strict_report = check(t.path, &strict);
  auto found = of(strict_report, "GC10");
  ASSERT_EQ(found.size(), 1u) << describe(strict_report);
  // The planted ack first (the server's clock never goes back, so later
  // acks of this short trace stay late too).
  EXPECT_EQ(found[0]->seqs.front(), t.written.seqs_of("ack-late").at(0));
}

// A recorder whose clock runs 8 s behind the server's writes every record
// "before" the start receipt's server time, yet after the receipt's own
// record: a clock to name, not traffic from before the run (that stays high,
// see early_wire_GC10 above).
TEST(CheatCheck, GC10TellsARecorderClockBehindFromTrafficBeforeTheRun) {
  TraceSpec spec;
  spec.turns = 3;
  spec.plants = {"clock-behind"};
  Planted t = write_trace(spec, "clock-behind");
  const auto report = check(t.path);
  auto found = of(report, "GC10");
  ASSERT_EQ(found.size(), 1u) << describe(report);
  EXPECT_EQ(found[0]->severity, Severity::warning) << describe(report);
  EXPECT_NE(found[0]->message.find("clock was behind"), std::string::npos) << describe(report);
}

// A body nested past every bound (a crafted upload: no harness writes one)
// must not switch a check off with only a line among the skipped checks.
TEST(CheatCheck, ABodyPastTheLimitsIsHigh) {
  const Policy policy;
  Context ctx(policy, Limits{});
  ctx.body_not_parsed("GC04", Error{Code::limit_nesting, 7, "too deep"});
  ctx.body_not_parsed("GC04", Error{Code::limit_nesting, 9, "too deep"});  // said once per check
  ctx.body_not_parsed("GC13", Error{Code::malformed_json, 8, "not JSON"});  // no limit: the check says what it means
  ASSERT_EQ(ctx.findings().size(), 1u);
  EXPECT_EQ(ctx.findings()[0].check, "GC04");
  EXPECT_EQ(ctx.findings()[0].severity, Severity::high);
  EXPECT_EQ(ctx.findings()[0].seqs, std::vector<uint64_t>{7});
  ASSERT_EQ(ctx.skipped().size(), 1u);
}

TEST(CheatCheck, PolicyChecksAreSkippedWithoutAPolicyAndRunWithIt) {
  Planted t = write_trace(TraceSpec{}, "policy");
  auto none = check(t.path);
  for (const char* c : {"GC07", "GC08", "GC13"}) {
    EXPECT_TRUE(std::any_of(none.skipped.begin(), none.skipped.end(), [&](const Skipped& s) { return s.check == c; })) << c;
  }
  // The fixture's own digests (fixtures/writer/conversation.cc).
  const std::string good = R"({"harness_builds": {"claude-code": [{"program_digest": ")" + digest_ref(sha256("program")) +
                           R"(", "image_digest": ")" + digest_ref(sha256("image")) + R"("}]},
      "connectors": [{"id": "claude-code", "version": "1.4.0", "digest": ")" +
                           digest_ref(sha256("connector:claude-code")) +
                           R"(", "decrypt": [{"host": "api.anthropic.com", "paths": ["/v1/messages"]}]}],
      "models": ["claude-sonnet-4-5-20250929"]})";
  Policy ok = policy_from(good);
  auto pass = check(t.path, &ok);
  EXPECT_TRUE(of(pass, "GC07").empty() && of(pass, "GC08").empty() && of(pass, "GC13").empty()) << describe(pass);
  EXPECT_TRUE(pass.skipped.empty());

  Policy other = policy_from(R"({"harness_builds": {"claude-code": [{"program_digest": "sha256:)" + std::string(64, 'a') +
                             R"("}]}, "connectors": [{"id": "x", "digest": "sha256:)" + std::string(64, 'b') +
                             R"("}], "models": ["claude-haiku-4-5"]})");
  auto fail = check(t.path, &other);
  EXPECT_EQ(of(fail, "GC07").size(), 1u) << describe(fail);
  EXPECT_EQ(of(fail, "GC08").size(), 1u) << describe(fail);
  EXPECT_EQ(of(fail, "GC13").size(), 1u) << describe(fail);  // every request asks for sonnet

  // The connector is released but declares other capture paths.
  Policy paths = policy_from(R"({"connectors": [{"id": "claude-code", "digest": ")" +
                             digest_ref(sha256("connector:claude-code")) +
                             R"(", "decrypt": [{"host": "api.anthropic.com", "paths": ["/v1/messages", "/v1/complete"]}]}]})");
  auto differ = check(t.path, &paths);
  ASSERT_EQ(of(differ, "GC08").size(), 1u) << describe(differ);
  EXPECT_NE(of(differ, "GC08")[0]->message.find("/v1/complete"), std::string::npos);

  // A request for a model outside the list.
  TraceSpec spec;
  spec.plants = {"model-not-allowed"};
  auto model = check(write_trace(spec, "model").path, &ok);
  ASSERT_EQ(of(model, "GC13").size(), 1u) << describe(model);
  EXPECT_NE(of(model, "GC13")[0]->message.find("claude-opus"), std::string::npos);

  // The same, hidden from a reader that takes the first "model" or skips a
  // body that does not open with '{'.
  for (const char* plant : {"model-ambiguous", "model-after-space"}) {
    spec.plants = {plant};
    Planted hidden = write_trace(spec, plant);
    auto r = check(hidden.path, &ok);
    EXPECT_VERDICT(r.verify, Verdict::verified);
    auto gc13 = of(r, "GC13");
    ASSERT_EQ(gc13.size(), 1u) << plant << "\n" << describe(r);
    EXPECT_EQ(gc13[0]->severity, Severity::high);
    EXPECT_EQ(gc13[0]->seqs, hidden.written.seqs_of(plant)) << plant;
  }
}

std::string json_quote(std::string_view s) {
  std::string q;
  append_json_string(&q, s);
  return q;
}

// A trace whose launch records `harness` at version `launched`, with one
// request per user agent (a Codex `version` header beside it when
// `codex_version` is set) and one native line per logged version.
std::string version_trace(const std::string& name, const std::string& harness, const std::string& launched,
                          const std::vector<std::string>& agents, const std::vector<std::string>& logged,
                          const std::string& codex_version = "") {
  const bool codex = harness == "codex";
  const std::string host = codex ? "api.openai.com" : "api.anthropic.com";
  fixtures::Lines lines;
  fixtures::TraceBuilder b = testing::trace_builder([&](const std::string& l) { lines.push_back(l); });
  b.add_header(harness);
  b.add_start_receipt();
  b.add("launch", R"({"harness":{"id":")" + harness + R"(","version":")" + launched + R"(","program":"/usr/bin/x","program_digest":")" +
                      digest_ref(sha256("program")) + R"("},"capture":{"decrypt":[{"host":")" + host + R"(","paths":[]}],"tunnel":[]}})");
  unsigned exchange = 0;
  for (const std::string& agent : agents) {
    const std::string body = R"({"model":"m","messages":[]})";
    std::string headers = R"([["content-type","application/json"])";
    if (!agent.empty()) headers += R"(,["user-agent",")" + agent + R"("])";
    if (!codex_version.empty()) headers += R"(,["originator","codex_cli_rs"],["version",")" + codex_version + R"("])";
    b.add("wire", R"({"conn":1,"exchange":)" + std::to_string(exchange++) + R"(,"dir":"request","host":")" + host +
                      R"(","method":"POST","path":"/v1/x","headers":)" + headers + R"(],"body":)" + json_quote(body) +
                      R"(,"encoding":"utf8","size":)" + std::to_string(body.size()) + R"(,"sha256":")" +
                      digest_ref(sha256(body)) + R"(","redactions":[],"complete":true})");
  }
  uint64_t line = 0;
  for (const std::string& v : logged) {
    const std::string text = codex ? R"({"type":"session_meta","payload":{"id":"s1","cli_version":")" + v + R"("}})"
                                   : R"({"type":"summary","summary":"t","leafUuid":"u1","version":")" + v + R"("})";
    b.add("native", R"({"source":")" + harness + R"(","file":"log.jsonl","line_no":)" + std::to_string(++line) +
                        R"(,"text":)" + json_quote(text) + "}");
  }
  b.add_exit(0);
  b.add_seal("exit");
  b.add_seal_ack();
  return testing::write_temp(name, fixtures::join(lines));
}

// GC07's evidence of a swap: what ran names another build than the launch.
std::vector<const Finding*> version_findings(const CheatReport& r) {
  std::vector<const Finding*> out;
  for (const Finding* f : of(r, "GC07")) {
    if (f->message.find("The launch records") == 0) out.push_back(f);
  }
  return out;
}

// `claude --continue` of an earlier run's conversation: a new session file
// starts with a copy of that history (same uuids and message ids; the
// earlier session's id), whose answers crossed the earlier run's wire, and
// which the run's requests re-send as history. What that first request
// re-sends, turn by turn, is a warning naming the earlier session; a copy
// it does not re-send, a launch that does not resume, or copies written
// after the request stay high.
struct ResumedRun {
  std::vector<std::string> argv = {"claude", "--continue"};
  bool copies_after_request = false;
  std::string resent_answer = "Added bench/run.sh; it times 10 parses.";
  std::string resent_command = "ls";
  std::string resent_thinking;  // none: the request leaves the answer's thinking out
  bool later_thinking = false;  // the request re-sends thinking with the later answer (which logged none)
};

struct ResumedReport {
  CheatReport report;
  std::vector<uint64_t> copied_answers;  // the seqs of the copied assistant lines
};

ResumedReport resumed_run(const ResumedRun& run, const std::string& name) {
  fixtures::Lines lines;
  fixtures::TraceBuilder b = testing::trace_builder([&](const std::string& l) { lines.push_back(l); });
  b.add_header("claude-code");
  b.add_start_receipt();
  std::string argv;
  for (const std::string& a : run.argv) argv += (argv.empty() ? "" : ",") + json_quote(a);
  b.add("launch", R"({"argv":[)" + argv + R"(],"capture":{"decrypt":[{"host":"api.anthropic.com","paths":["/v1/messages"]}],"tunnel":[]}})");
  const std::string file = "projects/p/5e55c0de-0000-4000-8000-000000000002.jsonl";
  uint64_t line_no = 0;
  ResumedReport out;
  auto native = [&](const std::string& session, const std::string& uuid, const std::string& parent, const std::string& type,
                    const std::string& message, bool answer) {
    const std::string text = R"({"parentUuid":)" + (parent.empty() ? std::string("null") : json_quote(parent)) +
                             R"(,"isSidechain":false,"sessionId":)" + json_quote(session) + R"(,"type":")" + type +
                             R"(","message":)" + message + R"(,"uuid":)" + json_quote(uuid) + "}";
    const uint64_t seq = b.add("native", R"({"source":"claude-code","file":)" + json_quote(file) + R"(,"line_no":)" +
                                             std::to_string(++line_no) + R"(,"text":)" + json_quote(text) + "}");
    if (answer) out.copied_answers.push_back(seq);
  };
  auto answer = [](const std::string& id, const std::string& content) {
    return R"({"id":")" + id + R"(","type":"message","role":"assistant","model":"claude-sonnet-4-5","content":[)" + content + "]}";
  };
  const std::string earlier = "9a9a9a9a-0000-4000-8000-000000000001", now = "5e55c0de-0000-4000-8000-000000000002";
  auto copies = [&] {
    native(earlier, "a1", "", "user", R"({"role":"user","content":"Write a benchmark harness for the parser."})", false);
    native(earlier, "a1t", "a1", "assistant",
           answer("msg_01PrevRunA", R"({"type":"thinking","thinking":"The parser is in parser.c.","signature":"c2ln"})"), true);
    native(earlier, "a2", "a1t", "assistant", answer("msg_01PrevRunA", R"({"type":"text","text":"I will look at the parser first."})"), true);
    native(earlier, "a3", "a2", "assistant",
           answer("msg_01PrevRunA", R"({"type":"tool_use","id":"toolu_01Prev","name":"Bash","input":{"command":"ls"}})"), true);
    native(earlier, "a4", "a3", "user", R"({"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_01Prev","content":"parser.c"}]})", false);
    native(earlier, "a5", "a4", "assistant", answer("msg_01PrevRunB", R"({"type":"text","text":"Added bench/run.sh; it times 10 parses."})"), true);
  };
  if (!run.copies_after_request) copies();
  // This run: a new prompt, and the request that re-sends the history with it.
  native(now, "b1", "a5", "user", R"({"role":"user","content":"Now make it faster."})", false);
  const std::string request =
      R"({"model":"claude-sonnet-4-5","max_tokens":32000,"stream":true,"messages":[)"
      R"({"role":"user","content":[{"type":"text","text":"<system-reminder>Context.</system-reminder>"},{"type":"text","text":"Write a benchmark harness for the parser."}]},)"
      R"({"role":"assistant","content":[)" +
      (run.resent_thinking.empty() ? std::string()
                                   : R"({"type":"thinking","thinking":)" + json_quote(run.resent_thinking) + R"(,"signature":"c2ln"},)") +
      R"({"type":"text","text":"I will look at the parser first."},{"type":"tool_use","id":"toolu_01Prev","name":"Bash","input":{"command":)" +
      json_quote(run.resent_command) + R"(}}]},)"
      R"({"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_01Prev","content":"parser.c"}]},)"
      R"({"role":"assistant","content":[)" +
      (run.later_thinking ? R"({"type":"thinking","thinking":"Done.","signature":"c2ln"},)" : "") +
      R"({"type":"text","text":)" + json_quote(run.resent_answer) + R"(}]},)"
      R"({"role":"user","content":"Now make it faster."}]})";
  const std::string host = "api.anthropic.com";
  b.add("wire", testing::wire_body_json(0, R"("dir":"request","method":"POST","path":"/v1/messages")", host, request));
  if (run.copies_after_request) copies();
  const std::string stream =
      "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"id\":\"msg_01ThisRun\",\"model\":\"claude-sonnet-4-5\","
      "\"role\":\"assistant\",\"content\":[]}}\n\nevent: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,"
      "\"content_block\":{\"type\":\"text\",\"text\":\"\"}}\n\nevent: content_block_delta\ndata: {\"type\":\"content_block_delta\","
      "\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"It is twice as fast now.\"}}\n\nevent: content_block_stop\ndata: "
      "{\"type\":\"content_block_stop\",\"index\":0}\n\nevent: message_delta\ndata: {\"type\":\"message_delta\",\"delta\":"
      "{\"stop_reason\":\"end_turn\"},\"usage\":{\"output_tokens\":9}}\n\nevent: message_stop\ndata: {\"type\":\"message_stop\"}\n\n";
  b.add("wire", testing::wire_body_json(0, R"("dir":"response","status":200)", host, stream,
                                        R"([["content-type","text/event-stream"]])"));
  native(now, "b2", "b1", "assistant", answer("msg_01ThisRun", R"({"type":"text","text":"It is twice as fast now."})"), false);
  b.add_exit(0);
  b.add_seal("exit");
  b.add_seal_ack();
  out.report = check(testing::write_temp(name, fixtures::join(lines)));
  return out;
}

std::vector<uint64_t> seqs_of(const CheatReport& r, std::string_view check_id, Severity severity) {
  std::vector<uint64_t> out;
  for (const Finding* f : of(r, check_id)) {
    if (f->severity == severity) out.insert(out.end(), f->seqs.begin(), f->seqs.end());
  }
  std::sort(out.begin(), out.end());
  return out;
}

TEST(CheatCheck, HistoryAResumedRunReSendsIsFromBeforeTheRun) {
  // Honest, with every way of saying resume.
  for (const auto& argv : std::vector<std::vector<std::string>>{{"claude", "--continue"}, {"claude", "-c", "-p", "go on"},
                                                                 {"/usr/bin/claude", "--resume"}, {"claude", "-r", "9a9a9a9a"},
                                                                 {"claude", "--resume=9a9a9a9a"}}) {
    SCOPED_TRACE(argv.back());
    ResumedRun run;
    run.argv = argv;
    const ResumedReport honest = resumed_run(run, "resumed-honest.jsonl");
    EXPECT_VERDICT(honest.report.verify, Verdict::verified);
    for (const Finding& f : honest.report.findings) EXPECT_NE(f.severity, Severity::high) << describe(honest.report);
    EXPECT_TRUE(has_key_word(honest.report, "GC05", Severity::warning, "history from before this run")) << describe(honest.report);
    EXPECT_TRUE(has_key_word(honest.report, "GC05", Severity::warning, "9a9a9a9a-0000-4000-8000-000000000001"))
        << describe(honest.report);
    EXPECT_EQ(seqs_of(honest.report, "GC05", Severity::warning), honest.copied_answers) << describe(honest.report);
  }
  // The request leaves the first answer's thinking out, not the later one's.
  ResumedRun later;
  later.later_thinking = true;
  const ResumedReport l = resumed_run(later, "resumed-later-thinking.jsonl");
  EXPECT_EQ(seqs_of(l.report, "GC05", Severity::warning), l.copied_answers) << describe(l.report);
  // The request re-sends the answer's thinking as logged.
  ResumedRun thinking;
  thinking.resent_thinking = "The parser is in parser.c.";
  const ResumedReport t = resumed_run(thinking, "resumed-thinking.jsonl");
  EXPECT_FALSE(any_high(t.report, "GC04") || any_high(t.report, "GC05")) << describe(t.report);
  EXPECT_EQ(seqs_of(t.report, "GC05", Severity::warning), t.copied_answers) << describe(t.report);
}

TEST(CheatCheck, HistoryAResumedRunDoesNotReSendStaysHigh) {
  // The copied answer says other than the history the request re-sends:
  // that line stays high, the lines re-sent as they stand do not.
  ResumedRun changed;
  changed.resent_answer = "Added bench/run.sh; it times 20 parses.";
  const ResumedReport c = resumed_run(changed, "resumed-changed.jsonl");
  EXPECT_VERDICT(c.report.verify, Verdict::verified);
  EXPECT_TRUE(has_key_word(c.report, "GC04", Severity::high, "msg_01PrevRunB")) << describe(c.report);
  EXPECT_EQ(seqs_of(c.report, "GC05", Severity::high), std::vector<uint64_t>{c.copied_answers.back()}) << describe(c.report);
  EXPECT_FALSE(has_key_word(c.report, "GC04", Severity::high, "msg_01PrevRunA")) << describe(c.report);
  // Thinking the request re-sends in other words than the log.
  ResumedRun thinking;
  thinking.resent_thinking = "The parser is in lexer.c.";
  const ResumedReport t = resumed_run(thinking, "resumed-thinking-changed.jsonl");
  EXPECT_EQ(seqs_of(t.report, "GC05", Severity::high), std::vector<uint64_t>{t.copied_answers.front()}) << describe(t.report);
  EXPECT_TRUE(has_key_word(t.report, "GC04", Severity::high, "msg_01PrevRunA")) << describe(t.report);
  // A copied call the request re-sends with another input.
  ResumedRun call;
  call.resent_command = "rm -rf bench";
  const ResumedReport k = resumed_run(call, "resumed-call.jsonl");
  EXPECT_TRUE(has_key_word(k.report, "GC04", Severity::high, "toolu_01Prev")) << describe(k.report);
  EXPECT_TRUE(any_high(k.report, "GC05")) << describe(k.report);
  // A launch that resumes nothing: the same lines are answers from outside the proxy.
  ResumedRun fresh;
  fresh.argv = {"claude", "-p", "--continue-later"};
  const ResumedReport f = resumed_run(fresh, "resumed-not.jsonl");
  EXPECT_TRUE(has_key_word(f.report, "GC04", Severity::high, "msg_01PrevRunA")) << describe(f.report);
  EXPECT_EQ(seqs_of(f.report, "GC05", Severity::high), f.copied_answers) << describe(f.report);
  EXPECT_FALSE(has_key_word(f.report, "GC05", Severity::warning, "history from before this run")) << describe(f.report);
  // Resume named only after `--`: no option.
  fresh.argv = {"claude", "--", "--continue"};
  EXPECT_EQ(seqs_of(resumed_run(fresh, "resumed-dashes.jsonl").report, "GC05", Severity::high).size(), 4u);
  // The copies written after the run's first request: not history it re-sent.
  ResumedRun late;
  late.copies_after_request = true;
  const ResumedReport l = resumed_run(late, "resumed-late.jsonl");
  EXPECT_VERDICT(l.report.verify, Verdict::verified);
  EXPECT_TRUE(has_key_word(l.report, "GC04", Severity::high, "msg_01PrevRunB")) << describe(l.report);
  EXPECT_EQ(seqs_of(l.report, "GC05", Severity::high), l.copied_answers) << describe(l.report);
}

TEST(CheatCheck, GC07HoldsTheVersionTheHarnessNamesToTheLaunch) {
  const std::string program = digest_ref(sha256("program"));
  const Policy listed = policy_from(R"({"harness_builds": {"claude-code": [{"version": "2.0.14", "program_digest": ")" + program +
                                    R"("}], "codex": [{"version": "0.58.0", "program_digest": ")" + program + R"("}]}})");
  auto severities = [&](const std::string& trace, const Policy* policy) {
    const CheatReport r = check(trace, policy);
    EXPECT_VERDICT(r.verify, Verdict::verified);
    std::vector<Severity> out;
    for (const Finding* f : version_findings(r)) out.push_back(f->severity);
    for (const Finding* f : of(r, "GC07")) EXPECT_TRUE(f->message.find("The launch records") == 0) << describe(r);
    return out;
  };
  using S = std::vector<Severity>;
  const std::string ua = "claude-cli/2.0.14 (external, cli)";
  // Honest: the same build everywhere, also in Codex's own forms.
  EXPECT_EQ(severities(version_trace("v-same.jsonl", "claude-code", "2.0.14", {ua, ua}, {"2.0.14"}), &listed), S{});
  EXPECT_EQ(severities(version_trace("v-codex.jsonl", "codex", "0.58.0",
                                     {"codex_exec/0.58.0 (Ubuntu 24.4.0; x86_64) xterm-256color"}, {"0.58.0"}, "0.58.0"),
                       &listed),
            S{});
  // Other clients through the proxy name their own products.
  EXPECT_EQ(severities(version_trace("v-others.jsonl", "claude-code", "2.0.14",
                                     {ua, "Anthropic/Python 0.40.0", "claude-code-router/1.0.3", "curl/8.5.0"}, {"2.0.14"}),
                       &listed),
            S{});
  // An update during the run (a nested run of the newer build), and a
  // resumed session's history written by an older one: said, not warned.
  EXPECT_EQ(severities(version_trace("v-update.jsonl", "claude-code", "2.0.14", {ua, "claude-cli/2.0.15 (external, cli)"},
                                     {"1.0.98", "2.0.14", "2.0.15"}),
                       &listed),
            S{Severity::info});

  // What ran says it is an older build the judge does not know, on the wire
  // and in its log (Claude Code; Codex by user agent, or by its version header).
  EXPECT_EQ(severities(version_trace("v-swap.jsonl", "claude-code", "2.0.14", {"claude-cli/1.0.3 (external, cli)"}, {"2.0.99"}),
                       &listed),
            S{Severity::high});
  EXPECT_EQ(severities(version_trace("v-swap-codex.jsonl", "codex", "0.58.0",
                                     {"codex_cli_rs/0.20.0 (Ubuntu 22.4.0; x86_64) xterm"}, {"0.99.0"}, "0.20.0"),
                       &listed),
            S{Severity::high});
  EXPECT_EQ(severities(version_trace("v-swap-header.jsonl", "codex", "0.58.0", {""}, {}, "0.20.0"), &listed), S{Severity::high});
  // Weaker evidence is a warning: a newer build only (an update between
  // check and exec), no list to judge by, the log alone (the run writes it),
  // an older unknown build beside the launched one.
  EXPECT_EQ(severities(version_trace("v-newer.jsonl", "claude-code", "2.0.14", {"claude-cli/2.0.15 (external, cli)"}, {}), &listed),
            S{Severity::warning});
  EXPECT_EQ(severities(version_trace("v-nolist.jsonl", "claude-code", "2.0.14", {"claude-cli/1.0.3 (external, cli)"}, {}), nullptr),
            S{Severity::warning});
  EXPECT_EQ(severities(version_trace("v-log.jsonl", "claude-code", "2.0.14", {}, {"2.0.99"}), &listed), S{Severity::warning});
  EXPECT_EQ(severities(version_trace("v-mixed.jsonl", "claude-code", "2.0.14", {ua, "claude-cli/1.0.3 (external, cli)"}, {}), &listed),
            S{Severity::warning});
}

// A Claude Code trace whose launch decrypts api.anthropic.com /v1/messages
// and always tunnels `tunnel` (a JSON array).
std::string tunnel_list_trace(const std::string& name, const std::string& tunnel) {
  fixtures::Lines lines;
  fixtures::TraceBuilder b = testing::trace_builder([&](const std::string& l) { lines.push_back(l); });
  b.add_header("claude-code");
  b.add_start_receipt();
  b.add("launch", R"({"capture":{"decrypt":[{"host":"api.anthropic.com","paths":["/v1/messages"]}],"tunnel":)" + tunnel + "}}");
  b.add_exit(0);
  b.add_seal("exit");
  b.add_seal_ack();
  return testing::write_temp(name, fixtures::join(lines));
}

// GC08 holds capture.tunnel to the release's when the policy lists it.
TEST(CheatCheck, GC08HoldsTheTunnelledHostsToTheRelease) {
  auto release = [](const std::string& tunnel) {
    return policy_from(R"({"connectors": [{"id": "claude-code", "version": "1.4.0", "digest": ")" +
                       digest_ref(sha256("connector:claude-code")) +
                       R"(", "decrypt": [{"host": "api.anthropic.com", "paths": ["/v1/messages"]}])" +
                       (tunnel.empty() ? "" : R"(, "tunnel": )" + tunnel) + "}]}");
  };
  auto severities = [](const std::string& trace, const Policy& p) {
    const CheatReport r = check(trace, &p);
    EXPECT_VERDICT(r.verify, Verdict::verified);
    std::vector<Severity> out;
    for (const Finding* f : of(r, "GC08")) out.push_back(f->severity);
    return out;
  };
  using S = std::vector<Severity>;
  const std::string statsig = tunnel_list_trace("tunnel-statsig.jsonl", R"(["statsig.anthropic.com"])");
  EXPECT_EQ(severities(statsig, release(R"(["STATSIG.anthropic.com:443"])")), S{});  // the same host, spelt otherwise
  EXPECT_EQ(severities(statsig, release("")), S{});                                 // the release lists none: not compared
  EXPECT_EQ(severities(statsig, release("[]")), S{Severity::warning});
  // A host the release decrypts, always tunnelled: its provider traffic passes undecrypted.
  const std::string hides = tunnel_list_trace("tunnel-provider.jsonl", R"(["statsig.anthropic.com","api.anthropic.com"])");
  EXPECT_EQ(severities(hides, release(R"(["statsig.anthropic.com"])")), S{Severity::high});
  EXPECT_FALSE(parse_policy(R"({"connectors": [{"digest": "sha256:)" + std::string(64, 'a') + R"(", "tunnel": "x"}]})").ok());
}

TEST(CheatCheck, PoliciesAreValidated) {
  EXPECT_FALSE(parse_policy("[]").ok());
  EXPECT_FALSE(parse_policy(R"({"connectors": [{"digest": "md5:x"}]})").ok());
  EXPECT_FALSE(parse_policy(R"({"thresholds": {"max_clock_skew_seconds": -1}})").ok());
  EXPECT_FALSE(parse_policy(R"({"models": "gpt"})").ok());
  EXPECT_TRUE(parse_policy(R"({"thresholds": {"max_exit_to_seal_seconds": 5}})").ok());
  // A misspelt member would silently drop the check it meant to set.
  EXPECT_FALSE(parse_policy(R"({"modles": ["claude-x"]})").ok());
  EXPECT_FALSE(parse_policy(R"({"thresholds": {"max_exit_to_seal_secs": 0}})").ok());
  EXPECT_FALSE(parse_policy(R"({"connectors": [{"digest": "sha256:)" + std::string(64, 'a') + R"(", "decrpyt": []}]})").ok());
  EXPECT_TRUE(parse_policy(R"({"connectors": [{"digest": "sha256:)" + std::string(64, 'a') + R"(", "decrypt": []}]})").ok());
}

TEST(CheatCheck, InvalidTraceIsAHighFindingAndTheChecksStillRun) {
  auto r = check(testing::sample_path("tampered-delete_rechain.jsonl"));
  ASSERT_EQ(of(r, "verify").size(), 1u);
  EXPECT_EQ(of(r, "verify")[0]->severity, Severity::high);
  EXPECT_FALSE(of(r, "GC12").empty()) << "the deleted native line shows in GC12";
}

TEST(CheatCheck, SamplesGiveTheFindingsTheirReadmeStates) {
  for (const char* s : {"claude-code-verified.jsonl.zst", "codex-verified.jsonl"}) {
    auto r = check(testing::sample_path(s));
    EXPECT_FALSE(fails(r, Severity::high)) << s << "\n" << describe(r);
  }
  auto restart = check(testing::sample_path("claude-code-restart.jsonl"));
  EXPECT_FALSE(of(restart, "GC06").empty());
  auto unacked = check(testing::sample_path("claude-code-sealed-unacked.jsonl"));
  EXPECT_FALSE(of(unacked, "GC01").empty());
  auto unsealed = check(testing::sample_path("claude-code-unsealed.jsonl.zst"));
  EXPECT_FALSE(of(unsealed, "GC01").empty());
}

TEST(CheatCheck, FingerprintsAreStableAndBaselinesSuppress) {
  const std::string path = testing::sample_path("claude-code-leaks.jsonl");
  auto a = check(path), b = check(path);
  ASSERT_EQ(a.findings.size(), b.findings.size());
  for (size_t i = 0; i < a.findings.size(); ++i) EXPECT_EQ(a.findings[i].fingerprint, b.findings[i].fingerprint);

  ReportSet set;
  set.reports.push_back(a);
  const std::string baseline = testing::write_temp("baseline.json", format_cheat_json(set));
  Suppressions s;
  ASSERT_TRUE(s.load_baseline(baseline).ok());
  s.apply(b.findings);
  EXPECT_TRUE(std::all_of(b.findings.begin(), b.findings.end(), [](const Finding& f) { return f.suppressed; }));
  EXPECT_FALSE(fails(b, Severity::info));

  // An allowlist by secret hash clears one secret only.
  auto c = check(path);
  const std::string sha = of(c, "GC02").at(0)->secret.secret_sha256;
  Suppressions allow;
  ASSERT_TRUE(allow.load_allowlist(testing::write_temp("allow.txt", "# cleared\n" + sha + "\n")).ok());
  allow.apply(c.findings);
  EXPECT_TRUE(of(c, "GC02").at(0)->suppressed);
  EXPECT_FALSE(of(c, "GC03").at(0)->suppressed);
}

// A baseline clears what a judge has seen, never more (red-team 14 #1): a
// trace that fails verification fails whatever is suppressed, since its
// fingerprints name the run its unsigned header claims; and a fingerprint
// holds the severity, so a baselined warning does not hide a later high.
TEST(CheatCheck, BaselinesNeverClearAnInvalidTraceOrAHigherSeverity) {
  auto tampered = check(testing::sample_path("tampered-edit_mid.jsonl"));
  ASSERT_EQ(tampered.verify.verdict, Verdict::invalid);
  Suppressions everything;
  std::string ids;
  for (const Finding& f : tampered.findings) ids += f.fingerprint + "\n";
  ASSERT_TRUE(everything.load_allowlist(testing::write_temp("allow-all.txt", ids)).ok());
  everything.apply(tampered.findings);
  ASSERT_FALSE(of(tampered, "verify").empty());
  EXPECT_FALSE(of(tampered, "verify").at(0)->suppressed);
  EXPECT_TRUE(fails(tampered, Severity::high));

  Context ctx(Policy{}, Limits{});
  ctx.emit(finding("GC01", Severity::warning, {1}, "a short tail"), "unacknowledged");
  ctx.emit(finding("GC01", Severity::high, {1}, "a long tail"), "unacknowledged");
  ASSERT_EQ(ctx.findings().size(), 2u);
  EXPECT_NE(ctx.findings()[0].fingerprint, ctx.findings()[1].fingerprint);
}

// A baselined GC01 covers the tail the judge saw, not the run (red-team
// 16c #1): the same file stays suppressed; a tail rewritten after the
// baseline, or made longer by dropping an ack, is a new finding.
TEST(CheatCheck, BaselineOfAnUnattestedTailCoversThatTailOnly) {
  fixtures::Lines lines = testing::valid_trace(fixtures::HarnessStyle::claude_code, fixtures::Ending::unsealed);
  const std::string seen = testing::write_temp("gc01-seen.jsonl", fixtures::join(lines));
  ReportSet set;
  set.reports.push_back(check(seen));
  ASSERT_FALSE(of(set.reports[0], "GC01").empty());
  Suppressions baseline;
  ASSERT_TRUE(baseline.load_baseline(testing::write_temp("gc01-baseline.json", format_cheat_json(set))).ok());

  auto again = check(seen);
  baseline.apply(again.findings);
  EXPECT_TRUE(of(again, "GC01").at(0)->suppressed);

  auto judged = [&](const fixtures::Lines& changed, const std::string& name) {
    auto r = check(testing::write_temp(name, fixtures::join(changed)));
    baseline.apply(r.findings);
    return r;
  };
  fixtures::Lines edited = lines;  // the last record of the same tail rewritten
  fixtures::edit_body_byte(edited, edited.size() - 1);
  auto same_tail = judged(edited, "gc01-edited.jsonl");
  ASSERT_EQ(same_tail.verify.verdict, again.verify.verdict);
  ASSERT_EQ(same_tail.verify.attested_through_seq, again.verify.attested_through_seq);
  ASSERT_FALSE(of(same_tail, "GC01").empty());
  EXPECT_FALSE(of(same_tail, "GC01").at(0)->suppressed);

  fixtures::delete_record(lines, static_cast<size_t>(fixtures::find_last(lines, "ack")), /*rechain_after=*/true);
  auto longer_tail = judged(lines, "gc01-rewritten.jsonl");
  ASSERT_LT(longer_tail.verify.attested_through_seq, again.verify.attested_through_seq);
  ASSERT_FALSE(of(longer_tail, "GC01").empty());
  EXPECT_FALSE(of(longer_tail, "GC01").at(0)->suppressed);
}

// Findings that tie on severity, check and first seq (GC04 emits some in
// hash-map order) are put in one order, so a report is the same on every
// run (helper-40 saw one trace give four different reports).
TEST(CheatCheck, FindingsThatTieAreSortedTheSameWhateverTheirEmittedOrder) {
  const Finding a = finding("GC04", Severity::high, {7}, "the text for msg_a differs");
  const Finding b = finding("GC04", Severity::high, {7}, "the text for msg_b differs");
  std::vector<Finding> one{a, b}, other{b, a};
  sort_findings(one);
  sort_findings(other);
  ASSERT_EQ(one.size(), other.size());
  for (size_t i = 0; i < one.size(); ++i) EXPECT_EQ(one[i].message, other[i].message);
}

// A run that statements vouch for only under a key given with --dev-key
// says so in SARIF, where a code-scanning view shows no verify warning
// (red-team 16c #9): a warning notification, the run still successful. A
// run the pinned keys vouch for gets none.
TEST(CheatCheck, SarifSaysWhichRunsOnlyASuppliedKeyVouchesFor) {
  for (const auto& [sample, expected] : {std::pair{"claude-code-devkey.jsonl", true}, {"codex-verified.jsonl", false}}) {
    ReportSet set;
    set.reports.push_back(check(testing::sample_path(sample)));
    const std::string sarif = format_cheat_sarif(set);
    EXPECT_EQ(sarif.find("server_key_unpinned") != std::string::npos, expected) << sample;
    simdjson::dom::parser p;
    simdjson::dom::element doc;
    ASSERT_FALSE(p.parse(sarif).get(doc));
    bool successful = false;
    ASSERT_FALSE(doc["runs"].at(0)["invocations"].at(0)["executionSuccessful"].get(successful)) << sample;
    EXPECT_TRUE(successful) << sample;
  }
}

TEST(CheatCheck, SarifPlacesFindingsOnTheirLines) {
  ReportSet set;
  set.reports.push_back(check(testing::sample_path("claude-code-sealed-unacked.jsonl")));
  const std::string sarif = format_cheat_sarif(set);
  simdjson::dom::parser p;
  auto doc = p.parse(sarif);
  ASSERT_FALSE(doc.error());
  EXPECT_EQ(std::string_view(doc["version"].get_string()), "2.1.0");
  auto run = doc["runs"].at(0);
  EXPECT_EQ(run["tool"]["driver"]["rules"].get_array().size(), 14u);  // verify + GC01..GC13
  auto result = run["results"].at(0);
  EXPECT_EQ(std::string_view(result["ruleId"].get_string()), "GC01");
  EXPECT_EQ(int64_t(result["locations"].at(0)["physicalLocation"]["region"]["startLine"]), 39);  // seq 38 + 1
  const std::string file = testing::write_temp("places.sarif", sarif);
  EXPECT_EQ(testing::run_command("/usr/bin/python3 " + testing::source_path("tests/sarif/validate.py") + " " + file).exit_code, 0)
      << "not valid SARIF 2.1.0";
}

TEST(CheatCheck, SarifPercentEncodesPaths) {
  EXPECT_EQ(percent_encode_path("up loads/a#1%.jsonl"), "up%20loads/a%231%25.jsonl");
  EXPECT_EQ(percent_encode_path("caf\xc3\xa9/x~_-.y"), "caf%C3%A9/x~_-.y");
}

}  // namespace
}  // namespace goalcup::cheat

namespace goalcup::cheat {
namespace {

TEST(CheatCli, SecretsAreNeverPrintedUnlessAsked) {
  const std::string bin = GOALCUP_CHEATCHECK_BIN, leaks = testing::sample_path("claude-code-leaks.jsonl");
  const std::string secret = "AKIAG4WTHDRE74DAL6O2";  // a (fake) key of the sample
  for (const char* format : {"text", "json", "sarif"}) {
    auto r = testing::run_command(bin + " --no-progress --format " + format + " " + leaks);
    EXPECT_EQ(r.exit_code, 1);
    EXPECT_EQ(r.out.find(secret), std::string::npos) << format;
    auto s = testing::run_command(bin + " scan --no-progress --format " + format + " " + leaks);
    EXPECT_EQ(s.out.find(secret), std::string::npos) << format;
  }
  auto shown = testing::run_command(bin + " --no-progress --show-secrets " + leaks);
  EXPECT_NE(shown.out.find("secret: " + secret), std::string::npos);
}

TEST(CheatCli, PlainFileFindingsNameLinesFromOne) {
  const std::string file = testing::write_temp("third-line.txt", "a\nb\naws_key = AKIAG4WTHDRE74DAL6O2\n");
  auto r = testing::run_command(std::string(GOALCUP_CHEATCHECK_BIN) + " scan --no-progress " + file);
  EXPECT_NE(r.out.find("line 3  AWS access key id"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("seq 2"), std::string::npos) << r.out;
}

TEST(CheatCli, ExitCodesFollowFailOn) {
  const std::string bin = GOALCUP_CHEATCHECK_BIN;
  EXPECT_EQ(testing::run_command(bin + " --no-progress " + testing::sample_path("codex-verified.jsonl")).exit_code, 0);
  EXPECT_EQ(testing::run_command(bin + " --no-progress " + testing::sample_path("claude-code-restart.jsonl")).exit_code, 0);
  EXPECT_EQ(testing::run_command(bin + " --no-progress --fail-on warning " + testing::sample_path("claude-code-restart.jsonl")).exit_code, 1);
  EXPECT_EQ(testing::run_command(bin + " --no-progress /nonexistent.jsonl").exit_code, 2);
  EXPECT_EQ(testing::run_command(bin + " --no-progress --policy /nonexistent.json " + testing::sample_path("codex-verified.jsonl")).exit_code, 2);
}

// A baseline of one hen's manifest clears that manifest's findings, never
// the same refusal in another hen's (red-team 16c #15): the fingerprints of
// a manifest or coop directory also name its path.
TEST(CheatCli, AManifestBaselineClearsThatManifestOnly) {
  const std::string dir = testing::temp_dir() + "/baselined-manifests";
  std::string refused;
  for (const auto& [file, rule] : fixtures::write_manifests(dir)) {
    if (!rule.empty() && rule != "MAN12" && rule != "MAN13") refused = dir + "/" + file;
  }
  ASSERT_FALSE(refused.empty());
  const std::string other = dir + "/other-hen.yaml";
  std::filesystem::copy_file(refused, other, std::filesystem::copy_options::overwrite_existing);
  const std::string bin = std::string(GOALCUP_CHEATCHECK_BIN) + " manifest --no-progress ";
  const std::string baseline = testing::write_temp("manifest-baseline.json", testing::run_command(bin + "--format json " + refused).out);
  EXPECT_EQ(testing::run_command(bin + "--baseline " + baseline + " " + refused).exit_code, 0);
  EXPECT_EQ(testing::run_command(bin + "--baseline " + baseline + " " + other).exit_code, 1);
}

TEST(CheckState, NamesFromTheTraceAreClippedAndFew) {
  // A hostile trace may name a thousand gap types, each a megabyte long.
  NamedSeqs names;
  for (uint64_t i = 0; i < 1000; ++i) names.add(std::to_string(i) + std::string(1 << 20, 'x'), i);
  EXPECT_LE(names.all().size(), kMaxNames + 1);
  uint64_t counted = 0;
  for (const auto& [name, list] : names.all()) {
    EXPECT_LE(name.size(), kMaxKeptText + 32);
    counted += list.count;
  }
  EXPECT_EQ(counted, 1000u);  // none lost: the rest are counted together
  EXPECT_EQ(clip_text("short"), "short");
  // Never cut inside a UTF-8 character.
  const std::string e_acute = "\xc3\xa9";
  std::string accents;
  while (accents.size() < 400) accents += e_acute;
  const std::string clipped = clip_text(accents);
  EXPECT_EQ(clipped.substr(0, clipped.find("...")).size() % 2, 0u);
}

TEST(CheckState, IdsAreIdentifiedByTheirBytesNotByAHash) {
  // Two message ids a trace author can write that libstdc++'s 64-bit
  // std::hash (the old identity()) maps to the same value: the third
  // 8-byte block of the second was solved for from the first two.
  const std::string a = "msg_01XFDUDYJgAACzvnptvVoYEL";
  const std::string b = "msg_01XFTol3taTqg4FDt0iBoYEL";
#if defined(__GLIBCXX__)
  if constexpr (sizeof(size_t) == 8) {
    ASSERT_EQ(std::hash<std::string_view>{}(a), std::hash<std::string_view>{}(b)) << "the pair no longer collides";
  }
#endif
  EXPECT_NE(identity(a), identity(b));
  EXPECT_EQ(identity(a), identity(std::string(a)));
  // Ids that differ only in length or by a NUL are distinct too.
  EXPECT_NE(identity("id"), identity(std::string("id\0", 3)));
  EXPECT_NE(identity(""), identity(std::string(1, '\0')));
}

}  // namespace
}  // namespace goalcup::cheat
