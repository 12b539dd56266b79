#include "cheatcheck/secrets/redact.h"

#include <hs/hs.h>
#include <malloc.h>
#include <sodium.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <sstream>

#include "cheatcheck/context.h"
#include "cheatcheck/scanner.h"
#include "cheatcheck/secrets/decoders.h"
#include "cheatcheck/secrets/rule_database.h"
#include "cheatcheck/secrets/rules.h"
#include "cheatcheck/secrets/trace_scan.h"
#include "cli/json_dom.h"
#include "cli/output_file.h"
#include "core/json_strict.h"
#include "core/keyring.h"
#include "core/lines.h"
#include "core/bodies.h"
#include "core/record.h"
#include "core/sse.h"
#include "core/statement.h"

namespace goalcup::cheat {
namespace {

constexpr int kMaxRedactDepth = 6;
constexpr size_t kKeepLineBytes = 4 << 20;  // a record's buffer grown past this is not kept for the next

// What replaces a secret: its own replacement (a masked preview), or the
// redaction marker of its rule.
std::string marker(const KnownSecret& k) { return k.replacement.empty() ? "[REDACTED:" + k.rule + "]" : k.replacement; }

// The JSON pointer of a member or element under `at` ("/delta" + "text").
std::string child_pointer(const std::string& at, std::string_view token) {
  std::string out = at + "/";
  for (char c : token) {
    if (c == '~') out += "~0";
    else if (c == '/') out += "~1";
    else out += c;
  }
  return out;
}

// Re-serializes `e` (at JSON pointer `at`), each string named by an edit's
// pointer replaced by its value.
void write_edited(JsonWriter& w, simdjson::dom::element e, const std::string& at,
                  const std::vector<std::pair<std::string, std::string>>& edits) {
  const auto under = [&](const std::string& p) {
    return std::any_of(edits.begin(), edits.end(), [&](const auto& x) {
      return x.first == p || (x.first.size() > p.size() && x.first.starts_with(p) && x.first[p.size()] == '/');
    });
  };
  const auto write_child = [&](simdjson::dom::element v, const std::string& p) {
    const auto exact = std::find_if(edits.begin(), edits.end(), [&](const auto& x) { return x.first == p; });
    if (exact != edits.end() && v.is_string()) w.value(exact->second);
    else if (under(p)) write_edited(w, v, p, edits);
    else write_dom(w, v);
  };
  simdjson::dom::object o;
  simdjson::dom::array a;
  if (!e.get(o)) {
    w.begin_object();
    for (auto f : o) {
      w.key(f.key);
      write_child(f.value, child_pointer(at, f.key));
    }
    w.end_object();
  } else if (!e.get(a)) {
    w.begin_array();
    size_t i = 0;
    for (auto v : a) write_child(v, child_pointer(at, std::to_string(i++)));
    w.end_array();
  } else {
    write_dom(w, e);
  }
}

// An edit of one streamed piece: the string at `pointer` in the data of
// event `event` becomes `value`.
struct PieceEdit {
  size_t event;
  std::string pointer, value;
};

// `body` with each edited event's data written again: its JSON
// re-serialized with the edits, on its first data line; its other data
// lines (a data JSON over several lines) dropped.
std::optional<std::string> apply_piece_edits(std::string_view body, const std::vector<PieceEdit>& edits,
                                             const Limits& limits) {
  std::map<size_t, std::vector<std::pair<std::string, std::string>>> by_event;
  for (const auto& e : edits) by_event[e.event].emplace_back(e.pointer, e.value);
  struct Cut {
    size_t from, to;
    std::string with;
  };
  std::vector<Cut> cuts;
  StrictJsonParser parser{limits};
  for_each_sse_event_lines(body, [&](size_t rank, std::string_view data, const std::vector<SseLineSpan>& lines) {
    auto it = by_event.find(rank);
    if (it == by_event.end() || lines.empty()) return;
    auto root = parser.parse_copy(data, -1);
    if (!root) return;
    std::string json;
    JsonWriter w(&json);
    write_edited(w, *root, "", it->second);
    cuts.push_back({lines.front().begin, lines.front().end, "data: " + json});
    for (size_t i = 1; i < lines.size(); ++i) cuts.push_back({lines[i].begin, lines[i].next, ""});
  });
  if (cuts.empty()) return std::nullopt;
  std::string out;
  size_t at = 0;
  for (const Cut& c : cuts) {  // in body order
    out.append(body.substr(at, c.from - at)).append(c.with);
    at = c.to;
  }
  out.append(body.substr(at));
  return out;
}

// One credential as the scan may have read it in several spellings: a PEM
// with its line breaks, or with them as \n escapes (read in a tool input's
// JSON joined from deltas, or in a wire body), CRLF or LF.
// JSON inside a JSON string escapes them twice.
std::string spelled_plainly(const std::string& text) {
  std::string out = text;
  for (int level = 0; level < kMaxRedactDepth && out.find('\\') != std::string::npos; ++level) {
    std::string decoded;
    if (!decode_escapes(out, &decoded)) break;
    out = std::move(decoded);
  }
  std::erase(out, '\r');
  return out;
}

// Distinct secrets of one rule get distinct markers: the second and later
// (in the order given) "[REDACTED:rule#2]", ... Two credentials that are
// member names of one JSON object (a tool input's env) would otherwise
// become the same name twice, a copy no JSON reader takes whole (GC12,
// GC04). One credential keeps one marker in every spelling and wherever it
// shows, so the native log, the request and the stream still agree.
void number_markers(std::vector<KnownSecret>* secrets) {
  std::map<std::string, size_t> per_rule;
  std::map<std::string, std::string> by_text;
  for (KnownSecret& k : *secrets) {
    if (!k.replacement.empty()) continue;
    if (auto seen = by_text.find(spelled_plainly(k.text)); seen != by_text.end()) {
      k.replacement = seen->second;
      continue;
    }
    const size_t n = ++per_rule[k.rule];
    if (n > 1) k.replacement = "[REDACTED:" + k.rule + "#" + std::to_string(n) + "]";
    by_text.emplace(spelled_plainly(k.text), marker(k));
  }
}

}  // namespace

struct Redactor::Literals {
  HsDatabase db;
};

Redactor::Redactor(std::vector<KnownSecret> secrets, const Limits& limits)
    : secrets_(std::move(secrets)), limits_(limits) {
  number_markers(&secrets_);
  for (KnownSecret& k : secrets_) k.replacement = marker(k);  // spelled once: each place only points at it
  std::sort(secrets_.begin(), secrets_.end(), [](const auto& a, const auto& b) { return a.text.size() > b.text.size(); });
  // Longest first, so the empty ones (found nowhere) come last: literal i is secrets_[i].
  std::vector<std::string_view> texts;
  for (const KnownSecret& k : secrets_) {
    if (!k.text.empty()) texts.push_back(k.text);
  }
  if (texts.empty() || secrets_.size() > UINT32_MAX) return;
  HsDatabase db = compile_literal_database(texts, 0);
  if (!db) return;
  auto literals = std::make_shared<Literals>();
  literals->db = std::move(db);
  literals_ = std::move(literals);
}

namespace {
struct Occurrences {
  const std::vector<KnownSecret>* secrets;
  std::vector<Redactor::Place>* at;
};
int on_occurrence(unsigned id, unsigned long long, unsigned long long to, unsigned, void* context) {
  auto* o = static_cast<Occurrences*>(context);
  o->at->push_back({id, static_cast<size_t>(to) - (*o->secrets)[id].text.size()});
  return 0;
}
}  // namespace

// One pass of Hyperscan's literal matcher for every secret: seeking each
// secret alone read every text once per secret (thousands of distinct keys
// in a prompt: minutes; review 18 #5). Its ends come in order, so a stable
// sort by secret leaves each secret's starts ascending, as find() gave them.
// The list holds the places found, nothing per known secret: a text costs
// no more with 10,000 secrets known than with one.
std::vector<Redactor::Place> Redactor::occurrences(std::string_view s) const {
  std::vector<Place> at;
  if (literals_ && s.size() < (1ull << 31)) {
    thread_local HsScratch scratch;
    if (hs_scratch_t* ready = ready_scratch(scratch, literals_->db.get())) {
      Occurrences o{&secrets_, &at};
      if (hs_scan(literals_->db.get(), s.data(), static_cast<unsigned>(s.size()), 0, ready, on_occurrence, &o) ==
          HS_SUCCESS) {
        std::stable_sort(at.begin(), at.end(), [](const Place& a, const Place& b) { return a.secret < b.secret; });
        return at;
      }
      at.clear();
    }
  }
  for (size_t i = 0; i < secrets_.size(); ++i) {
    const std::string& t = secrets_[i].text;
    for (size_t p = s.find(t); p != std::string::npos && !t.empty(); p = s.find(t, p + 1)) at.push_back({i, p});
  }
  return at;
}

namespace {
bool is_base64_char(char c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '+' || c == '/' ||
         c == '-' || c == '_' || c == '=';
}
}  // namespace

// Each secret in turn, the longest first, replaced where it shows in what
// the longer ones left (the way plain() reads). Kept for when Hyperscan
// cannot scan a text.
bool Redactor::plain_slowly(std::string& s) const {
  bool changed = false;
  for (const auto& k : secrets_) {
    if (k.text.empty()) continue;
    for (size_t p = s.find(k.text); p != std::string::npos; p = s.find(k.text, p)) {
      // A secret that is the start of a longer base64 run (a value cut
      // short) takes the rest of the run with it: what is left would
      // still decode to the end of what it encodes.
      size_t end = p + k.text.size();
      if (is_base64_char(k.text.back())) {
        while (end < s.size() && is_base64_char(s[end])) ++end;
      }
      const std::string m = marker(k);
      s.replace(p, end - p, m);
      p += m.size();
      changed = true;
    }
  }
  return changed;
}

namespace {
// A replaced stretch of the text being redacted, in its original offsets.
struct Claim {
  size_t to;
  std::string_view with;  // a secret's replacement (or what a run left of it)
};

// Where a base64 run that goes on from `end` stops, as plain_slowly() sees
// it in the text it rewrites: over the original bytes, and into a
// replacement made before that starts there (a masked preview opens with
// base64 characters), whose characters it takes are dropped from it.
size_t base64_run_end(std::string_view s, size_t end, std::map<size_t, Claim>* claims) {
  for (;;) {
    const auto next = claims->lower_bound(end);
    const size_t stop = next == claims->end() ? s.size() : next->first;
    while (end < stop && is_base64_char(s[end])) ++end;
    if (end < stop || next == claims->end()) return end;
    std::string_view& with = next->second.with;
    size_t taken = 0;
    while (taken < with.size() && is_base64_char(with[taken])) ++taken;
    if (taken < with.size()) {
      with.remove_prefix(taken);
      return end;
    }
    end = next->second.to;  // the whole replacement taken: the run goes on after it
    claims->erase(next);
  }
}
}  // namespace

// As plain_slowly() reads, in one pass: each secret in turn (the longest
// first), each of its places in order, replaced unless a replacement made
// before covers part of it; the output is built once, not shifted at each
// replacement (a key repeated over 4 MB took 32 s).
bool Redactor::plain(std::string_view s, std::string* result) const {
  if (!literals_ || s.size() >= (1ull << 31)) {
    std::string copy(s);
    if (!plain_slowly(copy)) return false;
    *result = std::move(copy);
    return true;
  }
  const std::vector<Place> at = occurrences(s);
  std::map<size_t, Claim> claims;  // by where each starts
  const auto overlaps = [&](size_t from, size_t to) {
    auto next = claims.lower_bound(from);
    if (next != claims.end() && next->first < to) return true;
    return next != claims.begin() && std::prev(next)->second.to > from;
  };
  for (const auto& [i, p] : at) {  // each secret in turn, the longest first
    const KnownSecret& k = secrets_[i];
    if (overlaps(p, p + k.text.size())) continue;
    size_t end = p + k.text.size();
    if (is_base64_char(k.text.back())) end = base64_run_end(s, end, &claims);
    claims.emplace(p, Claim{end, k.replacement});
  }
  if (claims.empty()) return false;
  std::string out;
  size_t from = 0;
  for (const auto& [start, c] : claims) {
    out.append(s.substr(from, start - from)).append(c.with);
    from = c.to;
  }
  out.append(s.substr(from));
  *result = std::move(out);
  return true;
}

// Secrets visible only after \u or %XX decoding: found in the decoded text,
// at the exact span of `s` that encoded them.
void Redactor::mapped_spans(std::string_view s, bool percent, std::vector<Span>* spans) const {
  std::string decoded;
  const auto decode = [&](std::vector<uint32_t>* src) {
    return percent ? decode_percent(s, &decoded, src) : (has_escapes(s) && decode_escapes(s, &decoded, src));
  };
  if (!decode(nullptr)) return;
  const std::vector<Place> at = occurrences(decoded);
  if (at.empty()) return;
  // Where each decoded byte came from costs 4 bytes a byte (grown by
  // doubling, up to 8): mapped only for a text that holds a secret.
  std::vector<uint32_t> src;
  src.reserve(s.size());
  decode(&src);
  for (const auto& [i, p] : at) {
    const size_t end = p + secrets_[i].text.size();
    spans->push_back({src[p], end < src.size() ? src[end] : s.size(), marker(secrets_[i])});
  }
}

// Non-overlapping spans, the last first (so that replacing them in order
// keeps the offsets of the rest valid).
void Redactor::last_first(std::vector<Span>* spans) {
  std::sort(spans->begin(), spans->end(), [](const Span& a, const Span& b) { return a.from > b.from; });
  size_t floor = SIZE_MAX;
  std::erase_if(*spans, [&](const Span& sp) {
    if (sp.to > floor) return true;  // overlaps one after it
    floor = sp.from;
    return false;
  });
}

namespace {
// `s` with each span of [first, last) replaced (in text order, none
// overlapping), built once: replacing them one at a time moved the rest
// of the text at each, quadratic on a line of thousands of secrets.
template <class It>
std::string spliced(std::string_view s, It first, It last) {
  size_t floor = 0;
  for (It it = first; it != last; ++it) {
    if (it->from < floor || it->to < it->from) {  // not reached: as before, the last first, in place
      std::string out(s);
      for (It back = last; back != first;) {
        --back;
        out.replace(back->from, back->to - back->from, back->with);
      }
      return out;
    }
    floor = it->to;
  }
  std::string out;
  size_t at = 0;
  for (It it = first; it != last; ++it) {
    out.append(s.substr(at, it->from - at)).append(it->with);
    at = it->to;
  }
  out.append(s.substr(at));
  return out;
}
}  // namespace

bool Redactor::mapped(std::string_view s, bool percent, std::string* result) const {
  std::vector<Span> spans;
  mapped_spans(s, percent, &spans);
  if (spans.empty()) return false;
  last_first(&spans);
  *result = spliced(s, spans.rbegin(), spans.rend());
  return true;
}

// Each run that decodes to text and holds a secret is re-encoded whole. A
// run wrapped over lines (base64's 76 columns) is one run: all its lines
// are replaced, wrapped again at their width, so that no line is left to
// decode to a piece of the secret.
bool Redactor::base64_runs(std::string_view s, int depth, std::string* result) const {
  std::vector<Run> runs;
  find_base64_runs(s, &runs);
  add_wrapped_base64_runs(s, &runs);
  std::vector<Span> spans;
  std::string joined;
  for (size_t i = 0; i < runs.size(); ++i) {
    std::string decoded;
    const std::string_view run = base64_chars(s, runs[i], &joined);
    if (!decode_base64_text(run, &decoded)) continue;
    const Run r = runs[i];
    i += r.pieces;  // decoded with it
    auto redacted = redact(decoded, depth + 1);
    if (!redacted) continue;
    spans.push_back({r.start, r.start + r.length, wrap_like(encode_base64_like(*redacted, run), s, r)});
  }
  if (spans.empty()) return false;
  *result = spliced(s, spans.begin(), spans.end());  // the runs are in text order
  return true;
}

// The copy is written only once a string changes: a long body without
// secrets cost a copy as long as itself, written for nothing. The strings
// read before the first change are written as they are, and each string is
// redacted once.
std::optional<std::string> Redactor::json(std::string_view text, int depth) const {
  StrictJsonParser parser{limits_};
  auto root = parser.parse_copy(text, -1);
  if (!root) return std::nullopt;
  size_t unchanged = 0;  // strings before the first that changes
  std::optional<std::string> first;
  any_json_string(*root, JsonNames::skip, [&](std::string_view s) {  // member names are not redacted
    first = redact(s, depth + 1);
    unchanged += !first;
    return first.has_value();
  });
  if (!first) return std::nullopt;
  std::string out;
  out.reserve(text.size() + text.size() / 8);  // grown by doubling, it held two copies
  JsonWriter w(&out);
  size_t rank = 0;
  std::function<void(simdjson::dom::element)> walk = [&](simdjson::dom::element e) {
    simdjson::dom::object o;
    simdjson::dom::array a;
    std::string_view s;
    if (!e.get(o)) {
      w.begin_object();
      for (auto f : o) {
        w.key(f.key);
        walk(f.value);
      }
      w.end_object();
    } else if (!e.get(a)) {
      w.begin_array();
      for (auto v : a) walk(v);
      w.end_array();
    } else if (!e.get(s)) {
      const size_t at = rank++;
      std::optional<std::string> r;
      if (at == unchanged) r = std::move(first);
      else if (at > unchanged) r = redact(s, depth + 1);
      w.value(r ? std::string_view(*r) : s);
    } else {
      write_dom(w, e);
    }
  };
  walk(*root);
  return out;
}

// Every known secret in `s`, plainly or spelled with \u escapes or %XX.
std::vector<Redactor::Span> Redactor::secret_spans(std::string_view s) const {
  std::vector<Span> spans;
  for (const auto& [i, p] : occurrences(s)) {  // in the order last_first() was given them before
    spans.push_back({p, p + secrets_[i].text.size(), marker(secrets_[i])});
  }
  mapped_spans(s, false, &spans);
  mapped_spans(s, true, &spans);
  last_first(&spans);
  return spans;
}

// What the spans of known secrets leave of a secret in a strand: one
// that must be decoded before it shows (a base64 run, a PEM in a tool
// input's JSON, split over deltas). The joined text is redacted as any text
// is, and the one stretch where that changed it goes to the first piece it
// touches; the other pieces lose their share, so no delta keeps a part of
// the secret and the stream still rebuilds to the redacted text. False, the
// pieces as they were, when the stretch would edit text the rebuild put
// between parts.
bool Redactor::strand_rest(const SseStrand& strand, std::vector<std::string>* pieces, int depth) const {
  std::string joined;
  for (const auto& p : *pieces) joined += p;
  const auto redacted = redact(joined, depth + 1);
  if (!redacted) return true;
  const std::string& r = *redacted;
  size_t head = 0;
  while (head < joined.size() && head < r.size() && joined[head] == r[head]) ++head;
  size_t tail = 0;
  while (tail < joined.size() - head && tail < r.size() - head &&
         joined[joined.size() - 1 - tail] == r[r.size() - 1 - tail]) {
    ++tail;
  }
  const size_t from = head, to = joined.size() - tail;
  const std::string with = r.substr(head, r.size() - tail - head);
  std::vector<std::string> edited = *pieces;
  bool placed = false;
  size_t at = 0;
  for (size_t j = 0; j < edited.size(); ++j) {
    std::string& piece = edited[j];
    const size_t end = at + piece.size();
    const bool touched = from < to ? at < to && end > from : !placed && at <= from && from <= end;
    if (touched) {
      if (strand.pieces[j].pointer.empty()) return false;  // a separator cannot be edited
      const size_t a = std::max(at, from) - at, b = std::min(end, to) - at;
      piece.replace(a, b - a, placed ? "" : with);
      placed = true;
    }
    at = end;
  }
  if (placed) *pieces = std::move(edited);
  return placed;
}

// The strand's pieces with the spans replaced: the first piece a span
// touches gets its marker, the others lose their share. Pieces and spans
// are both in text order, so they are walked together (each span against
// every piece read a stream of small deltas once per secret in it), and
// each piece is built once.
std::vector<std::string> Redactor::marked_pieces(const SseStrand& strand, const std::vector<Span>& spans) {
  const auto& ps = strand.pieces;
  std::vector<std::string> pieces;
  pieces.reserve(ps.size());
  for (const auto& p : ps) pieces.push_back(strand.text.substr(p.at, p.length));
  bool in_order = true;  // by start and by end, as the rebuild appends them
  for (size_t j = 1; j < ps.size() && in_order; ++j) {
    in_order = ps[j].at >= ps[j - 1].at && ps[j].at + ps[j].length >= ps[j - 1].at + ps[j - 1].length;
  }
  struct Cut {
    size_t from, to;
    const std::string* with;
  };
  std::vector<std::vector<Cut>> cuts(ps.size());  // per piece, the last first
  for (const Span& sp : spans) {  // the last first
    bool marked = false;
    size_t j = 0;
    if (in_order) {  // the first piece that ends past the span's start
      j = static_cast<size_t>(std::partition_point(ps.begin(), ps.end(), [&](const auto& p) {
                                return p.at + p.length <= sp.from;
                              }) - ps.begin());
    }
    for (; j < ps.size(); ++j) {
      const auto& p = ps[j];
      if (in_order && p.at >= sp.to) break;
      if (p.at + p.length <= sp.from || p.at >= sp.to || p.pointer.empty()) continue;  // a separator cannot be edited
      const size_t from = std::max(p.at, sp.from) - p.at, to = std::min(p.at + p.length, sp.to) - p.at;
      cuts[j].push_back({from, to, marked ? nullptr : &sp.with});
      marked = true;
    }
  }
  for (size_t j = 0; j < ps.size(); ++j) {
    if (cuts[j].empty()) continue;
    std::string out;
    size_t at = 0;
    for (auto c = cuts[j].rbegin(); c != cuts[j].rend(); ++c) {
      out.append(pieces[j], at, c->from - at);
      if (c->with) out += *c->with;
      at = c->to;
    }
    out.append(pieces[j], at);
    pieces[j] = std::move(out);
  }
  return pieces;
}

// A secret split across deltas, found in the text the rebuild joins from
// them (sse_strands: every delta kind the secret engine's join reads): the
// first piece it touches gets the marker where the secret began, the
// others lose their share of it.
std::optional<std::string> Redactor::sse(std::string_view text, int depth) const {
  std::vector<PieceEdit> edits;
  for (const SseStrand& strand : sse_strands(text, limits_)) {
    const std::vector<Span> spans = secret_spans(strand.text);
    std::vector<std::string> pieces = marked_pieces(strand, spans);
    strand_rest(strand, &pieces, depth);  // what it cannot place, the rescan of the copy reports
    for (size_t j = 0; j < pieces.size(); ++j) {
      const auto& p = strand.pieces[j];
      if (!p.pointer.empty() && pieces[j] != std::string_view(strand.text).substr(p.at, p.length)) {
        edits.push_back({p.event, p.pointer, std::move(pieces[j])});
      }
    }
  }
  if (edits.empty()) return std::nullopt;
  return apply_piece_edits(text, edits, limits_);
}

std::optional<std::string> Redactor::redact(std::string_view text, int depth) const {
  if (depth > kMaxRedactDepth || text.size() < 8) return std::nullopt;
  // The text itself until a step changes it: a long body without secrets
  // is not copied (its copy was held with both parses of it).
  std::string_view s = text;
  std::string owned, next;
  bool changed = false;
  const auto step = [&](bool changed_now) {
    if (!changed_now) return;
    owned = std::exchange(next, std::string());  // `next` keeps no buffer of the text before
    s = owned;
    changed = true;
  };
  // Base64 first: a run that decodes to a secret is re-encoded whole, before
  // a plain match on part of it (a generic value) could cut it in two.
  step(base64_runs(s, depth, &next));
  step(plain(s, &next));
  if (!s.empty() && (s.front() == '{' || s.front() == '[')) {
    if (auto j = json(s, depth)) return j;
    if (changed) return owned;
  }
  if (looks_like_sse(s)) {
    if (auto e = sse(s, depth)) {
      next = std::move(*e);
      step(true);
    }
  }
  step(mapped(s, false, &next));
  step(mapped(s, true, &next));
  step(base64_runs(s, depth, &next));
  if (!changed) return std::nullopt;
  return owned;
}

namespace {

// What the full engine still finds in the copy, one line per secret.
std::string leftovers(TraceSecretScan& scan, const Limits& limits) {
  Policy policy;
  Context ctx(policy, limits);
  scan.finish(ctx);
  std::string what;
  size_t n = 0;
  for (const auto& f : ctx.findings()) {
    if (!f.has_secret) continue;
    ++n;
    what += "\n  " + f.secret.rule + " " + f.secret.preview + " at seq " +
            (f.seqs.empty() ? std::string("?") : std::to_string(f.seqs.front())) + " " + f.secret.location +
            (f.secret.decoding.empty() ? "" : " after " + f.secret.decoding);
  }
  return n == 0 ? "" : std::to_string(n) + " credential(s) still found in the redacted copy:" + what;
}

}  // namespace

namespace {

// Every "[REDACTED:rule]" in a stored body, as a redactions list.
void write_redactions(JsonWriter& w, std::string_view body) {
  w.begin_array();
  constexpr std::string_view kOpen = "[REDACTED:";
  for (size_t p = body.find(kOpen); p != std::string_view::npos; p = body.find(kOpen, p + 1)) {
    const size_t close = redaction_marker_close(body, p);
    if (close == std::string_view::npos) continue;
    w.begin_object().field("offset", static_cast<uint64_t>(p)).field("length", static_cast<uint64_t>(close + 1 - p));
    w.field("rule", body.substr(p + kOpen.size(), close - p - kOpen.size())).end_object();
  }
  w.end_array();
}

struct Signer {
  std::array<uint8_t, 64> sk{};
  std::string key_id;
  std::string sign(std::string_view payload) const {
    const std::string m = pae(payload);
    std::array<uint8_t, 64> sig{};
    crypto_sign_detached(sig.data(), nullptr, reinterpret_cast<const unsigned char*>(m.data()), m.size(), sk.data());
    std::string out;
    JsonWriter w(&out);
    w.begin_object().field("key_id", key_id).field("payload", base64_encode(payload));
    w.field("sig", base64_encode(std::string_view(reinterpret_cast<const char*>(sig.data()), sig.size()))).end_object();
    return out;
  }
};

Result<Signer> load_signer(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  StrictJsonParser parser{kConfigFileLimits};
  auto root = parser.parse_copy(ss.str(), -1);
  std::string_view seed_b64;
  simdjson::dom::object o;
  if (!root || root->get(o) || json::string(o, "seed", &seed_b64) != json::Get::ok) {
    return Error{Code::usage, -1, path + ": a dev-key.json with a \"seed\" is needed to re-sign"};
  }
  auto seed = base64_decode(seed_b64);
  if (!seed || seed->size() != 32 || sodium_init() < 0) return Error{Code::usage, -1, path + ": bad seed"};
  Signer s;
  PublicKeyBytes pk{};
  crypto_sign_seed_keypair(pk.data(), s.sk.data(), reinterpret_cast<const unsigned char*>(seed->data()));
  s.key_id = key_id_for(pk);
  return s;
}

// A wire record's headers with its content-encoding renamed: the body is
// now stored as the content itself, and the copy still says how it was sent
// (`size` stays the size as received, as for any redacted body).
constexpr std::string_view kDecodedHeader = "x-goalcup-redact-stored-decoded";
void write_headers_without_coding(JsonWriter& w, simdjson::dom::element headers) {
  simdjson::dom::array list;
  if (headers.get(list)) return write_dom(w, headers);
  w.begin_array();
  for (auto h : list) {
    simdjson::dom::array pair;
    std::string_view name, coding;
    if (!h.get(pair) && pair.size() == 2 && !pair.at(0).get(name) && name == "content-encoding" &&
        !pair.at(1).get(coding)) {
      w.begin_array().value(kDecodedHeader).value(coding).end_array();
      continue;
    }
    write_dom(w, h);
  }
  w.end_array();
}

// A member of a record's body, redacted: a string as such, arrays and
// objects (argv, headers...) as JSON.
void write_redacted(JsonWriter& w, simdjson::dom::element value, const Redactor& red, bool* changed) {
  std::string_view s;
  if (!value.get(s)) {
    auto x = red.redact(s);
    *changed |= x.has_value();
    w.value(x ? std::string_view(*x) : s);
    return;
  }
  std::string inner;
  JsonWriter iw(&inner);
  write_dom(iw, value);
  auto x = red.redact(inner);
  *changed |= x.has_value();
  w.raw(x ? *x : inner);
}

// The body of one record, rewritten where `w` stands (in the record's own
// text: the line is not built twice).
void rewrite_body(JsonWriter& w, const Record& r, const Redactor& red, bool* changed) {
  if (r.kind != Kind::wire) {
    w.begin_object();
    for (auto f : r.body) {
      w.key(f.key);
      write_redacted(w, f.value, red, changed);
    }
    w.end_object();
    return;
  }
  const WireBody wire = read_wire_body(r.body);
  // A body under a content coding (gzip, zstd, ...) is redacted in the
  // content it carried and then stored as that content, the coding taken
  // out of its headers: a marker inside compressed bytes could neither be
  // seen by the scan that checks the copy nor spanned by `redactions`.
  const bool coded = !wire.content_encoding.empty() && wire.content_readable();
  auto redacted = red.redact(coded ? wire.content() : wire.base64_ok ? wire.bytes() : wire.stored);
  const bool drop_coding = coded && redacted.has_value();
  w.begin_object();
  for (auto f : r.body) {
    w.key(f.key);
    if (f.key == "body" && redacted) {
      w.value(wire.base64 ? base64_encode(*redacted) : *redacted);
    } else if (f.key == "sha256" && redacted) {
      w.value(digest_ref(sha256(*redacted)));
    } else if (f.key == "redactions" && redacted) {
      write_redactions(w, *redacted);
    } else if (f.key == "size" && redacted && redacted->find("[REDACTED:") == std::string::npos) {
      // Every marker sits inside an encoding (base64 in the body), so no span
      // can list one: the size stored then describes the bytes stored, as
      // for a body the recorder did not redact (GC13 holds it to them).
      w.value(static_cast<uint64_t>(redacted->size()));
    } else if (f.key == "headers") {
      std::string inner;
      JsonWriter iw(&inner);
      if (drop_coding) write_headers_without_coding(iw, f.value);
      else write_dom(iw, f.value);
      auto x = red.redact(inner);
      *changed |= x.has_value();
      w.raw(x ? *x : inner);
    } else if (f.key == "body" || f.key == "sha256" || f.key == "redactions" || f.key == "size") {
      write_dom(w, f.value);
    } else {
      write_redacted(w, f.value, red, changed);  // the path and its query string, ...
    }
  }
  w.end_object();
  *changed |= redacted.has_value();
}

// The chain hashes of the copy that a statement may still cover: the last
// --ack-window records', as the verifier keeps them (a statement that
// points further back is refused there too). Keeping every hash grew with
// the trace: 32 bytes a record.
class RecentHashes {
 public:
  explicit RecentHashes(uint32_t window) : slots_(std::max<uint32_t>(window, 1)) {}
  void add(const Digest& hash) {
    slots_[count_ % slots_.size()] = {count_, hash};
    ++count_;
  }
  uint64_t count() const { return count_; }
  Digest last() const { return count_ == 0 ? Digest{} : slots_[(count_ - 1) % slots_.size()].hash; }
  // The hash of record `seq`, if still kept.
  const Digest* find(uint64_t seq) const {
    const Slot& s = slots_[seq % slots_.size()];
    return seq < count_ && s.seq == seq ? &s.hash : nullptr;
  }

