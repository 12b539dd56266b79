#include "inspect/diff.h"

#include <absl/container/flat_hash_map.h>

#include <algorithm>

#include "cheatcheck/secrets/decoders.h"
#include "cheatcheck/secrets/mask.h"
#include "cli/json_writer.h"
#include "cli/safe_text.h"
#include "core/keyring.h"
#include "core/lines.h"
#include "core/source.h"
#include "core/sse.h"
#include "core/statement.h"
#include "inspect/conversation.h"
#include "inspect/text.h"
#include "inspect/verdict_view.h"

namespace goalcup::inspect {

std::string_view stream_name(Stream s) {
  switch (s) {
    case Stream::exchanges: return "exchanges";
    case Stream::native: return "native";
    case Stream::other: return "other";
  }
  return "other";
}

Stream stream_of(Kind k) {
  if (k == Kind::wire) return Stream::exchanges;
  if (k == Kind::native) return Stream::native;
  return Stream::other;
}

namespace {

constexpr int kMaxNesting = 3;  // JSON inside a JSON string inside...
constexpr std::string_view kMarkerOpen = "[REDACTED:";
constexpr size_t kMaxRuleBytes = 80;  // as cheatcheck/secrets/redact.cc lists markers
constexpr size_t kMaxFields = 50000;  // kept per record compared

// A JSON pointer token: "~" and "/" escaped (RFC 6901).
void append_token(std::string& where, std::string_view key) {
  if (!where.empty()) where += '/';
  for (char c : key) {
    if (c == '~') where += "~0";
    else if (c == '/') where += "~1";
    else where += c;
  }
}

bool looks_like_json(std::string_view s) { return !s.empty() && (s.front() == '{' || s.front() == '['); }

}  // namespace

RecordContent::RecordContent(const Limits& limits) : limits_(limits) {
  for (int i = 0; i <= kMaxNesting; ++i) parsers_.push_back(std::make_unique<StrictJsonParser>(limits));
}

void RecordContent::text_leaf(std::string_view text, std::string& where, int depth, const Sink& sink) {
  if (depth < kMaxNesting && looks_like_json(text)) {
    auto root = parsers_[static_cast<size_t>(depth)]->parse_copy(text, -1);
    if (root) {
      leaves(*root, where, depth + 1, sink);
      return;
    }
  }
  sink(where, text);
}

void RecordContent::leaves(simdjson::dom::element e, std::string& where, int depth, const Sink& sink) {
  simdjson::dom::object o;
  simdjson::dom::array a;
  std::string_view s;
  const size_t n = where.size();
  if (!e.get(o)) {
    if (o.size() == 0) sink(where, "{}");
    for (auto f : o) {
      append_token(where, f.key);
      leaves(f.value, where, depth, sink);
      where.resize(n);
    }
  } else if (!e.get(a)) {
    if (a.size() == 0) sink(where, "[]");
    size_t i = 0;
    for (auto v : a) {
      append_token(where, std::to_string(i++));
      leaves(v, where, depth, sink);
      where.resize(n);
    }
  } else if (!e.get(s)) {
    text_leaf(s, where, depth, sink);
  } else {
    sink(where, simdjson::minify(e));  // numbers as written, true, false, null
  }
}

// An answer as rebuilt from its stream: what the model said and called,
// however the stream was cut into events.
void RecordContent::answer_fields(std::string_view body, const Sink& sink) {
  const RebuiltAnswer a = rebuild_answer(body, limits_);
  sink("answer/model", a.model);
  sink("answer/message_id", a.message_id);
  sink("answer/stop_reason", a.stop_reason);
  const auto blocks = answer_blocks(a);
  for (size_t i = 0; i < blocks.size(); ++i) {
    const RebuiltBlock& b = blocks[i];
    std::string where = "answer/" + std::to_string(i) + "/" + block_name(b.kind);
    if (b.kind == RebuiltBlock::Kind::tool_call && b.call >= 0 && static_cast<size_t>(b.call) < a.tool_calls.size()) {
      const RebuiltToolCall& c = a.tool_calls[static_cast<size_t>(b.call)];
      sink(where + "/name", c.name);
      sink(where + "/id", c.id);
      where += "/input";
      text_leaf(shown_input(c), where, 0, sink);
    } else {
      sink(where, b.text);
    }
  }
  auto figure = [&](std::string_view name, int64_t v) {
    if (v >= 0) sink("answer/usage/" + std::string(name), std::to_string(v));
  };
  figure("input_tokens", a.input_tokens);
  figure("output_tokens", a.output_tokens);
  figure("cache_read_input_tokens", a.cache_read_tokens);
  figure("cache_creation_input_tokens", a.cache_write_tokens);
  figure("reasoning_tokens", a.reasoning_tokens);
}

// What a statement states, not its signature or the head it names (both
// change when a trace is re-chained and re-signed).
bool RecordContent::statement_fields(const Record& r, const Sink& sink) {
  auto env = decode_envelope(r.body, static_cast<int64_t>(r.seq));
  if (!env) return false;
  auto st = parse_statement(env->payload, *parsers_.back(), static_cast<int64_t>(r.seq));
  if (!st) return false;
  sink("statement/type", st->type);
  sink("statement/entry_id", st->entry_id);
  sink("statement/run_id", st->run_id);
  sink("statement/seq", std::to_string(st->seq));
  sink("statement/at", st->at_text);
  if (!st->nonce.empty()) sink("statement/nonce", st->nonce);
  return true;
}

void RecordContent::fields(const Record& r, const Sink& sink) {
  sink("kind", r.kind_text);
  if (is_statement(r.kind) && statement_fields(r, sink)) return;
  std::string where;
  for (auto f : r.body) {
    // A wire body's digest, size and redaction list follow from the body,
    // which is compared decoded below.
    if (r.kind == Kind::wire && (f.key == "body" || f.key == "sha256" || f.key == "size" || f.key == "redactions" ||
                                 f.key == "encoding")) {
      continue;
    }
    append_token(where, f.key);
    leaves(f.value, where, 0, sink);
    where.clear();
  }
  if (r.kind != Kind::wire) return;
  std::string decoded;
  const std::string_view bytes = wire_body(r, &decoded);
  std::string_view dir;
  (void)json::string(r.body, "dir", &dir);
  if (dir == "response" && looks_like_sse(bytes)) {
    answer_fields(bytes, sink);
    return;
  }
  where = "body";
  text_leaf(bytes, where, 0, sink);
}

Digest RecordContent::fingerprint(const Record& r) {
  Sha256 h;
  auto length = [&](size_t n) {
    const uint64_t v = n;
    h.update(std::string_view(reinterpret_cast<const char*>(&v), sizeof v));
  };
  fields(r, [&](std::string_view where, std::string_view text) {
    length(where.size());
    h.update(where);
    length(text.size());
    h.update(text);
  });
  return h.finish();
}

std::optional<std::vector<std::string>> redaction_rules(std::string_view a, std::string_view b) {
  std::vector<std::string_view> segments;
  std::vector<std::string> rules;
  size_t from = 0;
  for (size_t p = b.find(kMarkerOpen); p != std::string_view::npos; p = b.find(kMarkerOpen, p + 1)) {
    // `]` within the rule's bound only: many openers and no `]` must not
    // read the text to its end once per opener.
    const size_t bound = std::min(b.size(), p + kMarkerOpen.size() + kMaxRuleBytes + 1);
    const size_t close = b.substr(0, bound).find(']', p + kMarkerOpen.size());
    if (close == std::string_view::npos || p < from) continue;
    segments.push_back(b.substr(from, p - from));
    rules.emplace_back(b.substr(p + kMarkerOpen.size(), close - p - kMarkerOpen.size()));
    from = close + 1;
  }
  if (rules.empty()) return std::nullopt;
  segments.push_back(b.substr(from));
  // Each marker stands for at least one byte of `a`; the text between
  // markers is found in order (the leftmost fit leaves the most room).
  const std::string_view first = segments.front(), last = segments.back();
  if (!a.starts_with(first) || a.size() < first.size() + last.size() + 1 || !a.ends_with(last)) return std::nullopt;
  const size_t limit = a.size() - last.size();
  size_t pos = first.size();
  for (size_t i = 1; i + 1 < segments.size(); ++i) {
    const size_t at = a.find(segments[i], pos + 1);
    if (at == std::string_view::npos || at + segments[i].size() + 1 > limit) return std::nullopt;
    pos = at + segments[i].size();
  }
  if (pos + 1 > limit) return std::nullopt;
  return rules;
}

bool DiffReport::same() const {
  return std::all_of(streams.begin(), streams.end(), [](const StreamDiff& s) {
    return !s.stopped && s.added + s.removed + s.changed + s.redacted == 0;
  });
}

namespace {

struct Item {
  Digest fingerprint;
  uint64_t line = 0;  // the line it was read from, to find it again
};
using Items = std::array<std::vector<Item>, kStreamCount>;

// Pass 1, in the verify walk: one fingerprint per record.
class Fingerprints final : public RecordVisitor {
 public:
  explicit Fingerprints(const Limits& limits) : content_(limits) {}
  bool on_record(const Record& r, const Line& line, const Digest&) override {
    items[static_cast<size_t>(stream_of(r.kind))].push_back({content_.fingerprint(r), line.index});
    return true;
  }
  Items items;

