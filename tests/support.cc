#include "tests/support.h"

#include "fixtures/writer/wrap.h"

#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>

#include "cli/json_writer.h"
#include "core/sha256.h"

namespace goalcup::testing {

std::string source_path(const std::string& relative) { return std::string(GOALCUP_SOURCE_DIR) + "/" + relative; }
std::string sample_path(const std::string& name) { return source_path("fixtures/samples/" + name); }

std::string shared_dir() {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (const char* env = std::getenv("GOALCUP_SHARED_DIR"); env != nullptr && fs::is_directory(env, ec)) return env;
  // CI clones the repository into a folder of its own with shared/ beside it;
  // a developer's worktree may sit one or two levels further down.
  fs::path dir = fs::weakly_canonical(GOALCUP_SOURCE_DIR, ec);
  for (int up = 0; up < 4 && dir.has_parent_path() && dir != dir.parent_path(); ++up) {
    dir = dir.parent_path();
    if (fs::is_regular_file(dir / "shared" / "spec" / "TRACE-FORMAT.md", ec)) return (dir / "shared").string();
  }
  return "";
}

namespace {
std::string shared_subdir(const char* name) {
  const std::string root = shared_dir();
  std::error_code ec;
  return !root.empty() && std::filesystem::is_directory(root + "/" + name, ec) ? root + "/" + name : "";
}
}  // namespace

std::string shared_samples_dir() { return shared_subdir("samples"); }
std::string corpora_dir() { return shared_subdir("corpora"); }

std::string random_chars(size_t n, uint32_t seed, std::string_view alphabet) {
  std::string out;
  uint64_t x = 0x9E3779B97F4A7C15ull * (seed + 1);
  for (size_t i = 0; i < n; ++i) {
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;  // xorshift64
    out += alphabet[x % alphabet.size()];
  }
  return out;
}

const std::vector<DeltaKind>& delta_kinds() {
  static const std::vector<DeltaKind> kinds{
      {"text_delta", false},
      {"thinking_delta", false},
      {"input_json_delta", true},
      {"response.output_text.delta", false},
      {"response.refusal.delta", false},
      {"response.reasoning_summary_text.delta", false},
      {"response.reasoning_text.delta", false},
      {"response.function_call_arguments.delta", true},
      {"response.custom_tool_call_input.delta", false},
      {"response.code_interpreter_call_code.delta", false},
      {"response.mcp_call_arguments.delta", true},
      {"chat:content", false},
      {"chat:refusal", false},  // the model's refusal, shown as its answer
      {"chat:reasoning_content", false},
      {"chat:reasoning", false},
      {"chat:tool_calls", true},
  };
  return kinds;
}

namespace {

std::string sse_event(std::string_view type, const std::string& data) {
  return (type.empty() ? std::string() : "event: " + std::string(type) + "\n") + "data: " + data + "\n\n";
}

// One delta of `kind` carrying `piece` (a JSON string literal).
std::string delta_event(const std::string& kind, const std::string& piece) {
  if (kind == "text_delta" || kind == "thinking_delta" || kind == "input_json_delta") {
    const std::string member = kind == "text_delta" ? "text" : kind == "thinking_delta" ? "thinking" : "partial_json";
    return sse_event("content_block_delta", R"({"type":"content_block_delta","index":0,"delta":{"type":")" + kind +
                                                R"(",")" + member + "\":" + piece + "}}");
  }
  if (kind.starts_with("response.")) {
    return sse_event(kind, R"({"type":")" + kind + R"(","output_index":0,"summary_index":0,"delta":)" + piece + "}");
  }
  const std::string member = kind.substr(5);
  const std::string delta = member == "tool_calls"
                                ? R"({"tool_calls":[{"index":0,"function":{"arguments":)" + piece + "}}]}"
                                : "{\"" + member + "\":" + piece + "}";
  return sse_event("", R"({"id":"chatcmpl-1","model":"gpt-4o","choices":[{"index":0,"delta":)" + delta + "}]}");
}

// What opens the stream, so that the deltas build the block they belong to.
std::string stream_start(const std::string& kind) {
  if (kind == "text_delta" || kind == "thinking_delta" || kind == "input_json_delta") {
    const std::string block = kind == "text_delta"       ? R"({"type":"text","text":""})"
                              : kind == "thinking_delta" ? R"({"type":"thinking","thinking":""})"
                                                         : R"({"type":"tool_use","id":"toolu_1","name":"Bash","input":{}})";
    return sse_event("message_start", R"({"type":"message_start","message":{"id":"msg_1","model":"claude-sonnet-4-5"}})") +
           sse_event("content_block_start", R"({"type":"content_block_start","index":0,"content_block":)" + block + "}");
  }
  if (kind.starts_with("response.")) {
    const std::string item = kind.find("code_interpreter") != std::string::npos ? R"({"type":"code_interpreter_call","id":"ci_1"})"
                             : kind.find("custom_tool") != std::string::npos    ? R"({"type":"custom_tool_call","call_id":"call_1","name":"apply_patch"})"
                             : kind.find("function_call") != std::string::npos  ? R"({"type":"function_call","call_id":"call_1","name":"shell"})"
                             : kind.find("mcp_call") != std::string::npos       ? R"({"type":"mcp_call","id":"mcp_1","name":"lookup"})"
                             : kind.find("reasoning") != std::string::npos      ? R"({"type":"reasoning","id":"rs_1"})"
                                                                                : R"({"type":"message","id":"msg_1"})";
    return sse_event("response.created", R"({"type":"response.created","response":{"id":"resp_1","model":"gpt-5"}})") +
           sse_event("response.output_item.added", R"({"type":"response.output_item.added","output_index":0,"item":)" + item + "}");
  }
  if (kind == "chat:tool_calls") {
    return sse_event("", R"({"id":"chatcmpl-1","model":"gpt-4o","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,)"
                         R"("id":"call_1","type":"function","function":{"name":"shell","arguments":""}}]}}]})");
  }
  return "";
}

