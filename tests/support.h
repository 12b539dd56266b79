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

std::string write_temp(const std::string& name, const std::string& bytes);
std::string read_file(const std::string& path);  // the bytes; "" if unreadable
std::string temp_dir();

}  // namespace goalcup::testing

// Verdict-with-context assertion.
#define EXPECT_VERDICT(report, v)                                                                \
  EXPECT_EQ(goalcup::verdict_name((report).verdict), goalcup::verdict_name(v))                    \
      << "errors: " << goalcup::testing::error_codes(report)