 private:
  RecordContent content_;
};

using Fields = std::vector<std::pair<std::string, std::string>>;

// Pass 2: the records of one stream read again, in order, one at a time.
class StreamReader {
 public:
  StreamReader(const std::string& path, const Limits& limits, const std::vector<Item>& items)
      : parser_(limits), content_(limits), parsers_(limits), items_(items) {
    auto opened = open_trace(path, limits);
    if (opened) lines_ = std::make_unique<LineReader>(std::move(opened->source), limits);
  }

  // Item `i` (at or after the last one read); false if it cannot be read.
  bool read(uint64_t i, ItemRef* ref, Fields* fields) {
    if (!lines_ || i >= items_.size()) return false;
    const uint64_t want = items_[i].line;
    Line line;
    do {
      if (lines_->next(&line) != LineReader::Status::line) return false;
    } while (line.index < want);
    if (line.index != want) return false;
    auto rec = parser_.parse(line.bytes, line.index);
    if (!rec) return false;
    *ref = {i, rec->seq, clip_text(describe(*rec, parsers_), 120, ClipNote::more_bytes)};
    if (fields) collect(*rec, fields);
    return true;
  }

 private:
  // The fields of one record, at most kMaxFields of them: the rest (a
  // hostile line of millions of leaves) as one field, their SHA-256.
  void collect(const Record& r, Fields* fields) {
    fields->clear();
    Sha256 rest;
    uint64_t past = 0;
    content_.fields(r, [&](std::string_view where, std::string_view text) {
      if (fields->size() < kMaxFields) {
        fields->emplace_back(where, text);
        return;
      }
      ++past;
      rest.update(where);
      rest.update(std::string_view("\0", 1));
      rest.update(text);
      rest.update(std::string_view("\0", 1));
    });
    const Digest d = rest.finish();
    if (past > 0) fields->emplace_back("(" + std::to_string(past) + " more fields)", to_hex(d));
  }

