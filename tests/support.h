// Shared helpers for the tests: verify lines in memory, find errors, run
// the command-line tools.
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/keyring.h"
#include "core/verifier.h"
#include "core/walk.h"
#include "fixtures/writer/conversation.h"
#include "fixtures/writer/tamper.h"
#include "fixtures/writer/wrap.h"

namespace goalcup::testing {

std::string source_path(const std::string& relative);  // inside the repo
std::string sample_path(const std::string& name);       // fixtures/samples/
// The project's shared/ folder (spec, samples, corpora): $GOALCUP_SHARED_DIR,
// else the first shared/ beside the checkout or one of its parents; "" if none.
std::string shared_dir();
std::string shared_samples_dir();  // shared_dir() + "/samples", "" if absent
std::string corpora_dir();         // shared_dir() + "/corpora", "" if absent

// The development key of fixtures/keys/dev-key.json.
const fixtures::SigningKey& dev_key();
// A keyring that trusts the dev key as "supplied" (like --dev-key).
Keyring dev_keyring();
// A builder signing with the dev key, for a fixed entry and run, starting
// 2026-11-26: for tests that write a trace record by record.
fixtures::TraceBuilder trace_builder(fixtures::TraceBuilder::Sink sink);

VerifyReport verify_bytes(const std::string& bytes, const Keyring& ring = dev_keyring(), Limits limits = {});
VerifyReport verify_lines(const fixtures::Lines& lines, const Keyring& ring = dev_keyring());

// A valid sealed trace of the given style.
fixtures::Lines valid_trace(fixtures::HarnessStyle style = fixtures::HarnessStyle::claude_code,
                            fixtures::Ending ending = fixtures::Ending::sealed, uint32_t turns = 4);

bool has_error(const VerifyReport& r, Code code);
// Every error code in the report, for failure messages.
std::string error_codes(const VerifyReport& r);

struct CommandResult {
  int exit_code = -1;
  std::string out;
};
// Runs a shell command; stdout captured, stderr discarded.
CommandResult run_command(const std::string& command);

// `n` characters of `alphabet` (base62 by default) that look random, the
// same for the same seed: test tokens real rules accept (no "xxxx" fillers).
std::string random_chars(size_t n, uint32_t seed = 1,
                         std::string_view alphabet = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz");

// A delta kind of a streamed answer: its name in the stream (Chat
// Completions kinds as "chat:content"...), and whether what it streams is
// JSON (a tool's arguments) rather than text.
struct DeltaKind {
  std::string name;
  bool json = false;
};
// Every delta kind the providers stream an answer's text, thinking,
// reasoning or a tool's input in (and inspect rebuilds, core/sse.cc).
const std::vector<DeltaKind>& delta_kinds();
// An answer's event stream in which `text` (JSON for a kind that streams
// JSON) reaches the client in deltas of `kind` of `piece` bytes each, so
// that a credential in it is split across deltas.
std::string split_delta_stream(const DeltaKind& kind, std::string_view text, size_t piece = 7);
// A wire record's body JSON for `body` in exchange `exchange` of
// connection 1: `dir_fields` are "dir" and what goes with it
// ("\"dir\":\"response\",\"status\":200").
std::string wire_body_json(uint64_t exchange, std::string_view dir_fields, std::string_view host, std::string_view body,
                           std::string_view headers_json = "[]");

// The honest trace (dev key, written by the fixture writer's wrap) around a
// short Claude Code log in which a Bash call's result is `output`: the
// prompt "Show the config", the call, its result, then "Done.". Returns the
// trace's path (written under `name` in the test's scratch folder). The
// wire holds the bodies in `form`; the last answer's text is `answer`.
std::string claude_trace_with_tool_output(const std::string& name, const std::string& output,
                                          fixtures::WireForm form = fixtures::WireForm::same,
                                          const std::string& answer = "Done.");

// A sealed trace (dev key) with credentials where a recorder's redactor
// may miss them: the participant's login in the header, a key in a
// request's query string, a bearer token no rule knows in its
// authorization header, and an answer of each of delta_kinds() with a key
// split in two across its deltas. `secrets` are all of them; `response_seqs`
// the answers' seqs, in delta_kinds() order.
struct LeakyTrace {
  std::string path;
  std::vector<std::string> secrets;
  std::vector<uint64_t> response_seqs;
  uint64_t request_seq = 0;  // the request with the query string and the header
};
LeakyTrace leaky_trace(const std::string& name);

std::string write_temp(const std::string& name, const std::string& bytes);
std::string read_file(const std::string& path);  // the bytes; "" if unreadable
std::string temp_dir();

// `argv` run through tests/peak_rss.c, which writes the run's own peak RSS
// to a file of the scratch directory: a tool forked straight from a test
// would count the test's own memory too. Read it with peak_rss_kb.
struct MeasuredRun {
  std::vector<std::string> argv;
  std::string rss_file;
};
MeasuredRun measured(const std::vector<std::string>& argv);
long peak_rss_kb(const MeasuredRun& run);  // -1 if the run wrote none

}  // namespace goalcup::testing

// Verdict-with-context assertion.
#define EXPECT_VERDICT(report, v)                                                                \
  EXPECT_EQ(goalcup::verdict_name((report).verdict), goalcup::verdict_name(v))                    \
      << "errors: " << goalcup::testing::error_codes(report)