std::string stream_end(const std::string& kind) {
  if (kind.starts_with("response.")) {
    return sse_event("response.completed", R"({"type":"response.completed","response":{"id":"resp_1","status":"completed"}})");
  }
  if (kind.starts_with("chat:")) {
    return sse_event("", R"({"id":"chatcmpl-1","model":"gpt-4o","choices":[{"index":0,"delta":{},"finish_reason":"stop"}]})") +
           sse_event("", "[DONE]");
  }
  return sse_event("content_block_stop", R"({"type":"content_block_stop","index":0})") +
         sse_event("message_stop", R"({"type":"message_stop"})");
}

}  // namespace

std::string split_delta_stream(const DeltaKind& kind, std::string_view text, size_t piece) {
  std::string out = stream_start(kind.name);
  for (size_t at = 0; at < text.size(); at += piece) {
    std::string q;
    append_json_string(&q, text.substr(at, piece));
    out += delta_event(kind.name, q);
  }
  return out + stream_end(kind.name);
}

std::string wire_body_json(uint64_t exchange, std::string_view dir_fields, std::string_view host, std::string_view body,
                           std::string_view headers_json) {
  std::string q;
  append_json_string(&q, body);
  return R"({"conn":1,"exchange":)" + std::to_string(exchange) + "," + std::string(dir_fields) + R"(,"host":")" + std::string(host) + R"(","headers":)" +
         std::string(headers_json) + R"(,"body":)" + q + R"(,"encoding":"utf8","size":)" + std::to_string(body.size()) +
         R"(,"sha256":")" + digest_ref(sha256(body)) + R"(","redactions":[],"complete":true})";
}

