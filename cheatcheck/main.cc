// goalcup-cheatcheck: evidence of the recorder's known gaps (GC01..GC13) and
// of leaked credentials, in traces and in plain files.
// Exit: 0 nothing at or above --fail-on, 1 findings at or above it,
// 2 could not judge (usage, unreadable input, a limit); a batch exits with
// the worst, ranked 1 > 2 > 0 (the batch exit rule of cli/summary.h).
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <iostream>

#include "cheatcheck/coop/audit.h"
#include "cheatcheck/printer.h"
#include "cheatcheck/scanner.h"
#include "cheatcheck/secrets/file_scan.h"
#include "cheatcheck/secrets/redact.h"
#include "cheatcheck/secrets/rules.h"
#include "cheatcheck/suppress.h"
#include "cli/batch.h"
#include "cli/key_options.h"
#include "cli/limits_options.h"
#include "cli/merge.h"
#include "cli/safe_text.h"
#include "cli/summary.h"
#include "cli/verify_text.h"

namespace goalcup::cheat {
namespace {

struct Options {
  InputOptions in;
  std::vector<std::string> dev_keys;
  std::string policy_path, baseline, allowlist, format = "text", fail_on = "high", sarif_base;
  unsigned jobs = default_jobs();
  unsigned threads = 1;  // set by add_threads_option
  bool no_progress = false, no_secrets = false, show_secrets = false, quiet = false;
  Limits limits;
};

constexpr const char* kTool = "goalcup-cheatcheck";

int usage_error(const std::string& message) {
  print_text(std::cerr, std::string(kTool) + ": " + message + "\n", Style::plain());
  return 2;
}

// Inputs after --files-from, --batch, scan's folder walk and --shard (last,
// so that shards split the files a scan reads). `walks` gets what scan's
// folder walks left out (reported by the first shard only) and the budget
// each folder's files share.
Result<SelectedInputs> select_inputs(const Options& opt, Mode mode, ScanInputs* walks) {
  InputOptions in = opt.in;
  in.shard.clear();
  auto selected = gather_inputs(in);
  if (!selected) return selected;
  if (mode == Mode::scan) {
    *walks = expand_scan_paths(selected->inputs, opt.limits);
    selected->inputs = std::move(walks->files);
  }
  if (!opt.in.shard.empty()) {
    selected->shard = parse_shard(opt.in.shard);
    if (!selected->shard) return Error{Code::usage, -1, "--shard wants K/N with 0 <= K < N"};
    selected->inputs = select_shard(selected->inputs, &*selected->shard);
    if (selected->shard->index != 0) walks->walks.clear();
  }
  return selected;
}

int run(const Options& opt, Mode mode) {
  Severity fail_on = Severity::high;
  if (!parse_severity(opt.fail_on, &fail_on)) return usage_error("--fail-on wants info, warning or high");
  Policy policy;
  if (!opt.policy_path.empty()) {
    auto p = load_policy(opt.policy_path);
    if (!p) return usage_error(p.error().message);
    policy = std::move(*p);
  }
  Suppressions suppress;
  if (!opt.baseline.empty()) {
    if (auto loaded = suppress.load_baseline(opt.baseline); !loaded) return usage_error(loaded.error().message);
  }
  if (!opt.allowlist.empty()) {
    if (auto loaded = suppress.load_allowlist(opt.allowlist); !loaded) return usage_error(loaded.error().message);
  }
  auto ring = load_keyring(opt.dev_keys);
  if (!ring) return usage_error(ring.error().message);
  ScanInputs scan;  // scan: the walks' reports come first, then the files
  auto selected = select_inputs(opt, mode, &scan);
  if (!selected) return usage_error(selected.error().message);
  const std::vector<std::string>& inputs = selected->inputs;
  std::vector<CheatReport>& walks = scan.walks;
  const size_t total = walks.size() + inputs.size();
  if (total == 0 && !selected->shard) return usage_error("nothing to check");

  CheatOptions copt;
  copt.walk.limits = opt.limits;
  copt.walk.keyring = &*ring;
  // Cores left over when there are fewer inputs than --threads go to each
  // input: the walk's threads (from the pool no job holds) and workers for
  // the secret scan.
  const unsigned per_input = total == 0 ? 1 : static_cast<unsigned>(opt.threads / total);
  const unsigned secret_threads = per_input >= 2 ? per_input : 0;
  copt.walk.threads = opt.threads;
  copt.walk.pool = &CorePool::shared();
  copt.secret_threads = secret_threads;
  copt.policy = &policy;
  copt.secrets = !opt.no_secrets;
  copt.keep_secret_text = opt.show_secrets;

  // An input a --batch walk found is opened without following a link.
  auto copt_for = [&](const std::string& in) {
    CheatOptions one = copt;
    one.walk.follow_link = selected->follow_link(in);
    return one;
  };
  ReportSet set;
  set.fail_on = fail_on;
  set.mode = mode;
  set.quiet = opt.quiet;
  set.reports.resize(total);
  BatchSummary summary(mode == Mode::trace ? "trace" : "file");
  if (selected->shard) summary.set_shard(*selected->shard);
  // --format accepts only known names: the printer is chosen once. JSON and
  // SARIF are written at the end, from every report; text and JSON Lines as
  // each input is done, which frees its report.
  const auto printer = make_cheat_printer(parse_format(opt.format).value_or(Format::text), set,
                                          {.style = Style::for_fd(STDOUT_FILENO), .sarif = {.base_dir = opt.sarif_base}});
  run_batch(
      total, opt.jobs,
      [&](size_t i) {
        if (i < walks.size()) {
          set.reports[i] = std::move(walks[i]);
          return;
        }
        const std::string& in = inputs[i - walks.size()];
        const auto budget = scan.budgets.find(in);
        CheatReport r = mode == Mode::scan       ? scan_file(in, opt.limits, policy, opt.show_secrets, secret_threads,
                                                         budget == scan.budgets.end() ? nullptr : budget->second)
                        : mode == Mode::coop     ? audit_coop_dir(in, opt.limits, policy)
                        : mode == Mode::manifest ? audit_manifest(in, opt.limits, policy)
                                             : check_trace(in, copt_for(in));
        suppress.apply(r.findings);
        set.reports[i] = std::move(r);
      },
      [&](size_t i) {
        CheatReport& r = set.reports[i];
        add_to_summary(summary, r, fail_on);
        printer->print(r);
        if (!printer->keeps_reports()) r = CheatReport{};
      },
      !opt.no_progress,
      [&](size_t i) { return std::string(cheat_verdict(cheat_exit_code(set.reports[i], fail_on))); });
  printer->finish(summary);
  return summary.exit_code();
}

MergedReport judge_cheat_line(simdjson::dom::element report, BatchSummary& summary) {
  std::string_view file;
  if (report["file"].get(file)) file = "?";
  bool passed = false, could_not_judge = true;
  if (report["passed"].get(passed)) passed = false;
  if (report["could_not_judge"].get(could_not_judge)) could_not_judge = true;
  const int code = could_not_judge ? 2 : passed ? 0 : 1;
  summary.add(file, cheat_verdict(code), code);
  std::string_view verdict, key_source;
  const bool supplied_key = !report["verify"]["verdict"].get(verdict) && !report["verify"]["key_source"].get(key_source) &&
                            vouched_by_supplied_key(verdict, key_source);
  if (supplied_key) summary.add_supplied_key(file, cheat_verdict(code));
  std::map<std::string, size_t> counts;
  simdjson::dom::array findings;
  if (!report["findings"].get(findings)) {
    for (auto f : findings) {
      bool suppressed = false;
      std::string_view sev;
      if (f["suppressed"].get(suppressed) || suppressed || f["severity"].get(sev)) continue;
      ++counts[std::string(sev)];
    }
  }
  for (const char* sev : {"high", "warning", "info"}) summary.add_findings(sev, counts[sev]);
  simdjson::dom::array skipped;
  if (!report["skipped"].get(skipped)) {
    for (auto s : skipped) {
      std::string_view check, reason;
      if (!s["check"].get(check) && !s["reason"].get(reason)) summary.add_skipped(check, reason);
    }
  }
  const std::string word = code == 2 ? "ERROR" : code == 1 ? "FAIL " : "PASS ";
  return MergedReport{code == 0, word + " " + safe_text(file) + "  (" + std::to_string(counts["high"]) + " high, " +
                                     std::to_string(counts["warning"]) + " warning, " +
                                     std::to_string(counts["info"]) + " info" +
                                     (supplied_key ? "; " + std::string(kSuppliedKeyNote) : "") + ")"};
}

int merge(const std::vector<std::string>& files, const Options& opt) {
  const Format format = parse_format(opt.format).value_or(Format::text);
  if (format == Format::sarif) return usage_error("merge writes text, json or jsonl");
  MergeOptions mopt;
  mopt.tool = kTool;
  mopt.version = GOALCUP_VERSION;
  mopt.format = format;
  mopt.quiet = opt.quiet;
  mopt.header = {{"mode", "trace"}, {"fail_on", opt.fail_on}};
  BatchSummary summary;
  return merge_shards(files, mopt, summary, judge_cheat_line, std::cout);
}

void add_output_options(CLI::App& app, Options& opt) {
  app.add_option("--format", opt.format, "text, json, jsonl (one report per line, then the summary) or sarif")
      ->check(CLI::IsMember({"text", "json", "jsonl", "sarif"}))->capture_default_str();
  app.add_option("--sarif-base", opt.sarif_base,
                 "SARIF URIs relative to this folder (originalUriBaseIds SRCROOT), e.g. the repository root");
  app.add_option("--fail-on", opt.fail_on, "exit 1 when a finding is at or above: info, warning or high")
      ->check(CLI::IsMember({"info", "warning", "high"}))->capture_default_str();
  app.add_option("--policy", opt.policy_path, "the judge's reference lists and thresholds (JSON)");
  app.add_option("--baseline", opt.baseline, "an earlier JSON report: its findings are suppressed");
  app.add_option("--allowlist", opt.allowlist, "fingerprints or secret SHA-256s to suppress, one per line");
  app.add_option("-j,--jobs", opt.jobs, "inputs checked at once")->check(CLI::Range(1u, 1024u))->capture_default_str();
  app.add_option("--shard", opt.in.shard, "only shard K of N (0-based): inputs K, K+N, K+2N, ...");
  app.add_option("--files-from", opt.in.files_from,
                 "more inputs, one path per line (- for stdin); blank lines and # comments skipped");
  app.add_flag("-q,--quiet", opt.quiet, "print only the inputs that do not pass, and the summary");
  app.add_flag("--no-progress", opt.no_progress, "no progress line on stderr");
  app.add_flag("--show-secrets", opt.show_secrets,
               "print each credential itself beside its finding (never otherwise printed, logged or written)");
}

}  // namespace
}  // namespace goalcup::cheat

