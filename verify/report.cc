#include "verify/report.h"

#include <algorithm>

#include "cli/json_name.h"
#include "cli/safe_text.h"
#include "cli/verify_json.h"
#include "cli/verify_text.h"

namespace goalcup {
namespace {

constexpr size_t kTextErrors = 10;

Color verdict_color(Verdict v) {
  switch (v) {
    case Verdict::verified: return Color::green;
    case Verdict::incomplete: return Color::yellow;
    case Verdict::invalid: return Color::red;
    case Verdict::error: return Color::red;
  }
  return Color::none;
}

std::string headline(const VerifyReport& r) {
  switch (r.verdict) {
    case Verdict::verified: return "sealed, acknowledged, every statement holds";
    case Verdict::incomplete:
      switch (r.incomplete_reason) {
        case IncompleteReason::unsealed: return "unsealed: the recorder never wrote a seal";
        case IncompleteReason::not_read_to_end: return "not read to the end; nothing wrong in what was read";
        default: return "sealed but the server never acknowledged the seal";
      }
    case Verdict::invalid:
    case Verdict::error:
      if (!r.errors.empty()) {
        const auto& e = r.errors.front();
        return std::string(code_name(e.code)) + (e.seq >= 0 ? " at seq " + std::to_string(e.seq) : "");
      }
      break;
  }
  return "";
}

std::string attestation_line(const VerifyReport& r) {
  if (r.attested_through_seq < 0) {
    return "attested: nothing; no valid server statement covers any record";
  }
  std::string s = "attested through seq " + std::to_string(r.attested_through_seq) + supplied_key_scope(r);
  if (r.unattested_records == 0) return s + "; every record is covered";
  return s + "; not attested: " + std::to_string(r.unattested_records) + " of " + std::to_string(r.records) +
         " records, " + human_bytes(r.unattested_wire_bytes) + " of " + human_bytes(r.wire_bytes) + " wire bytes";
}

std::string statements_line(const VerifyReport& r) {
  size_t pinned = 0, supplied = 0, bad = 0;
  for (const auto& s : r.statements) {
    if (!s.valid) ++bad;
    else if (s.key_source == KeySource::pinned) ++pinned;
    else ++supplied;
  }
  std::string s = "statements: " + std::to_string(r.statements.size()) + " (" + std::to_string(pinned) + " pinned";
  if (supplied) s += ", " + std::to_string(supplied) + " supplied key";
  if (bad) s += ", " + std::to_string(bad) + " invalid";
  return s + "), key source " + std::string(key_source_name(r.key_source));
}

// "2097665 blank_line errors, first at seq 0"
std::string tally_text(const ErrorTally& t) {
  return std::to_string(t.count) + " " + std::string(code_name(t.code)) + (t.count == 1 ? " error" : " errors") +
         (t.first_seq >= 0 ? ", first at seq " + std::to_string(t.first_seq) : "");
}

}  // namespace

void write_verify_json(JsonWriter& w, const VerifyReport& r) {
  w.begin_object();
  write_name_field(w, "file", r.file);
  w.field("source", r.source);
  write_verdict_fields(w, r);
  write_warning_codes(w, r);
  w.key("warning_details").begin_array();
  for (const auto& d : r.warning_details) {
    w.begin_object().field("code", warning_name(d.code)).field("seq", d.seq).field("message", d.message).end_object();
  }
  w.end_array();
  w.key("errors").begin_array();
  for (const auto& e : r.errors) write_error_json(w, e);
  w.end_array();
  w.field("error_count", r.error_count);
  w.key("errors_by_code").begin_array();
  for (const auto& t : r.errors_by_code) {
    w.begin_object().field("code", code_name(t.code)).field("count", t.count).field("first_seq", t.first_seq).end_object();
  }
  w.end_array();
  if (r.entry_id.empty()) w.null_field("entry_id"); else w.field("entry_id", r.entry_id);
  if (r.run_id.empty()) w.null_field("run_id"); else w.field("run_id", r.run_id);
  w.field("records", r.records);
  w.field("bytes", r.bytes);
  if (r.head.empty()) w.null_field("head"); else w.field("head", r.head);
  w.field("attested_through_seq", r.attested_through_seq);
  w.field("pinned_attested_through_seq", r.pinned_attested_through_seq);
  w.field("unattested_records", r.unattested_records);
  w.field("unattested_wire_bytes", r.unattested_wire_bytes);
  w.field("wire_bytes", r.wire_bytes);
  w.field("sealed", r.sealed);
  w.field("seal_acknowledged", r.seal_acknowledged);
  if (r.seal_reason.empty()) w.null_field("seal_reason"); else w.field("seal_reason", r.seal_reason);
  w.field("exited", r.exited);
  w.key("statements").begin_array();
  for (const auto& s : r.statements) {
    w.begin_object().field("seq", s.seq).field("kind", kind_name(s.kind));
    if (s.type.empty()) w.null_field("type"); else w.field("type", s.type);
    w.field("covers_seq", s.covers_seq);
    if (s.key_id.empty()) w.null_field("key_id"); else w.field("key_id", s.key_id);
    w.field("key_source", key_source_name(s.key_source));
    if (s.at.empty()) w.null_field("at"); else w.field("at", s.at);
    w.field("valid", s.valid).end_object();
  }
  w.end_array();
  w.key("checks").begin_array();
  for (const auto& c : r.checks) {
    w.begin_object().field("name", c.name).field("passed", c.passed).field("failures", c.failures);
    w.field("description", c.detail).end_object();
  }
  w.end_array();
  w.end_object();
}

std::string format_verify_text(const VerifyReport& r, const Style& st) {
  std::string verdict(verdict_name(r.verdict));
  verdict.resize(std::max<size_t>(verdict.size(), 10), ' ');
  // Names, ids and messages come from the upload (a file or member name, the
  // header, an error quoting a line): one line each, escaped.
  std::string out = st.paint(verdict, verdict_color(r.verdict)) + " " + safe_text(r.file);
  std::string head = headline(r);
  if (vouched_by_supplied_key(r)) head += "; " + std::string(kSuppliedKeyNote);
  if (!head.empty()) out += st.paint(" (" + head + ")", Color::dim);
  out += "\n";
  auto line = [&](const std::string& s) { out += "  " + s + "\n"; };
  if (!r.entry_id.empty()) line("entry " + safe_text(r.entry_id) + "  run " + safe_text(r.run_id));
  if (r.records > 0) {
    const bool has_seal_ack = std::any_of(r.statements.begin(), r.statements.end(),
                                          [](const StatementReport& s) { return s.kind == Kind::seal_ack; });
    std::string seal = !r.sealed ? "unsealed"
                       : "sealed (" + safe_text(r.seal_reason) + ")" +
                             (r.seal_acknowledged ? ", seal acknowledged"
                              : has_seal_ack      ? ", seal_ack does not hold"
                                                  : ", seal not acknowledged");
    line(std::to_string(r.records) + " records, " + human_bytes(r.bytes) + (r.source.empty() ? "" : " (" + safe_text(r.source) + ")") +
         "; " + seal);
    line("head " + safe_text(r.head));
    line(attestation_line(r));
    line(statements_line(r));
  }
  for (const auto& w : r.warning_details) {
    line(st.paint("warning ", Color::yellow) + std::string(warning_name(w.code)) + (w.seq >= 0 ? " at seq " + std::to_string(w.seq) : "") +
         ": " + safe_text(w.message));
  }
  std::string checks = "checks:";
  for (const auto& c : r.checks) checks += " " + c.name + (c.passed ? " ok" : " FAILED");
  if (r.records > 0) line(checks);
  if (!r.errors.empty()) {
    line("errors (" + std::to_string(r.error_count) + "):");
    for (size_t i = 0; i < std::min(kTextErrors, r.errors.size()); ++i) {
      const auto& e = r.errors[i];
      line("  " + (e.seq >= 0 ? "seq " + std::to_string(e.seq) : std::string("-")) + "  " +
           st.paint(std::string(code_name(e.code)), Color::bold) + "  " + safe_text(e.message));
    }
    const size_t shown = std::min(kTextErrors, r.errors.size());
    if (r.error_count > shown) {
      line("  ... " + std::to_string(r.error_count - shown) + " more (use --format json); by code:");
      for (const auto& t : r.errors_by_code) line("  " + tally_text(t));
    }
  }
  return out;
}

}  // namespace goalcup
