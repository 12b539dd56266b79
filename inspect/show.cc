#include "inspect/show.h"

#include <iostream>

#include "cli/json_dom.h"
#include "cli/safe_text.h"
#include "core/json_strict.h"
#include "core/keyring.h"
#include "core/sse.h"
#include "core/statement.h"
#include "inspect/exchange.h"

namespace goalcup::inspect {
namespace {

constexpr size_t kWidth = 100;

// The first `width` bytes of trace text, not cutting a character, made safe.
std::string clip_safe(std::string_view text, size_t width) {
  if (text.size() > width) {
    while (width > 0 && (static_cast<unsigned char>(text[width]) & 0xC0) == 0x80) --width;
    text = text.substr(0, width);
  }
  return safe_text(text);
}

// Renders the decoded views of a body: wire bodies, native lines, statements.
void write_decoded(JsonWriter& w, const Record& r) {
  StrictJsonParser parser{Limits{}};
  auto json_or_text = [&](std::string_view key, std::string_view text) {
    auto root = parser.parse_copy(text, -1);
    w.key(key);
    if (root) write_dom(w, *root);
    else w.value(text);
  };
  if (r.kind == Kind::wire) {
    const std::string body = wire_bytes(r);
    if (looks_like_sse(body)) {
      w.key("sse_events").begin_array();
      for_each_sse_event(body, [&](std::string_view event, std::string_view data) {
        w.begin_object().field("event", event);
        json_or_text("data", data);
        w.end_object();
        return true;
      });
      w.end_array();
      const RebuiltAnswer a = rebuild_answer(body);
      w.key("rebuilt_answer").begin_object().field("message_id", a.message_id).field("model", a.model);
      w.field("stop_reason", a.stop_reason).field("text", a.text).key("tool_calls").begin_array();
      for (const auto& c : a.tool_calls) w.begin_object().field("id", c.id).field("name", c.name).field("input", c.input).end_object();
      w.end_array().end_object();
    } else if (simdjson::validate_utf8(body.data(), body.size())) {
      json_or_text("wire_body", body);
    } else {
      w.field("wire_body_base64", base64_encode(body));
    }
  } else if (r.kind == Kind::native) {
    std::string_view text;
    if (json::string(r.body, "text", &text) == json::Get::ok) json_or_text("native", text);
  } else if (is_statement(r.kind)) {
    auto env = decode_envelope(r.body, static_cast<int64_t>(r.seq));
    if (env) json_or_text("statement", env->payload);
  }
}

// Text for people: the envelope, the body with its long encoded members
// replaced by a note, then each decoded view; SSE as one line per event.
// JSON parts are escaped by JsonWriter; other trace text through safe_text,
// one line each but the rebuilt answer's text, which keeps its lines.
std::string render_text(const Record& r, const Line& line, const Digest& hash, const Style& st) {
  std::string out = st.paint("seq " + std::to_string(r.seq) + "  " + safe_text(r.t_text) + "  " +
                                 safe_text(r.kind_text), Color::bold) + "\n";
  out += st.paint("prev ", Color::dim) + digest_ref(r.prev) + "\n" + st.paint("hash ", Color::dim) + digest_ref(hash) +
         "  (" + std::to_string(line.bytes.size()) + " bytes)\n";
  out += st.paint("  " + safe_text(describe(r)), Color::dim) + "\n\n" + st.paint("body", Color::bold) + "\n";
  std::string body;
  JsonWriter w(&body, true);
  w.begin_object();
  for (auto field : r.body) {
    std::string_view sv;
    const bool decoded_below = (field.key == "body" || field.key == "text" || field.key == "payload") &&
                               !field.value.get(sv) && sv.size() > 80;
    w.key(field.key);
    if (decoded_below) w.value("<" + std::to_string(sv.size()) + " bytes, decoded below>");
    else write_dom(w, field.value);
  }
  w.end_object();
  out += body + "\n";
  const std::string wire = r.kind == Kind::wire ? wire_bytes(r) : std::string();
  if (r.kind == Kind::wire && looks_like_sse(wire)) {
    out += "\n" + st.paint("events", Color::bold) + "\n";
    for_each_sse_event(wire, [&](std::string_view event, std::string_view data) {
      out += "  " + st.paint(event.empty() ? "message" : safe_text(event), Color::blue) + "  " + safe_text(data) + "\n";
      return true;
    });
    const RebuiltAnswer a = rebuild_answer(wire);
    out += "\n" + st.paint("rebuilt answer", Color::bold) + " " + safe_text(a.message_id) + " (" +
           safe_text(a.stop_reason) + ")\n" + safe_text(a.text, Lines::keep) + "\n";
    for (const auto& c : a.tool_calls) out += "-> " + safe_text(c.name + " " + c.id + " " + c.input) + "\n";
    return out;
  }
  std::string decoded;
  JsonWriter d(&decoded, true);
  d.begin_object();
  write_decoded(d, r);
  d.end_object();
  if (decoded.size() > 2) out += "\n" + st.paint("decoded", Color::bold) + "\n" + decoded + "\n";
  return out;
}

std::string render_json(const Record& r, const Digest& hash) {
  std::string out;
  JsonWriter w(&out, true);
  w.begin_object().field("seq", r.seq).field("t", r.t_text).field("kind", r.kind_text);
  w.field("prev", digest_ref(r.prev)).field("hash", digest_ref(hash)).field("description", describe(r));
  w.key("body");
  write_dom(w, r.body);
  write_decoded(w, r);
  w.end_object();
  return out + "\n";
}

class ShowVisitor final : public RecordVisitor {
 public:
  ShowVisitor(uint64_t seq, bool json, const Style& st) : seq_(seq), json_(json), st_(st) {}
  bool on_record(const Record& r, const Line& line, const Digest& hash) override {
    if (line.index != seq_) return true;
    out_ = json_ ? render_json(r, hash) : render_text(r, line, hash, st_);
    return false;  // got it: stop reading
  }
  void on_bad_line(const Line& line, const Error& e) override {
    if (line.index == seq_) out_ = "seq " + std::to_string(seq_) + " is not a valid record: " + safe_text(e.message) + "\n";
  }
  std::optional<std::string> out_;

