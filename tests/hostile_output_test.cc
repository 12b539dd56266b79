// Hostile uploads, what the tools print: terminal escapes, C1 and bidi
// controls and invalid UTF-8 in kinds, texts, names, file names and tar
// member names never reach the judge's terminal raw, from any tool or view,
// in a pipe, on a terminal (colours on) and on a terminal with NO_COLOR.
// Part of the hostile suite (hostile_tests, also run under ASan and UBSan).
#include <archive.h>
#include <archive_entry.h>
#include <fcntl.h>
#include <poll.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

#include <simdjson.h>

#include <chrono>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "cli/json_writer.h"
#include "tests/hostile_limits.h"
#include "tests/support.h"

namespace goalcup {
namespace {

namespace fs = std::filesystem;

constexpr int kHardSeconds = testing::kHostileHardSeconds;

// Every kind of byte the issue listed: OSC retitle, BEL, clear screen, CR,
// BS, DEL, a C0, C1 CSI (U+009B), RLO, LRI..PDI, LRM, ALM.
const std::string kHostile =
    "x\x1b]0;PWNED\x07\x1b[2J\r\b\x7f\x01 \xc2\x9b" "31m \xe2\x80\xae" "fdp.exe \xe2\x81\xa6\xe2\x80\x8e\xd8\x9c end";
// For texts that may span lines.
const std::string kHostileBody = kHostile + "\nsecond line\tand a tab " + kHostile;
// A file name may also hold bytes that are not UTF-8.
const std::string kHostileName = "n\x1b]0;PWNED\x07\xe2\x80\xae\xc2\x9b\xff\x9b";
const std::string kSecret = "sk-ant-api03-" + std::string(93, 'x') + "Q_AA";

enum class Terminal { pipe, tty, tty_no_color };

std::string terminal_name(Terminal t) {
  return t == Terminal::pipe ? "a pipe" : t == Terminal::tty ? "a terminal" : "a terminal with NO_COLOR";
}

// Where a terminal or bidi renderer would act on a byte of `s`: a C0 but LF
// and TAB, DEL, C1 (raw or as UTF-8), a bidi control, invalid UTF-8.
// Written apart from cli/safe_text so that a bug there is not shared.
// With `colour`, the SGR sequences Style writes are allowed.
std::string first_raw_control(std::string_view s, bool colour) {
  static constexpr std::string_view kSgr[] = {"\x1b[0m", "\x1b[1m", "\x1b[2m", "\x1b[31m", "\x1b[32m", "\x1b[33m", "\x1b[34m"};
  static constexpr std::string_view kBidi[] = {"\xd8\x9c", "\xe2\x80\x8e", "\xe2\x80\x8f", "\xe2\x80\xaa", "\xe2\x80\xab",
                                               "\xe2\x80\xac", "\xe2\x80\xad", "\xe2\x80\xae", "\xe2\x81\xa6", "\xe2\x81\xa7",
                                               "\xe2\x81\xa8", "\xe2\x81\xa9"};
  auto where = [&](size_t i, const char* what) {
    return std::string(what) + " at byte " + std::to_string(i) + ": ..." +
           std::string(s.substr(i < 40 ? 0 : i - 40, 80)) + "...";
  };
  for (size_t i = 0; i < s.size();) {
    const auto c = static_cast<unsigned char>(s[i]);
    bool sgr = false;
    for (auto seq : kSgr) sgr |= colour && s.substr(i).starts_with(seq);
    if (sgr) {
      i = s.find('m', i) + 1;
      continue;
    }
    if ((c < 0x20 && c != '\n' && c != '\t') || c == 0x7f) return where(i, "C0 or DEL");
    if (c < 0x80) {
      ++i;
      continue;
    }
    const size_t n = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : c >= 0xC0 ? 2 : 1;
    if (n == 1 || i + n > s.size() || !simdjson::validate_utf8(s.data() + i, n)) return where(i, "invalid UTF-8");
    if (c == 0xC2 && static_cast<unsigned char>(s[i + 1]) < 0xA0) return where(i, "C1");
    for (auto b : kBidi) {
      if (s.substr(i).starts_with(b)) return where(i, "bidi control");
    }
    i += n;
  }
  return {};
}

struct Printed {
  int exit_code = -1;
  bool signalled = false, timed_out = false;
  std::string out;  // stdout and stderr as the judge sees them, interleaved
};

// Runs argv with stdout and stderr on a pipe or on a pseudo-terminal.
Printed run_printing(const std::vector<std::string>& argv, Terminal term) {
  Printed p;
  int read_fd = -1, write_fd = -1;
  std::string slave;
  if (term == Terminal::pipe) {
    int fds[2];
    if (::pipe(fds) != 0) return p;
    read_fd = fds[0];
    write_fd = fds[1];
  } else {
    read_fd = ::posix_openpt(O_RDWR | O_NOCTTY);
    if (read_fd < 0 || ::grantpt(read_fd) != 0 || ::unlockpt(read_fd) != 0) return p;
    slave = ::ptsname(read_fd);
  }
  // The environment is made before fork: only exec-safe calls after it.
  // A sanitizer's report exits 86, not 1 (which a tool may mean).
  std::string asan = "ASAN_OPTIONS=exitcode=86", ubsan = "UBSAN_OPTIONS=exitcode=86";
  std::vector<std::string> env_text;
  for (char** e = environ; *e; ++e) {
    const std::string_view v(*e);
    if (v.starts_with("ASAN_OPTIONS=")) asan = std::string(v) + ":exitcode=86";
    else if (v.starts_with("UBSAN_OPTIONS=")) ubsan = std::string(v) + ":exitcode=86";
    else if (!v.starts_with("NO_COLOR=") && !v.starts_with("TERM=")) env_text.emplace_back(v);
  }
  env_text.push_back(asan);
  env_text.push_back(ubsan);
  env_text.emplace_back("TERM=xterm-256color");
  if (term == Terminal::tty_no_color) env_text.emplace_back("NO_COLOR=1");
  std::vector<char*> env, args;
  for (auto& e : env_text) env.push_back(e.data());
  env.push_back(nullptr);
  std::vector<std::string> argv_copy = argv;
  for (auto& a : argv_copy) args.push_back(a.data());
  args.push_back(nullptr);

  const auto start = std::chrono::steady_clock::now();
  const pid_t pid = ::fork();
  if (pid == 0) {
    if (term != Terminal::pipe) {
      ::setsid();
      write_fd = ::open(slave.c_str(), O_RDWR);
      termios t{};
      ::tcgetattr(write_fd, &t);
      ::cfmakeraw(&t);  // no LF -> CRLF: every byte arrives as the tool wrote it
      ::tcsetattr(write_fd, TCSANOW, &t);
    }
    const int devnull = ::open("/dev/null", O_RDONLY);
    ::dup2(devnull, STDIN_FILENO);
    ::dup2(write_fd, STDOUT_FILENO);
    ::dup2(write_fd, STDERR_FILENO);
    ::execve(args[0], args.data(), env.data());
    ::_exit(127);
  }
  if (write_fd >= 0) ::close(write_fd);
  char buf[65536];
  for (;;) {
    const auto left = std::chrono::seconds(kHardSeconds) - (std::chrono::steady_clock::now() - start);
    pollfd pfd{read_fd, POLLIN, 0};
    const int ms = static_cast<int>(std::chrono::duration_cast<std::chrono::milliseconds>(left).count());
    if (ms <= 0 || ::poll(&pfd, 1, ms) == 0) {
      p.timed_out = true;
      ::kill(pid, SIGKILL);
      break;
    }
    const ssize_t n = ::read(read_fd, buf, sizeof buf);
    if (n <= 0) break;  // EOF on a pipe, EIO on a terminal once the child is gone
    if (p.out.size() < (4u << 20)) p.out.append(buf, static_cast<size_t>(n));
  }
  ::close(read_fd);
  int status = 0;
  ::waitpid(pid, &status, 0);
  p.signalled = WIFSIGNALED(status);
  p.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return p;
}

std::string dir() {
  static const std::string d = [] {
    std::string p = testing::temp_dir() + "/hostile-output";
    fs::create_directories(p);
    return p;
  }();
  return d;
}

std::string put(const std::string& name, const std::string& bytes) {
  const std::string path = dir() + "/" + name;
  std::ofstream(path, std::ios::binary) << bytes;
  return path;
}

std::string json_string(std::string_view s) {
  std::string out;
  append_json_string(&out, s);
  return out;
}

// A signed trace whose every printable string the views show is hostile:
// connector, harness, models, ids, user and tool texts, the answer, tool
// names, SSE event names and raw data, a native file name, a gap, a kind,
// the seal reason.
std::string hostile_trace() {
  std::string trace;
  auto b = testing::trace_builder([&](const std::string& line) { trace += line + "\n"; });
  const std::string h = json_string(kHostile), body = json_string(kHostileBody);
  b.add_header(kHostile);
  b.add_start_receipt();
  b.add("launch", "{\"harness\":{\"id\":" + h + ",\"version\":" + h + ",\"program_digest\":" + h + ",\"image_digest\":" + h +
                      "},\"capture\":{\"tunnel\":[" + h + "],\"decrypt\":[{\"host\":\"api.anthropic.com\",\"paths\":[\"/v1/messages\"]}]}}");
  auto wire = [&](bool request, const std::string& payload, const std::string& type) {
    std::string out;
    JsonWriter w(&out);
    w.begin_object().field("conn", 1).field("exchange", 1).field("dir", request ? "request" : "response");
    w.field("host", "api.anthropic.com");
    if (request) w.field("method", "POST").field("path", "/v1/messages");
    else w.field("status", 200);
    w.key("headers").begin_array().begin_array().value("content-type").value(type).end_array();
    w.begin_array().value(kHostile).value(kHostile).end_array().end_array();
    w.field("body", payload).field("encoding", "utf8").field("size", static_cast<uint64_t>(payload.size()));
    w.field("sha256", digest_ref(sha256(payload))).key("redactions").begin_array().end_array();
    w.field("complete", true).end_object();
    b.add("wire", out);
  };
  wire(true,
       "{\"model\":" + h + ",\"max_tokens\":10,\"stream\":true,\"messages\":[{\"role\":\"user\",\"content\":" + body +
           "},{\"role\":\"user\",\"content\":[{\"type\":\"tool_result\",\"tool_use_id\":" + h + ",\"content\":" + body +
           "}]}]}",
       "application/json");
  auto event = [](const std::string& type, const std::string& data) { return "event: " + type + "\ndata: " + data + "\n\n"; };
  wire(false,
       event("message_start", "{\"type\":\"message_start\",\"message\":{\"id\":" + h + ",\"model\":" + h +
                                  ",\"usage\":{\"input_tokens\":1}}}") +
           event("content_block_start", "{\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"text\",\"text\":\"\"}}") +
           event("content_block_delta", "{\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":" + body + "}}") +
           event("content_block_stop", "{\"type\":\"content_block_stop\",\"index\":0}") +
           event("content_block_start", "{\"type\":\"content_block_start\",\"index\":1,\"content_block\":{\"type\":\"tool_use\",\"id\":" +
                                            h + ",\"name\":" + h + ",\"input\":{}}}") +
           event("content_block_delta", "{\"type\":\"content_block_delta\",\"index\":1,\"delta\":{\"type\":\"input_json_delta\",\"partial_json\":" +
                                            json_string("{\"cmd\":" + h + "}") + "}}") +
           event("content_block_stop", "{\"type\":\"content_block_stop\",\"index\":1}") +
           event("message_delta", "{\"type\":\"message_delta\",\"delta\":{\"stop_reason\":" + h + "},\"usage\":{\"output_tokens\":2}}") +
           event(kHostile, kHostile) + event("message_stop", "{\"type\":\"message_stop\"}"),
       "text/event-stream");
  b.add("native", "{\"source\":\"claude-code\",\"file\":" + h + ",\"line_no\":1,\"text\":" +
                      json_string("{\"type\":\"user\",\"message\":{\"content\":" + body + "},\"x\":" + h + "}") + "}");
  b.add("gap", "{\"gap\":" + h + "}");
  // The builder writes the kind and the seal reason into the line as given.
  const std::string escaped = h.substr(1, h.size() - 2);
  b.add(escaped, "{\"note\":" + body + "}");
  b.add_exit(1);
  b.add_seal(escaped);
  b.add_seal_ack();
  return trace;
}

// A tar whose member names are hostile: a trace deep in it and a file
// with a credential (named in the scan's findings).
std::string hostile_tar(const std::string& trace) {
  const std::string path = dir() + "/members.tar";
  archive* a = archive_write_new();
  archive_write_set_format_pax_restricted(a);
  archive_write_open_filename(a, path.c_str());
  auto add = [&](const std::string& name, const std::string& data) {
    archive_entry* e = archive_entry_new();
    archive_entry_set_pathname(e, name.c_str());
    archive_entry_set_filetype(e, AE_IFREG);
    archive_entry_set_perm(e, 0644);
    archive_entry_set_size(e, static_cast<la_int64_t>(data.size()));
    archive_write_header(a, e);
    archive_write_data(a, data.data(), data.size());
    archive_entry_free(e);
  };
  add(kHostileName + "/trace.jsonl", trace);
  add("trace.jsonl", trace);
  add(kHostileName + ".env", "KEY=" + kSecret + "\n");
  archive_write_close(a);
  archive_write_free(a);
  return path;
}

struct Inputs {
  std::string trace, one_line, named, tar, scan_dir, yaml_manifest, json_manifest;
};

const Inputs& inputs() {
  static const Inputs in = [] {
    Inputs i;
    const std::string trace = hostile_trace();
    i.trace = put("hostile.jsonl", trace);
    // The one-line file: a kind that retitles and clears.
    i.one_line = put("one-line.jsonl", "{\"seq\":0,\"t\":\"2026-11-29T17:05:16Z\",\"kind\":\"x\\u001b]0;PWNED\\u0007\\u001b[2J\","
                                       "\"prev\":null,\"body\":{}}\n");
    i.named = put(kHostileName + ".jsonl", trace);
    i.tar = hostile_tar(trace);
    i.scan_dir = dir() + "/scan";
    fs::create_directories(i.scan_dir + "/" + kHostileName);
    put("scan/" + kHostileName + "/" + kHostileName + ".txt", "token " + kSecret + "\n");
    put("scan/" + kHostileName + ".jsonl", trace);
    // Hen manifests whose every value breaks a rule and quotes the bytes.
    i.yaml_manifest = put(kHostileName + ".yaml", "spec_version: " + kHostile + "\nname: " + kHostile + "\nagent_kind: " +
                                                      kHostile + "\nnetwork:\n  policy: allowlist\n  allow: [\"" + kHostile +
                                                      "\"]\n" + kHostile + ": 1\n");
    const std::string h = json_string(kHostile);
    i.json_manifest = put("manifest.json", "{\"spec_version\":" + h + ",\"name\":" + h + ",\"agent_kind\":" + h +
                                               ",\"network\":{\"policy\":\"allowlist\",\"allow\":[" + h + "]}," + h + ":1}");
    return i;
  }();
  return in;
}

struct View {
  std::string name;
  std::vector<std::string> argv;
};

std::vector<View> views() {
  const Inputs& in = inputs();
  // The dev key signs the trace: the tools read it as far as they can.
  const std::string key = testing::source_path("fixtures/keys/dev-key.json");
  const std::string verify = GOALCUP_VERIFY_BIN, inspect = GOALCUP_INSPECT_BIN, cheat = GOALCUP_CHEATCHECK_BIN;
  std::vector<View> v;
  for (const std::string& t : {in.trace, in.one_line, in.named, in.tar}) {
    v.push_back({"verify", {verify, "--no-progress", "--dev-key", key, t}});
    v.push_back({"verify json", {verify, "--no-progress", "--dev-key", key, "--format", "json", t}});
    v.push_back({"inspect summary", {inspect, "--dev-key", key, "summary", t}});
    v.push_back({"inspect records", {inspect, "--dev-key", key, "records", t}});
    v.push_back({"cheatcheck", {cheat, "--no-progress", "--dev-key", key, t}});
  }
  v.push_back({"verify batch", {verify, "--no-progress", "--dev-key", key, in.trace, in.one_line, in.named, in.tar}});
  for (int seq = 0; seq < 14; ++seq) v.push_back({"inspect show " + std::to_string(seq), {inspect, "--dev-key", key, "show", in.trace, std::to_string(seq)}});
  v.push_back({"inspect show missing", {inspect, "--dev-key", key, "show", in.named, "99"}});
  v.push_back({"inspect conversation", {inspect, "--dev-key", key, "conversation", in.trace}});
  v.push_back({"inspect conversation markdown", {inspect, "--dev-key", key, "conversation", "--format", "markdown", in.trace}});
  v.push_back({"inspect summary json", {inspect, "--dev-key", key, "summary", "--json", in.trace}});
  v.push_back({"inspect records json", {inspect, "--dev-key", key, "records", "--json", in.trace}});
  v.push_back({"inspect show json", {inspect, "--dev-key", key, "show", "--json", in.trace, "4"}});
  v.push_back({"inspect conversation json", {inspect, "--dev-key", key, "conversation", "--format", "json", in.trace}});
  v.push_back({"cheatcheck json", {cheat, "--no-progress", "--dev-key", key, "--format", "json", in.trace}});
  v.push_back({"cheatcheck sarif", {cheat, "--no-progress", "--dev-key", key, "--format", "sarif", in.trace}});
  v.push_back({"cheatcheck show secrets", {cheat, "--no-progress", "--dev-key", key, "--show-secrets", in.trace}});
  v.push_back({"cheatcheck scan", {cheat, "scan", "--no-progress", in.scan_dir, in.tar}});
  v.push_back({"cheatcheck scan json", {cheat, "scan", "--no-progress", "--format", "json", in.scan_dir, in.tar}});
  v.push_back({"cheatcheck coop", {cheat, "coop", "--no-progress", in.scan_dir}});
  v.push_back({"cheatcheck manifest", {cheat, "manifest", "--no-progress", in.yaml_manifest, in.json_manifest}});
  v.push_back({"cheatcheck manifest sarif", {cheat, "manifest", "--no-progress", "--format", "sarif", in.json_manifest}});
  return v;
}

class HostileOutput : public ::testing::TestWithParam<Terminal> {};

TEST_P(HostileOutput, NoRawControlReachesTheJudge) {
  const Terminal term = GetParam();
#ifdef GOALCUP_SANITIZED
  // A terminal without colour runs the coloured one's code less its escapes:
  // for memory safety the other two suffice (10 s of the sanitizer stage).
  if (term == Terminal::tty_no_color) GTEST_SKIP() << "checked in the release build";
#endif
  size_t shown = 0;
  for (const View& v : views()) {
    // JSON and SARIF are the same bytes whatever stdout is: checked in a pipe.
    const bool json = v.name.find("json") != std::string::npos || v.name.find("sarif") != std::string::npos;
    if (json && term != Terminal::pipe) continue;
    SCOPED_TRACE(v.name + " on " + terminal_name(term) + ": " + v.argv.back());
    const Printed p = run_printing(v.argv, term);
    EXPECT_FALSE(p.timed_out);
    EXPECT_FALSE(p.signalled);
    EXPECT_GE(p.exit_code, 0);
    EXPECT_LE(p.exit_code, 3);
    EXPECT_EQ(first_raw_control(p.out, term == Terminal::tty), "");
    shown += p.out.find("PWNED") != std::string::npos;
  }
  // The hostile strings are shown (escaped), not dropped.
  EXPECT_GT(shown, views().size() / 3);
}

INSTANTIATE_TEST_SUITE_P(Terminals, HostileOutput, ::testing::Values(Terminal::pipe, Terminal::tty, Terminal::tty_no_color),
                         [](const auto& p) {
                           return p.param == Terminal::pipe ? std::string("Pipe")
                                  : p.param == Terminal::tty ? std::string("Terminal")
                                                             : std::string("TerminalNoColor");
                         });

TEST(HostileOutput, TheChecksSeeTheBytesTheyMustRefuse) {
  // The checker above must find each byte the issue lists, or the tests
  // above could not fail.
  for (std::string_view s : {"\x1b", "\x07", "\r", "\b", "\x7f", "\xc2\x9b", "\x9b", "\xe2\x80\xae", "\xe2\x81\xa6",
                             "\xe2\x80\x8e", "\xd8\x9c", "\xff"}) {
    EXPECT_NE(first_raw_control("ok " + std::string(s) + " ok", true), "") << ::testing::PrintToString(std::string(s));
  }
  EXPECT_EQ(first_raw_control("ok\n\tcafé 東京 \x1b[31mred\x1b[0m", true), "");
  EXPECT_NE(first_raw_control("\x1b[31mred\x1b[0m", false), "");
}

TEST(HostileOutput, ColoursStillReachATerminal) {
  const Printed p = run_printing({GOALCUP_VERIFY_BIN, "--no-progress", inputs().trace}, Terminal::tty);
  EXPECT_NE(p.out.find("\x1b[31m"), std::string::npos) << p.out;
  const Printed plain = run_printing({GOALCUP_VERIFY_BIN, "--no-progress", inputs().trace}, Terminal::tty_no_color);
  EXPECT_EQ(plain.out.find('\x1b'), std::string::npos) << plain.out;
}

}  // namespace
}  // namespace goalcup
