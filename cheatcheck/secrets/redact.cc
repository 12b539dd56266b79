#include "cheatcheck/secrets/redact.h"

#include <sodium.h>

#include <algorithm>
#include <fstream>
#include <sstream>

#include "cheatcheck/context.h"
#include "cheatcheck/scanner.h"
#include "cheatcheck/secrets/decoders.h"
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

constexpr int kMaxDepth = 6;

// What replaces a secret: its own replacement (a masked preview), or the
// redaction marker of its rule.
std::string marker(const KnownSecret& k) { return k.replacement.empty() ? "[REDACTED:" + k.rule + "]" : k.replacement; }

// The delta string of an SSE data object, and where it sits.
struct DeltaRef {
  size_t event = 0;          // index of the event in the stream
  std::vector<std::string> path;
  std::string text;
};

// Re-serializes `e`, putting `value` at `path`.
void write_replacing(JsonWriter& w, simdjson::dom::element e, const std::vector<std::string>& path, size_t depth,
                     const std::string& value) {
  simdjson::dom::object o;
  if (depth < path.size() && !e.get(o)) {
    w.begin_object();
    for (auto field : o) {
      w.key(field.key);
      if (field.key == path[depth]) {
        if (depth + 1 == path.size()) w.value(value);
        else write_replacing(w, field.value, path, depth + 1, value);
      } else {
        write_dom(w, field.value);
      }
    }
    w.end_object();
    return;
  }
  write_dom(w, e);
}

}  // namespace

Redactor::Redactor(std::vector<KnownSecret> secrets, const Limits& limits)
    : secrets_(std::move(secrets)), limits_(limits) {
  std::sort(secrets_.begin(), secrets_.end(), [](const auto& a, const auto& b) { return a.text.size() > b.text.size(); });
}

namespace {
bool is_base64_char(char c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '+' || c == '/' ||
         c == '-' || c == '_' || c == '=';
}
}  // namespace

bool Redactor::plain(std::string& s) const {
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

// Secrets visible only after \u or %XX decoding: found in the decoded text,
// replaced in the encoded one over the exact span that encoded them.
bool Redactor::mapped(std::string& s, bool percent) const {
  std::string decoded;
  std::vector<uint32_t> src;
  const bool any = percent ? decode_percent(s, &decoded, &src) : (has_escapes(s) && decode_escapes(s, &decoded, &src));
  if (!any) return false;
  struct Span {
    size_t from, to;
    std::string with;
  };
  std::vector<Span> spans;
  for (const auto& k : secrets_) {
    for (size_t p = decoded.find(k.text); p != std::string::npos && !k.text.empty(); p = decoded.find(k.text, p + 1)) {
      const size_t end = p + k.text.size();
      spans.push_back({src[p], end < src.size() ? src[end] : s.size(), marker(k)});
    }
  }
  if (spans.empty()) return false;
  std::sort(spans.begin(), spans.end(), [](const Span& a, const Span& b) { return a.from > b.from; });
  size_t floor = SIZE_MAX;
  for (const auto& sp : spans) {  // from the end, so offsets stay valid; overlaps skipped
    if (sp.to > floor) continue;
    s.replace(sp.from, sp.to - sp.from, sp.with);
    floor = sp.from;
  }
  return true;
}

bool Redactor::base64_runs(std::string& s, int depth) const {
  std::vector<Run> runs;
  find_base64_runs(s, &runs);
  bool changed = false;
  for (auto it = runs.rbegin(); it != runs.rend(); ++it) {
    std::string decoded;
    const std::string_view run = std::string_view(s).substr(it->start, it->length);
    if (!decode_base64_text(run, &decoded)) continue;
    auto redacted = redact(decoded, depth + 1);
    if (!redacted) continue;
    s.replace(it->start, it->length, encode_base64_like(*redacted, run));
    changed = true;
  }
  return changed;
}

std::optional<std::string> Redactor::json(std::string_view text, int depth) const {
  StrictJsonParser parser{limits_};
  auto root = parser.parse_copy(text, -1);
  if (!root) return std::nullopt;
  bool changed = false;
  std::string out;
  JsonWriter w(&out);
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
      auto r = redact(s, depth + 1);
      changed |= r.has_value();
      w.value(r ? std::string_view(*r) : s);
    } else {
      write_dom(w, e);
    }
  };
  walk(*root);
  if (!changed) return std::nullopt;
  return out;
}