 private:
  uint64_t seq_;
  bool json_;
  const Style& st_;
};

class ListVisitor final : public RecordVisitor {
 public:
  ListVisitor(const RecordFilter& f, bool json, const Style& st) : f_(f), json_(json), st_(st) {}
  bool on_record(const Record& r, const Line& line, const Digest&) override {
    if (r.seq > f_.to) return false;  // past the range: stop reading
    if (r.seq < f_.from || !wanted(r, line)) return true;
    const std::string what = describe(r);
    if (json_) {
      std::string out;
      JsonWriter w(&out);
      w.begin_object().field("seq", r.seq).field("t", r.t_text).field("kind", r.kind_text).field("description", what);
      w.field("bytes", static_cast<uint64_t>(line.bytes.size())).end_object();
      std::cout << (first_ ? "[\n" : ",\n") << out;
    } else {
      std::string kind = safe_text(r.kind_text);
      kind.resize(std::max<size_t>(kind.size(), 13), ' ');
      std::string head = std::to_string(r.seq);
      head.resize(std::max<size_t>(head.size(), 7), ' ');
      const std::string rest = clip_safe(what, kWidth - std::min(kWidth, head.size() + 24 + kind.size()));
      print_text(std::cout, head + st_.paint(safe_text(r.t_text.substr(0, 23)), Color::dim) + " " + kind + rest + "\n",
                 st_);
    }
    first_ = false;
    return true;
  }
  bool first_ = true;

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
  bool json_;
  const Style& st_;
};

}  // namespace

std::optional<std::string> show_record(const std::string& path, const WalkOptions& options, uint64_t seq, bool json,
                                       const Style& style) {
  ShowVisitor v(seq, json, style);
  (void)walk_trace(path, options, &v);
  return v.out_;
}

VerifyReport list_records(const std::string& path, const WalkOptions& options, const RecordFilter& filter, bool json,
                          const Style& style) {
  ListVisitor v(filter, json, style);
  VerifyReport rep = walk_trace(path, options, &v);
  if (json) std::cout << (v.first_ ? "[]\n" : "\n]\n");
  return rep;
}

}  // namespace goalcup::inspect
