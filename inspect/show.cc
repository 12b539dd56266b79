#include "inspect/show.h"

#include <iostream>
#include <memory>

#include "cheatcheck/secrets/mask.h"
#include "cli/json_dom.h"
#include "cli/safe_text.h"
#include "cli/verify_text.h"
#include "core/json_strict.h"
#include "core/keyring.h"
#include "core/sse.h"
#include "core/statement.h"
#include "inspect/exchange.h"
#include "inspect/json_items.h"
#include "inspect/text.h"

namespace goalcup::inspect {
namespace {

// A shown record holds no more than this of any one string or decoded view,
// so that showing a record costs a bounded amount beyond reading its line:
// a longer string is clipped before it is copied (with a note of how much
// more there was), and a longer body is shown as its clipped text, not
// parsed. `clipped` in the JSON says so.
constexpr size_t kShownBytes = 1 << 20;

// Whether the part of `body` that is shown is UTF-8 text (a clipped body
// ends on a character boundary).
bool utf8_head(std::string_view body) {
  size_t n = std::min(body.size(), kShownBytes);
  while (n > 0 && n < body.size() && (static_cast<unsigned char>(body[n]) & 0xC0) == 0x80) --n;
  return simdjson::validate_utf8(body.data(), n);
}

}  // namespace

class RecordRenderer {
 public:
  // With a `masker`, every body the renderer decodes is masked before any
  // view of it is made (see content()).
  RecordRenderer(const Limits& limits, cheat::CredentialMasker* masker)
      : parser_(limits), parsers_(limits), masker_(masker) {}
  BodyParsers& parsers() { return parsers_; }
  const Limits& limits() const { return parsers_.limits; }

  // A wire record's body as the content it carried (its first kShownBytes
  // and one), the one way every view of show reads it. The line was masked
  // before it was parsed, but a body stored compressed holds its
  // credentials as compressed bytes no masking of the line can reach: the
  // content decoded from it is masked here, whole, before it is cut into
  // events or wrapped lines that would cut a key in two.
  std::string_view content(const Record& r, std::string* decoded) {
    const std::string_view body = wire_body(r, decoded, kShownBytes + 1);
    if (!masker_ || body.data() != decoded->data()) return body;  // stored as is: masked with the line
    if (auto masked = masker_->mask_decoded(body)) *decoded = std::move(*masked);
    return *decoded;
  }

  // The decoded views of a body: wire bodies, native lines, statements.
  void write_decoded(JsonWriter& w, const Record& r) {
    if (r.kind == Kind::wire) {
      std::string decoded;
      const std::string_view body = content(r, &decoded);
      if (looks_like_sse(body)) {
        w.key("sse_events").begin_array();
        size_t shown = 0;
        for_each_sse_event(body, [&](std::string_view event, std::string_view data) {
          w.begin_object().field("event", clip_shown(event));
          json_or_text(w, "data", data);
          w.end_object();
          shown += event.size() + data.size();
          if (shown <= kShownBytes) return true;
          clipped_ = true;
          return false;
        });
        w.end_array();
        const RebuiltAnswer a = rebuild_answer(body, parsers_.limits);
        w.key("rebuilt_answer").begin_object().field("message_id", clip_shown(a.message_id)).field("model", clip_shown(a.model));
        w.field("stop_reason", clip_shown(a.stop_reason));
        if (!a.error.empty()) w.field("error", clip_shown(a.error));
        w.field("text", clip_shown(a.text)).key("tool_calls").begin_array();
        for (const auto& c : a.tool_calls) {
          w.begin_object().field("id", clip_shown(c.id)).field("name", clip_shown(c.name)).field("input", clip_shown(c.input));
          w.end_object();
        }
        w.end_array().end_object();
      } else if (utf8_head(body)) {
        json_or_text(w, "wire_body", body);
      } else {
        w.field("wire_body_base64", base64_encode(body.substr(0, kShownBytes)));
        if (body.size() > kShownBytes) clipped_ = true;
      }
    } else if (r.kind == Kind::native) {
      std::string_view text;
      if (json::string(r.body, "text", &text) == json::Get::ok) json_or_text(w, "native", text);
    } else if (is_statement(r.kind)) {
      auto env = decode_envelope(r.body, static_cast<int64_t>(r.seq));
      if (env) json_or_text(w, "statement", env->payload);
    }
  }