// A secret split across deltas: the first delta it touches gets the marker
// where the secret began, the others lose their share of it.
std::optional<std::string> Redactor::sse(std::string_view text) const {
  // Split into events, keeping each event's lines.
  std::vector<std::string> events;
  for (size_t pos = 0; pos < text.size();) {
    size_t end = text.find("\n\n", pos);
    end = end == std::string_view::npos ? text.size() : end + 2;
    events.emplace_back(text.substr(pos, end - pos));
    pos = end;
  }
  StrictJsonParser parser{limits_};
  std::map<std::string, std::vector<DeltaRef>> blocks;  // per content block / output item
  for (size_t i = 0; i < events.size(); ++i) {
    const size_t d = events[i].find("data: ");
    if (d == std::string::npos) continue;
    const size_t nl = events[i].find('\n', d);
    auto root = parser.parse_copy(std::string_view(events[i]).substr(d + 6, nl - d - 6), -1);
    if (!root) continue;
    std::string_view type, dt, str;
    simdjson::dom::element e;
    if (root->at_key("type").get(type)) continue;
    std::vector<std::string> path;
    std::string block;
    if (type == "content_block_delta" && !root->at_pointer("/delta/type").get(e) && !e.get(dt)) {
      path = {"delta", dt == "text_delta" ? "text" : dt == "input_json_delta" ? "partial_json" : ""};
      int64_t idx = 0;
      if (root->at_key("index").get(idx)) idx = 0;
      block = "a" + std::to_string(idx);
    } else if (type == "response.output_text.delta" || type == "response.function_call_arguments.delta" ||
               type == "response.custom_tool_call_input.delta") {
      path = {"delta"};
      int64_t idx = 0;
      if (root->at_key("output_index").get(idx)) idx = 0;
      block = "o" + std::to_string(idx) + std::string(type);
    } else {
      continue;
    }
    if (path.back().empty() || root->at_pointer("/" + path[0] + (path.size() > 1 ? "/" + path[1] : "")).get(e) ||
        e.get(str)) {
      continue;
    }
    blocks[block].push_back({i, path, std::string(str)});
  }
  bool changed = false;
  for (auto& [name, deltas] : blocks) {
    std::string joined;
    std::vector<size_t> starts;
    for (const auto& d : deltas) {
      starts.push_back(joined.size());
      joined += d.text;
    }
    for (const auto& k : secrets_) {
      for (size_t p = joined.find(k.text); p != std::string::npos && !k.text.empty(); p = joined.find(k.text, p + 1)) {
        const size_t end = p + k.text.size();
        for (size_t j = 0; j < deltas.size(); ++j) {
          const size_t a = starts[j], b = a + deltas[j].text.size();
          if (b <= p || a >= end) continue;
          const size_t from = std::max(a, p) - a, to = std::min(b, end) - a;
          deltas[j].text.replace(from, to - from, a <= p ? marker(k) : "");
          changed = true;
        }
        // Rebuild the joined view after the edit for further matches.
        joined.clear();
        for (size_t j = 0; j < deltas.size(); ++j) {
          starts[j] = joined.size();
          joined += deltas[j].text;
        }
      }
    }
    if (!changed) continue;
    for (const auto& d : deltas) {
      std::string& ev = events[d.event];
      const size_t ds = ev.find("data: "), nl = ev.find('\n', ds);
      auto root = parser.parse_copy(std::string_view(ev).substr(ds + 6, nl - ds - 6), -1);
      if (!root) continue;
      std::string data;
      JsonWriter w(&data);
      write_replacing(w, *root, d.path, 0, d.text);
      ev.replace(ds + 6, nl - ds - 6, data);
    }
  }
  if (!changed) return std::nullopt;
  std::string out;
  for (const auto& ev : events) out += ev;
  return out;
}

