#include "inspect/verdict_view.h"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <iostream>

#include "cli/verify_json.h"
#include "cli/verify_text.h"

namespace goalcup::inspect {
namespace {

std::string key_text(const VerifyReport& r) {
  if (r.key_source == KeySource::pinned) return "key pinned";
  if (r.key_source == KeySource::supplied) return "DEV KEY (supplied, not a production key)";
  return "no valid statement";
}

std::string attested_text(const VerifyReport& r) {
  if (r.attested_through_seq < 0) return "nothing attested";
  // Where pinned keys stop and supplied ones go on; "supplied only" is
  // already the banner's DEV KEY.
  const std::string scope = r.pinned_attested_through_seq >= 0 ? supplied_key_scope(r) : "";
  if (r.unattested_records == 0) return "all " + std::to_string(r.records) + " records attested" + scope;
  return "attested through seq " + std::to_string(r.attested_through_seq) + scope + " (" + std::to_string(r.unattested_records) +
         " of " + std::to_string(r.records) + " records not)";
}

Color verdict_color(const VerifyReport& r) {
  if (r.verdict == Verdict::verified) return r.key_source == KeySource::supplied ? Color::yellow : Color::green;
  return r.verdict == Verdict::incomplete ? Color::yellow : Color::red;
}

}  // namespace

// A prev that does not match says that the record before it, or this prev,
// was altered: the break starts at the record before.
int64_t VerdictView::break_start() const {
  const int64_t b = r_.first_break_seq;
  const Error* e = break_error();
  return b > 0 && e != nullptr && e->code == Code::prev_mismatch ? b - 1 : b;
}

const Error* VerdictView::break_error() const {
  for (const Error& e : r_.errors) {
    if (e.seq == r_.first_break_seq) return &e;
  }
  return nullptr;
}

// "chain broken between seq 11 and seq 12", "malformed record at seq 14
// (duplicate_member)": what the first fault is, not only where.
std::string VerdictView::break_text() const {
  const int64_t b = r_.first_break_seq;
  const Error* e = break_error();
  if (e == nullptr) return "first fault at seq " + std::to_string(b);
  if (e->code == Code::prev_mismatch && b > 0) {
    return "chain broken between seq " + std::to_string(b - 1) + " and seq " + std::to_string(b);
  }
  if (e->code == Code::prev_mismatch || e->code == Code::seq_mismatch) {
    return "chain broken at seq " + std::to_string(b) + " (" + std::string(code_name(e->code)) + ")";
  }
  return "malformed record at seq " + std::to_string(b) + " (" + std::string(code_name(e->code)) + ")";
}

RecordMarks VerdictView::marks(uint64_t seq) const {
  RecordMarks m;
  const auto s = static_cast<int64_t>(seq);
  m.after_break = r_.first_break_seq >= 0 && s >= break_start();
  // A valid seal ack is the server's statement itself, the last record.
  const bool seal_ack = r_.seal_acknowledged && r_.records > 0 && seq == r_.records - 1;
  m.attested = !m.after_break && (s <= r_.attested_through_seq || seal_ack);
  return m;
}

char VerdictView::mark_char(uint64_t seq) const {
  const RecordMarks m = marks(seq);
  return m.after_break ? '!' : m.attested ? ' ' : '?';
}

std::string VerdictView::mark_text(uint64_t seq) const {
  const RecordMarks m = marks(seq);
  if (m.after_break) return "at or after the first fault (" + break_text() + ")";
  return m.attested ? "" : "not attested (no valid server statement covers it)";
}

bool VerdictView::any_marked() const { return r_.first_break_seq >= 0 || r_.unattested_records > 0 || r_.records == 0; }

std::string VerdictView::verdict_with_reason() const {
  std::string out(verdict_name(r_.verdict));
  if (r_.incomplete_reason != IncompleteReason::none) out += " (" + std::string(incomplete_reason_name(r_.incomplete_reason)) + ")";
  if (!r_.errors.empty()) {
    const Error& e = r_.errors.front();
    out += " (" + std::string(code_name(e.code)) + (e.seq >= 0 ? " at seq " + std::to_string(e.seq) : "") + ")";
  }
  return out;
}

std::string VerdictView::banner(const Style& st, bool legend) const {
  std::string out = st.paint("VERDICT " + verdict_with_reason(), verdict_color(r_)) + " | " +
                    (dev_key() ? st.paint(key_text(r_), Color::yellow) : key_text(r_)) + " | " + attested_text(r_);
  if (r_.first_break_seq >= 0) out += " | " + break_text();
  if (legend && any_marked()) out += " | marks: ! at or after the first fault, ? not attested";
  return out + "\n";
}

std::string VerdictView::banner_markdown() const {
  std::string out = "> **Verdict: " + verdict_with_reason() + "** · " + key_text(r_) + " · " + attested_text(r_);
  if (r_.first_break_seq >= 0) out += " · " + break_text();
  return out + "\n\n";
}

void write_verify_json(JsonWriter& w, const VerifyReport& v) {
  w.begin_object();
  write_verdict_fields(w, v);
  w.field("error_count", v.error_count);
  if (v.errors.empty()) w.null_field("first_error");
  else write_error_json(w.key("first_error"), v.errors[0]);
  w.field("attested_through_seq", v.attested_through_seq).field("unattested_records", v.unattested_records);
  w.field("unattested_wire_bytes", v.unattested_wire_bytes).field("first_break_seq", v.first_break_seq);
  w.field("records", v.records);
  write_warning_codes(w, v);
  w.end_object();
}

void write_marks_json(JsonWriter& w, const RecordMarks& m) {
  w.field("attested", m.attested).field("after_break", m.after_break);
}

std::optional<std::string> unreadable_message(const VerifyReport& v) {
  if (v.verdict != Verdict::error || v.records > 0) return std::nullopt;
  if (v.errors.empty()) return v.file + ": could not be read";
  const Error& e = v.errors.front();
  const bool named = e.message.find(v.file) != std::string::npos;
  return (named ? "" : v.file + ": ") + e.message + " [" + std::string(code_name(e.code)) + "]";
}

ReplayableInput::~ReplayableInput() {
  if (!temp_.empty()) (void)std::remove(temp_.c_str());
}

bool ReplayableInput::open(const std::string& path, uint64_t max_bytes, std::string* error) {
  if (path != "-") {
    path_ = path;
    return true;
  }
  const char* dir = std::getenv("TMPDIR");
  std::string name = std::string(dir && *dir ? dir : "/tmp") + "/goalcup-inspect-XXXXXX";
  const int fd = mkstemp(name.data());
  if (fd < 0) {
    *error = "could not create a temporary file to read stdin twice";
    return false;
  }
  temp_ = name;
  path_ = name;
  std::FILE* out = fdopen(fd, "wb");
  std::vector<char> buf(1 << 20);
  uint64_t total = 0;
  bool ok = out != nullptr;
  while (ok) {
    const size_t n = std::fread(buf.data(), 1, buf.size(), stdin);
    if (n == 0) break;
    total += n;
    // Compressed input may grow max_zstd_ratio times; beyond that the walk
    // would stop anyway.
    ok = total <= max_bytes && std::fwrite(buf.data(), 1, n, out) == n;
  }
  ok = ok && !std::ferror(stdin);
  if (out) ok = std::fclose(out) == 0 && ok;
  else ::close(fd);
  if (!ok) *error = "could not spool stdin to " + name + (total > max_bytes ? " (over --max-total-bytes)" : "");
  return ok;
}

}  // namespace goalcup::inspect