LeakyTrace leaky_trace(const std::string& name) {
  LeakyTrace t;
  fixtures::Lines lines;
  auto b = trace_builder([&](const std::string& l) { lines.push_back(l); });
  const std::string login = "glpat-" + random_chars(20, 7), query_key = "AIza" + random_chars(35, 8),
                    bearer = random_chars(48, 9);
  t.secrets = {login, query_key, bearer};
  std::string header;
  JsonWriter hw(&header);
  hw.begin_object().field("format", "goalcup-trace").field("version", 0).field("entry_id", b.entry_id()).field("run_id", b.run_id());
  hw.key("recorder").begin_object().field("name", "goalcup-fixture").field("version", "0.1.0").end_object();
  hw.key("connector").begin_object().field("id", "x").field("version", "1.4.0").field("digest", digest_ref(sha256("x"))).end_object();
  hw.key("participant").begin_object().field("login", login).field("repo", "fixture/goal-cup-entry").end_object();
  hw.field("created_at", b.now_text()).end_object();
  b.add("header", header);
  b.add_start_receipt();
  b.add("launch", R"({"capture":{"decrypt":[{"host":"api.example.com","paths":["/v1/messages"]}],"tunnel":[]}})");
  const auto& kinds = delta_kinds();
  for (size_t i = 0; i < kinds.size(); ++i) {
    const std::string key = "sk-ant-api03-" + random_chars(93, 100 + static_cast<uint32_t>(i)) + "AA";
    t.secrets.push_back(key);
    const std::string text = kinds[i].json ? R"({"command":"echo the key is )" + key + R"( ok"})" : "the key is " + key + " ok";
    const std::string request = R"({"model":"m","stream":true,"messages":[{"role":"user","content":"go"}]})";
    const std::string path = i == 0 ? "/v1/messages?beta=true&key=" + query_key : "/v1/messages";
    const std::string headers = i == 0 ? R"([["authorization","Bearer )" + bearer + R"("]])" : "[]";
    b.tick(100);
    const uint64_t req = b.add("wire", wire_body_json(i, R"("dir":"request","method":"POST","path":")" + path + "\"",
                                                      "api.example.com", request, headers));
    if (i == 0) t.request_seq = req;
    b.tick(100);
    t.response_seqs.push_back(b.add("wire", wire_body_json(i, R"("dir":"response","status":200)", "api.example.com",
                                                           split_delta_stream(kinds[i], text, text.size() / 2 + 1))));
  }
  b.add_exit(0);
  b.add_seal("exit");
  b.add_seal_ack();
  t.path = write_temp(name, fixtures::join(lines));
  return t;
}

std::string claude_trace_with_tool_output(const std::string& name, const std::string& output, fixtures::WireForm form,
                                          const std::string& answer) {
  std::string quoted, answer_quoted;
  append_json_string(&quoted, output);
  append_json_string(&answer_quoted, answer);
  auto message = [](const std::string& id, const std::string& content) {
    return R"({"id":")" + id + R"(","model":"claude-opus-4-5","type":"message","role":"assistant","usage":{"input_tokens":3,)"
           R"("output_tokens":9},"content":[)" + content + "]}";
  };
  auto line = [](const std::string& uuid, const std::string& parent, const std::string& type, const std::string& msg) {
    return R"({"parentUuid":)" + (parent.empty() ? std::string("null") : "\"" + parent + "\"") + R"(,"type":")" + type +
           R"(","message":)" + msg + R"(,"uuid":")" + uuid + R"(","timestamp":"2026-01-01T10:00:0)" + uuid.substr(1) + "Z\"}\n";
  };
  const std::string log =
      line("u1", "", "user", R"({"role":"user","content":"Show the config"})") +
      line("u2", "u1", "assistant", message("msg_A", R"({"type":"tool_use","id":"toolu_1","name":"Bash","input":{"command":"cat cfg"}})")) +
      line("u3", "u2", "user", R"({"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_1","content":)" + quoted + "}]}") +
      line("u4", "u3", "assistant", message("msg_B", R"({"type":"text","text":)" + answer_quoted + "}"));
  fixtures::WrapSpec spec;
  spec.file = "session.jsonl";
  spec.wire_form = form;
  fixtures::Lines lines;
  fixtures::wrap_log(log, spec, dev_key(), [&](const std::string& l) { lines.push_back(l); });
  return write_temp(name, fixtures::join(lines));
}

