#include "inspect/html.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <set>

#include "cli/safe_text.h"
#include "cli/term.h"
#include "core/json_strict.h"
#include "core/statement.h"
#include "inspect/conversation.h"
#include "inspect/summary.h"

namespace goalcup::inspect {
namespace {

// Entities for markup; trace text first through safe_text (lines kept), so
// that bidi overrides cannot reorder what the page shows and controls are
// visible.
std::string esc(std::string_view raw) {
  const std::string s = safe_text(raw, Lines::keep);
  std::string out;
  out.reserve(s.size());
  for (char c : s) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      default: out += c;
    }
  }
  return out;
}

struct Mark {
  uint64_t seq;
  int64_t t;        // recorder time, ns
  int64_t end = 0;  // for bars
  std::string label;
};

// Keeps at most `cap` marks by dropping every other one when full, so a lane
// stays evenly sampled over the whole run.
class Lane {
 public:
  explicit Lane(size_t cap) : cap_(cap) {}
  void add(Mark m) {
    if (++seen_ % stride_ != 0) return;
    marks_.push_back(std::move(m));
    if (marks_.size() >= cap_) {
      std::vector<Mark> kept;
      for (size_t i = 0; i < marks_.size(); i += 2) kept.push_back(std::move(marks_[i]));
      marks_ = std::move(kept);
      stride_ *= 2;
    }
  }
  const std::vector<Mark>& marks() const { return marks_; }
  uint64_t seen() const { return seen_; }

 private:
  size_t cap_;
  uint64_t seen_ = 0, stride_ = 1;
  std::vector<Mark> marks_;
};

struct Row {
  std::string t, kind, what;
};

class HtmlVisitor final : public RecordVisitor {
 public:
  explicit HtmlVisitor(const HtmlLimits& l)
      : limits_(l), native_(l.marks), wire_(l.marks), acks_(l.marks), events_(l.marks),
        conversation_([this](const Exchange& e) { on_exchange(e); }, l.text_bytes) {}

  bool on_record(const Record& r, const Line& line, const Digest& hash) override {
    summary_.on_record(r, line, hash);
    conversation_.on_record(r, line, hash);
    const int64_t t = r.t.nanos;
    switch (r.kind) {
      case Kind::native: native_.add({r.seq, t, 0, ""}); break;
      case Kind::ack: acks_.add({r.seq, t, 0, "ack"}); break;
      case Kind::gap: {
        std::string_view g;
        (void)json::string(r.body, "gap", &g);
        events_.add({r.seq, t, 0, "gap " + std::string(g)});
        break;
      }
      case Kind::wire: break;
      default: events_.add({r.seq, t, 0, describe(r)}); break;
    }
    // Rows: every event; wire records while the conversation shown is still
    // being collected (they are what it links to); the first native lines.
    const bool collecting = exchanges_.size() < limits_.exchanges;
    if ((r.kind != Kind::native && r.kind != Kind::wire) || (r.kind == Kind::wire && collecting) ||
        rows_.size() < limits_.records / 3) {
      keep_row(r);
    }
    if (!first_t_) first_t_ = t;
    last_t_ = t;
    times_.emplace_back(r.seq, t);
    if (times_.size() > 2 * limits_.marks) thin_times();
    return true;
  }

  std::string page(const VerifyReport& v);

 private:
  void on_exchange(const Exchange& e) {
    wire_.add({e.response_seq, e.has_request ? e.request_t.nanos : e.response_t.nanos, e.response_t.nanos,
               "exchange " + std::to_string(e.number)});
    if (exchanges_.size() < limits_.exchanges) {
      exchanges_.push_back(e);
    } else {
      ++omitted_exchanges_;
    }
  }
  void keep_row(const Record& r) {
    if (rows_.size() >= limits_.records) {
      ++omitted_rows_;
      return;
    }
    rows_[r.seq] = {std::string(r.t_text), std::string(r.kind_text), describe(r)};
  }
  void thin_times() {
    std::vector<std::pair<uint64_t, int64_t>> kept;
    for (size_t i = 0; i < times_.size(); i += 2) kept.push_back(times_[i]);
    times_ = std::move(kept);
  }
  int64_t time_of(uint64_t seq) const {
    auto it = std::lower_bound(times_.begin(), times_.end(), std::make_pair(seq, INT64_MIN));
    return it == times_.end() ? last_t_ : it->second;
  }
  std::string link(uint64_t seq) const {
    return rows_.count(seq) ? "<a href=\"#seq-" + std::to_string(seq) + "\">seq " + std::to_string(seq) + "</a>"
                            : "seq " + std::to_string(seq);
  }
  std::string summary_html(const VerifyReport& v);
  std::string timeline_svg(const VerifyReport& v);
  std::string conversation_html();
  std::string records_html();