  // The record's body as stored, each string clipped.
  template <typename Value>  // dom::element or dom::object
  void write_body(JsonWriter& w, Value v) {
    const StringShape clip = [this](std::string_view s) { return clip_shown(s); };
    write_dom(w, v, &clip);
  }

  std::string clip_shown(std::string_view s) {
    if (s.size() > kShownBytes) clipped_ = true;
    return clip_text(s, kShownBytes, ClipNote::more_bytes);
  }
  bool clipped() const { return clipped_; }

 private:
  // Parsed JSON when the text is JSON and short enough, else the text.
  void json_or_text(JsonWriter& w, std::string_view key, std::string_view text) {
    w.key(key);
    if (text.size() <= kShownBytes) {
      if (auto root = parser_.parse_copy(text, -1)) {
        write_dom(w, *root);
        return;
      }
    }
    w.value(clip_shown(text));
  }

  StrictJsonParser parser_;
  BodyParsers parsers_;  // for describe()
  cheat::CredentialMasker* masker_;
  bool clipped_ = false;
};

namespace {

// Text for people: the envelope, the body with its long encoded members
// replaced by a note, then each decoded view; SSE as one line per event.
// JSON parts are escaped by JsonWriter; other trace text through safe_text,
// one line each but the rebuilt answer's text, which keeps its lines.
std::string render_text(const Record& r, const Line& line, const Digest& hash, const Style& st, RecordRenderer& rr) {
  std::string out = st.paint(fit_columns("seq " + std::to_string(r.seq) + "  " + safe_text(r.t_text) + "  " +
                                             safe_text(r.kind_text), kWidth), Color::bold) + "\n";
  out += st.paint("prev ", Color::dim) + digest_ref(r.prev) + "\n" + st.paint("hash ", Color::dim) + digest_ref(hash) +
         "  (" + std::to_string(line.bytes.size()) + " bytes)\n";
  out += st.paint(fit_columns("  " + safe_text(describe(r, rr.parsers())), kWidth), Color::dim) + "\n\n" + st.paint("body", Color::bold) + "\n";
  std::string body;
  JsonWriter w(&body, true);
  w.begin_object();
  for (auto field : r.body) {
    std::string_view sv;
    const bool decoded_below = (field.key == "body" || field.key == "text" || field.key == "payload") &&
                               !field.value.get(sv) && sv.size() > 80;
    w.key(rr.clip_shown(field.key));
    if (decoded_below) w.value("<" + std::to_string(sv.size()) + " bytes, decoded below>");
    else rr.write_body(w, field.value);
  }
  w.end_object();
  out += hard_wrap(body);
  std::string decoded_wire;
  const std::string_view wire = r.kind == Kind::wire ? rr.content(r, &decoded_wire) : std::string_view();
  if (r.kind == Kind::wire && looks_like_sse(wire)) {
    out += "\n" + st.paint("events", Color::bold) + "\n";
    const size_t events_start = out.size();
    for_each_sse_event(wire, [&](std::string_view event, std::string_view data) {
      out += hard_wrap("  " + (event.empty() ? std::string("message") : safe_text(rr.clip_shown(event))) + "  " +
                       safe_text(rr.clip_shown(data)));
      if (out.size() - events_start <= kShownBytes) return true;
      out += st.paint("  ... events past the first " + human_bytes(kShownBytes) + " not shown", Color::dim) + "\n";
      return false;
    });
    const RebuiltAnswer a = rebuild_answer(wire, rr.limits());
    out += "\n" + st.paint("rebuilt answer", Color::bold) + " " +
           hard_wrap(safe_text(rr.clip_shown(a.message_id)) + " (" + safe_text(rr.clip_shown(a.stop_reason)) + ")") +
           wrap(rr.clip_shown(a.text), "");
    if (!a.error.empty()) out += st.paint(wrap("(error) " + rr.clip_shown(a.error), ""), Color::red);
    for (const auto& c : a.tool_calls) {
      out += wrap("-> " + rr.clip_shown(c.name) + " " + rr.clip_shown(c.id) + " " + rr.clip_shown(c.input), "");
    }
    return out;
  }
  std::string decoded;
  JsonWriter d(&decoded, true);
  d.begin_object();
  rr.write_decoded(d, r);
  d.end_object();
  if (decoded.size() > 2) out += "\n" + st.paint("decoded", Color::bold) + "\n" + hard_wrap(decoded);
  return out;
}

std::string render_json(const Record& r, const Digest& hash, RecordRenderer& rr) {
  std::string out;
  JsonWriter w(&out);
  w.begin_object().field("seq", r.seq).field("t", r.t_text).field("kind", r.kind_text);
  w.field("prev", digest_ref(r.prev)).field("hash", digest_ref(hash)).field("description", describe(r, rr.parsers()));
  w.key("body");
  rr.write_body(w, r.body);
  rr.write_decoded(w, r);
  w.field("clipped", rr.clipped());
  w.end_object();
  return out;
}

std::string text_page(const ShowPage& p, const Style& st) {
  const VerdictView verdict(p.report);
  std::string out = verdict.banner(st);
  const std::string mark = verdict.mark_text(p.seq);
  if (!mark.empty()) out += st.paint(fit_columns("seq " + std::to_string(p.seq) + " is " + mark, kWidth), Color::red) + "\n";
  if (const StatementReport* sr = statement_at(p.report, p.seq)) {
    out += sr->valid ? fit_columns("statement verified by " + std::string(key_source_name(sr->key_source)) + " key " +
                                       safe_text(sr->key_id), kWidth) + "\n"
                     : st.paint(fit_columns("statement not valid (see the errors); key_id hint " + safe_text(sr->key_id), kWidth),
                                Color::red) + "\n";
  }
  return out + "\n" + (p.record ? *p.record : fit_columns(p.bad, kWidth) + "\n");
}

// Which key verified the statement at the page's seq: the envelope's key_id
// is only a hint, which anyone can set to a production key's id.
void write_statement_check(JsonWriter& w, const ShowPage& p) {
  const StatementReport* sr = statement_at(p.report, p.seq);
  if (!sr) return;
  w.key("statement_check").begin_object().field("valid", sr->valid).field("key_id", sr->key_id);
  w.field("key_source", key_source_name(sr->valid ? sr->key_source : KeySource::none)).end_object();
}

std::string json_page(const ShowPage& p) {
  std::string out;
  JsonWriter w(&out, true);
  w.begin_object().field("file", p.report.file).field("verdict", verdict_name(p.report.verdict)).key("verify");
  write_verify_json(w, p.report);
  write_marks_json(w, VerdictView(p.report).marks(p.seq));
  write_statement_check(w, p);
  if (p.record) w.key("record").raw(*p.record);
  else w.null_field("record").field("error", p.bad);
  w.end_object();
  return out + "\n";
}

// Credentials are masked in the record before it is rendered, not in what
// the rendering prints: wrapped lines would cut a key in two, and a key a
// stream split over several deltas shows whole only once they are joined.
// A line longer than this is masked in its rendering only (each string of
// it is clipped to kShownBytes there), so that masking costs no more than
// showing does.
constexpr size_t kMaskWholeLineBelow = 16 << 20;

class ShowVisitor final : public RecordVisitor {
 public:
  ShowVisitor(uint64_t seq, const ShowPrinter& printer, const Limits& limits, cheat::CredentialMasker* masker)
      : seq_(seq), printer_(printer), limits_(limits), masker_(masker) {}
  bool on_record(const Record& r, const Line& line, const Digest& hash) override {
    // Read on to the end: the verdict and the marks need the whole chain.
    if (line.index != seq_) return true;
    if (masker_ && line.bytes.size() < kMaskWholeLineBelow) {
      if (auto masked = masker_->mask_record(line.bytes)) return render_masked(std::move(*masked), line, hash);
    }
    render(r, line, hash);
    return true;
  }
  void on_bad_line(const Line& line, const Error& e) override {
    if (line.index == seq_) bad_ = "seq " + std::to_string(seq_) + " is not a valid record: " + safe_text(e.message);
  }
  std::optional<std::string> out_, bad_;

