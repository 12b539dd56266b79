#include "inspect/summary.h"

#include "cheatcheck/secrets/mask.h"
#include "cli/safe_text.h"
#include "core/bodies.h"
#include "core/json_strict.h"
#include "core/statement.h"
#include "inspect/exchange.h"
#include "inspect/text.h"
#include "inspect/verdict_view.h"

namespace goalcup::inspect {
namespace {

constexpr size_t kMaxModels = 100;
constexpr size_t kMaxGaps = 100;
constexpr size_t kMaxKinds = 32;

// A string the summary keeps, clipped (a hostile trace may make it huge).
std::string at(simdjson::dom::object o, std::string_view pointer) {
  simdjson::dom::element e;
  std::string_view v;
  if (o.at_pointer(pointer).get(e) || e.get(v)) return {};
  return clip_text(v);
}

std::optional<Timestamp> statement_time(const Record& r, StrictJsonParser& parser) {
  auto st = read_statement_unverified(r.body, parser, static_cast<int64_t>(r.seq));
  if (!st) return std::nullopt;
  return st->at;
}

std::string span(const std::optional<Timestamp>& a, const std::optional<Timestamp>& b) {
  if (!a) return "unknown";
  std::string s = format_time(*a) + " .. " + (b ? format_time(*b) : "(open)");
  if (b) {
    char buf[32];
    std::snprintf(buf, sizeof buf, " (%.1f s)", static_cast<double>(nanos_between(*a, *b)) / 1e9);
    s += buf;
  }
  return s;
}

// Tokens summed over the answers that reported usage; answers that
// reported none are said, so that a run without usage does not read as 0.
std::string tokens_row(const Summary& s) {
  if (s.answers > 0 && s.answers_with_usage == 0) {
    return "not reported by any of the " + std::to_string(s.answers) + " answer(s)";
  }
  std::string row = std::to_string(s.input_tokens) + " in, " + std::to_string(s.cache_read_tokens) + " cache read, " +
                    std::to_string(s.cache_write_tokens) + " cache write, " + std::to_string(s.output_tokens) +
                    " out (final usage of each answer)";
  if (s.answers_with_usage < s.answers) {
    row += "; " + std::to_string(s.answers - s.answers_with_usage) + " of " + std::to_string(s.answers) +
           " answer(s) reported none";
  }
  return row;
}

std::string joined(const std::set<std::string>& s) {
  std::string out;
  for (const auto& x : s) out += (out.empty() ? "" : ", ") + x;
  return out.empty() ? "-" : out;
}

}  // namespace

bool SummaryVisitor::on_record(const Record& r, const Line&, const Digest&) {
  // Unknown kinds are named by the trace: clipped, and a few dozen at most.
  std::string kind = clip_text(r.kind_text);
  if (s_.kinds.size() >= kMaxKinds && !s_.kinds.contains(kind)) kind = "(other kinds)";
  ++s_.kinds[kind];
  if (!s_.first_t) s_.first_t = r.t;
  s_.last_t = r.t;
  switch (r.kind) {
    case Kind::header:
      if (r.seq == 0) static_cast<HeaderInfo&>(s_) = read_header(r);
      break;
    case Kind::launch: s_.launch = read_launch(r); break;
    case Kind::start_receipt:
      if (!s_.server_start) s_.server_start = statement_time(r, parsers_.statement);
      break;
    case Kind::seal_ack: s_.server_end = statement_time(r, parsers_.statement); break;
    case Kind::tunnel: ++s_.tunnels; break;
    case Kind::gap:
      if (s_.gaps.size() < kMaxGaps) s_.gaps.emplace_back(r.seq, at(r.body, "/gap"));
      break;
    case Kind::exit: {
      s_.exited = true;
      int64_t code;
      if (json::integer(r.body, "code", &code) == json::Get::ok) s_.exit_code = code;
      s_.exit_signal = at(r.body, "/signal");
      break;
    }
    case Kind::wire: {
      uint64_t size = 0;
      (void)json::uint(r.body, "size", &size);
      s_.wire_bytes += size;
      std::string_view dir;
      (void)json::string(r.body, "dir", &dir);
      std::string decoded;
      const std::string_view body = wire_body(r, &decoded);
      if (dir == "request") {
        ++s_.exchanges;
        RequestInfo req = read_request(body, r.seq, 0, parsers_);
        if (!req.unread.empty()) ++s_.requests_unread;
        if (!req.model.empty() && s_.models_requested.size() < kMaxModels) s_.models_requested.insert(clip_text(req.model));
      } else {
        RebuiltAnswer a = read_response(r, body, parsers_);
        if (!a.model.empty() && s_.models_answered.size() < kMaxModels) s_.models_answered.insert(clip_text(a.model));
        ++s_.answers;
        if (answer_failed(a)) ++s_.answers_failed;
        bool complete = true;
        (void)json::boolean(r.body, "complete", &complete);
        if (!complete) ++s_.answers_cut;
        if (a.input_tokens >= 0 || a.output_tokens >= 0) ++s_.answers_with_usage;
        if (a.input_tokens > 0) s_.input_tokens += a.input_tokens;
        if (a.output_tokens > 0) s_.output_tokens += a.output_tokens;
        if (a.cache_read_tokens > 0) s_.cache_read_tokens += a.cache_read_tokens;
        if (a.cache_write_tokens > 0) s_.cache_write_tokens += a.cache_write_tokens;
      }
      break;
    }
    default: break;
  }
  return true;
}

Summary summarize(const std::string& path, const WalkOptions& options) {
  SummaryVisitor v(options.limits);
  VerifyReport rep = walk_trace(path, options, &v);
  Summary s = std::move(v.summary());
  s.verify = std::move(rep);
  return s;
}

void mask_summary(Summary& s, cheat::CredentialMasker& masker) {
  const auto mask = [&](std::string& text) {
    if (auto m = masker.mask(text)) text = std::move(*m);
  };
  const auto mask_set = [&](std::set<std::string>& set) {
    std::set<std::string> out;
    for (std::string item : set) {  // a copy: a set's keys cannot change in place
      mask(item);
      out.insert(std::move(item));
    }
    set = std::move(out);
  };
  for (std::string* text : {&s.entry_id, &s.run_id, &s.connector_id, &s.connector_version, &s.connector_digest,
                            &s.participant, &s.repo, &s.launch.harness_id, &s.launch.harness_version,
                            &s.launch.program_digest, &s.launch.image_digest, &s.exit_signal}) {
    mask(*text);
  }
  mask_set(s.models_requested);
  mask_set(s.models_answered);
  std::map<std::string, uint64_t> kinds;
  for (const auto& [kind, n] : s.kinds) {
    std::string name = kind;
    mask(name);
    kinds[name] += n;  // two kinds may show alike once masked
  }
  s.kinds = std::move(kinds);
  for (auto& gap : s.gaps) mask(gap.second);
}

std::string format_summary_text(const Summary& s, const Style& st) {
  std::string out;
  // Every value but the verdict's holds names from the trace: one line each.
  auto painted_row = [&](std::string_view k, const std::string& v) {
    std::string key(k);
    key.resize(18, ' ');
    // Long values (kinds, digests) wrap under their column.
    const std::string wrapped = wrap(v.empty() ? "-" : v, std::string(key.size(), ' '));
    out += st.paint(key, Color::dim) + wrapped.substr(key.size());
  };
  auto row = [&](std::string_view k, const std::string& v) { painted_row(k, safe_text(v)); };
  const VerifyReport& v = s.verify;
  out += VerdictView(v).banner(st);  // names no trace text
  row("trace", v.file + " (" + std::to_string(v.records) + " records, " + human_bytes(v.bytes) + ")");
  row("entry / run", s.entry_id + " / " + s.run_id);
  row("participant", s.participant + (s.repo.empty() ? "" : " (" + s.repo + ")"));
  row("harness", s.launch.harness_id + " " + s.launch.harness_version);
  row("  program", s.launch.program_digest);
  row("  image", s.launch.image_digest);
  row("connector", s.connector_id + " " + s.connector_version + "  " + s.connector_digest);
  // The end is the seal ack's time only when that statement holds.
  row("server time", span(s.server_start, v.seal_acknowledged ? s.server_end : std::nullopt));
  row("recorder time", span(s.first_t, s.last_t));
  std::string kinds;
  for (const auto& [k, n] : s.kinds) kinds += (kinds.empty() ? "" : ", ") + k + " " + std::to_string(n);
  row("records", kinds);
  row("exchanges", std::to_string(s.exchanges) + ", " + human_bytes(s.wire_bytes) + " on the wire, " +
                       std::to_string(s.tunnels) + " tunnel(s)" +
                       (s.answers_failed ? "; " + std::to_string(s.answers_failed) + " answer(s) failed (refused or broken off)" : "") +
                       (s.answers_cut ? "; " + std::to_string(s.answers_cut) + " answer(s) cut (the recorder did not get them whole)" : ""));
  if (s.requests_unread > 0) {
    row("not read", std::to_string(s.requests_unread) +
                        " request body(ies) past --max-depth or --max-line-bytes: their models are not counted");
  }
  row("models", "requested " + joined(s.models_requested) + "; answered " + joined(s.models_answered));
  row("tokens", tokens_row(s));
  std::string gaps;
  for (const auto& [seq, name] : s.gaps) gaps += (gaps.empty() ? "" : ", ") + name + " at seq " + std::to_string(seq);
  row("gaps", gaps.empty() ? "none" : gaps);
  row("exit", !s.exited ? "none" : s.exit_code ? "code " + std::to_string(*s.exit_code) : "signal " + s.exit_signal);
  row("attested", v.attested_through_seq < 0 ? "nothing"
                  : "through seq " + std::to_string(v.attested_through_seq) + "; unattested " +
                        std::to_string(v.unattested_records) + " records, " + human_bytes(v.unattested_wire_bytes));
  return out;
}

void write_summary_json(JsonWriter& w, const Summary& s) {
  const VerifyReport& v = s.verify;
  auto opt_time = [&](std::string_view key, const std::optional<Timestamp>& t) {
    if (t) w.field(key, format_time(*t));
    else w.null_field(key);
  };
  w.begin_object().field("file", v.file).field("verdict", verdict_name(v.verdict)).key("verify");
  write_verify_json(w, v);
  w.field("entry_id", s.entry_id).field("run_id", s.run_id);
  w.key("participant").begin_object().field("login", s.participant).field("repo", s.repo).end_object();
  w.key("harness").begin_object().field("id", s.launch.harness_id).field("version", s.launch.harness_version);
  w.field("program_digest", s.launch.program_digest).field("image_digest", s.launch.image_digest).end_object();
  w.key("connector").begin_object().field("id", s.connector_id).field("version", s.connector_version);
  w.field("digest", s.connector_digest).end_object();
  w.key("server_time").begin_object();
  opt_time("start", s.server_start);
  opt_time("end", v.seal_acknowledged ? s.server_end : std::nullopt);
  w.end_object().key("recorder_time").begin_object();
  opt_time("start", s.first_t);
  opt_time("end", s.last_t);
  w.end_object();
  w.field("records", v.records).field("bytes", v.bytes);
  w.key("kinds").begin_object();
  for (const auto& [k, n] : s.kinds) w.field(k, n);
  w.end_object();
  w.field("exchanges", s.exchanges).field("wire_bytes", s.wire_bytes).field("tunnels", s.tunnels);
  w.field("requests_unread", s.requests_unread).field("answers_failed", s.answers_failed).field("answers_cut", s.answers_cut);
  w.key("models_requested").begin_array();
  for (const auto& m : s.models_requested) w.value(m);
  w.end_array().key("models_answered").begin_array();
  for (const auto& m : s.models_answered) w.value(m);
  w.end_array();
  w.key("tokens").begin_object().field("input", s.input_tokens).field("output", s.output_tokens);
  w.field("cache_read", s.cache_read_tokens).field("cache_write", s.cache_write_tokens).end_object();
  w.key("gaps").begin_array();
  for (const auto& [seq, name] : s.gaps) w.begin_object().field("seq", seq).field("gap", name).end_object();
  w.end_array();
  if (!s.exited) w.null_field("exit");
  else {
    w.key("exit").begin_object();
    if (s.exit_code) w.field("code", *s.exit_code); else w.null_field("code");
    w.field("signal", s.exit_signal).end_object();
  }
  w.end_object();
}

ViewPrinter<Summary> summary_printer(Format format, const Style& style) {
  return ViewPrinter<Summary>(format, style,
                              {.text = format_summary_text, .json = [](const Summary& s) {
                                 std::string out;
                                 JsonWriter w(&out, true);
                                 write_summary_json(w, s);
                                 return out + "\n";
                               },
                               .markdown = {}});
}

}  // namespace goalcup::inspect
