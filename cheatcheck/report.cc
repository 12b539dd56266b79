#include "cheatcheck/report.h"

#include <map>

#include "cheatcheck/gc_rules.h"
#include "cli/json_name.h"
#include "cli/safe_text.h"
#include "cli/verify_json.h"
#include "cli/verify_text.h"

namespace goalcup::cheat {
namespace {

Color severity_color(Severity s) {
  return s == Severity::high ? Color::red : s == Severity::warning ? Color::yellow : Color::dim;
}

// Records by seq; in a plain file scanned for secrets, lines from 1.
std::string seq_list(const Finding& f) {
  const auto& seqs = f.seqs;
  if (seqs.empty()) return "-";
  const bool lines = f.has_secret && !f.secret.file.empty();
  std::string s = lines ? "line " : "seq ";
  for (size_t i = 0; i < seqs.size() && i < 6; ++i) s += (i ? "," : "") + std::to_string(seqs[i] + (lines ? 1 : 0));
  if (seqs.size() > 6) s += ",...";
  return s;
}

void write_finding(JsonWriter& w, const Finding& f) {
  w.begin_object().field("check", f.check).field("severity", severity_name(f.severity));
  w.key("seqs").begin_array();
  for (uint64_t s : f.seqs) w.value(s);
  w.end_array();
  w.field("message", f.message).field("fingerprint", f.fingerprint).field("suppressed", f.suppressed);
  if (f.has_secret) {
    const SecretInfo& s = f.secret;
    w.key("secret").begin_object().field("rule", s.rule).field("location", s.location).field("decoding", s.decoding);
    w.field("secret_sha256", s.secret_sha256).field("preview", s.preview).field("occurrences", s.occurrences);
    if (!s.file.empty()) write_name_field(w, "file", s.file);
    if (!s.text.empty()) w.field("secret_text", s.text);  // --show-secrets only
    w.end_object();
  }
  w.end_object();
}

void write_verify(JsonWriter& w, const VerifyReport& v) {
  w.begin_object();
  write_verdict_fields(w, v);
  w.field("records", v.records);
  w.field("attested_through_seq", v.attested_through_seq).field("unattested_records", v.unattested_records);
  w.field("unattested_wire_bytes", v.unattested_wire_bytes).field("error_count", v.error_count);
  write_warning_codes(w, v);
  w.key("errors").begin_array();
  for (size_t i = 0; i < v.errors.size() && i < 10; ++i) write_error_json(w, v.errors[i]);
  w.end_array().end_object();
}

}  // namespace

bool fails(const CheatReport& r, Severity fail_on) {
  for (const auto& f : r.findings) {
    if (!f.suppressed && f.severity >= fail_on) return true;
  }
  return false;
}

bool unjudged(const CheatReport& r) { return r.verify.verdict == Verdict::error; }

// File names, messages and reasons quote the upload (names, hosts, member
// names, lines): each is one line of the report, through safe_text.
std::string format_cheat_text(const CheatReport& r, Severity fail_on, const Style& st, bool scan_mode) {
  std::map<Severity, size_t> counts;
  size_t suppressed = 0;
  for (const auto& f : r.findings) {
    if (f.suppressed) ++suppressed;
    else ++counts[f.severity];
  }
  const bool failed = fails(r, fail_on), error = unjudged(r);
  std::string out = st.paint(error ? "ERROR" : failed ? "FAIL " : "PASS ",
                             error || failed ? Color::red : Color::green);
  std::string what = scan_mode ? (error ? "not read" : "read in full") : "verify: " + std::string(verdict_name(r.verify.verdict));
  if (!scan_mode && vouched_by_supplied_key(r.verify)) what += ", " + std::string(kSuppliedKeyNote);
  out += " " + safe_text(r.file) + st.paint("  (" + what + "; " +
                                     std::to_string(counts[Severity::high]) + " high, " +
                                     std::to_string(counts[Severity::warning]) + " warning, " +
                                     std::to_string(counts[Severity::info]) + " info" +
                                     (suppressed ? ", " + std::to_string(suppressed) + " suppressed" : "") + ")",
                                 Color::dim) + "\n";
  if (error && !r.verify.errors.empty()) {
    out += "  could not judge: " + std::string(code_name(r.verify.errors.front().code)) + ": " +
           safe_text(r.verify.errors.front().message) + "\n";
  }
  for (const auto& w : r.verify.warning_details) {
    out += "  " + st.paint("warning " + std::string(warning_name(w.code)) + ": " + safe_text(w.message), Color::yellow) + "\n";
  }
  // Grouped by check; findings are already worst first, so groups are too.
  std::vector<std::string> order;
  std::map<std::string, std::vector<const Finding*>> groups;
  for (const auto& f : r.findings) {
    if (f.suppressed) continue;
    if (!groups.count(f.check)) order.push_back(f.check);
    groups[f.check].push_back(&f);
  }
  for (const auto& check : order) {
    const GapRule* rule = gap_rule(check);
    out += "  " + st.paint(check, Color::bold) + (rule ? "  " + std::string(rule->name) : "") + "\n";
    for (const Finding* f : groups[check]) {
      std::string sev(severity_name(f->severity));
      sev.resize(8, ' ');
      out += "    " + st.paint(sev, severity_color(f->severity)) + seq_list(*f) + "  " + safe_text(f->message) + "\n";
      if (f->has_secret && !f->secret.text.empty()) out += "             secret: " + safe_text(f->secret.text) + "\n";
    }
  }
  // Skipped checks are said once for the batch, in the summary.
  return out;
}

std::string_view mode_name(Mode mode) {
  switch (mode) {
    case Mode::trace: return "trace";
    case Mode::scan: return "scan";
    case Mode::coop: return "coop";
    case Mode::manifest: return "manifest";
  }
  return "trace";
}

void write_cheat_report(JsonWriter& w, const CheatReport& r, const ReportSet& set) {
  w.begin_object();
  write_name_field(w, "file", r.file);
  if (set.mode == Mode::trace) {
    w.key("verify");
    write_verify(w, r.verify);
  }
  w.field("passed", !fails(r, set.fail_on) && !unjudged(r)).field("could_not_judge", unjudged(r));
  if (set.mode != Mode::trace) {
    // Why a file or folder was not read in full (trace mode has them in "verify").
    w.key("errors").begin_array();
    for (size_t i = 0; i < r.verify.errors.size() && i < 10; ++i) {
      const Error& e = r.verify.errors[i];
      w.begin_object().field("code", code_name(e.code)).field("message", e.message).end_object();
    }
    w.end_array();
  }
  w.key("findings").begin_array();
  for (const auto& f : r.findings) write_finding(w, f);
  w.end_array();
  w.key("skipped").begin_array();
  for (const auto& s : r.skipped) w.begin_object().field("check", s.check).field("reason", s.reason).end_object();
  w.end_array().end_object();
}

std::string format_cheat_json(const ReportSet& set, const BatchSummary* summary) {
  std::string out;
  JsonWriter w(&out, true);
  w.begin_object().field("tool", "goalcup-cheatcheck").field("version", GOALCUP_VERSION);
  w.field("mode", mode_name(set.mode)).field("fail_on", severity_name(set.fail_on));
  w.key("reports").begin_array();
  for (const auto& r : set.reports) {
    if (set.quiet && !fails(r, set.fail_on) && !unjudged(r)) continue;
    write_cheat_report(w, r, set);
  }
  w.end_array();
  if (summary) {
    w.key("summary");
    summary->write_json(w);
  }
  w.end_object();
  out += "\n";
  return out;
}

int cheat_exit_code(const CheatReport& r, Severity fail_on) { return unjudged(r) ? 2 : fails(r, fail_on) ? 1 : 0; }

std::string_view cheat_verdict(int exit_code) {
  return exit_code == 2 ? "could_not_judge" : exit_code == 1 ? "failed" : "passed";
}

void add_to_summary(BatchSummary& summary, const CheatReport& r, Severity fail_on) {
  const int code = cheat_exit_code(r, fail_on);
  summary.add(r.file, cheat_verdict(code), code);
  if (vouched_by_supplied_key(r.verify)) summary.add_supplied_key(r.file, cheat_verdict(code));
  std::map<Severity, size_t> counts;
  for (const auto& f : r.findings) {
    if (!f.suppressed) ++counts[f.severity];
  }
  for (Severity s : {Severity::high, Severity::warning, Severity::info}) summary.add_findings(severity_name(s), counts[s]);
  for (const auto& s : r.skipped) summary.add_skipped(s.check, s.reason);
}

}  // namespace goalcup::cheat
