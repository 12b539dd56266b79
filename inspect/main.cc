// goalcup-inspect: read a Goal Cup run as a judge would.
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <charconv>
#include <iostream>

#include "cli/key_options.h"
#include "cli/limits_options.h"
#include "cli/output_file.h"
#include "cli/printer.h"
#include "cheatcheck/secrets/mask.h"
#include "cli/safe_text.h"
#include "core/walk.h"
#include "inspect/conversation.h"
#include "inspect/diff.h"
#include "inspect/html.h"
#include "inspect/show.h"
#include "inspect/summary.h"
#include "inspect/verdict_view.h"

namespace goalcup::inspect {
namespace {

bool parse_range(const std::string& text, RecordFilter* f) {
  const size_t dots = text.find("..");
  auto num = [](std::string_view s, uint64_t* out) {
    return !s.empty() && std::from_chars(s.data(), s.data() + s.size(), *out).ptr == s.data() + s.size();
  };
  if (dots == std::string::npos) {
    if (!num(text, &f->from)) return false;
    f->to = f->from;
    return true;
  }
  const std::string_view a = std::string_view(text).substr(0, dots), b = std::string_view(text).substr(dots + 2);
  return (a.empty() || num(a, &f->from)) && (b.empty() || num(b, &f->to)) && f->from <= f->to;
}

// The same exit codes as goalcup-verify, so that a script never mistakes an
// invalid or unreadable trace for one it can read as sound.
int status_of(const VerifyReport& r) { return verdict_exit_code(r.verdict); }

// A missing or unreadable input: one line on stderr, exit 2, nothing else.
bool report_unreadable(const VerifyReport& r) {
  auto msg = unreadable_message(r);
  if (msg) print_text(std::cerr, "goalcup-inspect: " + *msg + "\n", Style::plain());
  return msg.has_value();
}

// The verify pass of a streaming view: the verdict and the marks it prints
// before the first record. stdin is spooled so that it can be read again.
std::optional<VerifyReport> verify_first(const std::string& trace, ReplayableInput& input, const WalkOptions& wopt) {
  std::string err;
  if (!input.open(trace, wopt.limits.max_total_bytes, &err)) {
    print_text(std::cerr, "goalcup-inspect: " + err + "\n", Style::plain());
    return std::nullopt;
  }
  VerifyReport rep = walk_trace(input.path(), wopt);
  rep.file = trace;
  if (report_unreadable(rep)) return std::nullopt;
  return rep;
}

// Every credential on the page shows as its masked preview (each text was
// masked before it was escaped; the whole page again, for what spans
// texts), and the page says how many there were.
void mask_page(cheat::CredentialMasker& masker, std::string* page) {
  *page = masker.masked(*page);
  const size_t body = page->find("<body");
  const size_t at = body == std::string::npos ? std::string::npos : page->find('>', body);
  if (at == std::string::npos) return;
  page->insert(at + 1, "<p class=\"note\" id=\"masked\">" + std::to_string(masker.count()) +
                           " credential(s) masked: each shows as a prefix and its length (goalcup-inspect "
                           "--show-secrets prints them).</p>");
}

// diff: exit 0 when the contents are the same, 1 when they differ, 2 when a
// trace could not be read (diff(1)'s codes: the verdicts are in the output).
int run_diff(const std::string& a, const std::string& b, const WalkOptions& wopt, DiffOptions opt, Format format,
             bool show_secrets, const Style& style) {
  ReplayableInput in_a, in_b;
  std::string err;
  if (a == "-" && b == "-") {
    std::cerr << "goalcup-inspect: diff reads at most one trace from stdin\n";
    return 2;
  }
  if (!in_a.open(a, wopt.limits.max_total_bytes, &err) || !in_b.open(b, wopt.limits.max_total_bytes, &err)) {
    print_text(std::cerr, "goalcup-inspect: " + err + "\n", Style::plain());
    return 2;
  }
  opt.show_secrets = show_secrets;
  DiffReport r = diff_traces(in_a.path(), in_b.path(), wopt, opt);
  r.a.file = a;
  r.b.file = b;
  if (report_unreadable(r.a) || report_unreadable(r.b)) return 2;
  diff_printer(format, style).print(std::cout, r);
  // A trace not read to the end (a limit hit): what was read is shown, but
  // "the same" cannot be said of the rest.
  if (r.a.verdict == Verdict::error || r.b.verdict == Verdict::error) {
    std::cerr << "goalcup-inspect: a trace was not read to the end (verdict error): only the records read are compared\n";
    return 2;
  }
  return r.same() ? 0 : 1;
}

}  // namespace
}  // namespace goalcup::inspect

