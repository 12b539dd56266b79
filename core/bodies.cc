#include "core/bodies.h"

#include <span>

#include "core/keyring.h"
#include "core/limits.h"

namespace goalcup {
namespace {

enum class Type { string, time, digest, hex16, uuid, uint, integer, int_or_null, boolean, object, array, one_of };

struct Rule {
  std::string_view path;  // "a" or "a.b"
  Type type;
  bool required = false;
  std::string_view choices = {};  // for one_of: "|a|b|"
};

constexpr Rule kHeader[] = {
    {"format", Type::string, true}, {"version", Type::uint, true},
    {"entry_id", Type::hex16, true}, {"run_id", Type::uuid, true},
    {"recorder", Type::object}, {"connector", Type::object}, {"connector.id", Type::string},
    {"connector.version", Type::string}, {"connector.digest", Type::digest},
    {"participant", Type::object}, {"created_at", Type::time}};
constexpr Rule kLaunch[] = {
    {"harness", Type::object}, {"harness.id", Type::string}, {"harness.version", Type::string},
    {"harness.program", Type::string}, {"harness.program_digest", Type::digest},
    {"harness.image_digest", Type::digest}, {"argv", Type::array}, {"env", Type::array},
    {"ca", Type::object}, {"ca.fingerprint", Type::digest}, {"capture", Type::object},
    {"capture.decrypt", Type::array}, {"capture.tunnel", Type::array}, {"home", Type::object},
    {"workspace", Type::string}};
constexpr Rule kWire[] = {
    {"conn", Type::uint}, {"exchange", Type::uint}, {"dir", Type::one_of, true, "|request|response|"},
    {"host", Type::string}, {"method", Type::string}, {"path", Type::string}, {"status", Type::integer},
    {"headers", Type::array}, {"body", Type::string}, {"encoding", Type::one_of, false, "|utf8|base64|"},
    {"size", Type::uint}, {"sha256", Type::digest}, {"redactions", Type::array}, {"complete", Type::boolean}};
constexpr Rule kTunnel[] = {{"conn", Type::uint}, {"host", Type::string}, {"port", Type::uint},
                            {"bytes_up", Type::uint}, {"bytes_down", Type::uint}, {"closed", Type::time}};
constexpr Rule kNative[] = {
    {"source", Type::string}, {"file", Type::string}, {"line_no", Type::uint}, {"text", Type::string}};
constexpr Rule kGap[] = {{"gap", Type::string, true}, {"detail", Type::string}, {"from_seq", Type::uint}};
constexpr Rule kExit[] = {{"code", Type::int_or_null}, {"at", Type::time}};
constexpr Rule kSeal[] = {{"reason", Type::one_of, true, "|exit|user|recovered|"},
                          {"records", Type::uint, true}, {"sealed_at", Type::time, true}};

std::span<const Rule> rules_for(Kind k) {
  switch (k) {
    case Kind::header: return kHeader;
    case Kind::launch: return kLaunch;
    case Kind::wire: return kWire;
    case Kind::tunnel: return kTunnel;
    case Kind::native: return kNative;
    case Kind::gap: return kGap;
    case Kind::exit: return kExit;
    case Kind::seal: return kSeal;
    default: return {};
  }
}

// Looks up "a.b"; false when any step is absent or not an object.
bool lookup(simdjson::dom::object o, std::string_view path, simdjson::dom::element* out) {
  for (;;) {
    auto dot = path.find('.');
    auto v = o.at_key(path.substr(0, dot));
    if (v.error()) return false;
    if (dot == std::string_view::npos) {
      *out = v.value_unsafe();
      return true;
    }
    if (v.get(o)) return false;
    path.remove_prefix(dot + 1);
  }
}

bool type_ok(simdjson::dom::element e, const Rule& rule) {
  std::string_view s;
  switch (rule.type) {
    case Type::string: return e.is_string();
    case Type::time: return !e.get(s) && parse_time(s).has_value();
    case Type::digest: return !e.get(s) && parse_digest_ref(s).has_value();
    case Type::hex16: return !e.get(s) && is_lower_hex(s, 16);
    case Type::uuid: return !e.get(s) && is_uuid_lower(s);
    case Type::uint: return json::is_integer(e) && e.is_uint64();
    case Type::integer: return json::is_integer(e) && e.is_int64();
    case Type::int_or_null: return e.is_null() || (json::is_integer(e) && e.is_int64());
    case Type::boolean: return e.is_bool();
    case Type::object: return e.is_object();
    case Type::array: return e.is_array();
    case Type::one_of:
      return !e.get(s) && !s.empty() && s.find('|') == std::string_view::npos &&
             rule.choices.find("|" + std::string(s) + "|") != std::string_view::npos;
  }
  return false;
}

const char* type_text(Type t) {
  switch (t) {
    case Type::string: return "a string";
    case Type::time: return "an RFC 3339 UTC time";
    case Type::digest: return "\"sha256:\" + 64 lowercase hex";
    case Type::hex16: return "16 lowercase hex";
    case Type::uuid: return "a lowercase UUID";
    case Type::uint: return "a non-negative integer";
    case Type::integer: return "an integer";
    case Type::int_or_null: return "an integer or null";
    case Type::boolean: return "true or false";
    case Type::object: return "an object";
    case Type::array: return "an array";
    case Type::one_of: return "one of";
  }
  return "?";
}

}  // namespace

bool is_uuid_lower(std::string_view s) {
  if (s.size() != 36) return false;
  for (size_t i = 0; i < s.size(); ++i) {
    const bool dash = i == 8 || i == 13 || i == 18 || i == 23;
    if (dash ? s[i] != '-' : !is_lower_hex(s.substr(i, 1), 1)) return false;
  }
  return true;
}

Status check_body(const Record& r) {
  if (r.kind == Kind::header) {
    // Another format or a later version may define the chain differently:
    // no verdict about it would mean anything.
    std::string_view format;
    uint64_t version = 1;
    if (json::string(r.body, "format", &format) == json::Get::ok && format != "goalcup-trace") {
      return Error{Code::unsupported_format, static_cast<int64_t>(r.seq),
                   "header format is \"" + clip_text(format) + "\", not goalcup-trace"};
    }
    if (json::uint(r.body, "version", &version) == json::Get::ok && version != 0) {
      return Error{Code::unsupported_format, static_cast<int64_t>(r.seq),
                   "trace format version " + std::to_string(version) + "; this tool knows version 0"};
    }
  }
  for (const Rule& rule : rules_for(r.kind)) {
    simdjson::dom::element e;
    // An optional member written as null says "not known" (an image digest
    // outside a container): the same as leaving it out, not a malformed body.
    const bool found = lookup(r.body, rule.path, &e);
    if (!found || (e.is_null() && !rule.required)) {
      if (!rule.required) continue;
      return Error{Code::body_field, static_cast<int64_t>(r.seq),
                   std::string(kind_name(r.kind)) + " body lacks \"" + std::string(rule.path) + "\""};
    }
    if (!type_ok(e, rule)) {
      std::string want = type_text(rule.type);
      if (rule.type == Type::one_of) want += " " + std::string(rule.choices);
      return Error{Code::body_field, static_cast<int64_t>(r.seq),
                   std::string(kind_name(r.kind)) + " body member \"" + std::string(rule.path) + "\" is not " + want};
    }
  }
  return {};
}

namespace {

std::string at(simdjson::dom::object o, std::string_view pointer) {
  simdjson::dom::element e;
  std::string_view v;
  if (o.at_pointer(pointer).get(e) || e.get(v)) return {};
  return std::string(v);
}

std::vector<std::string> strings_at(simdjson::dom::object o, std::string_view pointer) {
  std::vector<std::string> out;
  simdjson::dom::element e;
  simdjson::dom::array a;
  if (o.at_pointer(pointer).get(e) || e.get(a)) return out;
  for (auto item : a) {
    std::string_view v;
    if (!item.get(v)) out.emplace_back(v);
  }
  return out;
}

}  // namespace

HeaderInfo read_header(const Record& r) {
  return HeaderInfo{at(r.body, "/entry_id"),          at(r.body, "/run_id"),
                    at(r.body, "/connector/id"),      at(r.body, "/connector/version"),
                    at(r.body, "/connector/digest"),  at(r.body, "/participant/login"),
                    at(r.body, "/participant/repo")};
}

LaunchInfo read_launch(const Record& r) {
  LaunchInfo l{at(r.body, "/harness/id"), at(r.body, "/harness/version"), at(r.body, "/harness/program_digest"),
               at(r.body, "/harness/image_digest"), {}, strings_at(r.body, "/capture/tunnel")};
  simdjson::dom::element e;
  simdjson::dom::array list;
  if (!r.body.at_pointer("/capture/decrypt").get(e) && !e.get(list)) {
    for (auto item : list) {
      simdjson::dom::object o;
      if (!item.get(o)) l.decrypt.push_back({at(o, "/host"), strings_at(o, "/paths")});
    }
  }
  return l;
}

SealInfo read_seal(const Record& r) {
  SealInfo s;
  std::string_view v;
  if (json::string(r.body, "reason", &v) == json::Get::ok) s.reason = v;
  (void)json::uint(r.body, "records", &s.records);
  return s;
}

uint64_t wire_size(const Record& r) {
  uint64_t n = 0;
  (void)json::uint(r.body, "size", &n);
  return n;
}

std::string content_encoding_of(simdjson::dom::object body) {
  simdjson::dom::array headers;
  if (json::array(body, "headers", &headers) != json::Get::ok) return {};
  std::string codings;
  for (auto h : headers) {
    simdjson::dom::array pair;
    std::string_view name, value;
    if (h.get(pair) || pair.size() != 2 || pair.at(0).get(name) || pair.at(1).get(value)) continue;
    if (name != "content-encoding") continue;
    if (!codings.empty()) codings += ", ";
    codings += value;
  }
  return codings == "identity" ? std::string() : codings;
}

namespace {

// Bytes that are already JSON or an event stream, not a coding's output.
bool looks_decoded(std::string_view b) {
  return b.starts_with('{') || b.starts_with('[') || b.starts_with("event:") || b.starts_with("data:");
}

}  // namespace

WireBody read_wire_body(simdjson::dom::object body, size_t max_decoded) {
  std::string_view stored, encoding;
  if (json::string(body, "body", &stored) != json::Get::ok) return {};
  (void)json::string(body, "encoding", &encoding);
  return wire_body(stored, encoding == "base64", max_decoded, content_encoding_of(body));
}

WireBody wire_body(std::string_view stored, bool base64, size_t max_decoded, std::string content_encoding) {
  WireBody w;
  w.present = true;
  w.stored = stored;
  if (base64) {
    w.base64 = true;
    std::string_view text = w.stored;
    // Whole groups of four characters: a prefix of valid base64 is valid.
    if (max_decoded < text.size() / 4 * 3) text = text.substr(0, (max_decoded / 3 + 1) * 4);
    auto decoded = base64_decode(text);
    w.base64_ok = decoded.has_value();
    if (decoded) w.decoded = std::move(*decoded);
    if (w.decoded.size() > max_decoded) w.decoded.resize(max_decoded);
  }
  w.content_encoding = std::move(content_encoding);
  if (w.content_encoding.empty() || !w.base64_ok) return w;
  DecodedContent d = decode_content(w.bytes(), w.content_encoding, std::min(max_decoded, kMaxContentBytes));
  if (d.status == ContentDecoding::corrupt && looks_decoded(w.bytes())) {
    // A recorder that stored the content it decoded, not the bytes received
    // (GC13 says so when `size` then differs): read what is there.
    w.content_encoding.clear();
    return w;
  }
  // A view of a prefix (max_decoded) shows what inflated before the bound.
  if (d.status == ContentDecoding::too_large && max_decoded < kMaxContentBytes) d.status = ContentDecoding::ok;
  w.content_status = d.status;
  w.inflated = std::move(d.out);
  return w;
}

}  // namespace goalcup