 private:
  void render(const Record& r, const Line& line, const Digest& hash) {
    RecordRenderer rr(limits_, masker_);
    out_ = printer_.record({.record = r, .line = line, .hash = hash, .renderer = rr});
  }
  // The record as masked, shown with the hash of the line as written.
  bool render_masked(std::string masked, const Line& line, const Digest& hash) {
    const size_t length = masked.size();
    masked.append(kLinePadding, '\0');
    RecordParser parser(limits_);
    auto r = parser.parse(std::string_view(masked.data(), length), line.index);
    if (!r) {  // masking only replaces string contents: not expected
      bad_ = "seq " + std::to_string(seq_) + " could not be shown with its credentials masked";
      return true;
    }
    render(*r, Line{std::string_view(masked.data(), length), line.index}, hash);
    return true;
  }

  uint64_t seq_;
  const ShowPrinter& printer_;
  const Limits& limits_;
  cheat::CredentialMasker* masker_;
};

// A record's description, its credentials masked (a token in a path's
// query string) when there is a masker: before it is cut to fit, so that
// the cut never leaves a piece of one.
std::string described(const Record& r, BodyParsers& parsers, cheat::CredentialMasker* masker) {
  std::string d = describe(r, parsers);
  if (masker) {
    if (auto m = masker->mask(d)) d = std::move(*m);
  }
  return d;
}

// One fixed-width line per record: seq, time of day to the millisecond,
// its mark, kind, and as much of the description as fits the width. The
// date is a line of its own whenever it changes.
std::string record_line(const Record& r, char mark, std::string* date, const Style& st, BodyParsers& parsers,
                        cheat::CredentialMasker* masker) {
  const std::string t = format_time(r.t);  // 2026-11-21T02:49:01.913000000Z
  std::string out;
  if (t.compare(0, 10, *date) != 0) {
    *date = t.substr(0, 10);
    out += st.paint("-- " + *date + " (UTC)", Color::dim) + "\n";
  }
  std::string head = std::to_string(r.seq);
  head.resize(std::max<size_t>(head.size() + 1, 8), ' ');
  std::string kind = fit_columns(safe_text(r.kind_text), 13);
  kind.resize(kind.size() + 14 - columns(kind), ' ');
  const size_t used = head.size() + 12 + 3 + 14;
  const std::string what = fit_columns(safe_text(described(r, parsers, masker)), kWidth - std::min(kWidth, used));
  const std::string marked = mark == ' ' ? " " : st.paint(std::string(1, mark), Color::red);
  return out + head + st.paint(t.substr(11, 12), Color::dim) + " " + marked + " " + kind + what + "\n";
}

// The record list in one format, chosen once per run: the verdict first
// (in the constructor), then each record the filter keeps.
class RecordListPrinter {
 public:
  RecordListPrinter() = default;
  RecordListPrinter(const RecordListPrinter&) = delete;
  RecordListPrinter& operator=(const RecordListPrinter&) = delete;
  virtual ~RecordListPrinter() = default;
  virtual void record(const Record& r, const Line& line) = 0;
  // A line that is not a record, when the filter names no kind or host.
  virtual void bad_line(const Line& line, const Error& e) = 0;
  virtual void end() {}
};

class TextRecordList final : public RecordListPrinter {
 public:
  TextRecordList(const Style& st, const VerdictView& v, const Limits& limits, cheat::CredentialMasker* masker)
      : st_(st), verdict_(v), parsers_(limits), masker_(masker) {
    print_text(std::cout, verdict_.banner(st_, true), st_);
  }
  void record(const Record& r, const Line&) override {
    print_text(std::cout, record_line(r, verdict_.mark_char(r.seq), &date_, st_, parsers_, masker_), st_);
  }
  // Listed too, marked, so that the list never skips over the fault it is
  // meant to show.
  void bad_line(const Line& line, const Error& e) override {
    std::string head = std::to_string(line.index);
    head.resize(std::max<size_t>(head.size() + 1, 8), ' ');
    const std::string what = "not a record: " + std::string(code_name(e.code)) + ", " + e.message;
    print_text(std::cout, head + std::string(12, ' ') + " " + st_.paint(std::string(1, verdict_.mark_char(line.index)), Color::red) +
                              " " + fit_columns(safe_text(what), kWidth - std::min<size_t>(kWidth, head.size() + 15)) + "\n",
               st_);
  }