fixtures::TraceBuilder trace_builder(fixtures::TraceBuilder::Sink sink) {
  return fixtures::TraceBuilder(dev_key(), "0123456789abcdef", "00000000-0000-4000-a000-000000000000",
                                Timestamp{1795687200LL * 1000000000LL}, std::move(sink));
}

const fixtures::SigningKey& dev_key() {
  static const auto key = fixtures::SigningKey::from_file(source_path("fixtures/keys/dev-key.json"));
  return key;
}

Keyring dev_keyring() {
  Keyring ring = Keyring::production();
  auto key = Keyring::supplied_from_base64(dev_key().public_key_base64());
  EXPECT_TRUE(key.ok());
  ring.add(*key);
  return ring;
}

VerifyReport verify_bytes(const std::string& bytes, const Keyring& ring, Limits limits) {
  WalkOptions opt;
  opt.limits = limits;
  opt.keyring = &ring;
  bool zstd = false;
  auto src = sniff_compression(memory_source(bytes), limits, &zstd);
  EXPECT_TRUE(src.ok());
  return walk_source(std::move(*src), opt);
}

VerifyReport verify_lines(const fixtures::Lines& lines, const Keyring& ring) {
  return verify_bytes(fixtures::join(lines), ring);
}

fixtures::Lines valid_trace(fixtures::HarnessStyle style, fixtures::Ending ending, uint32_t turns) {
  fixtures::TraceSpec spec;
  spec.style = style;
  spec.ending = ending;
  spec.turns = turns;
  spec.ack_every = 5;
  return fixtures::conversation_lines(spec, dev_key());
}

bool has_error(const VerifyReport& r, Code code) {
  for (const auto& t : r.errors_by_code) {
    if (t.code == code) return true;
  }
  for (const auto& e : r.errors) {
    if (e.code == code) return true;
  }
  return false;
}

std::string error_codes(const VerifyReport& r) {
  std::string s;
  for (const auto& e : r.errors) s += std::string(code_name(e.code)) + "@" + std::to_string(e.seq) + " ";
  return s.empty() ? "(none)" : s;
}

CommandResult run_command(const std::string& command) {
  CommandResult r;
  FILE* p = ::popen((command + " 2>/dev/null").c_str(), "r");
  if (!p) return r;
  char buf[4096];
  size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, p)) > 0) r.out.append(buf, n);
  int status = ::pclose(p);
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

namespace {

// A test process's scratch folder, removed when the process that made it
// ends (not a forked child's exit): ctest starts a process per test, and
// the hostile cases write hundreds of MB each, so folders left behind fill
// a disk within a few runs. GOALCUP_KEEP_TEST_FILES=1 keeps them to look at.
class ScratchDir {
 public:
  ScratchDir() {
    char tmpl[] = "/tmp/goalcup-test-XXXXXX";
    if (::mkdtemp(tmpl) != nullptr) path_ = tmpl;
  }
  ~ScratchDir() {
    if (path_.empty() || ::getpid() != owner_ || std::getenv("GOALCUP_KEEP_TEST_FILES") != nullptr) return;
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
  }
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;
  const std::string& path() const { return path_; }

 private:
  std::string path_;
  pid_t owner_ = ::getpid();
};

}  // namespace

std::string temp_dir() {
  static const ScratchDir dir;
  return dir.path();
}

MeasuredRun measured(const std::vector<std::string>& argv) {
  static std::atomic<int> runs{0};
  MeasuredRun run{{GOALCUP_PEAK_RSS_BIN}, temp_dir() + "/peak-rss-" + std::to_string(runs++)};
  run.argv.push_back(run.rss_file);
  run.argv.insert(run.argv.end(), argv.begin(), argv.end());
  return run;
}

long peak_rss_kb(const MeasuredRun& run) {
  const std::string text = read_file(run.rss_file);
  return text.empty() ? -1 : std::stol(text);
}

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

std::string write_temp(const std::string& name, const std::string& bytes) {
  std::string path = temp_dir() + "/" + name;
  std::ofstream(path, std::ios::binary) << bytes;
  return path;
}

}  // namespace goalcup::testing
