// Real model streams (../shared/corpora/real-sse: Anthropic Messages, OpenAI
// Responses and Chat Completions, recorded from the live APIs) recorded in a
// trace as a proxy would: `inspect conversation` must show what was
// streamed, block for block, with the final usage. The expectation is read
// here from the raw events, apart from core/sse.cc. The streams are read in
// place, never copied into the repository.
#include <algorithm>
#include <filesystem>
#include <map>
#include <sstream>

#include "cli/json_writer.h"
#include "fixtures/writer/wrap.h"
#include "inspect/conversation.h"
#include "tests/support.h"

namespace goalcup::inspect {
namespace {


// What a stream says, read the plain way: every `data:` line is one event.
struct Expected {
  std::vector<std::string> types;  // block kinds in order (as inspect names them)
  std::vector<std::string> texts;  // text of each text/thinking/reasoning block, in order
  std::vector<std::pair<std::string, std::string>> calls;  // id, name of each tool call
  std::map<std::string, int64_t> usage;
};

int64_t num(simdjson::dom::element e, const char* pointer) {
  int64_t v = -1;
  simdjson::dom::element x;
  if (e.at_pointer(pointer).get(x) || x.get(v)) return -1;
  return v;
}

std::string text(simdjson::dom::element e, const char* pointer) {
  std::string_view v;
  simdjson::dom::element x;
  if (e.at_pointer(pointer).get(x) || x.get(v)) return {};
  return std::string(v);
}

void take(Expected& x, const char* name, int64_t v) {
  if (v >= 0) x.usage[name] = v;
}

Expected expected_of(const std::string& sse, const std::string& api) {
  Expected x;
  std::map<int64_t, size_t> text_at;  // stream index -> position in texts
  std::map<int64_t, std::string> chat_args;
  std::map<int64_t, int64_t> summary_part;
  simdjson::dom::parser parser;
  std::istringstream lines(sse);
  for (std::string line; std::getline(lines, line);) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (!line.starts_with("data:")) continue;
    std::string data = line.substr(5);
    if (data.starts_with(' ')) data.erase(0, 1);
    if (data == "[DONE]") continue;
    simdjson::dom::element e;
    if (parser.parse(data).get(e)) continue;
    const std::string type = text(e, "/type");
    const int64_t index = api == "anthropic" ? num(e, "/index") : num(e, "/output_index");
    if (api == "anthropic") {
      // message_start's output_tokens is a placeholder: the count is message_delta's.
      take(x, "input_tokens", num(e, "/message/usage/input_tokens"));
      take(x, "input_tokens", num(e, "/usage/input_tokens"));
      take(x, "output_tokens", num(e, "/usage/output_tokens"));
      take(x, "cache_read_input_tokens", num(e, "/message/usage/cache_read_input_tokens"));
      take(x, "cache_read_input_tokens", num(e, "/usage/cache_read_input_tokens"));
      take(x, "cache_creation_input_tokens", num(e, "/message/usage/cache_creation_input_tokens"));
      take(x, "cache_creation_input_tokens", num(e, "/usage/cache_creation_input_tokens"));
      // A request that sampled more than once (compaction, then the answer):
      // what it consumed is the sum of its iterations (Anthropic's docs).
      simdjson::dom::array iterations;
      if (!e.at_pointer("/usage/iterations").get(iterations) && iterations.size() > 0) {
        for (const char* name : {"input_tokens", "output_tokens", "cache_read_input_tokens", "cache_creation_input_tokens"}) {
          int64_t sum = 0;
          for (auto it : iterations) sum += std::max<int64_t>(0, num(it, ("/" + std::string(name)).c_str()));
          x.usage[name] = sum;
        }
      }
      // Blocks given whole in message_start come first, then those started later.
      simdjson::dom::array given;
      std::vector<simdjson::dom::element> starts;
      if (type == "message_start" && !e.at_pointer("/message/content").get(given)) {
        for (auto b : given) starts.push_back(b);
      }
      simdjson::dom::element started;
      if (type == "content_block_start" && !e["content_block"].get(started)) starts.push_back(started);
      for (simdjson::dom::element cb : starts) {
        const std::string t = text(cb, "/type");
        const bool call = t == "tool_use" || t == "server_tool_use" || t == "mcp_tool_use";
        x.types.push_back(t == "text" || t == "thinking" || t == "redacted_thinking" ? t
                          : call                                                   ? "tool_call"
                          : t.ends_with("_tool_result")                            ? "tool_result"
                                                                                   : "other");
        if (call) x.calls.emplace_back(text(cb, "/id"), text(cb, "/name"));
        if (t == "text" || t == "thinking") {
          text_at[type == "message_start" ? static_cast<int64_t>(x.types.size() - 1) : index] = x.texts.size();
          x.texts.push_back(text(cb, t == "text" ? "/text" : "/thinking"));
        }
      }
      if (type == "content_block_delta" && text_at.contains(index)) {
        x.texts[text_at[index]] += text(e, "/delta/text") + text(e, "/delta/thinking");
      }
    } else if (api == "responses") {
      if (type == "response.completed") {
        take(x, "input_tokens", num(e, "/response/usage/input_tokens"));
        take(x, "output_tokens", num(e, "/response/usage/output_tokens"));
        take(x, "cache_read_input_tokens", num(e, "/response/usage/input_tokens_details/cached_tokens"));
        take(x, "reasoning_tokens", num(e, "/response/usage/output_tokens_details/reasoning_tokens"));
      } else if (type == "response.output_item.added") {
        const std::string t = text(e, "/item/type");
        if (t == "message" || t == "reasoning") {
          x.types.push_back(t == "message" ? "text" : "reasoning");
          text_at[index] = x.texts.size();
          x.texts.emplace_back();
        } else if (t.ends_with("_call")) {
          x.types.push_back("tool_call");
          const bool client = t == "function_call" || t == "custom_tool_call" || t == "local_shell_call";
          x.calls.emplace_back(text(e, client ? "/item/call_id" : "/item/id"), "");
        } else {
          x.types.push_back(t.ends_with("_output") ? "tool_result" : "other");
        }
      } else if ((type == "response.output_text.delta" || type == "response.reasoning_summary_text.delta") &&
                 text_at.contains(index)) {
        std::string& t = x.texts[text_at[index]];
        // Summary parts are shown apart, a blank line between them.
        const int64_t part = num(e, "/summary_index");
        if (part >= 0 && summary_part[index] != part && !t.empty()) t += "\n\n";
        summary_part[index] = part;
        t += text(e, "/delta");
      }
    } else {  // chat
      take(x, "input_tokens", num(e, "/usage/prompt_tokens"));
      take(x, "output_tokens", num(e, "/usage/completion_tokens"));
      take(x, "cache_read_input_tokens", num(e, "/usage/prompt_tokens_details/cached_tokens"));
      // Reasoning (DeepSeek, xAI: reasoning_content) and text, each one block
      // at its first appearance.
      auto append = [&](int64_t key, const char* kind, const std::string& piece) {
        if (piece.empty()) return;
        if (!text_at.contains(key)) {
          text_at[key] = x.texts.size();
          x.texts.emplace_back();
          x.types.push_back(kind);
        }
        x.texts[text_at[key]] += piece;
      };
      append(-2, "reasoning", text(e, "/choices/0/delta/reasoning_content") + text(e, "/choices/0/delta/reasoning"));
      append(-1, "text", text(e, "/choices/0/delta/content"));
      simdjson::dom::array calls;
      if (e.at_pointer("/choices/0/delta/tool_calls").get(calls)) continue;
      for (auto c : calls) {
        const int64_t i = num(c, "/index");
        if (!chat_args.contains(i)) {
          chat_args[i] = "";
          x.types.push_back("tool_call");
          x.calls.emplace_back(text(c, "/id"), text(c, "/function/name"));
        }
      }
    }
  }
  // OpenAI's input counts its cached tokens; inspect's "in" is the tokens
  // not read from cache, as Anthropic's is.
  if (api != "anthropic" && x.usage.contains("input_tokens") && x.usage.contains("cache_read_input_tokens")) {
    x.usage["input_tokens"] -= std::min(x.usage["input_tokens"], x.usage["cache_read_input_tokens"]);
  }
  return x;
}

std::string trace_around(const std::string& request, const std::string& sse, const std::string& host,
                         const std::string& path) {
  fixtures::Lines lines;
  auto b = testing::trace_builder([&](const std::string& l) { lines.push_back(l); });
  b.add_header("x");
  b.add_start_receipt();
  std::string launch;
  JsonWriter lw(&launch);
  lw.begin_object().key("capture").begin_object().key("decrypt").begin_array().begin_object().field("host", host);
  // A launch declares paths, not queries (Claude Code asks /v1/messages?beta=true).
  lw.key("paths").begin_array().value(path.substr(0, path.find('?'))).end_array().end_object().end_array().key("tunnel").begin_array().end_array();
  lw.end_object().end_object();
  b.add("launch", launch);
  for (int dir = 0; dir < 2; ++dir) {
    const std::string& body = dir == 0 ? request : sse;
    std::string rec;
    JsonWriter w(&rec);
    w.begin_object().field("conn", 1).field("exchange", 0).field("dir", dir == 0 ? "request" : "response").field("host", host);
    if (dir == 0) w.field("method", "POST").field("path", path);
    else w.field("status", 200);
    w.key("headers").begin_array().end_array().field("body", body).field("encoding", "utf8");
    w.field("size", static_cast<uint64_t>(body.size())).field("sha256", digest_ref(sha256(body)));
    w.key("redactions").begin_array().end_array().field("complete", true).end_object();
    b.add("wire", rec);
  }
  b.add_exit(0);
  b.add_seal("exit");
  b.add_seal_ack();
  return testing::write_temp("stream.jsonl", fixtures::join(lines));
}

TEST(RealStreams, ConversationShowsWhatWasStreamedBlockForBlock) {
  const std::string dir = testing::corpora_dir();
  if (dir.empty() || !std::filesystem::is_directory(dir + "/real-sse/streams")) {
    GTEST_SKIP() << "../shared/corpora/real-sse not found (set GOALCUP_SHARED_DIR): the real-stream test did not run";
  }
  std::vector<std::filesystem::path> streams;
  for (const auto& e : std::filesystem::directory_iterator(dir + "/real-sse/streams")) {
    if (e.path().extension() == ".sse") streams.push_back(e.path());
  }
  std::sort(streams.begin(), streams.end());
  ASSERT_FALSE(streams.empty());
  simdjson::dom::parser meta_parser, out_parser;
  for (const auto& s : streams) {
    SCOPED_TRACE(s.filename().string());
    std::filesystem::path meta_path = s;
    meta_path.replace_extension(".meta.json");
    const std::string meta_text = testing::read_file(meta_path.string()), sse = testing::read_file(s.string());
    simdjson::dom::element meta;
    ASSERT_FALSE(meta_parser.parse(meta_text).get(meta));
    const std::string api = text(meta, "/api");
    simdjson::dom::element request;
    const std::string request_json = meta.at_pointer("/request").get(request) ? "{}" : simdjson::minify(request);
    const std::string path = trace_around(request_json, sse, text(meta, "/host"), text(meta, "/req_path"));

    std::vector<Exchange> ex;
    ConversationVisitor conv([&](const Exchange& e) { ex.push_back(e); }, SIZE_MAX, Limits{});
    WalkOptions opt;
    Keyring ring = testing::dev_keyring();
    opt.keyring = &ring;
    walk_trace(path, opt, &conv);
    ASSERT_EQ(ex.size(), 1u);
    const std::string json = format_exchange_json(ex[0]);
    simdjson::dom::element got;
    ASSERT_FALSE(out_parser.parse(json).get(got)) << json;
    const Expected want = expected_of(sse, api);

    simdjson::dom::array blocks, calls;
    ASSERT_FALSE(got["blocks"].get(blocks));
    ASSERT_FALSE(got["tool_calls"].get(calls));
    std::vector<std::string> types, texts;
    for (auto b : blocks) {
      const std::string t = text(b, "/type");
      types.push_back(t);
      if (t == "text" || t == "thinking" || t == "reasoning") texts.push_back(text(b, "/text"));
    }
    EXPECT_EQ(types, want.types);
    EXPECT_EQ(texts, want.texts);
    // A provider tool's result shows what it said, a failure marked as one
    // (review-17 #6): as many marked as the stream has `..._error` results.
    size_t failed_results = 0, streamed_failures = 0;
    for (auto b : blocks) {
      if (!text(b, "/provider_type").ends_with("_tool_result")) continue;
      EXPECT_FALSE(text(b, "/detail").empty()) << text(b, "/tool_use_id");
      bool error = false;
      if (!b["is_error"].get(error) && error) ++failed_results;
    }
    for (size_t at = sse.find("_tool_result_error\""); at != std::string::npos; at = sse.find("_tool_result_error\"", at + 1)) {
      ++streamed_failures;
    }
    EXPECT_EQ(failed_results, streamed_failures);
    ASSERT_EQ(calls.size(), want.calls.size());
    size_t i = 0;
    for (auto c : calls) {
      EXPECT_EQ(text(c, "/id"), want.calls[i].first);
      if (!want.calls[i].second.empty()) {
        EXPECT_EQ(text(c, "/name"), want.calls[i].second);
      }
      EXPECT_FALSE(text(c, "/input").empty()) << "a tool call's input shows {} when none was streamed";
      ++i;
    }
    for (const auto& [name, value] : want.usage) {
      EXPECT_EQ(num(got, ("/usage/" + name).c_str()), value) << name;
    }
    // A stream that ends in the provider's error may state no usage; the error is shown.
    const bool failed = sse.find("\"type\":\"error\"") != std::string::npos ||
                        sse.find("\"type\":\"response.failed\"") != std::string::npos;
    if (failed) {
      EXPECT_FALSE(text(got, "/error").empty()) << "the stream's error is not shown";
    } else {
      EXPECT_FALSE(want.usage.empty()) << "the stream states no usage";
    }
  }
}

// The views' JSON of the one exchange of a trace holding `request` and
// `response` (a stream or a body returned whole).
std::string exchange_json(const std::string& request, const std::string& response, const std::string& host,
                          const std::string& path) {
  std::vector<Exchange> ex;
  ConversationVisitor conv([&](const Exchange& e) { ex.push_back(e); }, SIZE_MAX, Limits{});
  WalkOptions opt;
  Keyring ring = testing::dev_keyring();
  opt.keyring = &ring;
  walk_trace(trace_around(request, response, host, path), opt, &conv);
  return ex.size() == 1 ? format_exchange_json(ex[0]) : "";
}

// An OpenAI Response returned whole (a request without "stream") is the
// object a stream's response.completed carries: shown as the stream of it
// is, block for block, with its calls, usage, id and stop reason.
TEST(RealStreams, ResponsesReturnedWholeShowAsTheirStreams) {
  const std::string dir = testing::corpora_dir();
  if (dir.empty() || !std::filesystem::is_directory(dir + "/real-sse/streams")) {
    GTEST_SKIP() << "../shared/corpora/real-sse not found (set GOALCUP_SHARED_DIR): the real-stream test did not run";
  }
  size_t compared = 0;
  simdjson::dom::parser parser, streamed_parser, whole_parser;
  for (const auto& entry : std::filesystem::directory_iterator(dir + "/real-sse/streams")) {
    if (entry.path().extension() != ".sse") continue;
    const std::string sse = testing::read_file(entry.path().string());
    std::string completed;
    std::istringstream lines(sse);
    for (std::string line; std::getline(lines, line);) {
      simdjson::dom::element e, r;
      if (line.starts_with("data:") && !parser.parse(line.substr(5)).get(e) && text(e, "/type") == "response.completed" &&
          !e["response"].get(r)) {
        completed = simdjson::minify(r);
      }
    }
    if (completed.empty()) continue;
    SCOPED_TRACE(entry.path().filename().string());
    const std::string request = R"({"model":"gpt","stream":false,"input":"go"})";
    const std::string streamed = exchange_json(request, sse, "api.openai.com", "/v1/responses");
    const std::string whole = exchange_json(request, completed, "api.openai.com", "/v1/responses");
    simdjson::dom::element a, b;
    ASSERT_FALSE(streamed_parser.parse(streamed).get(a)) << streamed;
    ASSERT_FALSE(whole_parser.parse(whole).get(b)) << whole;
    for (const char* member : {"message_id", "stop_reason", "blocks", "tool_calls", "usage", "text"}) {
      simdjson::dom::element x, y;
      ASSERT_FALSE(a[member].get(x)) << member;
      ASSERT_FALSE(b[member].get(y)) << member << " " << whole.substr(0, 300);
      EXPECT_EQ(simdjson::minify(y), simdjson::minify(x)) << member;
    }
    ++compared;
  }
  EXPECT_GE(compared, 5u);
}

// Real Claude Code and Codex logs (../shared/corpora/real-native) in the
// honest traces a recorder writes around them, in every honest wire form:
// a request re-sends the history the wire already carried, so no turn of it
// is shown as rewritten or unanswered (review-17 #2, #3), and the requests of
// a Task subagent are marked as such (#5), never a main-chain one.
TEST(RealRuns, HonestHistoriesAreNotShownAsRewrittenAndSubagentsAreMarked) {
  const std::string dir = testing::corpora_dir();
  if (dir.empty() || !std::filesystem::is_directory(dir + "/real-native/logs")) {
    GTEST_SKIP() << "../shared/corpora/real-native not found (set GOALCUP_SHARED_DIR): the real-run test did not run";
  }
  std::vector<std::filesystem::path> logs;
  for (const auto& e : std::filesystem::recursive_directory_iterator(dir + "/real-native/logs")) {
    if (e.is_regular_file() && e.path().extension() == ".jsonl") logs.push_back(e.path());
  }
  std::sort(logs.begin(), logs.end());
  ASSERT_FALSE(logs.empty());
  const Keyring ring = testing::dev_keyring();
  size_t subagent_requests = 0, exchanges = 0;
  for (const auto& log : logs) {
    const std::string text = testing::read_file(log.string());
    for (auto form : {fixtures::WireForm::same, fixtures::WireForm::blocks, fixtures::WireForm::nonstreamed}) {
      SCOPED_TRACE(log.filename().string() + " form " + std::to_string(static_cast<int>(form)));
      fixtures::WrapSpec spec;
      spec.file = log.filename().string();
      spec.wire_form = form;
      fixtures::Lines lines;
      fixtures::wrap_log(text, spec, testing::dev_key(), [&](const std::string& l) { lines.push_back(l); });
      WalkOptions opt;
      opt.keyring = &ring;
      std::vector<Exchange> ex;
      ConversationVisitor conv([&](const Exchange& e) { ex.push_back(e); }, 4096, opt.limits);
      walk_trace(testing::write_temp("real-run.jsonl", fixtures::join(lines)), opt, &conv);
      exchanges += ex.size();
      for (const auto& e : ex) {
        for (const auto& in : e.request.inputs) {
          EXPECT_TRUE(in.history.empty()) << "exchange " << e.number << " " << in.history << ": " << in.text.substr(0, 200);
        }
        if (e.request.subagent_exchange == 0) continue;
        ++subagent_requests;
        EXPECT_LT(e.request.subagent_exchange, e.number);
        EXPECT_NE(text.find("\"isSidechain\":true"), std::string::npos) << "a subagent mark on a log without sidechains";
      }
    }
  }
  EXPECT_GT(exchanges, 0u);
  EXPECT_GT(subagent_requests, 0u) << "the corpus holds Task subagents (ccv-5c0375b4, ccv-fe5e1c67)";
}


// `inspect show` on a response whose stream ended in the provider's error
// says so in both forms, as the conversation does.
TEST(InspectShow, ShowsAnErrorTheProviderReportedInTheStream) {
  const std::string sse =
      "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"id\":\"msg_3\",\"content\":[]}}\n\n"
      "event: error\ndata: {\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\",\"message\":\"Overloaded\"}}\n\n";
  const std::string path = trace_around("{}", sse, "api.anthropic.com", "/v1/messages");
  const std::string show = std::string(GOALCUP_INSPECT_BIN) + " --dev-key " +
                           testing::source_path("fixtures/keys/dev-key.json") + " show ";
  const auto text = testing::run_command(show + path + " 4");
  EXPECT_NE(text.out.find("(error) overloaded_error: Overloaded"), std::string::npos) << text.out;
  const auto json = testing::run_command(show + "--json " + path + " 4");
  simdjson::dom::parser p;
  simdjson::dom::element doc;
  ASSERT_FALSE(p.parse(json.out).get(doc)) << json.out;
  std::string_view error;
  ASSERT_FALSE(doc.at_pointer("/record/rebuilt_answer/error").get(error)) << json.out;
  EXPECT_EQ(error, "overloaded_error: Overloaded");
}
}  // namespace
}  // namespace goalcup::inspect