 private:
  const Style& st_;
  const VerdictView& verdict_;
  std::string date_;
  BodyParsers parsers_;
  cheat::CredentialMasker* masker_;
};

class JsonRecordList final : public RecordListPrinter {
 public:
  JsonRecordList(const VerdictView& v, const Limits& limits, cheat::CredentialMasker* masker)
      : verdict_(v), parsers_(limits), masker_(masker), stream_(std::cout, v, "records") {}
  void record(const Record& r, const Line& line) override {
    std::string out;
    JsonWriter w(&out);
    w.begin_object().field("seq", r.seq).field("t", r.t_text).field("kind", r.kind_text);
    w.field("description", described(r, parsers_, masker_));
    w.field("bytes", static_cast<uint64_t>(line.bytes.size()));
    write_marks_json(w, verdict_.marks(r.seq));
    w.end_object();
    stream_.add(out);
  }
  void bad_line(const Line&, const Error&) override {}  // the JSON items are records
  void end() override { stream_.end(); }

 private:
  const VerdictView& verdict_;
  BodyParsers parsers_;
  cheat::CredentialMasker* masker_;
  JsonItemStream stream_;
};

class ListVisitor final : public RecordVisitor {
 public:
  ListVisitor(const RecordFilter& f, RecordListPrinter& printer) : f_(f), printer_(printer) {}
  bool on_record(const Record& r, const Line& line, const Digest&) override {
    if (r.seq > f_.to) return false;  // past the range: stop reading
    if (r.seq < f_.from || !wanted(r, line)) return true;
    printer_.record(r, line);
    return true;
  }
  void on_bad_line(const Line& line, const Error& e) override {
    if (line.index < f_.from || line.index > f_.to || !f_.kinds.empty() || !f_.host.empty()) return;
    if (!f_.grep.empty() && line.bytes.find(f_.grep) == std::string_view::npos) return;
    printer_.bad_line(line, e);
  }

