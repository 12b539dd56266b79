// goalcup-cheatcheck: evidence of the recorder's known gaps (GC01..GC13) and
// of leaked credentials, in traces and in plain files.
// Exit: 0 nothing at or above --fail-on, 1 findings at or above it,
// 2 could not judge (usage, unreadable input, a limit).
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <iostream>

#include "cheatcheck/coop/audit.h"
#include "cheatcheck/report.h"
#include "cheatcheck/scanner.h"
#include "cheatcheck/secrets/file_scan.h"
#include "cheatcheck/secrets/redact.h"
#include "cheatcheck/secrets/rules.h"
#include "cheatcheck/suppress.h"
#include "cli/batch.h"
#include "cli/limits_options.h"
#include "cli/safe_text.h"

namespace goalcup::cheat {
namespace {

struct Options {
  std::vector<std::string> inputs;
  std::vector<std::string> dev_keys;
  std::string policy_path, baseline, allowlist, format = "text", fail_on = "high", shard, files_from;
  unsigned jobs = default_jobs();
  bool no_progress = false, no_secrets = false, show_secrets = false;
  Limits limits;
};

int usage_error(const std::string& message) {
  print_text(std::cerr, "goalcup-cheatcheck: " + message + "\n", Style::plain());
  return 2;
}

// Inputs after --files-from and --shard.
std::optional<std::vector<std::string>> select_inputs(const Options& opt, std::string* err) {
  std::vector<std::string> inputs = opt.inputs;
  if (!opt.files_from.empty()) {
    auto more = read_file_list(opt.files_from);
    if (!more) {
      *err = more.error().message;
      return std::nullopt;
    }
    inputs.insert(inputs.end(), more->begin(), more->end());
  }
  if (!opt.shard.empty()) {
    auto shard = parse_shard(opt.shard);
    if (!shard) {
      *err = "--shard wants K/N with 0 <= K < N";
      return std::nullopt;
    }
    inputs = select_shard(inputs, *shard);
  }
  return inputs;
}

int run(const Options& opt, const std::string& mode) {
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
    if (auto e = suppress.load_baseline(opt.baseline)) return usage_error(e->message);
  }
  if (!opt.allowlist.empty()) {
    if (auto e = suppress.load_allowlist(opt.allowlist)) return usage_error(e->message);
  }
  Keyring ring = Keyring::production();
  for (const auto& k : opt.dev_keys) {
    auto key = Keyring::load_supplied(k);
    if (!key) return usage_error(key.error().message);
    ring.add(*key);
  }
  std::string err;
  auto inputs = select_inputs(opt, &err);
  if (!inputs) return usage_error(err);
  if (mode == "scan") *inputs = expand_scan_paths(*inputs);
  if (inputs->empty()) return opt.shard.empty() ? usage_error("nothing to check") : 0;

  CheatOptions copt;
  copt.walk.limits = opt.limits;
  copt.walk.keyring = &ring;
  // Cores left over when there are fewer inputs than jobs go to each input:
  // a reader thread for the walk, and workers for the secret scan.
  const unsigned per_input = static_cast<unsigned>(opt.jobs / inputs->size());
  const unsigned secret_threads = per_input >= 2 ? per_input : 0;
  copt.walk.threads = per_input >= 2 ? 2 : 1;
  copt.secret_threads = secret_threads;
  copt.policy = &policy;
  copt.secrets = !opt.no_secrets;
  copt.keep_secret_text = opt.show_secrets;

