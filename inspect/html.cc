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
#include "inspect/verdict_view.h"

namespace goalcup::inspect {
namespace {

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
  HtmlVisitor(const HtmlLimits& l, const Limits& run_limits, RecordVisitor* cheat, cheat::CredentialMasker* masker)
      : limits_(l), summary_(run_limits), native_(l.marks), wire_(l.marks), acks_(l.marks), events_(l.marks),
        conversation_([this](const Exchange& e) { on_exchange(e); }, l.text_bytes, run_limits), cheat_(cheat),
        masker_(masker), parsers_(run_limits) {}

  void on_bad_line(const Line& line, const Error& e) override {
    if (cheat_) cheat_->on_bad_line(line, e);
  }

  bool on_record(const Record& r, const Line& line, const Digest& hash) override {
    if (cheat_) (void)cheat_->on_record(r, line, hash);
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
      default: events_.add({r.seq, t, 0, describe(r, parsers_)}); break;
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

  std::string page(const VerifyReport& v, const cheat::CheatReport* findings, const std::string& file);

 private:
  // Entities for markup, controls visible (cli/safe_text.h), each credential
  // masked first: masked after escaping, a rule that needs a quote or an `&`
  // would no longer see the text it matches. Short, as the page calls it
  // everywhere.
  std::string esc(std::string_view raw) { return html_text(masker_ ? masker_->masked(raw) : std::string(raw)); }

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
    rows_[r.seq] = {std::string(r.t_text), std::string(r.kind_text), describe(r, parsers_)};
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
  // Every link leads somewhere: a record the page does not embed gets a
  // row saying how to see it (records_html, which renders last).
  std::string href(uint64_t seq) {
    linked_.insert(seq);
    return "#seq-" + std::to_string(seq);
  }
  std::string link(uint64_t seq) { return "<a href=\"" + href(seq) + "\">seq " + std::to_string(seq) + "</a>"; }
  std::string badge(uint64_t seq, const VerdictView& v) const;
  std::string header_html(const VerdictView& v, const Summary& s);
  std::string proves_html(const VerdictView& v);
  std::string findings_html(const cheat::CheatReport* findings);
  std::string summary_html(const VerifyReport& v);
  std::string timeline_svg(const VerifyReport& v);
  std::string conversation_html(const VerdictView& v);
  std::string records_html(const VerdictView& v, const std::string& file);

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
  RecordVisitor* cheat_;
  cheat::CredentialMasker* masker_;  // null: --show-secrets
  std::set<uint64_t> linked_;
  BodyParsers parsers_;  // for describe()
};

constexpr const char* kStyle = R"(
body{font:14px/1.45 system-ui,sans-serif;margin:0;color:#1d232b;background:#f6f7f9}
header{background:#1d232b;color:#fff;padding:14px 24px;display:flex;flex-wrap:wrap;gap:10px 16px;align-items:center}
header h1{font-size:18px;margin:0;font-weight:600;overflow-wrap:anywhere}
section{background:#fff;margin:16px 24px;padding:12px 20px;border-radius:8px;box-shadow:0 1px 2px #0002;min-width:0}
h2{font-size:16px;margin:4px 0 10px}
.scroll{overflow-x:auto;max-width:100%}
table{border-collapse:collapse;width:100%}td,th{padding:3px 8px;text-align:left;vertical-align:top;border-bottom:1px solid #eee}
th{color:#667;font-weight:500;width:170px}code,pre{font:12px ui-monospace,monospace}
td code{overflow-wrap:anywhere}
pre{white-space:pre-wrap;overflow-wrap:anywhere;background:#f3f4f6;padding:8px;border-radius:4px;margin:4px 0}
.verdict{padding:3px 10px;border-radius:12px;font-weight:600;text-transform:uppercase;font-size:12px;color:#fff}
.verified{background:#1f883d}.incomplete{background:#bf8700}.invalid,.error{background:#cf222e}
.verdict.devkey{background:#8250df}.devkey-text{color:#8250df}
.keybadge{padding:3px 10px;border-radius:12px;font-size:12px;font-weight:600;background:#8250df;color:#fff}
.exchange{border-left:3px solid #8c959f;padding:4px 12px;margin:10px 0}
.exchange.unattested{border-left-color:#bf8700}.exchange.after-break{border-left-color:#cf222e}
.mark{display:inline-block;padding:0 6px;border-radius:8px;font-size:11px;font-weight:600;color:#fff}
.mark.unattested{background:#bf8700}.mark.after-break{background:#cf222e}
tr.unattested td{background:#fff8e5}tr.after-break td{background:#ffebe9}
.who{font-weight:600;font-size:12px;color:#57606a;letter-spacing:.04em}
.tool{color:#8250df}.note{color:#57606a;font-size:12px}
.proves{display:grid;grid-template-columns:repeat(auto-fit,minmax(260px,1fr));gap:12px}
.proves div{border-radius:6px;padding:8px 12px}.proves .yes{background:#dafbe1}.proves .no{background:#fff1e5}
.proves h3{font-size:13px;margin:2px 0 6px}.proves ul{margin:0;padding-left:18px}
.sev{display:inline-block;min-width:58px;text-align:center;padding:0 6px;border-radius:8px;font-size:11px;font-weight:600;color:#fff}
.sev.high{background:#cf222e}.sev.warning{background:#bf8700}.sev.info{background:#57606a}
.finding{padding:4px 0;border-bottom:1px solid #eee}
.tl-scroll{overflow-x:auto}.tl-scroll svg{min-width:720px;display:block;touch-action:pan-x pan-y}
.tl-controls button{font:12px system-ui;margin-right:4px}
tr:target td{background:#fff8c5}svg text{font:11px system-ui,sans-serif;fill:#57606a}
@media (max-width:600px){section{margin:8px;padding:8px 10px}header{padding:10px}th{width:auto}}
)";

// The timeline zooms and pans by moving its marks: each holds its place as
// a fraction of the run (data-f, data-g for a bar's end). Without script the
// server-drawn positions stay, and the box scrolls sideways on a phone.
constexpr const char* kScript = R"(
(function(){
const svg=document.getElementById('timeline-svg');if(!svg)return;
const W=+svg.dataset.w,L=+svg.dataset.left,R=+svg.dataset.right,m0=+svg.dataset.ms0,m1=+svg.dataset.ms1;
let a=0,b=1;const els=svg.querySelectorAll('[data-f]'),lab=svg.querySelectorAll('.tl-time');
function draw(){const k=(W-L-R)/(b-a);els.forEach(e=>{const f=+e.dataset.f,g=e.dataset.g?+e.dataset.g:f;
const x=L+(f-a)*k,x2=L+(g-a)*k;e.style.display=(x2<L-2||x>W-R+2)?'none':'';e.setAttribute('x',x.toFixed(1));
if(e.dataset.g)e.setAttribute('width',Math.max(2,x2-x).toFixed(1));});
if(lab.length==2){lab[0].textContent=new Date(m0+a*(m1-m0)).toISOString();lab[1].textContent=new Date(m0+b*(m1-m0)).toISOString();}}
function zoom(s,c){const w=Math.min(1,Math.max(1e-6,(b-a)*s));c=c===undefined?(a+b)/2:c;a=Math.max(0,Math.min(1-w,c-(c-a)*w/(b-a)));b=a+w;draw();}
function at(ev){const r=svg.getBoundingClientRect();return a+((ev.clientX-r.left)/r.width*W-L)/(W-L-R)*(b-a);}
const ctl=document.getElementById('tl-controls');ctl.hidden=false;
ctl.addEventListener('click',ev=>{const z=ev.target.dataset.z;if(z=='in')zoom(0.5);if(z=='out')zoom(2);if(z=='reset'){a=0;b=1;draw();}});
svg.addEventListener('wheel',ev=>{if(!ev.ctrlKey&&!ev.shiftKey)return;ev.preventDefault();zoom(ev.deltaY<0?0.8:1.25,at(ev));},{passive:false});
let drag=null;svg.addEventListener('pointerdown',ev=>{if(b-a<1){drag={x:ev.clientX,a:a};}});
window.addEventListener('pointerup',()=>drag=null);
svg.addEventListener('pointermove',ev=>{if(!drag)return;const r=svg.getBoundingClientRect();const d=(ev.clientX-drag.x)/r.width*W/(W-L-R)*(b-a);
const w=b-a;a=Math.max(0,Math.min(1-w,drag.a-d));b=a+w;draw();});
})();
)";

std::string HtmlVisitor::summary_html(const VerifyReport& v) {
  const Summary& s = summary_.summary();
  std::string out = "<section id=\"summary\"><h2>Summary</h2><div class=\"scroll\"><table>";
  auto row = [&](std::string_view k, const std::string& html) { out += "<tr><th>" + std::string(k) + "</th><td>" + html + "</td></tr>"; };
  std::string verdict = esc(VerdictView(v).verdict_with_reason());
  if (!v.errors.empty()) {
    verdict += " &mdash; " + (v.errors[0].seq >= 0 ? link(static_cast<uint64_t>(v.errors[0].seq)) + ": " : std::string()) +
               esc(v.errors[0].message);
  }
  if (v.key_source == KeySource::supplied) {
    verdict += v.pinned_attested_through_seq >= 0
                   ? " <b class=\"devkey-text\">(statements through seq " + std::to_string(v.pinned_attested_through_seq) +
                         " verify under a pinned key; later ones only under a supplied development key)</b>"
                   : " <b class=\"devkey-text\">(statements verify only under a supplied development key, not a pinned one)</b>";
  }
  row("Verdict", verdict);
  row("Entry / run", "<code>" + esc(s.entry_id) + "</code> / <code>" + esc(s.run_id) + "</code>");
  row("Participant", esc(s.participant + " " + s.repo));
  row("Harness", esc(s.launch.harness_id + " " + s.launch.harness_version) + "<br><code>" + esc(s.launch.program_digest) + "</code><br><code>" +
                     esc(s.launch.image_digest) + "</code>");
  row("Connector", esc(s.connector_id + " " + s.connector_version) + " <code>" + esc(s.connector_digest) + "</code>");
  row("Server time", s.server_start ? esc(format_time(*s.server_start)) + " &rarr; " +
                                          (s.server_end && v.seal_acknowledged ? esc(format_time(*s.server_end))
                                                                                : "(no valid seal ack)")
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
  return out + "</table></div></section>";
}

std::string HtmlVisitor::timeline_svg(const VerifyReport& v) {
  constexpr int kW = 1000, kLeft = 80, kRight = 10, kLane = 26;
  const int64_t t0 = first_t_.value_or(0), t1 = std::max(last_t_, t0 + 1);
  // Where in the run a time falls, 0..1 (in doubles: t1 - t0 may exceed 2^63 ns).
  auto frac = [&](int64_t t) {
    const double span = std::max(1.0, static_cast<double>(t1) - static_cast<double>(t0));
    return (static_cast<double>(std::clamp(t, t0, t1)) - static_cast<double>(t0)) / span;
  };
  auto x = [&](int64_t t) { return kLeft + static_cast<int>(frac(t) * (kW - kLeft - kRight)); };
  auto data = [&](int64_t t) {
    char buf[48];
    std::snprintf(buf, sizeof buf, " data-f=\"%.7f\"", frac(t));
    return std::string(buf);
  };
  const char* lanes[] = {"wire", "native", "acks", "events"};
  std::string svg = "<svg id=\"timeline-svg\" viewBox=\"0 0 " + std::to_string(kW) + " " + std::to_string(kLane * 4 + 30) +
                    "\" width=\"100%\" role=\"img\" aria-label=\"timeline\" data-w=\"" + std::to_string(kW) + "\" data-left=\"" +
                    std::to_string(kLeft) + "\" data-right=\"" + std::to_string(kRight) + "\" data-ms0=\"" +
                    std::to_string(t0 / 1000000) + "\" data-ms1=\"" + std::to_string(t1 / 1000000) + "\">";
  svg += "<defs><clipPath id=\"tl-clip\"><rect x=\"" + std::to_string(kLeft - 2) + "\" y=\"0\" width=\"" +
         std::to_string(kW - kLeft - kRight + 4) + "\" height=\"" + std::to_string(kLane * 4) + "\"/></clipPath></defs>";
  for (int i = 0; i < 4; ++i) {
    svg += "<text x=\"4\" y=\"" + std::to_string(i * kLane + 17) + "\">" + lanes[i] + "</text>";
    svg += "<line x1=\"" + std::to_string(kLeft) + "\" x2=\"" + std::to_string(kW - kRight) + "\" y1=\"" +
           std::to_string(i * kLane + 13) + "\" y2=\"" + std::to_string(i * kLane + 13) + "\" stroke=\"#eee\"/>";
  }
  svg += "<g clip-path=\"url(#tl-clip)\">";
  // The unattested tail, shaded.
  if (v.unattested_records > 0 && v.records > 0) {
    const int64_t from = time_of(static_cast<uint64_t>(v.attested_through_seq + 1));
    svg += "<rect x=\"" + std::to_string(x(from)) + "\"" + data(from) + " data-g=\"1\" y=\"0\" width=\"" +
           std::to_string(x(t1) - x(from) + 2) + "\" height=\"" + std::to_string(kLane * 4) +
           "\" fill=\"#cf222e\" opacity=\".08\"><title>not attested: " + std::to_string(v.unattested_records) +
           " records</title></rect>";
  }
  auto tick = [&](const Mark& m, int lane, const char* color, int h) {
    return "<a href=\"" + href(m.seq) + "\"><rect x=\"" + std::to_string(x(m.t)) + "\"" + data(m.t) + " y=\"" +
           std::to_string(lane * kLane + 13 - h / 2) + "\" width=\"2\" height=\"" + std::to_string(h) + "\" fill=\"" + color +
           "\"><title>seq " + std::to_string(m.seq) + " " + esc(m.label) + "</title></rect></a>";
  };
  for (const Mark& m : wire_.marks()) {
    char g[32];
    std::snprintf(g, sizeof g, "%.7f", frac(m.end));
    svg += "<a href=\"" + href(m.seq) + "\"><rect class=\"exchange-bar\" x=\"" + std::to_string(x(m.t)) + "\"" + data(m.t) +
           " data-g=\"" + g + "\" y=\"4\" width=\"" + std::to_string(std::max(2, x(m.end) - x(m.t))) +
           "\" height=\"18\" fill=\"#0969da\" opacity=\".7\"><title>" + esc(m.label) + ", response seq " +
           std::to_string(m.seq) + "</title></rect></a>";
  }
  for (const Mark& m : native_.marks()) svg += tick(m, 1, "#8c959f", 12);
  for (const Mark& m : acks_.marks()) svg += tick(m, 2, "#1f883d", 18);
  for (const Mark& m : events_.marks()) {
    const bool bad = m.label.starts_with("gap");
    svg += tick(m, 3, bad ? "#cf222e" : "#8250df", 18);
  }
  svg += "</g><text class=\"tl-time\" x=\"" + std::to_string(kLeft) + "\" y=\"" + std::to_string(kLane * 4 + 22) + "\">" +
         esc(format_time(Timestamp{t0})) + "</text><text class=\"tl-time\" x=\"" + std::to_string(kW - kRight) + "\" y=\"" +
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
         "unattested tail shaded red.</p><div id=\"tl-controls\" class=\"tl-controls\" hidden><button data-z=\"in\">zoom in</button>"
         "<button data-z=\"out\">zoom out</button><button data-z=\"reset\">whole run</button> <span class=\"note\">drag to "
         "pan when zoomed; ctrl + wheel zooms at the pointer</span></div><div class=\"tl-scroll\">" + svg + "</div>" +
         (note.empty() ? "" : "<p class=\"note\">" + note + "</p>") + "</section>";
}

std::string HtmlVisitor::badge(uint64_t seq, const VerdictView& v) const {
  const RecordMarks m = v.marks(seq);
  if (m.after_break) return " <span class=\"mark after-break\">after the break</span>";
  return m.attested ? "" : " <span class=\"mark unattested\">not attested</span>";
}

std::string HtmlVisitor::conversation_html(const VerdictView& v) {
  std::string out = "<section id=\"conversation\"><h2>Conversation</h2>";
  for (const Exchange& e : exchanges_) {
    const RebuiltAnswer& a = e.answer;
    const RecordMarks m = v.marks(e.response_seq);
    const char* cls = m.after_break ? " after-break" : m.attested ? "" : " unattested";
    out += "<div class=\"exchange" + std::string(cls) + "\" id=\"x-" + std::to_string(e.number) + "\"><div class=\"note\">Exchange " +
           std::to_string(e.number) + " &middot; " + (e.has_request ? link(e.request.seq) : "no request") + " &rarr; " +
           link(e.response_seq) + " &middot; <code>" + esc(a.model.empty() ? e.request.model : a.model) + "</code> &middot; " +
           esc(a.stop_reason) + " &middot; " + esc(a.message_id) + badge(e.response_seq, v) + "</div>";
    if (!a.error.empty()) out += "<div class=\"note\">Stream error: <code>" + esc(a.error) + "</code></div>";
    if (const std::string sub = subagent_note(e.request); !sub.empty()) out += "<div class=\"note\"><span class=\"mark unattested\">" + esc(sub) + "</span></div>";
    if (const std::string sys = system_note(e.request); !sys.empty()) {
      out += e.request.system_shown ? "<details class=\"tool-result\"><summary class=\"who\">" + esc(sys) + "</summary><pre>" +
                                          esc(clip_text(e.request.system, limits_.text_bytes, ClipNote::more_bytes)) + "</pre></details>"
                                    : "<div class=\"note\">" + esc(sys) + "</div>";
    }
    if (!e.complete) {
      out += "<div class=\"note\"><span class=\"mark error\">cut</span> the recorder did not get the whole response (the stream "
             "broke or hit the size cap); what arrived is shown</div>";
    }
    for (const auto& in : e.request.inputs) {
      const std::string note = history_note(in).empty() ? "" : " <span class=\"mark unattested\">" + esc(history_note(in)) + "</span>";
      // The size of the input as sent, not of the part embedded here.
      const uint64_t size = in.bytes ? in.bytes : in.text.size();
      const std::string clipped = size > limits_.text_bytes ? ", clipped to " + std::to_string(limits_.text_bytes) : "";
      if (in.kind == "tool_result") {
        out += "<details class=\"tool-result\"><summary class=\"who\">TOOL RESULT <code>" + esc(in.tool_use_id) + "</code>" +
               (in.is_error ? " <span class=\"mark error\">error</span>" : "");
        out += note;
        out += " (" + std::to_string(size) + " bytes" + clipped + ")</summary><pre>" + esc(in.text) + "</pre></details>";
      } else {
        std::string who = input_label(in);
        for (auto& ch : who) ch = static_cast<char>(ch >= 'a' && ch <= 'z' ? ch - 'a' + 'A' : ch);
        out += "<div class=\"who\">" + who;
        out += note;
        out += (clipped.empty() ? "" : " <span class=\"note\">(" + std::to_string(size) + " bytes" + clipped + ")</span>") +
               "</div><pre>" + esc(in.text) + "</pre>";
      }
    }
    out += "<div class=\"who\">ASSISTANT" +
           (a.text.size() > limits_.text_bytes ? " <span class=\"note\">(" + std::to_string(a.text.size()) + " bytes, clipped to " +
                                                     std::to_string(limits_.text_bytes) + ")</span>"
                                               : std::string()) +
           "</div>";
    // Blocks in stream order; thinking and reasoning collapsed.
    int64_t choice = 0;
    for (const RebuiltBlock& b : answer_blocks(a)) {
      using K = RebuiltBlock::Kind;
      if (b.choice != choice) {  // each choice a request for several asked for, apart
        choice = b.choice;
        out += "<div class=\"who\">ASSISTANT, CHOICE " + std::to_string(choice) + " <span class=\"note\">(the harness takes choice 0)</span></div>";
      }
      if (b.kind == K::text) {
        if (b.type == "refusal") out += "<div class=\"note\"><span class=\"mark error\">refusal</span></div>";
        out += "<pre class=\"answer\">" + esc(clip_text(b.text, limits_.text_bytes, ClipNote::more_bytes)) + "</pre>";
        if (!b.detail.empty()) out += "<div class=\"note\">cites</div><pre class=\"note\">" + esc(b.detail) + "</pre>";
      } else if (b.kind == K::thinking || b.kind == K::reasoning) {
        out += std::string("<details class=\"thinking\"><summary class=\"who\">") +
               (b.kind == K::thinking ? "THINKING" : "REASONING SUMMARY") + "</summary><pre>" +
               esc(clip_text(b.text, limits_.text_bytes, ClipNote::more_bytes)) + "</pre></details>";
      } else if (b.kind == K::redacted_thinking) {
        out += "<div class=\"note\">redacted thinking</div>";
      } else if (is_compaction(b)) {
        out += "<details class=\"thinking\"><summary class=\"who\">COMPACTION SUMMARY (replaces the history from here on)</summary><pre>" +
               esc(clip_text(b.text, limits_.text_bytes, ClipNote::more_bytes)) + "</pre></details>";
      } else if (b.kind == K::tool_call && b.call >= 0 && static_cast<size_t>(b.call) < a.tool_calls.size()) {
        const RebuiltToolCall& c = a.tool_calls[static_cast<size_t>(b.call)];
        out += "<div class=\"tool\">&rarr; " + esc(c.name) + (c.provider_run ? " (run by the provider)" : "") + " <code>" +
               esc(clip_text(shown_input(c), limits_.text_bytes, ClipNote::more_bytes)) + "</code></div>";
      } else if (b.kind == K::tool_result) {
        out += "<div class=\"note\">&larr; " + esc(b.type) + (b.text.empty() ? "" : " for " + esc(b.text)) +
               (b.is_error ? " <span class=\"mark error\">error</span>" : "") + "</div>";
        if (!b.detail.empty()) out += "<pre class=\"note\">" + esc(b.detail) + "</pre>";
      }
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

std::string HtmlVisitor::records_html(const VerdictView& v, const std::string& file) {
  std::string out = "<section id=\"records\"><h2>Records</h2><div class=\"scroll\"><table><tr><th>seq</th><th>time</th><th>kind</th>"
                    "<th>what</th></tr>";
  auto row_class = [&](uint64_t seq) {
    const RecordMarks m = v.marks(seq);
    return std::string(m.after_break ? " class=\"after-break\"" : m.attested ? "" : " class=\"unattested\"");
  };
  const std::string show = "goalcup-inspect show " + esc(file) + " ";
  auto rows = rows_.begin();
  auto links = linked_.begin();
  // Rows and linked seqs in one ordered merge: a linked record the page does
  // not embed gets a row that says where it is.
  while (rows != rows_.end() || links != linked_.end()) {
    const bool from_rows = links == linked_.end() || (rows != rows_.end() && rows->first <= *links);
    const uint64_t seq = from_rows ? rows->first : *links;
    if (from_rows) {
      const Row& r = rows->second;
      out += "<tr id=\"seq-" + std::to_string(seq) + "\"" + row_class(seq) + "><td>" + std::to_string(seq) + "</td><td><code>" +
             esc(r.t) + "</code></td><td>" + esc(r.kind) + "</td><td>" + esc(r.what) + badge(seq, v) + "</td></tr>";
      if (links != linked_.end() && *links == seq) ++links;
      ++rows;
    } else {
      out += "<tr id=\"seq-" + std::to_string(seq) + "\" class=\"not-embedded\"><td>" + std::to_string(seq) +
             "</td><td colspan=\"3\" class=\"note\">not embedded in this page: <code>" + show + std::to_string(seq) +
             "</code>" + badge(seq, v) + "</td></tr>";
      ++links;
    }
  }
  out += "</table></div><p class=\"note\">This table lists statements, gaps, tunnels and other events, the wire records "
         "of the conversation shown, the first records of the run, and a line for every other record the page links to" +
         (omitted_rows_ ? "; " + std::to_string(omitted_rows_) + " more are left out" : std::string()) +
         ". <code>goalcup-inspect records</code> and <code>show SEQ</code> give any record.</p></section>";
  return out;
}

std::string HtmlVisitor::header_html(const VerdictView& v, const Summary& s) {
  const VerifyReport& r = v.report();
  const std::string name(verdict_name(r.verdict));
  std::string out = "<header><h1>Goal Cup run <code>" + esc(s.entry_id) + "</code> &middot; " + esc(s.launch.harness_id) +
                    "</h1><span id=\"verdict-badge\" class=\"verdict " + name + (v.dev_key() ? " devkey" : "") + "\">" +
                    (v.dev_key() && r.verdict == Verdict::verified ? "verified with a dev key" : name) + "</span>";
  if (v.dev_key()) out += "<span class=\"keybadge\">DEV KEY: not the production server</span>";
  return out + "</header>";
}

// What the verdict proves and what it does not, in a judge's words.
std::string HtmlVisitor::proves_html(const VerdictView& v) {
  const VerifyReport& r = v.report();
  std::vector<std::string> yes, no;
  if (r.first_break_seq < 0 && r.records > 0) {
    yes.push_back("The hash chain holds over all " + std::to_string(r.records) + " records: none was edited, removed or "
                  "inserted after it was chained.");
  } else if (r.first_break_seq >= 0) {
    no.push_back("The first fault is at " + link(static_cast<uint64_t>(r.first_break_seq)) + " (" +
                 esc(v.break_text()) + "): from there on records may have been edited, removed or inserted.");
  }
  size_t valid = 0;
  for (const auto& st : r.statements) valid += st.valid;
  if (valid > 0 && r.key_source == KeySource::pinned) {
    yes.push_back(std::to_string(valid) + " server statement(s) verify under the pinned production keys.");
  } else if (valid > 0) {
    no.push_back("The " + std::to_string(valid) + " statement(s) verify only under a development key given with "
                 "<code>--dev-key</code>: they say nothing about the production server.");
  } else {
    no.push_back("No server statement verifies: nothing in this trace is attested by the server.");
  }
  if (r.attested_through_seq >= 0) {
    yes.push_back("The server saw records 0 to " + link(static_cast<uint64_t>(r.attested_through_seq)) + " as they are.");
  }
  if (r.unattested_records > 0) {
    no.push_back(std::to_string(r.unattested_records) + " record(s) (" + esc(human_bytes(r.unattested_wire_bytes)) +
                 " of wire) after the last valid statement are not attested: the server never vouched for them.");
  }
  if (r.verdict == Verdict::verified) yes.push_back("The run was sealed and the server acknowledged the seal.");
  else if (r.incomplete_reason == IncompleteReason::unsealed) no.push_back("The run was never sealed.");
  else if (r.incomplete_reason == IncompleteReason::seal_unacknowledged) no.push_back("The seal was never acknowledged.");
  no.push_back("Verification says the trace is what the recorder wrote, not that the recorder saw everything: work "
               "outside the proxy, a restarted daemon or a changed harness show only as evidence (the findings above).");
  auto list = [](const std::vector<std::string>& items) {
    std::string out = "<ul>";
    for (const auto& i : items) out += "<li>" + i + "</li>";
    return out + "</ul>";
  };
  return "<section id=\"proves\"><h2>What this verdict proves</h2><div class=\"proves\"><div class=\"yes\"><h3>Proves</h3>" +
         (yes.empty() ? std::string("<p>Nothing.</p>") : list(yes)) + "</div><div class=\"no\"><h3>Does not prove</h3>" +
         list(no) + "</div></div><p class=\"note\">Key source: " + esc(key_source_name(r.key_source)) + ". " + esc(v.verdict_with_reason()) +
         ".</p></section>";
}

std::string HtmlVisitor::findings_html(const cheat::CheatReport* report) {
  std::string out = "<section id=\"findings\"><h2>Cheat checklist findings</h2>";
  if (!report) return out + "<p class=\"note\">The checks were not run (<code>--no-checks</code>).</p></section>";
  if (report->findings.empty()) out += "<p>No findings: no evidence of a known recorder gap or a leaked credential.</p>";
  for (const auto& f : report->findings) {
    const std::string sev(cheat::severity_name(f.severity));
    for (const std::string& part : {std::string("<div class=\"finding\"><span class=\"sev "), sev, std::string("\">"), sev,
                                     std::string("</span> <b>"), esc(f.check), std::string("</b> "), esc(f.message)}) {
      out += part;
    }
    if (!f.seqs.empty()) {
      out += " <span class=\"note\">";
      for (uint64_t seq : f.seqs) {
        out += link(seq);
        out += ' ';
      }
      out += "</span>";
    }
    out += "</div>";
  }
  if (!report->skipped.empty()) {
    out += "<p class=\"note\">Not checked: ";
    for (const auto& sk : report->skipped) out += esc(sk.check) + " (" + esc(sk.reason) + "); ";
    out += "</p>";
  }
  return out + "</section>";
}

std::string HtmlVisitor::page(const VerifyReport& v, const cheat::CheatReport* findings, const std::string& file) {
  const Summary& s = summary_.summary();
  const VerdictView verdict(v);
  // Records last: every section before it adds the seqs it links to.
  std::string body = header_html(verdict, s) + findings_html(findings) + proves_html(verdict) + summary_html(v) +
                     timeline_svg(v) + conversation_html(verdict);
  body += records_html(verdict, file);
  return "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><meta name=\"viewport\" "
         "content=\"width=device-width,initial-scale=1\"><title>Goal Cup run " + esc(s.entry_id) + " (" +
         esc(verdict.verdict_with_reason()) + ")</title><style>" + kStyle + "</style></head><body>" + body + "<script>" +
         kScript + "</script></body></html>\n";
}

}  // namespace

VerifyReport render_html(const std::string& path, const WalkOptions& options, const HtmlLimits& limits,
                         const cheat::CheatOptions* cheat, cheat::CredentialMasker* masker, std::string* page) {
  std::optional<cheat::CheatScan> scan;
  if (cheat) scan.emplace(*cheat);
  HtmlVisitor v(limits, options.limits, scan ? &scan->visitor() : nullptr, masker);
  VerifyReport rep = walk_trace(path, options, &v);
  if (unreadable_message(rep)) return rep;
  std::optional<cheat::CheatReport> findings;
  if (scan) findings = scan->finish(path, rep);
  *page = v.page(rep, findings ? &*findings : nullptr, path);
  return rep;
}

}  // namespace goalcup::inspect