  HtmlLimits limits_;
  SummaryVisitor summary_;
  Lane native_, wire_, acks_, events_;
  ConversationVisitor conversation_;
  std::vector<Exchange> exchanges_;
  uint64_t omitted_exchanges_ = 0, omitted_rows_ = 0;
  std::map<uint64_t, Row> rows_;
  std::vector<std::pair<uint64_t, int64_t>> times_;  // sampled seq -> time, for the unattested shade
  std::optional<int64_t> first_t_;
  int64_t last_t_ = 0;
};

constexpr const char* kStyle = R"(
body{font:14px/1.45 system-ui,sans-serif;margin:0;color:#1d232b;background:#f6f7f9}
header{background:#1d232b;color:#fff;padding:14px 24px;display:flex;gap:16px;align-items:center}
header h1{font-size:18px;margin:0;font-weight:600}
section{background:#fff;margin:16px 24px;padding:12px 20px;border-radius:8px;box-shadow:0 1px 2px #0002}
h2{font-size:16px;margin:4px 0 10px}
table{border-collapse:collapse;width:100%}td,th{padding:3px 8px;text-align:left;vertical-align:top;border-bottom:1px solid #eee}
th{color:#667;font-weight:500;width:170px}code,pre{font:12px ui-monospace,monospace}
pre{white-space:pre-wrap;word-break:break-word;background:#f3f4f6;padding:8px;border-radius:4px;margin:4px 0}
.verdict{padding:3px 10px;border-radius:12px;font-weight:600;text-transform:uppercase;font-size:12px}
.verified{background:#1f883d}.incomplete{background:#bf8700}.invalid,.error{background:#cf222e}
.exchange{border-left:3px solid #8c959f;padding:4px 12px;margin:10px 0}
.who{font-weight:600;font-size:12px;color:#57606a;letter-spacing:.04em}
.tool{color:#8250df}.note{color:#57606a;font-size:12px}
tr:target{background:#fff8c5}svg text{font:11px system-ui,sans-serif;fill:#57606a}
)";

constexpr const char* kScript = R"(
document.querySelectorAll('a[href^="#seq-"]').forEach(a=>a.addEventListener('click',()=>{
  const r=document.getElementById(a.getAttribute('href').slice(1));if(r){r.scrollIntoView({block:'center'});}
}));
)";

std::string HtmlVisitor::summary_html(const VerifyReport& v) {
  const Summary& s = summary_.summary();
  std::string out = "<section id=\"summary\"><h2>Summary</h2><table>";
  auto row = [&](std::string_view k, const std::string& html) { out += "<tr><th>" + std::string(k) + "</th><td>" + html + "</td></tr>"; };
  std::string verdict = "<span class=\"verdict " + std::string(verdict_name(v.verdict)) + "\" style=\"color:#fff\">" +
                        std::string(verdict_name(v.verdict)) + "</span>";
  if (v.incomplete_reason != IncompleteReason::none) verdict += " " + esc(incomplete_reason_name(v.incomplete_reason));
  if (!v.errors.empty()) {
    verdict += " &mdash; " + esc(code_name(v.errors[0].code)) + " at " + link(static_cast<uint64_t>(std::max<int64_t>(0, v.errors[0].seq))) +
               ": " + esc(v.errors[0].message);
  }
  if (v.key_source == "supplied") verdict += " (statements verify only under a supplied key, not a pinned one)";
  row("Verdict", verdict);
  row("Entry / run", "<code>" + esc(s.entry_id) + "</code> / <code>" + esc(s.run_id) + "</code>");
  row("Participant", esc(s.participant + " " + s.repo));
  row("Harness", esc(s.launch.harness_id + " " + s.launch.harness_version) + "<br><code>" + esc(s.launch.program_digest) + "</code><br><code>" +
                     esc(s.launch.image_digest) + "</code>");
  row("Connector", esc(s.connector_id + " " + s.connector_version) + " <code>" + esc(s.connector_digest) + "</code>");
  row("Server time", s.server_start ? esc(format_time(*s.server_start)) + " &rarr; " +
                                          (s.server_end ? esc(format_time(*s.server_end)) : "(no seal ack)")
                                    : "unknown");
  row("Recorder time", s.first_t ? esc(format_time(*s.first_t)) + " &rarr; " + esc(format_time(*s.last_t)) : "-");
  std::string kinds;
  for (const auto& [k, n] : s.kinds) kinds += esc(k) + " " + std::to_string(n) + " &middot; ";
  row("Records", std::to_string(v.records) + " (" + esc(human_bytes(v.bytes)) + "): " + kinds);
  row("Exchanges", std::to_string(s.exchanges) + ", " + esc(human_bytes(s.wire_bytes)) + " on the wire, " +
                       std::to_string(s.tunnels) + " tunnels");
  std::string models;
  for (const auto& m : s.models_answered) models += "<code>" + esc(m) + "</code> ";
  row("Models", models.empty() ? "-" : models);
  row("Tokens", std::to_string(s.input_tokens) + " in, " + std::to_string(s.output_tokens) + " out");
  std::string gaps;
  for (const auto& [seq, g] : s.gaps) gaps += esc(g) + " at " + link(seq) + " ";
  row("Gaps", gaps.empty() ? "none" : gaps);
  row("Exit", !s.exited ? "none" : s.exit_code ? "code " + std::to_string(*s.exit_code) : "signal " + esc(s.exit_signal));
  row("Attested", v.attested_through_seq < 0 ? "nothing"
                  : "through " + link(static_cast<uint64_t>(v.attested_through_seq)) + "; not attested: " +
                        std::to_string(v.unattested_records) + " records, " + esc(human_bytes(v.unattested_wire_bytes)));
  return out + "</table></section>";
}

std::string HtmlVisitor::timeline_svg(const VerifyReport& v) {
  constexpr int kW = 1000, kLeft = 80, kLane = 26;
  const int64_t t0 = first_t_.value_or(0), t1 = std::max(last_t_, t0 + 1);
  auto x = [&](int64_t t) {  // in doubles: t1 - t0 may exceed 2^63 ns (and round to 0)
    const double span = std::max(1.0, static_cast<double>(t1) - static_cast<double>(t0));
    return kLeft + static_cast<int>((static_cast<double>(std::clamp(t, t0, t1)) - static_cast<double>(t0)) / span *
                                    (kW - kLeft - 10));
  };
  const char* lanes[] = {"wire", "native", "acks", "events"};
  std::string svg = "<svg id=\"timeline-svg\" viewBox=\"0 0 " + std::to_string(kW) + " " + std::to_string(kLane * 4 + 30) +
                    "\" width=\"100%\" role=\"img\" aria-label=\"timeline\">";
  // The unattested tail, shaded.
  if (v.unattested_records > 0 && v.records > 0) {
    const int64_t from = time_of(static_cast<uint64_t>(v.attested_through_seq + 1));
    svg += "<rect x=\"" + std::to_string(x(from)) + "\" y=\"0\" width=\"" + std::to_string(x(t1) - x(from) + 2) + "\" height=\"" +
           std::to_string(kLane * 4) + "\" fill=\"#cf222e\" opacity=\".08\"><title>not attested: " +
           std::to_string(v.unattested_records) + " records</title></rect>";
  }
  for (int i = 0; i < 4; ++i) {
    svg += "<text x=\"4\" y=\"" + std::to_string(i * kLane + 17) + "\">" + lanes[i] + "</text>";
    svg += "<line x1=\"" + std::to_string(kLeft) + "\" x2=\"" + std::to_string(kW - 10) + "\" y1=\"" +
           std::to_string(i * kLane + 13) + "\" y2=\"" + std::to_string(i * kLane + 13) + "\" stroke=\"#eee\"/>";
  }
  auto tick = [&](const Mark& m, int lane, const char* color, int h) {
    return "<a href=\"#seq-" + std::to_string(m.seq) + "\"><rect x=\"" + std::to_string(x(m.t)) + "\" y=\"" +
           std::to_string(lane * kLane + 13 - h / 2) + "\" width=\"2\" height=\"" + std::to_string(h) + "\" fill=\"" + color +
           "\"><title>seq " + std::to_string(m.seq) + " " + esc(m.label) + "</title></rect></a>";
  };
  for (const Mark& m : wire_.marks()) {
    svg += "<a href=\"#seq-" + std::to_string(m.seq) + "\"><rect class=\"exchange-bar\" x=\"" + std::to_string(x(m.t)) +
           "\" y=\"4\" width=\"" + std::to_string(std::max(2, x(m.end) - x(m.t))) +
           "\" height=\"18\" fill=\"#0969da\" opacity=\".7\"><title>" + esc(m.label) + ", response seq " +
           std::to_string(m.seq) + "</title></rect></a>";
  }
  for (const Mark& m : native_.marks()) svg += tick(m, 1, "#8c959f", 12);
  for (const Mark& m : acks_.marks()) svg += tick(m, 2, "#1f883d", 18);
  for (const Mark& m : events_.marks()) {
    const bool bad = m.label.starts_with("gap");
    svg += tick(m, 3, bad ? "#cf222e" : "#8250df", 18);
  }
  svg += "<text x=\"" + std::to_string(kLeft) + "\" y=\"" + std::to_string(kLane * 4 + 22) + "\">" +
         esc(format_time(Timestamp{t0})) + "</text><text x=\"" + std::to_string(kW - 10) + "\" y=\"" +
         std::to_string(kLane * 4 + 22) + "\" text-anchor=\"end\">" + esc(format_time(Timestamp{t1})) + "</text>";
  svg += "</svg>";
  std::string note;
  for (auto [lane, name] : {std::pair{&wire_, "exchanges"}, {&native_, "native lines"}, {&acks_, "acks"}, {&events_, "events"}}) {
    if (lane->seen() > lane->marks().size()) {
      note += std::to_string(lane->marks().size()) + " of " + std::to_string(lane->seen()) + " " + name + " shown (evenly sampled). ";
    }
  }
  return "<section id=\"timeline\"><h2>Timeline</h2><p class=\"note\">Recorder time, left to right. Exchanges as bars "
         "from request to response; acks in green; gaps in red; other events (start, exit, seal) in purple; the "
         "unattested tail shaded red.</p>" + svg + (note.empty() ? "" : "<p class=\"note\">" + note + "</p>") + "</section>";
}

std::string HtmlVisitor::conversation_html() {
  std::string out = "<section id=\"conversation\"><h2>Conversation</h2>";
  for (const Exchange& e : exchanges_) {
    const RebuiltAnswer& a = e.answer;
    out += "<div class=\"exchange\" id=\"x-" + std::to_string(e.number) + "\"><div class=\"note\">Exchange " +
           std::to_string(e.number) + " &middot; " + (e.has_request ? link(e.request.seq) : "no request") + " &rarr; " +
           link(e.response_seq) + " &middot; <code>" + esc(a.model.empty() ? e.request.model : a.model) + "</code> &middot; " +
           esc(a.stop_reason) + " &middot; " + esc(a.message_id) + "</div>";
    for (const auto& in : e.request.inputs) {
      if (in.kind == "tool_result") {
        out += "<details class=\"tool-result\"><summary class=\"who\">TOOL RESULT <code>" + esc(in.tool_use_id) + "</code> (" +
               std::to_string(in.text.size()) + " bytes)</summary><pre>" + esc(in.text) + "</pre></details>";
      } else {
        out += "<div class=\"who\">USER</div><pre>" + esc(in.text) + "</pre>";
      }
    }
    out += "<div class=\"who\">ASSISTANT</div><pre class=\"answer\">" + esc(clip(a.text, limits_.text_bytes)) + "</pre>";
    for (const auto& c : a.tool_calls) {
      out += "<div class=\"tool\">&rarr; " + esc(c.name) + " <code>" + esc(clip(c.input, limits_.text_bytes)) + "</code></div>";
    }
    out += "</div>";
  }
  if (exchanges_.empty()) out += "<p class=\"note\">No wire exchanges.</p>";
  if (omitted_exchanges_) {
    out += "<p class=\"note\">" + std::to_string(omitted_exchanges_) + " later exchanges are not shown (this page keeps the first " +
           std::to_string(limits_.exchanges) + "); use <code>goalcup-inspect conversation</code> for all.</p>";
  }
  return out + "</section>";
}

std::string HtmlVisitor::records_html() {
  std::string out = "<section id=\"records\"><h2>Records</h2><table><tr><th>seq</th><th>time</th><th>kind</th><th>what</th></tr>";
  for (const auto& [seq, r] : rows_) {
    out += "<tr id=\"seq-" + std::to_string(seq) + "\"><td>" + std::to_string(seq) + "</td><td><code>" + esc(r.t) +
           "</code></td><td>" + esc(r.kind) + "</td><td>" + esc(r.what) + "</td></tr>";
  }
  out += "</table><p class=\"note\">This table lists statements, gaps, tunnels and other events, the wire records "
         "of the conversation shown, and the first records of the run" +
         (omitted_rows_ ? "; " + std::to_string(omitted_rows_) + " more are left out" : std::string()) +
         ". <code>goalcup-inspect records</code> and <code>show SEQ</code> give any record.</p></section>";
  return out;
}

std::string HtmlVisitor::page(const VerifyReport& v) {
  const Summary& s = summary_.summary();
  return "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><meta name=\"viewport\" "
         "content=\"width=device-width\"><title>Goal Cup run " + esc(s.entry_id) + "</title><style>" + kStyle +
         "</style></head><body><header><h1>Goal Cup run <code>" + esc(s.entry_id) + "</code> &middot; " +
         esc(s.launch.harness_id) + "</h1><span class=\"verdict " + std::string(verdict_name(v.verdict)) + "\">" +
         std::string(verdict_name(v.verdict)) + "</span></header>" + summary_html(v) + timeline_svg(v) +
         conversation_html() + records_html() + "<script>" + kScript + "</script></body></html>\n";
}

}  // namespace

VerifyReport render_html(const std::string& path, const WalkOptions& options, const HtmlLimits& limits,
                         std::string* page) {
  HtmlVisitor v(limits);
  VerifyReport rep = walk_trace(path, options, &v);
  *page = v.page(rep);
  return rep;
}

}  // namespace goalcup::inspect