  std::unique_ptr<LineReader> lines_;
  RecordParser parser_;
  RecordContent content_;
  BodyParsers parsers_;  // for describe()
  const std::vector<Item>& items_;
};

size_t utf8_back(std::string_view s, size_t i) {
  while (i > 0 && i < s.size() && (static_cast<unsigned char>(s[i]) & 0xC0) == 0x80) --i;
  return i;
}

// The part of `t` that differs (bytes [head, t.size() - tail)), with a
// little context either side, clipped.
std::string excerpt(std::string_view t, size_t head, size_t tail, size_t max) {
  constexpr size_t kContext = 32;
  const size_t from = utf8_back(t, head > kContext ? head - kContext : 0);
  size_t to = std::min(t.size(), t.size() - tail + kContext);
  to = utf8_back(t, to);
  if (to < from) to = from;
  std::string out = (from > 0 ? "..." : "") + clip_text(t.substr(from, to - from), max, ClipNote::more_bytes);
  return to < t.size() ? out + "..." : out;
}

std::pair<size_t, size_t> common_ends(std::string_view a, std::string_view b) {
  size_t head = 0;
  while (head < a.size() && head < b.size() && a[head] == b[head]) ++head;
  size_t tail = 0;
  while (tail < a.size() - head && tail < b.size() - head && a[a.size() - 1 - tail] == b[b.size() - 1 - tail]) ++tail;
  return {utf8_back(a, head), tail};
}

// `s` with each base64 run that decodes to text replaced by that text: the
// redactor re-encodes a run that held a secret with the marker inside
// (cheatcheck/secrets/redact.cc), so that is where its marker shows.
std::optional<std::string> decoded_runs(std::string_view s) {
  std::vector<cheat::Run> runs;
  cheat::find_base64_runs(s, &runs);
  cheat::add_wrapped_base64_runs(s, &runs);  // a run wrapped over lines before its lines
  std::string out, joined;
  size_t at = 0;
  for (const auto& r : runs) {
    std::string text;
    if (r.start < at || !cheat::decode_base64_text(cheat::base64_chars(s, r, &joined), &text)) continue;
    out.append(s.substr(at, r.start - at)).append(text);
    at = r.start + r.length;
  }
  if (at == 0) return std::nullopt;
  return out.append(s.substr(at));
}

class Comparer {
 public:
  Comparer(const DiffOptions& opt, cheat::CredentialMasker* masker) : opt_(opt), masker_(masker) {}

