// goalcup-verify: is this trace what the server countersigned?
// Exit: 0 verified, 1 invalid, 2 could not judge, 3 incomplete (the worst of
// a batch, ranked invalid > could not judge > incomplete > verified).
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <cstdio>
#include <iostream>

#include "cli/batch.h"
#include "cli/limits_options.h"
#include "cli/safe_text.h"
#include "core/walk.h"
#include "verify/report.h"

namespace goalcup {
namespace {

struct Options {
  std::vector<std::string> traces;
  std::vector<std::string> dev_keys;
  std::string format = "text";
  unsigned jobs = default_jobs();
  std::string shard;
  std::string files_from;
  bool no_progress = false;
  Limits limits;
};

int run(const Options& opt) {
  Keyring ring = Keyring::production();
  for (const auto& k : opt.dev_keys) {
    auto key = Keyring::load_supplied(k);
    if (!key) {
      print_text(std::cerr, "goalcup-verify: " + key.error().message + "\n", Style::plain());
      return 2;
    }
    ring.add(*key);
  }
  std::vector<std::string> traces = opt.traces;
  if (!opt.files_from.empty()) {
    auto more = read_file_list(opt.files_from);
    if (!more) {
      print_text(std::cerr, "goalcup-verify: " + more.error().message + "\n", Style::plain());
      return 2;
    }
    traces.insert(traces.end(), more->begin(), more->end());
  }
  if (!opt.shard.empty()) {
    auto shard = parse_shard(opt.shard);
    if (!shard) {
      std::cerr << "goalcup-verify: --shard wants K/N with 0 <= K < N\n";
      return 2;
    }
    traces = select_shard(traces, *shard);
  }
  if (traces.empty()) {
    if (opt.shard.empty()) {
      std::cerr << "goalcup-verify: no trace given\n";
      return 2;
    }
    return 0;  // an empty shard of a small batch
  }

  WalkOptions wopt;
  wopt.limits = opt.limits;
  wopt.keyring = &ring;
  // Spare cores go to pipelining each trace (reader and verifier threads).
  wopt.threads = opt.jobs >= 2 * traces.size() ? 2 : 1;
  std::vector<VerifyReport> reports(traces.size());
  const Style style = Style::for_fd(STDOUT_FILENO);
  Verdict overall = Verdict::verified;
  const bool json = opt.format == "json";
  std::string out;
  JsonWriter top(&out, true);
  if (json) {
    top.begin_object().field("tool", "goalcup-verify").field("version", GOALCUP_VERSION);
    top.key("reports").begin_array();
  }
  run_batch(
      traces.size(), opt.jobs, [&](size_t i) { reports[i] = walk_trace(traces[i], wopt); },
      [&](size_t i) {
        VerifyReport& r = reports[i];
        overall = worst(overall, r.verdict);
        if (opt.format == "text") {
          print_text(std::cout, format_verify_text(r, style), style);
        } else if (opt.format == "jsonl") {
          std::string line;
          JsonWriter w(&line);
          write_verify_json(w, r);
          std::cout << line << "\n";
        } else {
          write_verify_json(top, r);
          std::cout << out;
          out.clear();
        }
        std::cout.flush();
        r = VerifyReport{};  // free it: only the running tally is kept
      },
      !opt.no_progress, [&](size_t i) { return std::string(verdict_name(reports[i].verdict)); });
  if (json) {
    top.end_array().end_object();
    std::cout << out << "\n";
  }
  return verdict_exit_code(overall);
}

}  // namespace
}  // namespace goalcup

int main(int argc, char** argv) {
  using namespace goalcup;
  Options opt;
  CLI::App app{"goalcup-verify: re-walk a Goal Cup trace's hash chain, check every server statement "
               "against the pinned keys, and report how much of the trace is attested.\n"
               "Exit codes: 0 verified, 1 invalid, 2 could not judge, 3 incomplete (a batch exits with "
               "its worst: invalid > could not judge > incomplete > verified)."};
  app.set_version_flag("--version", GOALCUP_VERSION);
  app.add_option("traces", opt.traces, "trace files (.jsonl, .jsonl.zst), submission directories, .tar archives, or - for stdin");
  app.add_option("--dev-key", opt.dev_keys,
                 "trust this Ed25519 public key too (base64, or a file holding it or dev-key.json); "
                 "the report then says key_source \"supplied\"")
      ->allow_extra_args(false);
  app.add_option("--format", opt.format, "text, json or jsonl")
      ->check(CLI::IsMember({"text", "json", "jsonl"}))->capture_default_str();
  app.add_option("-j,--jobs", opt.jobs, "traces verified at once")->check(CLI::Range(1u, 1024u))->capture_default_str();
  app.add_option("--shard", opt.shard, "verify only shard K of N (0-based): traces K, K+N, K+2N, ...");
  app.add_option("--files-from", opt.files_from, "read more trace paths from this file, one per line");
  app.add_flag("--no-progress", opt.no_progress, "no progress line on stderr");
  add_limit_options(app, opt.limits);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    int code = app.exit(e);
    return code == 0 ? 0 : 2;
  }
  return run(opt);
}