  ReportSet set;
  set.fail_on = fail_on;
  set.mode = mode;
  set.reports.resize(inputs->size());
  const Style style = Style::for_fd(STDOUT_FILENO);
  bool any_fail = false, any_unjudged = false;
  size_t done = 0;
  run_batch(
      inputs->size(), opt.jobs,
      [&](size_t i) {
        const std::string& in = (*inputs)[i];
        CheatReport r = mode == "scan"       ? scan_file(in, opt.limits, policy, opt.show_secrets, secret_threads)
                        : mode == "coop"     ? audit_coop_dir(in, opt.limits, policy)
                        : mode == "manifest" ? audit_manifest(in, opt.limits, policy)
                                             : check_trace(in, copt);
        suppress.apply(r.findings);
        set.reports[i] = std::move(r);
      },
      [&](size_t i) {
        const CheatReport& r = set.reports[i];
        any_fail |= fails(r, fail_on);
        any_unjudged |= unjudged(r);
        // Scan mode lists only the files with something to say.
        const bool quiet = mode == "scan" && r.findings.empty() && !unjudged(r);
        if (opt.format == "text" && !quiet) {
          print_text(std::cout, format_cheat_text(r, fail_on, style, mode != "trace"), style);
          std::cout.flush();
        }
        ++done;
      },
      !opt.no_progress, [&](size_t i) { return std::string(fails(set.reports[i], fail_on) ? "fail" : "pass"); });
  if (opt.format == "text" && mode == "scan") {
    std::cout << "scanned " << done << " file(s): " << (any_unjudged ? "some could not be read" : any_fail ? "findings above" : "nothing to report") << "\n";
  }
  if (opt.format == "json") std::cout << format_cheat_json(set);
  if (opt.format == "sarif") std::cout << format_cheat_sarif(set);
  return any_unjudged ? 2 : any_fail ? 1 : 0;
}

void add_output_options(CLI::App& app, Options& opt) {
  app.add_option("--format", opt.format, "text, json or sarif")
      ->check(CLI::IsMember({"text", "json", "sarif"}))->capture_default_str();
  app.add_option("--fail-on", opt.fail_on, "exit 1 when a finding is at or above: info, warning or high")
      ->check(CLI::IsMember({"info", "warning", "high"}))->capture_default_str();
  app.add_option("--policy", opt.policy_path, "the judge's reference lists and thresholds (JSON)");
  app.add_option("--baseline", opt.baseline, "an earlier JSON report: its findings are suppressed");
  app.add_option("--allowlist", opt.allowlist, "fingerprints or secret SHA-256s to suppress, one per line");
  app.add_option("-j,--jobs", opt.jobs, "inputs checked at once")->check(CLI::Range(1u, 1024u))->capture_default_str();
  app.add_option("--shard", opt.shard, "only shard K of N (0-based)");
  app.add_option("--files-from", opt.files_from, "more inputs, one path per line");
  app.add_flag("--no-progress", opt.no_progress, "no progress line on stderr");
  app.add_flag("--show-secrets", opt.show_secrets,
               "print each credential itself beside its finding (never otherwise printed, logged or written)");
}

}  // namespace
}  // namespace goalcup::cheat

int main(int argc, char** argv) {
  using namespace goalcup;
  using namespace goalcup::cheat;
  Options opt;
  CLI::App app{"goalcup-cheatcheck: find evidence of the recorder's known gaps (cheat checklist GC01-GC13) and of "
               "leaked credentials in Goal Cup traces.\n"
               "Exit codes: 0 nothing at or above --fail-on, 1 findings at or above it, 2 could not judge."};
  app.set_version_flag("--version", GOALCUP_VERSION);
  app.add_option("traces", opt.inputs, "traces (.jsonl, .jsonl.zst, submission directories, .tar, - for stdin)");
  app.add_option("--dev-key", opt.dev_keys, "also trust this Ed25519 key for statements (see goalcup-verify)")
      ->allow_extra_args(false);
  app.add_flag("--no-secrets", opt.no_secrets, "skip the credential scan (GC02, GC03)");
  add_output_options(app, opt);
  add_limit_options(app, opt.limits);
  app.fallthrough();

  auto* scan = app.add_subcommand("scan", "scan any files or directories for credentials (zstd and .tar transparently)");
  scan->add_option("paths", opt.inputs, "files or directories");
  auto* coop = app.add_subcommand("coop", "audit a copy of a coop data directory (modes, secrets, vault, workdirs)");
  coop->add_option("dirs", opt.inputs, "coop data directories")->required();
  auto* manifest = app.add_subcommand("manifest", "check coop hen manifests (YAML or JSON) against coop's rules");
  manifest->add_option("files", opt.inputs, "manifests")->required();
  bool print_rules = false;
  auto* redact = app.add_subcommand("redact", "write a copy of a trace with every credential replaced, re-chained and "
                                              "re-signed with a development key");
  std::string redact_in, redact_out, redact_key;
  redact->add_option("trace", redact_in, "trace to redact")->required();
  redact->add_option("-o,--out", redact_out,
                     "output .jsonl, - for stdout; never the input; replaced only once the whole copy is written")
      ->required();
  redact->add_option("--key", redact_key, "dev-key.json holding the signing seed")->required();
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
  return run(opt, *scan ? "scan" : *coop ? "coop" : *manifest ? "manifest" : "trace");
}