std::optional<std::string> Redactor::redact(std::string_view text, int depth) const {
  if (depth > kMaxDepth || text.size() < 8) return std::nullopt;
  std::string s(text);
  // Base64 first: a run that decodes to a secret is re-encoded whole, before
  // a plain match on part of it (a generic value) could cut it in two.
  bool changed = base64_runs(s, depth);
  changed |= plain(s);
  if (!s.empty() && (s.front() == '{' || s.front() == '[')) {
    if (auto j = json(s, depth)) return *j;
    if (changed) return s;
  }
  if (looks_like_sse(s)) {
    if (auto e = sse(s)) {
      s = *e;
      changed = true;
    }
  }
  changed |= mapped(s, false);
  changed |= mapped(s, true);
  changed |= base64_runs(s, depth);
  if (!changed) return std::nullopt;
  return s;
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
    const size_t close = body.find(']', p);
    if (close == std::string_view::npos || close - p > 80) continue;
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

// A wire record's headers without its content-encoding (its body is now
// stored as the content itself).
void write_headers_without_coding(JsonWriter& w, simdjson::dom::element headers) {
  simdjson::dom::array list;
  if (headers.get(list)) return write_dom(w, headers);
  w.begin_array();
  for (auto h : list) {
    simdjson::dom::array pair;
    std::string_view name;
    if (!h.get(pair) && pair.size() == 2 && !pair.at(0).get(name) && name == "content-encoding") continue;
    write_dom(w, h);
  }
  w.end_array();
}

// The body of one record, rewritten.
std::string rewrite_body(const Record& r, const Redactor& red, bool* changed) {
  std::string out;
  JsonWriter w(&out);
  if (r.kind != Kind::wire) {
    std::function<void(simdjson::dom::element)> walk;
    w.begin_object();
    for (auto f : r.body) {
      w.key(f.key);
      std::string_view s;
      if (!f.value.get(s)) {
        auto x = red.redact(s);
        *changed |= x.has_value();
        w.value(x ? std::string_view(*x) : s);
      } else {
        simdjson::dom::element e = f.value;
        std::string inner;
        JsonWriter iw(&inner);
        write_dom(iw, e);
        auto x = red.redact(inner);  // arrays and objects (argv, headers...) as JSON
        *changed |= x.has_value();
        w.raw(x ? *x : inner);
      }
    }
    w.end_object();
    return out;
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
    } else if (f.key == "headers") {
      std::string inner;
      JsonWriter iw(&inner);
      if (drop_coding) write_headers_without_coding(iw, f.value);
      else write_dom(iw, f.value);
      auto x = red.redact(inner);
      *changed |= x.has_value();
      w.raw(x ? *x : inner);
    } else {
      write_dom(w, f.value);
    }
  }
  w.end_object();
  *changed |= redacted.has_value();
  return out;
}

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
  CheatReport found = check_trace(trace, copt);
  if (found.verify.verdict == Verdict::error) {
    return found.verify.errors.empty() ? Error{Code::io_error, -1, trace + ": unreadable"} : found.verify.errors.front();
  }
  std::vector<KnownSecret> secrets;
  for (const auto& [text, rule] : found.secret_texts) {
    if (rule != skip_rule) secrets.push_back({text, rule, ""});
  }
  Redactor red(secrets, limits);

  // Pass 2: rewrite, re-chain, re-sign.
  auto opened = open_trace(trace, limits);
  if (!opened) return opened.take_error();
  LineReader lines(std::move(opened->source), limits);
  RecordParser parser(limits);
  StrictJsonParser payload_parser{limits};
  std::vector<Digest> hashes;
  // The copy, as written, goes through the full engine again: a secret the
  // redaction missed (or cut in two) fails the run and nothing is written.
  TraceSecretScan check(0, false, limits);
  RedactResult result;
  result.secrets = secrets.size();
  result.key_id = signer->key_id;
  Line line;
  for (;;) {
    auto st = lines.next(&line);
    if (st == LineReader::Status::end) break;
    if (st == LineReader::Status::error) return lines.error();
    auto rec = parser.parse(line.bytes, line.index);
    if (!rec) return Error{Code::usage, rec.error().seq, "cannot redact a malformed trace: " + rec.error().message};
    bool changed = false;
    std::string body;
    if (is_statement(rec->kind)) {
      auto env = decode_envelope(rec->body, static_cast<int64_t>(rec->seq));
      auto stmt = env ? parse_statement(env->payload, payload_parser, -1) : Result<Statement>(env.error());
      if (!stmt || stmt->seq >= hashes.size()) return Error{Code::usage, static_cast<int64_t>(rec->seq), "unreadable statement"};
      std::string payload;
      JsonWriter w(&payload);
      w.begin_object().field("type", stmt->type).field("entry_id", stmt->entry_id).field("run_id", stmt->run_id);
      w.field("seq", stmt->seq).field("head", digest_ref(hashes[stmt->seq])).field("at", stmt->at_text);
      if (!stmt->nonce.empty()) w.field("nonce", stmt->nonce);
      w.end_object();
      body = signer->sign(payload);
    } else {
      body = rewrite_body(*rec, red, &changed);
    }
    std::string text;
    JsonWriter w(&text);
    w.begin_object().field("seq", rec->seq).field("t", rec->t_text).field("kind", rec->kind_text);
    w.field("prev", digest_ref(hashes.empty() ? Digest{} : hashes.back())).key("body").raw(body).end_object();
    hashes.push_back(sha256(text));
    const std::string padded = text + std::string(kLinePadding, '\0');  // the parser reads past the end
    check.on_line(std::string_view(padded).substr(0, text.size()), rec->seq);
    text += '\n';
    GOALCUP_RETURN_IF_ERROR(out->write(text));
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
