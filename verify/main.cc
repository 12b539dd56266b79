// goalcup-verify: is this trace what the server countersigned?
// Exit: 0 verified, 1 invalid, 2 could not judge, 3 incomplete (the worst of
// a batch, ranked invalid > could not judge > incomplete > verified).
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <cstdio>
#include <iostream>

#include "cli/batch.h"
#include "cli/key_options.h"
#include "cli/limits_options.h"
#include "cli/merge.h"
#include "cli/safe_text.h"
#include "cli/summary.h"
#include "cli/verify_text.h"
#include "core/walk.h"
#include "verify/printer.h"

namespace goalcup {
namespace {

struct Options {
  InputOptions in;
  std::vector<std::string> dev_keys;
  std::string format = "text";
  unsigned jobs = default_jobs();
  unsigned threads = 1;  // set by add_threads_option
  bool no_progress = false, quiet = false;
  Limits limits;
};

constexpr const char* kTool = "goalcup-verify";

int usage_error(const std::string& message) {
  print_text(std::cerr, std::string(kTool) + ": " + message + "\n", Style::plain());
  return 2;
}

void add_to_summary(BatchSummary& summary, const VerifyReport& r) {
  summary.add(r.file, verdict_name(r.verdict), verdict_exit_code(r.verdict));
  if (vouched_by_supplied_key(r)) summary.add_supplied_key(r.file, verdict_name(r.verdict));
}

int run(const Options& opt) {
  auto ring = load_keyring(opt.dev_keys);
  if (!ring) return usage_error(ring.error().message);
  auto selected = gather_inputs(opt.in);
  if (!selected) return usage_error(selected.error().message);
  const std::vector<std::string>& traces = selected->inputs;
  if (traces.empty() && !selected->shard) return usage_error("no trace given");

  WalkOptions wopt;
  wopt.limits = opt.limits;
  wopt.keyring = &*ring;
  // Cores no job holds go to the threads inside each trace.
  wopt.threads = opt.threads;
  wopt.pool = &CorePool::shared();
  std::vector<VerifyReport> reports(traces.size());
  const Style style = Style::for_fd(STDOUT_FILENO);
  BatchSummary summary;
  if (selected->shard) summary.set_shard(*selected->shard);
  // --format accepts only known names: the printer is chosen once.
  const auto printer = make_verify_printer(parse_format(opt.format).value_or(Format::text), {.style = style, .quiet = opt.quiet});
  run_batch(
      traces.size(), opt.jobs, [&](size_t i) {
        WalkOptions one = wopt;
        one.follow_link = selected->follow_link(traces[i]);
        reports[i] = walk_trace(traces[i], one);
      },
      [&](size_t i) {
        VerifyReport& r = reports[i];
        add_to_summary(summary, r);
        printer->print(r);
        r = VerifyReport{};  // free it: only the running tally is kept
      },
      !opt.no_progress, [&](size_t i) { return std::string(verdict_name(reports[i].verdict)); });
  printer->finish(summary);
  return summary.exit_code();
}

// A shard's verdict by the name verdict_name() gave it; a name it does not
// give (a damaged shard) is "could not judge".
Verdict verdict_named(std::string_view name) {
  for (const Verdict v : {Verdict::verified, Verdict::incomplete, Verdict::invalid}) {
    if (verdict_name(v) == name) return v;
  }
  return Verdict::error;
}

MergedReport judge_verify_line(simdjson::dom::element report, BatchSummary& summary) {
  std::string_view file, verdict, key_source;
  if (report["file"].get(file)) file = "?";
  if (report["verdict"].get(verdict)) verdict = "error";
  if (report["key_source"].get(key_source)) key_source = "none";
  const Verdict v = verdict_named(verdict);
  summary.add(file, verdict_name(v), verdict_exit_code(v));
  const bool supplied_key = vouched_by_supplied_key(verdict_name(v), key_source);
  if (supplied_key) summary.add_supplied_key(file, verdict_name(v));
  std::string line = std::string(verdict_name(v));
  line.resize(std::max<size_t>(line.size(), 10), ' ');
  line += " " + safe_text(file);
  if (supplied_key) line += " (" + std::string(kSuppliedKeyNote) + ")";
  std::string_view code;
  if (!report["errors"].at(0)["code"].get(code)) line += " (" + std::string(code) + ")";
  return MergedReport{v == Verdict::verified, line};
}

int merge(const std::vector<std::string>& files, const Options& opt) {
  MergeOptions mopt;
  mopt.tool = kTool;
  mopt.version = GOALCUP_VERSION;
  mopt.format = parse_format(opt.format).value_or(Format::text);
  mopt.quiet = opt.quiet;
  BatchSummary summary;
  return merge_shards(files, mopt, summary, judge_verify_line, std::cout);
}

}  // namespace
}  // namespace goalcup

int main(int argc, char** argv) {
  using namespace goalcup;
  bound_allocator();
  Options opt;
  CLI::App app{"goalcup-verify: re-walk a Goal Cup trace's hash chain, check every server statement "
               "against the pinned keys, and report how much of the trace is attested.\n"
               "Exit codes: 0 verified, 1 invalid, 2 could not judge, 3 incomplete (a batch exits with "
               "its worst: invalid > could not judge > incomplete > verified)."};
  app.set_version_flag("--version", GOALCUP_VERSION);
  app.add_option("traces", opt.in.inputs,
                 "trace files (.jsonl, .jsonl.zst), submission directories, .tar archives, or - for stdin");
  add_dev_key_option(app, opt.dev_keys,
                     "trust this Ed25519 public key too (base64, or a file holding it or dev-key.json); "
                     "the report then says key_source \"supplied\"");
  app.add_option("--format", opt.format, "text, json or jsonl")
      ->check(CLI::IsMember({"text", "json", "jsonl"}))->capture_default_str();
  app.add_option("-j,--jobs", opt.jobs, "traces verified at once")->check(CLI::Range(1u, 1024u))->capture_default_str();
  add_threads_option(app, opt.threads);
  app.add_option("--shard", opt.in.shard, "verify only shard K of N (0-based): traces K, K+N, K+2N, ...");
  app.add_option("--files-from", opt.in.files_from,
                 "read more trace paths from this file (- for stdin), one per line; blank lines and # comments skipped");
  app.add_flag("-r,--batch", opt.in.batch,
               "a folder argument holds many traces or submissions: each is verified on its own");
  app.add_flag("-q,--quiet", opt.quiet, "print only the traces that are not verified, and the summary");
  app.add_flag("--no-progress", opt.no_progress, "no progress line on stderr");
  add_limit_options(app, opt.limits);
  app.fallthrough();
  std::vector<std::string> shard_files;
  auto* merge_cmd = app.add_subcommand(
      "merge", "combine the --format jsonl outputs of the N shards of one batch (--shard K/N) into one report "
               "with the summary and exit code of the whole");
  merge_cmd->add_option("shard_outputs", shard_files, "one JSON Lines file per shard, in any order")->required();
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    int code = app.exit(e);
    return code == 0 ? 0 : 2;
  }
  if (*merge_cmd) return checked_stdout_exit(kTool, merge(shard_files, opt));
  return checked_stdout_exit(kTool, run(opt));
}