  // The fields that differ; the change is a redaction when all of them are.
  // Without `detail` (a change not listed) only its kind is worked out:
  // no excerpt, no masking.
  Change compare(const Fields& a, const Fields& b, bool detail) {
    Change c;
    c.op = Change::Op::redacted;
    absl::flat_hash_map<std::string_view, size_t> in_b;
    for (size_t i = 0; i < b.size(); ++i) in_b.try_emplace(b[i].first, i);
    std::vector<bool> matched(b.size(), false);
    auto show = [&] { return detail && c.fields.size() < opt_.max_fields; };
    for (const auto& [where, text] : a) {
      auto it = in_b.find(where);
      if (it == in_b.end() || matched[it->second]) {
        add(c, {FieldChange::Op::removed, where, show() ? shown(text) : "", "", {}});
        continue;
      }
      matched[it->second] = true;
      const std::string& other = b[it->second].second;
      if (text == other) continue;
      if (auto rules = redaction_rules(text, other)) {
        const auto [head, tail] = common_ends(text, other);
        add(c, {FieldChange::Op::redacted, where, "", show() ? excerpt(other, head, tail, opt_.excerpt_bytes) : "",
                std::move(*rules)});
      } else if (auto encoded = encoded_redaction(where, text, other)) {
        add(c, std::move(*encoded));
      } else if (show()) {
        const std::string ma = shown_whole(text), mb = shown_whole(other);
        const auto [head, tail] = common_ends(ma, mb);
        add(c, {FieldChange::Op::changed, where, excerpt(ma, head, tail, opt_.excerpt_bytes),
                excerpt(mb, head, tail, opt_.excerpt_bytes), {}});
      } else {
        add(c, {FieldChange::Op::changed, where, "", "", {}});
      }
    }
    for (size_t i = 0; i < b.size(); ++i) {
      if (!matched[i]) add(c, {FieldChange::Op::added, b[i].first, "", show() ? shown(b[i].second) : "", {}});
    }
    if (!detail) {
      c.fields.clear();
      c.fields_not_shown = 0;
    }
    return c;
  }

 private:
  // A redaction inside base64 runs: the marker shows once they are decoded.
  std::optional<FieldChange> encoded_redaction(const std::string& where, std::string_view a, std::string_view b) {
    const auto db = decoded_runs(b);
    if (!db || db->find(kMarkerOpen) == std::string::npos) return std::nullopt;
    const auto da = decoded_runs(a);
    auto rules = redaction_rules(da ? std::string_view(*da) : a, *db);
    if (!rules) return std::nullopt;
    const auto [head, tail] = common_ends(da ? std::string_view(*da) : a, *db);
    return FieldChange{FieldChange::Op::redacted, where, "",
                       "base64 decoded: " + excerpt(*db, head, tail, opt_.excerpt_bytes), std::move(*rules)};
  }

  void add(Change& c, FieldChange f) {
    if (f.op != FieldChange::Op::redacted) c.op = Change::Op::changed;
    if (c.fields.size() < opt_.max_fields) c.fields.push_back(std::move(f));
    else ++c.fields_not_shown;
  }
  std::string shown_whole(std::string_view text) {
    return masker_ ? masker_->masked(text) : std::string(text);
  }
  std::string shown(std::string_view text) { return clip_text(shown_whole(text), opt_.excerpt_bytes, ClipNote::more_bytes); }