int main(int argc, char** argv) {
  using namespace goalcup;
  bound_allocator();
  using namespace goalcup::cheat;
  Options opt;
  CLI::App app{"goalcup-cheatcheck: find evidence of the recorder's known gaps (cheat checklist GC01-GC13) and of "
               "leaked credentials in Goal Cup traces.\n"
               "Exit codes: 0 nothing at or above --fail-on, 1 findings at or above it, 2 could not judge."};
  app.set_version_flag("--version", GOALCUP_VERSION);
  app.add_option("traces", opt.in.inputs, "traces (.jsonl, .jsonl.zst, submission directories, .tar, - for stdin)");
  add_dev_key_option(app, opt.dev_keys);
  app.add_flag("--no-secrets", opt.no_secrets, "skip the credential scan (GC02, GC03)");
  app.add_flag("-r,--batch", opt.in.batch,
               "a folder argument holds many traces or submissions: each is checked on its own");
  add_output_options(app, opt);
  add_limit_options(app, opt.limits);
  add_threads_option(app, opt.threads);
  app.fallthrough();

  auto* scan = app.add_subcommand("scan", "scan any files or directories for credentials (zstd and .tar transparently)");
  scan->add_option("paths", opt.in.inputs, "files or directories");
  auto* coop = app.add_subcommand("coop", "audit a copy of a coop data directory (modes, secrets, vault, workdirs)");
  coop->add_option("dirs", opt.in.inputs, "coop data directories")->required();
  auto* manifest = app.add_subcommand("manifest", "check coop hen manifests (YAML or JSON) against coop's rules");
  manifest->add_option("files", opt.in.inputs, "manifests")->required();
  bool print_rules = false;
  auto* redact = app.add_subcommand("redact", "write a copy of a trace with every credential replaced, re-chained and "
                                              "re-signed with a development key");
  std::string redact_in, redact_out, redact_key;
  redact->add_option("trace", redact_in, "trace to redact")->required();
  redact->add_option("-o,--out", redact_out,
                     "output .jsonl, - for stdout; never the input; replaced only once the whole copy is written")
      ->required();
  redact->add_option("--key", redact_key, "dev-key.json holding the signing seed")->required();
  std::vector<std::string> shard_files;
  auto* merge_cmd = app.add_subcommand(
      "merge", "combine the --format jsonl outputs of the N shards of one batch (--shard K/N) into one report "
               "with the summary and exit code of the whole");
  merge_cmd->add_option("shard_outputs", shard_files, "one JSON Lines file per shard, in any order")->required();
  scan->add_flag("--print-rules", print_rules, "print the rule set as one regex per line (for comparisons) and exit");

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    int code = app.exit(e);
    return code == 0 ? 0 : 2;
  }
  if (*redact) {
    // Two passes over the trace (find, then rewrite): stdin cannot be read twice.
    if (redact_in == "-") return usage_error("redact reads the trace twice: give a file, not stdin");
    auto r = redact_trace(redact_in, redact_out, redact_key, opt.limits);
    if (!r) {
      print_text(std::cerr, "goalcup-cheatcheck: " + r.error().message + "\n", Style::plain());
      return 2;
    }
    std::cerr << "wrote " << (redact_out == "-" ? std::string("the copy to stdout") : safe_text(redact_out)) << ": " << r->records << " records, " << r->records_changed
              << " changed, " << r->secrets << " distinct secret(s) replaced.\n"
              << "The server's signatures cannot survive an edit: every statement is re-signed with development key "
              << r->key_id << ", so the copy verifies only with --dev-key " << redact_key << ".\n";
    return 0;
  }
  if (print_rules) {
    for (const auto& r : secret_rules()) std::cout << (r.caseless ? "(?i)" : "") << r.pattern << "\n";
    return 0;
  }
  if (*merge_cmd) return checked_stdout_exit(kTool, merge(shard_files, opt));
  return checked_stdout_exit(kTool,
                             run(opt, *scan ? Mode::scan : *coop ? Mode::coop : *manifest ? Mode::manifest : Mode::trace));
}