namespace {

int inspect_main(int argc, char** argv) {
  using namespace goalcup;
  using namespace goalcup::inspect;
  CLI::App app{"goalcup-inspect: read a Goal Cup run: its summary, records, any record in full, the conversation "
               "rebuilt from the wire, or one self-contained HTML page.\n"
               "Exit codes as goalcup-verify's verdict on what was read: 0 verified, 1 invalid, 2 could not judge, "
               "3 incomplete (show: 0 when the record was shown; diff: 0 same content, 1 differences, 2 could not "
               "compare). The verdict is the first line of every view."};
  app.set_version_flag("--version", GOALCUP_VERSION);
  app.require_subcommand(1);
  WalkOptions wopt;
  std::vector<std::string> dev_keys;
  add_dev_key_option(app, dev_keys);
  add_limit_options(app, wopt.limits);
  add_threads_option(app, wopt.threads);
  app.fallthrough();
  std::string trace;
  bool json = false;
  bool show_secrets = false;
  app.add_flag("--show-secrets", show_secrets,
               "print credentials in full (by default each shows as the masked preview its finding uses)");

  auto* summary = app.add_subcommand("summary", "the run at a glance, with the verify verdict");
  summary->add_option("trace", trace, "trace")->required();
  summary->add_flag("--json", json, "JSON (schemas/inspect-summary.schema.json)");

  auto* records = app.add_subcommand("records", "one line per record");
  RecordFilter filter;
  std::string range;
  records->add_option("trace", trace, "trace")->required();
  records->add_option("--kind", filter.kinds, "only records of these kinds (a comma list)")
      ->allow_extra_args(false)->delimiter(',');
  records->add_option("--seq", range, "only seqs A..B (either end may be left out), or one seq");
  records->add_option("--host", filter.host, "only records for this host");
  records->add_option("--grep", filter.grep, "only records whose line holds this text");
  records->add_flag("--json", json, "a JSON array (schemas/inspect-records.schema.json)");

  auto* show = app.add_subcommand("show", "one record in full, bodies decoded");
  uint64_t seq = 0;
  show->add_option("trace", trace, "trace")->required();
  show->add_option("seq", seq, "the record")->required();
  show->add_flag("--json", json, "JSON (schemas/inspect-show.schema.json)");

  auto* conversation = app.add_subcommand("conversation", "the run as a conversation rebuilt from the wire");
  std::string format = "text";
  conversation->add_option("trace", trace, "trace")->required();
  conversation->add_option("--format", format, "text, markdown or json")->check(CLI::IsMember({"text", "markdown", "json"}));

  auto* html = app.add_subcommand("html", "one self-contained HTML page for a judge");
  std::string out;
  HtmlLimits hl;
  html->add_option("trace", trace, "trace")->required();
  html->add_option("-o,--out", out, "output file (replaced only once the page is whole), - for stdout")->required();
  html->add_option("--max-exchanges", hl.exchanges, "conversation items embedded")->capture_default_str();
  // The cheat checks run in the same pass, with goalcup-cheatcheck's options.
  std::string policy_path;
  bool no_checks = false, no_secrets = false;
  html->add_option("--policy", policy_path, "the judge's reference lists and thresholds (as goalcup-cheatcheck's)");
  html->add_flag("--no-checks", no_checks, "do not run the cheat checks");
  html->add_flag("--no-secrets", no_secrets, "skip the credential scan (GC02, GC03)");

  auto* diff = app.add_subcommand("diff", "what changed between two traces, aligned by content (a redacted copy, "
                                           "two submissions of one entry)");
  std::string trace_b, diff_format = "text";
  DiffOptions dopt;
  diff->add_option("a", trace, "the first trace (the original)")->required();
  diff->add_option("b", trace_b, "the second trace (the copy)")->required();
  diff->add_option("--format", diff_format, "text, markdown or json (schemas/inspect-diff.schema.json)")
      ->check(CLI::IsMember({"text", "markdown", "json"}));
  diff->add_option("--max-changes", dopt.max_changes, "changes shown per stream (all are counted)")->capture_default_str();
  diff->add_option("--max-edits", dopt.align.max_edits, "edits one alignment window may find (its memory: the square "
                                                          "x 4 bytes)")
      ->capture_default_str()->check(CLI::Range(1u, 4000u));
  diff->add_option("--max-steps", dopt.align.max_steps, "alignment work in all, past which the rest is reported "
                                                          "as not aligned")->capture_default_str();

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    int code = app.exit(e);
    return code == 0 ? 0 : 2;
  }
  auto ring = load_keyring(dev_keys);
  if (!ring) {
    print_text(std::cerr, "goalcup-inspect: " + ring.error().message + "\n", Style::plain());
    return 2;
  }
  wopt.keyring = &*ring;
  wopt.pool = &CorePool::shared();  // one trace: all of --threads
  const Style style = Style::for_fd(STDOUT_FILENO);
  cheat::CredentialMasker masker(wopt.limits);  // unless --show-secrets