  const DiffOptions& opt_;
  cheat::CredentialMasker* masker_;
};

// Pass 2 for one stream: the hunks of the alignment read from both traces.
void compare_stream(const std::string& pa, const std::string& pb, const WalkOptions& wopt, const DiffOptions& opt,
                    const std::vector<Item>& ia, const std::vector<Item>& ib, Comparer& cmp, StreamDiff* sd) {
  sd->a_items = ia.size();
  sd->b_items = ib.size();
  std::vector<Digest> fa, fb;
  fa.reserve(ia.size());
  fb.reserve(ib.size());
  for (const auto& i : ia) fa.push_back(i.fingerprint);
  for (const auto& i : ib) fb.push_back(i.fingerprint);
  const Alignment al = align(fa, fb, opt.align);
  fa = {};
  fb = {};
  uint64_t edited_a = 0;
  StreamReader ra(pa, wopt.limits, ia), rb(pb, wopt.limits, ib);
  auto keep = [&](Change c) {
    if (sd->changes.size() < opt.max_changes) sd->changes.push_back(std::move(c));
    else ++sd->changes_not_shown;
  };
  // Records of one side only: read for their seq and label while listed.
  auto unpaired = [&](Change::Op op, StreamReader& r, uint64_t from, uint64_t count, uint64_t* counter) {
    for (uint64_t j = 0; j < count; ++j) {
      ++*counter;
      Change c;
      c.op = op;
      ItemRef ref;
      if (sd->changes.size() < opt.max_changes && r.read(from + j, &ref, nullptr)) {
        (op == Change::Op::removed ? c.a : c.b) = std::move(ref);
      }
      keep(std::move(c));
    }
  };
  Fields a_fields, b_fields;
  for (const Hunk& h : al.hunks) {
    edited_a += h.a_count;
    const uint64_t pairs = std::min(h.a_count, h.b_count);
    for (uint64_t j = 0; j < pairs; ++j) {
      ItemRef ar, br;
      if (!ra.read(h.a_from + j, &ar, &a_fields) || !rb.read(h.b_from + j, &br, &b_fields)) break;
      Change c = cmp.compare(a_fields, b_fields, sd->changes.size() < opt.max_changes);
      (c.op == Change::Op::redacted ? sd->redacted : sd->changed) += 1;
      c.a = std::move(ar);
      c.b = std::move(br);
      keep(std::move(c));
    }
    unpaired(Change::Op::removed, ra, h.a_from + pairs, h.a_count - pairs, &sd->removed);
    unpaired(Change::Op::added, rb, h.b_from + pairs, h.b_count - pairs, &sd->added);
  }
  const uint64_t aligned_a = al.stopped_at ? al.stopped_at->first : ia.size();
  sd->unchanged = aligned_a - edited_a;
  if (al.stopped_at) {
    sd->stopped = true;
    ItemRef ar, br;
    if (ra.read(al.stopped_at->first, &ar, nullptr)) sd->stopped_a = std::move(ar);
    if (rb.read(al.stopped_at->second, &br, nullptr)) sd->stopped_b = std::move(br);
  }
}

}  // namespace

DiffReport diff_traces(const std::string& a, const std::string& b, const WalkOptions& wopt, const DiffOptions& opt) {
  DiffReport r;
  Fingerprints fa(wopt.limits), fb(wopt.limits);
  r.a = walk_trace(a, wopt, &fa);
  r.b = walk_trace(b, wopt, &fb);
  if (unreadable_message(r.a) || unreadable_message(r.b)) return r;
  cheat::CredentialMasker masker(wopt.limits);
  Comparer cmp(opt, opt.show_secrets ? nullptr : &masker);
  for (size_t s = 0; s < kStreamCount; ++s) {
    r.streams[s].stream = static_cast<Stream>(s);
    compare_stream(a, b, wopt, opt, fa.items[s], fb.items[s], cmp, &r.streams[s]);
  }
  return r;
}

namespace {

const char* op_name(Change::Op op) {
  switch (op) {
    case Change::Op::added: return "added";
    case Change::Op::removed: return "removed";
    case Change::Op::changed: return "changed";
    case Change::Op::redacted: return "redacted";
  }
  return "changed";
}

const char* op_name(FieldChange::Op op) {
  switch (op) {
    case FieldChange::Op::added: return "added";
    case FieldChange::Op::removed: return "removed";
    case FieldChange::Op::changed: return "changed";
    case FieldChange::Op::redacted: return "redacted";
  }
  return "changed";
}

const char* stream_title(Stream s) {
  switch (s) {
    case Stream::exchanges: return "wire exchanges";
    case Stream::native: return "native lines";
    case Stream::other: return "other records";
  }
  return "other records";
}

std::string rules_text(const std::vector<std::string>& rules) {
  std::string out;
  for (const auto& r : rules) out += (out.empty() ? "" : ", ") + ("[REDACTED:" + r + "]");
  return out;
}

// "18 the same, 2 redacted, 1 changed" (what a stream's counts say).
std::string tally(const StreamDiff& s) {
  std::string out = std::to_string(s.unchanged) + " the same";
  auto part = [&](uint64_t n, const char* what) {
    if (n > 0) out += ", " + std::to_string(n) + " " + what;
  };
  part(s.redacted, "redacted");
  part(s.changed, "changed");
  part(s.removed, "removed");
  part(s.added, "added");
  return out;
}

std::string sides(const Change& c) {
  std::string out;
  if (c.a) out += "a seq " + std::to_string(c.a->seq);
  if (c.a && c.b) out += " | ";
  if (c.b) out += "b seq " + std::to_string(c.b->seq);
  return out;
}

const std::string& label_of(const Change& c) {
  static const std::string none;
  return c.b ? c.b->label : c.a ? c.a->label : none;
}

std::string stop_text(const StreamDiff& s) {
  auto at = [](const std::optional<ItemRef>& r, const char* side) {
    return r ? std::string(side) + " seq " + std::to_string(r->seq) : std::string(side) + " end";
  };
  return "too different to align beyond " + at(s.stopped_a, "a") + " and " + at(s.stopped_b, "b") +
         ": the rest of this stream is not compared";
}

std::string grand_total(const DiffReport& r) {
  if (r.same()) return "no differences in content";
  StreamDiff all;
  bool stopped = false;
  for (const auto& s : r.streams) {
    all.redacted += s.redacted;
    all.changed += s.changed;
    all.removed += s.removed;
    all.added += s.added;
    stopped |= s.stopped;
  }
  std::string t = tally(all);
  t = t.substr(t.find(',') == std::string::npos ? t.size() : t.find(',') + 2);
  return "differences: " + (t.empty() ? std::string("none aligned") : t) + (stopped ? "; not all aligned" : "");
}

std::string text_view(const DiffReport& r, const Style& st) {
  std::string out = "a: " + safe_text(r.a.file) + "\n" + VerdictView(r.a).banner(st) + "b: " + safe_text(r.b.file) +
                    "\n" + VerdictView(r.b).banner(st);
  for (const auto& s : r.streams) {
    out += "\n" + st.paint(std::string(stream_title(s.stream)) + ": a " + std::to_string(s.a_items) + ", b " +
                                std::to_string(s.b_items) + " records; " + tally(s), Color::blue) + "\n";
    for (const auto& c : s.changes) {
      const char mark = c.op == Change::Op::added ? '+' : c.op == Change::Op::removed ? '-' : c.op == Change::Op::redacted ? '~' : '*';
      std::string head = "  " + std::string(1, mark) + " " + op_name(c.op);
      head += std::string(14 - head.size(), ' ') + sides(c) + "  " + safe_text(label_of(c));
      const Color color = c.op == Change::Op::added ? Color::green : c.op == Change::Op::redacted ? Color::dim : Color::red;
      out += st.paint(fit_columns(head, kWidth), color) + "\n";
      for (const auto& f : c.fields) {
        std::string line = safe_text(f.where) + " " + op_name(f.op);
        if (f.op == FieldChange::Op::redacted) line += " " + safe_text(rules_text(f.rules));
        out += wrap(line, "      ");
        if (!f.a.empty() || f.op == FieldChange::Op::changed || f.op == FieldChange::Op::removed) {
          out += wrap("a: " + safe_text(f.a), "        ");
        }
        if (f.op != FieldChange::Op::removed) out += wrap("b: " + safe_text(f.b), "        ");
      }
      if (c.fields_not_shown > 0) out += "      ... " + std::to_string(c.fields_not_shown) + " more fields\n";
    }
    if (s.changes_not_shown > 0) {
      out += "  ... " + std::to_string(s.changes_not_shown) + " more changes not shown (--max-changes)\n";
    }
    if (s.stopped) out += st.paint(wrap(stop_text(s), "  "), Color::yellow);
  }
  return out + "\n" + grand_total(r) + "\n";
}

std::string markdown_view(const DiffReport& r) {
  std::string out = "# Diff\n\n**a** " + code_span(r.a.file) + "\n\n" + VerdictView(r.a).banner_markdown() + "**b** " +
                    code_span(r.b.file) + "\n\n" + VerdictView(r.b).banner_markdown();
  for (const auto& s : r.streams) {
    out += "## " + std::string(stream_title(s.stream)) + "\n\na " + std::to_string(s.a_items) + ", b " +
           std::to_string(s.b_items) + " records; " + tally(s) + "\n\n";
    for (const auto& c : s.changes) {
      out += "- **" + std::string(op_name(c.op)) + "** " + sides(c) + ": " + code_span(label_of(c)) + "\n";
      for (const auto& f : c.fields) {
        out += "  - " + code_span(f.where) + " " + op_name(f.op);
        if (f.op == FieldChange::Op::redacted) out += " " + code_span(rules_text(f.rules));
        if (!f.a.empty() || f.op == FieldChange::Op::changed || f.op == FieldChange::Op::removed) out += "; a: " + code_span(f.a);
        if (f.op != FieldChange::Op::removed) out += "; b: " + code_span(f.b);
        out += "\n";
      }
      if (c.fields_not_shown > 0) out += "  - ... " + std::to_string(c.fields_not_shown) + " more fields\n";
    }
    if (!s.changes.empty()) out += "\n";
    if (s.changes_not_shown > 0) out += std::to_string(s.changes_not_shown) + " more changes not shown.\n\n";
    if (s.stopped) out += "**" + stop_text(s) + "**\n\n";
  }
  return out + "**" + grand_total(r) + "**\n";
}

void ref_json(JsonWriter& w, std::string_view key, const std::optional<ItemRef>& ref) {
  if (!ref) {
    w.null_field(key);
    return;
  }
  w.key(key).begin_object().field("item", ref->item).field("seq", ref->seq).field("label", ref->label).end_object();
}

void side_json(JsonWriter& w, std::string_view key, const VerifyReport& v) {
  w.key(key).begin_object().field("file", v.file).field("verdict", verdict_name(v.verdict)).key("verify");
  write_verify_json(w, v);
  w.end_object();
}

std::string json_view(const DiffReport& r) {
  std::string out;
  JsonWriter w(&out, true);
  w.begin_object();
  side_json(w, "a", r.a);
  side_json(w, "b", r.b);
  w.field("same", r.same());
  w.key("streams").begin_array();
  for (const auto& s : r.streams) {
    w.begin_object().field("stream", stream_name(s.stream)).field("a_records", s.a_items).field("b_records", s.b_items);
    w.field("unchanged", s.unchanged).field("redacted", s.redacted).field("changed", s.changed);
    w.field("removed", s.removed).field("added", s.added).field("aligned", !s.stopped);
    if (s.stopped) {
      w.key("not_aligned_from").begin_object();
      ref_json(w, "a", s.stopped_a);
      ref_json(w, "b", s.stopped_b);
      w.end_object();
    } else {
      w.null_field("not_aligned_from");
    }
    w.key("changes").begin_array();
    for (const auto& c : s.changes) {
      w.begin_object().field("op", op_name(c.op));
      ref_json(w, "a", c.a);
      ref_json(w, "b", c.b);
      w.key("fields").begin_array();
      for (const auto& f : c.fields) {
        w.begin_object().field("where", f.where).field("op", op_name(f.op));
        if (f.op != FieldChange::Op::added && f.op != FieldChange::Op::redacted) w.field("a", f.a);
        if (f.op != FieldChange::Op::removed) w.field("b", f.b);
        if (f.op == FieldChange::Op::redacted) {
          w.key("rules").begin_array();
          for (const auto& rule : f.rules) w.value(rule);
          w.end_array();
        }
        w.end_object();
      }
      w.end_array().field("fields_not_shown", c.fields_not_shown).end_object();
    }
    w.end_array().field("changes_not_shown", s.changes_not_shown).end_object();
  }
  w.end_array().end_object();
  return out + "\n";
}

}  // namespace

ViewPrinter<DiffReport> diff_printer(Format format, const Style& style) {
  return ViewPrinter<DiffReport>(format, style, {.text = text_view, .json = json_view, .markdown = markdown_view});
}

}  // namespace goalcup::inspect