 private:
  bool wanted(const Record& r, const Line& line) const {
    if (!f_.kinds.empty() && std::find(f_.kinds.begin(), f_.kinds.end(), r.kind_text) == f_.kinds.end()) return false;
    if (!f_.host.empty()) {
      std::string_view host;
      if (json::string(r.body, "host", &host) != json::Get::ok || host != f_.host) return false;
    }
    return f_.grep.empty() || line.bytes.find(f_.grep) != std::string_view::npos;
  }
  const RecordFilter& f_;
  RecordListPrinter& printer_;
};

std::unique_ptr<RecordListPrinter> make_record_list_printer(Format format, const Style& style, const VerdictView& verdict,
                                                            const Limits& limits, cheat::CredentialMasker* masker) {
  if (format == Format::json) return std::make_unique<JsonRecordList>(verdict, limits, masker);
  return std::make_unique<TextRecordList>(style, verdict, limits, masker);
}

}  // namespace

ShowPrinter::ShowPrinter(Format format, const Style& style)
    : record_(format, style,
              {.text = [](const RecordToShow& r, const Style& st) { return render_text(r.record, r.line, r.hash, st, r.renderer); },
               .json = [](const RecordToShow& r) { return render_json(r.record, r.hash, r.renderer); },
               .markdown = {}}),
      page_(format, style, {.text = text_page, .json = json_page, .markdown = {}}) {}

ShownRecord show_record(const std::string& path, const WalkOptions& options, uint64_t seq, const ShowPrinter& printer,
                        cheat::CredentialMasker* masker) {
  ShowVisitor v(seq, printer, options.limits, masker);
  ShownRecord shown;
  shown.report = walk_trace(path, options, &v);
  if (v.out_ || v.bad_) {
    shown.out = printer.page({.report = shown.report, .seq = seq, .record = v.out_, .bad = v.bad_.value_or("")});
  }
  return shown;
}

std::optional<std::string> unknown_kind(const std::vector<std::string>& kinds) {
  for (const auto& k : kinds) {
    if (parse_kind(k) == Kind::unknown) return k;
  }
  return std::nullopt;
}

VerifyReport list_records(const std::string& path, const WalkOptions& options, const RecordFilter& filter,
                          Format format, const Style& style, const VerdictView& verdict, cheat::CredentialMasker* masker) {
  const auto printer = make_record_list_printer(format, style, verdict, options.limits, masker);
  ListVisitor v(filter, *printer);
  VerifyReport rep = walk_trace(path, options, &v);
  printer->end();
  return rep;
}

}  // namespace goalcup::inspect