  // The format of the view, chosen once: --json, or --format where a view has more than two.
  const Format view_format =
      json ? Format::json : parse_format(*diff ? diff_format : format).value_or(Format::text);  // --format accepts only known names
  if (*summary) {
    Summary s = summarize(trace, wopt);
    if (report_unreadable(s.verify)) return 2;
    if (!show_secrets) mask_summary(s, masker);
    summary_printer(view_format, style).print(std::cout, s);
    return status_of(s.verify);
  }
  if (*show) {
    const ShowPrinter printer(view_format, style);
    ShownRecord shown = show_record(trace, wopt, seq, printer, show_secrets ? nullptr : &masker);
    if (report_unreadable(shown.report)) return 2;
    if (!shown.out) {
      print_text(std::cerr, "goalcup-inspect: " + safe_text(trace) + " has no record " + std::to_string(seq) + " (" +
                                std::to_string(shown.report.records) + " records)\n", Style::plain());
      return 2;
    }
    if (!show_secrets) *shown.out = masker.masked(*shown.out);
    printer.write(std::cout, *shown.out);
    return status_of(shown.report);  // as every view but diff: a gate reading show's code gets the verdict
  }
  if (*diff) return run_diff(trace, trace_b, wopt, dopt, view_format, show_secrets, style);
  if (*records) {
    if (!range.empty() && !parse_range(range, &filter)) {
      std::cerr << "goalcup-inspect: --seq wants A..B, A.., ..B or N\n";
      return 2;
    }
    if (auto bad = unknown_kind(filter.kinds)) {
      print_text(std::cerr, "goalcup-inspect: --kind: " + safe_text(*bad) + " is not a record kind\n", Style::plain());
      return 2;
    }
  }
  ReplayableInput input;
  if (*records || *conversation) {
    auto verified = verify_first(trace, input, wopt);
    if (!verified) return 2;
    const VerdictView verdict(*verified);
    if (*records) (void)list_records(input.path(), wopt, filter, view_format, style, verdict, show_secrets ? nullptr : &masker);
    else (void)print_conversation(input.path(), wopt, view_format, style, verdict, show_secrets ? nullptr : &masker);
    return status_of(*verified);
  }
  cheat::Policy policy;
  if (!policy_path.empty()) {
    auto p = cheat::load_policy(policy_path);
    if (!p) {
      print_text(std::cerr, "goalcup-inspect: " + p.error().message + "\n", Style::plain());
      return 2;
    }
    policy = std::move(*p);
  }
  cheat::CheatOptions copt;
  copt.policy = &policy;
  copt.secrets = !no_secrets;
  auto file = OutputFile::create(out, {trace});  // checked before the work
  if (!file) {
    print_text(std::cerr, "goalcup-inspect: " + file.error().message + "\n", Style::plain());
    return 2;
  }
  std::string page;
  VerifyReport rep = render_html(trace, wopt, hl, no_checks ? nullptr : &copt, show_secrets ? nullptr : &masker, &page);
  if (report_unreadable(rep)) return 2;  // the file is discarded, never written
  if (!show_secrets) mask_page(masker, &page);
  Status written = file->write(page);
  if (written) written = file->commit();
  if (!written) {
    print_text(std::cerr, "goalcup-inspect: " + written.error().message + "\n", Style::plain());
    return 2;
  }
  if (out != "-") print_text(std::cerr, "wrote " + out + " (" + std::to_string(page.size()) + " bytes)\n", Style::plain());
  return status_of(rep);
}

}  // namespace

int main(int argc, char** argv) {
  goalcup::bound_allocator();
  return goalcup::checked_stdout_exit("goalcup-inspect", inspect_main(argc, argv));
}