 private:
  struct Slot {
    uint64_t seq = UINT64_MAX;
    Digest hash{};
  };
  std::vector<Slot> slots_;
  uint64_t count_ = 0;
};

}  // namespace

Result<RedactResult> redact_trace(const std::string& trace, const std::string& out_path, const std::string& dev_key_file,
                                  const Limits& limits, std::string_view skip_rule) {
  auto signer = load_signer(dev_key_file);
  if (!signer) return signer.take_error();
  // The output is checked and its temporary file made before any work: it
  // replaces `out_path` only once the whole copy is written (cli/output_file.h).
  auto out = OutputFile::create(out_path, {trace, dev_key_file});
  if (!out) return out.take_error();
  // Pass 1: every secret the engine finds.
  CheatOptions copt;
  copt.walk.limits = limits;
  copt.keep_secret_text = true;
  copt.checks = false;  // only the secrets are wanted: the checks' state grows with the trace
  // Without the checks nothing long-lived sits at the top of the heap, and
  // glibc gave each freed body back and took it again (brk): ten times the
  // system time. Up to 2 MiB of free heap is kept instead (the bodies that
  // churned are under 1 MiB, the mmap threshold: bound_allocator()).
  (void)mallopt(M_TRIM_THRESHOLD, 2 << 20);
  CheatReport found = check_trace(trace, copt);
  if (found.verify.verdict == Verdict::error) {
    return found.verify.errors.empty() ? Error{Code::io_error, -1, trace + ": unreadable"} : found.verify.errors.front();
  }
  if (found.secrets_not_kept > 0) {
    // Each would be left in the copy: refused before anything is written.
    return Error{Code::usage, -1,
                 trace + ": more than " + std::to_string(kMaxDistinctSecrets) +
                     " distinct credentials; redact replaces at most that many (docs/LIMITS.md)"};
  }
  std::vector<KnownSecret> secrets;
  for (auto& [text, rule] : found.secret_texts) {
    if (rule != skip_rule) secrets.push_back({std::move(text), std::move(rule), ""});
  }
  found = CheatReport{};
  Redactor red(std::move(secrets), limits);

  // Pass 2: rewrite, re-chain, re-sign.
  auto opened = open_trace(trace, limits);
  if (!opened) return opened.take_error();
  LineReader lines(std::move(opened->source), limits);
  RecordParser parser(limits);
  StrictJsonParser payload_parser{limits};
  RecentHashes hashes(limits.ack_window);
  // The copy, as written, goes through the full engine again: a secret the
  // redaction missed (or cut in two) fails the run and nothing is written.
  TraceSecretScan check(0, false, limits);
  RedactResult result;
  result.secrets = red.secret_count();
  result.key_id = signer->key_id;
  Line line;
  std::string text;  // one record of the copy, with room for the parser's padding
  for (;;) {
    auto st = lines.next(&line);
    if (st == LineReader::Status::end) break;
    if (st == LineReader::Status::error) return lines.error();
    auto rec = parser.parse(line.bytes, line.index);
    if (!rec) return Error{Code::usage, rec.error().seq, "cannot redact a malformed trace: " + rec.error().message};
    bool changed = false;
    text.clear();
    text.reserve(line.bytes.size() + line.bytes.size() / 8 + kLinePadding + 256);  // grown by doubling, it held two copies
    JsonWriter w(&text);
    w.begin_object().field("seq", rec->seq).field("t", rec->t_text).field("kind", rec->kind_text);
    w.field("prev", digest_ref(hashes.last())).key("body");
    if (is_statement(rec->kind)) {
      auto env = decode_envelope(rec->body, static_cast<int64_t>(rec->seq));
      auto stmt = env ? parse_statement(env->payload, payload_parser, -1) : Result<Statement>(env.error());
      if (!stmt || stmt->seq >= hashes.count()) return Error{Code::usage, static_cast<int64_t>(rec->seq), "unreadable statement"};
      const Digest* head = hashes.find(stmt->seq);
      if (!head) {
        return Error{Code::limit_ack_window, static_cast<int64_t>(rec->seq),
                     "the statement covers seq " + std::to_string(stmt->seq) + ", further back than --ack-window records"};
      }
      std::string payload;
      JsonWriter pw(&payload);
      pw.begin_object().field("type", stmt->type).field("entry_id", stmt->entry_id).field("run_id", stmt->run_id);
      pw.field("seq", stmt->seq).field("head", digest_ref(*head)).field("at", stmt->at_text);
      if (!stmt->nonce.empty()) pw.field("nonce", stmt->nonce);
      pw.end_object();
      w.raw(signer->sign(payload));
    } else {
      rewrite_body(w, *rec, red, &changed);
    }
    w.end_object();
    const uint64_t seq = rec->seq;
    const size_t size = text.size();
    hashes.add(sha256(text));
    text.append(kLinePadding, '\0');  // the parser reads past the end
    // The rescan reads the copy's record through this parser, which the
    // input's record no longer needs: a long line's parse is held once.
    const std::string_view written = std::string_view(text).substr(0, size);
    if (auto copy = parser.parse(written, seq)) {
      check.on_record(written, seq, *copy);
    } else {
      check.on_line(written, seq);  // not reached: the scan parses it as text, as any line it cannot read
    }
    if (std::max(line.bytes.size(), size) > kKeepLineBytes) parser.release_memory();  // grown for a long line
    text.resize(size);
    text += '\n';
    GOALCUP_RETURN_IF_ERROR(out->write(text));
    // Grown for a long line: let it go (assigning an empty string keeps the buffer).
    if (text.capacity() > kKeepLineBytes) std::string().swap(text);
    ++result.records;
    result.records_changed += changed;
  }
  if (std::string left = leftovers(check, limits); !left.empty()) {
    return Error{Code::internal_error, -1, left + "\nnothing was written to " + out_path};
  }
  GOALCUP_RETURN_IF_ERROR(out->commit());
  return result;
}

}  // namespace goalcup::cheat
