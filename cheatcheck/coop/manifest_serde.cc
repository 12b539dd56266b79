#include "cheatcheck/coop/manifest_serde.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <initializer_list>
#include <regex>
#include <set>
#include <span>
#include <vector>

namespace goalcup::cheat {
namespace {

constexpr size_t kMaxNesting = 128;          // serde_yaml's remaining_depth
constexpr uint64_t kMaxVisits = 4'000'000;  // nodes walked (aliases repeat subtrees)
constexpr std::string_view kNullTag = "tag:yaml.org,2002:null";

bool blank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

// Where a node's own text starts: after its anchor and tag.
size_t content_at(std::string_view text, const YAML::Mark& mark) {
  if (mark.pos < 0 || static_cast<size_t>(mark.pos) >= text.size()) return text.size();
  size_t p = static_cast<size_t>(mark.pos);
  while (p < text.size() && (text[p] == '&' || text[p] == '!')) {
    while (p < text.size() && !blank(text[p])) ++p;
    while (p < text.size() && (text[p] == ' ' || text[p] == '\t')) ++p;
  }
  return p;
}

// A null's text as written. yaml-cpp keeps none; its mark points at the
// null's text, or (nothing written) at whatever comes next, which may be the
// next key: `c:\nnull: 1` leaves c empty.
std::string null_text(std::string_view text, const YAML::Mark& mark) {
  const size_t p = content_at(text, mark);
  for (std::string_view word : {"null", "Null", "NULL", "~"}) {
    if (!text.substr(p).starts_with(word)) continue;
    size_t q = p + word.size();
    while (q < text.size() && (text[q] == ' ' || text[q] == '\t')) ++q;
    const bool key = q < text.size() && text[q] == ':' && (q + 1 == text.size() || blank(text[q + 1]) || text[q + 1] == ',');
    return key ? std::string() : std::string(word);
  }
  return {};
}

// A scalar as serde_yaml sees it: its text, and whether it was plain.
struct Scalar {
  std::string text;
  bool plain = true;
  std::string tag;  // "?" or "!" when none was written
};

std::optional<Scalar> scalar_of(std::string_view text, const YAML::Node& n) {
  if (n.IsNull()) return Scalar{null_text(text, n.Mark()), true, "?"};
  if (!n.IsScalar()) return std::nullopt;
  Scalar s{n.Scalar(), n.Tag() == "?", n.Tag()};
  if (n.Tag() != "?" && n.Tag() != "!") {  // an explicit tag: the style is in the text
    const size_t p = content_at(text, n.Mark());
    s.plain = p >= text.size() || std::string_view("\"'|>").find(text[p]) == std::string_view::npos;
  }
  return s;
}

bool empty_plain(const std::optional<Scalar>& s) { return s && s->plain && s->text.empty(); }

std::optional<uint64_t> radix(std::string_view digits, int base) {
  if (digits.empty() || digits.size() > 70) return std::nullopt;
  uint64_t v = 0;
  for (const char c : digits) {
    int d = -1;
    if (c >= '0' && c <= '9') d = c - '0';
    if (c >= 'a' && c <= 'z') d = c - 'a' + 10;
    if (c >= 'A' && c <= 'Z') d = c - 'A' + 10;
    if (d < 0 || d >= base) return std::nullopt;
    if (v > (UINT64_MAX - static_cast<uint64_t>(d)) / static_cast<uint64_t>(base)) return std::nullopt;
    v = v * static_cast<uint64_t>(base) + static_cast<uint64_t>(d);
  }
  return v;
}

// Rust's from_str_radix for u64: an optional '+', then digits.
std::optional<uint64_t> from_str_radix(std::string_view s, int base) {
  if (s.starts_with('+')) s.remove_prefix(1);
  return radix(s, base);
}

bool digits_but_not_number(std::string_view s) {
  if (s.starts_with('-') || s.starts_with('+')) s.remove_prefix(1);
  return s.size() > 1 && s[0] == '0' &&
         std::all_of(s.begin() + 1, s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

bool starts_signed(std::string_view s) { return s.starts_with('+') || s.starts_with('-'); }

std::optional<bool> parse_bool(std::string_view s) {
  if (s == "true" || s == "True" || s == "TRUE") return true;
  if (s == "false" || s == "False" || s == "FALSE") return false;
  return std::nullopt;
}

// serde_yaml's parse_f64: YAML's .inf/.nan, else Rust's f64 grammar, finite.
bool parse_f64(std::string_view s) {
  std::string_view u = s;
  if (u.starts_with('+')) {
    u.remove_prefix(1);
    if (starts_signed(u)) return false;
  }
  for (std::string_view w : {".inf", ".Inf", ".INF"}) {
    if (u == w) return true;
  }
  for (std::string_view w : {"-.inf", "-.Inf", "-.INF", ".nan", ".NaN", ".NAN"}) {
    if (s == w) return true;
  }
  static const std::regex kFloat(R"(^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$)");
  const std::string t(u);
  if (!std::regex_match(t, kFloat)) return false;  // inf/nan spelled Rust's way are not finite either
  return std::isfinite(std::strtod(t.c_str(), nullptr));
}

// The value a scalar key stands for in a serde_yaml Mapping, so that `1`
// and `0x1` are one key and `1` and "1" two.
std::string key_identity(const Scalar& s) {
  if (!s.plain || (s.tag != "?" && s.tag != "!")) return "s:" + s.text;
  if (s.text.empty() || s.text == "~" || s.text == "null" || s.text == "Null" || s.text == "NULL") return "~";
  if (auto b = parse_bool(s.text)) return *b ? "b:1" : "b:0";
  if (auto u = serde_unsigned(s.text)) return "i:" + std::to_string(*u);
  if (!digits_but_not_number(s.text) && parse_f64(s.text)) return "f:" + std::to_string(std::strtod(s.text.c_str(), nullptr));
  return "s:" + s.text;
}

// coop's types, as serde derives them (constant tables: nothing is built
// at start-up).
struct Type;
struct Field {
  std::string_view name;
  const Type* type;
  bool required = false;
};
struct Type {
  enum Kind : uint8_t { string, boolean, unsigned_int, float_, enumeration, structure, option, sequence, string_map, any };
  Kind kind;
  uint64_t max = 0;                              // unsigned_int
  std::span<const std::string_view> variants = {};  // enumeration
  std::span<const Field> fields = {};               // structure
  const Type* inner = nullptr;                      // option, sequence
};

constexpr Type kString{Type::string}, kBool{Type::boolean}, kU16{Type::unsigned_int, 0xFFFF},
    kU32{Type::unsigned_int, 0xFFFFFFFF}, kU64{Type::unsigned_int, UINT64_MAX}, kF32{Type::float_},
    kStringMap{Type::string_map};
constexpr Type option(const Type* inner) { return Type{Type::option, 0, {}, {}, inner}; }
constexpr Type sequence(const Type* inner) { return Type{Type::sequence, 0, {}, {}, inner}; }
constexpr Type structure(std::span<const Field> fields) { return Type{Type::structure, 0, {}, fields}; }
constexpr Type enumeration(std::span<const std::string_view> names) { return Type{Type::enumeration, 0, names}; }

constexpr Type kOptString = option(&kString), kOptU32 = option(&kU32), kOptU64 = option(&kU64), kOptF32 = option(&kF32);
constexpr Type kStrings = sequence(&kString), kOptStrings = option(&kStrings);
constexpr std::string_view kSexNames[] = {"hen", "rooster"};
constexpr std::string_view kAgentKindNames[] = {"anthropic", "claude-code", "codex", "gh-copilot", "shell"};
constexpr std::string_view kNetPolicyNames[] = {"off", "allowlist", "open"};
constexpr Type kSex = enumeration(kSexNames), kAgentKind = enumeration(kAgentKindNames),
               kNetPolicy = enumeration(kNetPolicyNames);
constexpr Field kCapsFields[] = {{"context_window", &kU32}, {"tool_use", &kBool}, {"vision", &kBool}};
constexpr Type kCaps = structure(kCapsFields), kOptCaps = option(&kCaps);
constexpr Field kFallbackFields[] = {
    {"provider_id", &kString, true}, {"provider", &kString}, {"base_url", &kOptString}, {"model", &kString, true}};
constexpr Type kFallback = structure(kFallbackFields), kFallbacks = sequence(&kFallback);
constexpr Field kBrainFields[] = {{"provider_id", &kString, true},
                                  {"provider", &kString},
                                  {"base_url", &kOptString},
                                  {"model", &kString, true},
                                  {"capabilities_required", &kOptCaps},
                                  {"fallbacks", &kFallbacks},
                                  {"fallback_provider_ids", &kStrings},
                                  {"auto_route", &kBool},
                                  {"cache", &kBool}};
constexpr Type kBrain = structure(kBrainFields);
constexpr Field kPersonalityFields[] = {{"system_prompt", &kOptString}, {"traits", &kStringMap}};
constexpr Field kVisualFields[] = {{"avatar_url", &kOptString}, {"emoji", &kOptString}, {"theme_color", &kOptString}};
constexpr Field kMemoryFields[] = {
    {"episodic_retention_days", &kOptU32}, {"semantic_summarize_every", &kOptU32}, {"inherit_from", &kOptString}};
constexpr Field kResourcesFields[] = {{"ram_request_mb", &kOptU32},
                                      {"ram_limit_mb", &kOptU32},
                                      {"cpu_request", &kOptF32},
                                      {"cpu_limit", &kOptF32},
                                      {"prefer_roost", &kOptString}};
constexpr Field kSchedulingFields[] = {
    {"placement", &kOptString}, {"restart_policy", &kOptString}, {"max_concurrent_jobs", &kOptU32}};
constexpr Field kTopicFilterFields[] = {{"deny_keywords", &kStrings}, {"allow_keywords", &kStrings}};
constexpr Type kTopicFilter = structure(kTopicFilterFields), kOptTopicFilter = option(&kTopicFilter);
constexpr Field kLeaseFields[] = {{"allow_lease", &kBool},
                                  {"base_price_grain_per_hour", &kOptU64},
                                  {"min_renter_trust", &kOptU32},
                                  {"stream_enabled", &kBool},
                                  {"spectator_enabled", &kBool},
                                  {"intervention_allowed", &kBool},
                                  {"require_framework", &kBool},
                                  {"allowed_tools", &kOptStrings},
                                  {"topic_filter", &kOptTopicFilter}};
constexpr Type kPorts = sequence(&kU16);
constexpr Field kNetAllowFields[] = {{"host", &kString, true}, {"ports", &kPorts}};
constexpr Type kNetAllow = structure(kNetAllowFields), kNetAllows = sequence(&kNetAllow);
constexpr Field kNetworkFields[] = {{"policy", &kNetPolicy, true}, {"allow", &kNetAllows}};
constexpr Type kPersonality = structure(kPersonalityFields), kVisual = structure(kVisualFields),
               kMemory = structure(kMemoryFields), kResources = structure(kResourcesFields),
               kScheduling = structure(kSchedulingFields), kLease = structure(kLeaseFields),
               kNetwork = structure(kNetworkFields);
constexpr Type kOptPersonality = option(&kPersonality), kOptVisual = option(&kVisual), kOptMemory = option(&kMemory),
               kOptResources = option(&kResources), kOptScheduling = option(&kScheduling), kOptLease = option(&kLease),
               kOptNetwork = option(&kNetwork);
constexpr Field kManifestFields[] = {{"spec_version", &kString, true},
                                     {"name", &kString, true},
                                     {"sex", &kSex},
                                     {"agent_kind", &kAgentKind},
                                     {"brain", &kBrain, true},
                                     {"tools", &kStrings},
                                     {"personality", &kOptPersonality},
                                     {"visual", &kOptVisual},
                                     {"memory", &kOptMemory},
                                     {"resources", &kOptResources},
                                     {"scheduling", &kOptScheduling},
                                     {"lease", &kOptLease},
                                     {"network", &kOptNetwork},
                                     {"metadata", &kStringMap}};
constexpr Type kManifest = structure(kManifestFields);

std::string join(const std::string& path, std::string_view field) {
  return path.empty() ? std::string(field) : path + "." + std::string(field);
}

class Walker {
 public:
  explicit Walker(std::string_view text) : text_(text) {}

  SerdeVerdict run(const YAML::Node& root) {
    SerdeVerdict v;
    v.refusal = check(root, kManifest, "", 0);
    v.judged = visits_ <= kMaxVisits;
    if (!v.judged) v.refusal.reset();
    return v;
  }

 private:
  using Out = std::optional<SerdeRefusal>;

  static Out refuse(const std::string& key, std::string message, bool repeated = false) {
    return SerdeRefusal{key, std::move(message), repeated};
  }

  static std::string shown(const std::optional<Scalar>& s) {
    if (!s) return "a sequence or mapping";
    return s->plain ? "`" + s->text + "`" : "the quoted \"" + s->text + "\"";
  }

  Out check(const YAML::Node& n, const Type& t, const std::string& path, size_t depth) {
    if (++visits_ > kMaxVisits) return std::nullopt;
    const auto s = scalar_of(text_, n);
    switch (t.kind) {
      case Type::string:
        if (!s) return refuse(path, "is a sequence or mapping, not a string");
        return std::nullopt;
      case Type::boolean:
        if (s && s->plain && parse_bool(s->text)) return std::nullopt;
        return refuse(path, shown(s) + " is not a boolean (plain true or false)");
      case Type::unsigned_int: {
        const auto v = s && s->plain ? serde_unsigned(s->text) : std::nullopt;
        if (v && *v <= t.max) return std::nullopt;
        return refuse(path, shown(s) + " is not an integer in 0.." + std::to_string(t.max));
      }
      case Type::float_:
        if (s && s->plain && parse_f64(s->text)) return std::nullopt;
        return refuse(path, shown(s) + " is not a number");
      case Type::enumeration:
        return variant(s, t, path);
      case Type::option:
        if (s && s->plain && s->tag == "?" && (s->text.empty() || s->text == "~" || s->text == "null" ||
                                                s->text == "Null" || s->text == "NULL")) {
          return std::nullopt;  // None
        }
        if (s && s->plain && s->tag == kNullTag) {
          return s->text == "~" || s->text == "null" || s->text == "Null" || s->text == "NULL"
                     ? std::nullopt
                     : refuse(path, shown(s) + " is not null");
        }
        return check(n, *t.inner, path, depth);
      case Type::sequence:
        if (empty_plain(s)) return std::nullopt;
        if (!n.IsSequence()) return refuse(path, shown(s) + " is not a sequence");
        if (depth + 1 > kMaxNesting) return refuse(path, "nests deeper than 128 (serde_yaml's recursion limit)");
        for (size_t i = 0; i < n.size(); ++i) {
          if (Out r = check(n[i], *t.inner, path + "[" + std::to_string(i) + "]", depth + 1)) return r;
        }
        return std::nullopt;
      case Type::structure:
        return structure(n, s, t, path, depth);
      case Type::string_map:
        if (empty_plain(s)) return std::nullopt;
        if (!n.IsMap()) return refuse(path, shown(s) + " is not a mapping");
        if (depth + 1 > kMaxNesting) return refuse(path, "nests deeper than 128 (serde_yaml's recursion limit)");
        for (auto it = n.begin(); it != n.end(); ++it) {
          if (!scalar_of(text_, it->first)) return refuse(path, "has a key that is not a string");
          if (Out r = any(it->second, join(path, it->first.IsScalar() ? it->first.Scalar() : "?"), depth + 1)) return r;
        }
        return std::nullopt;
      case Type::any:
        return any(n, path, depth);
    }
    return std::nullopt;
  }

  // A unit enum: the variant's exact name (any scalar style), or a local
  // tag `!name` on an empty or null scalar.
  static Out variant(const std::optional<Scalar>& s, const Type& t, const std::string& path) {
    if (!s) return refuse(path, "is a sequence or mapping, not one of its names");
    std::string name = s->text;
    if (s->tag.size() > 1 && s->tag[0] == '!') {
      const bool unit = s->plain && (s->text.empty() || s->text == "~" || s->text == "null" || s->text == "Null" ||
                                     s->text == "NULL");
      if (!unit) return refuse(path, "has a tag and a value: not a plain name");
      name = s->tag.substr(1);
    }
    if (std::find(t.variants.begin(), t.variants.end(), name) != t.variants.end()) return std::nullopt;
    return refuse(path, "\"" + name + "\" is not one of its names");
  }

  Out structure(const YAML::Node& n, const std::optional<Scalar>& s, const Type& t, const std::string& path,
                size_t depth) {
    std::set<std::string_view> seen;
    if (!empty_plain(s)) {
      if (!n.IsMap()) return refuse(path.empty() ? "" : path, shown(s) + " is not a mapping");
      if (depth + 1 > kMaxNesting) return refuse(path, "nests deeper than 128 (serde_yaml's recursion limit)");
      for (auto it = n.begin(); it != n.end(); ++it) {
        const auto key = scalar_of(text_, it->first);
        if (!key) return refuse(path, "has a key that is not a string");
        const auto field = std::find_if(t.fields.begin(), t.fields.end(), [&](const Field& f) { return f.name == key->text; });
        if (field == t.fields.end()) continue;  // unknown fields are ignored
        const std::string at = join(path, field->name);
        if (!seen.insert(field->name).second) return refuse(at, "is given twice (serde refuses a repeated field)", true);
        if (Out r = check(it->second, *field->type, at, depth + 1)) return r;
      }
    }
    for (const Field& f : t.fields) {
      if (f.required && !seen.contains(f.name)) return refuse(join(path, f.name), "is missing (a required field)");
    }
    return std::nullopt;
  }

  // serde_yaml::Value: anything, but its mappings refuse a repeated key.
  Out any(const YAML::Node& n, const std::string& path, size_t depth) {
    if (++visits_ > kMaxVisits) return std::nullopt;
    if (!n.IsSequence() && !n.IsMap()) return std::nullopt;
    if (depth + 1 > kMaxNesting) return refuse(path, "nests deeper than 128 (serde_yaml's recursion limit)");
    std::set<std::string> keys;
    size_t i = 0;
    for (auto it = n.begin(); it != n.end(); ++it, ++i) {
      if (n.IsSequence()) {
        if (Out r = any(*it, path + "[" + std::to_string(i) + "]", depth + 1)) return r;
        continue;
      }
      const auto key = scalar_of(text_, it->first);
      const std::string at = join(path, key ? key->text : "?");
      if (key && !keys.insert(key_identity(*key)).second) return refuse(at, "is given twice (serde_yaml refuses a repeated key)", true);
      if (!key) {
        if (Out r = any(it->first, at, depth + 1)) return r;
      }
      if (Out r = any(it->second, at, depth + 1)) return r;
    }
    return std::nullopt;
  }

  std::string_view text_;
  uint64_t visits_ = 0;
};

}  // namespace

std::optional<uint64_t> serde_unsigned(std::string_view scalar) {
  const std::string_view unpositive = scalar.starts_with('+') ? scalar.substr(1) : scalar;
  for (const auto& [prefix, base] : {std::pair<std::string_view, int>{"0x", 16}, {"0o", 8}, {"0b", 2}}) {
    if (!unpositive.starts_with(prefix)) continue;
    const std::string_view rest = unpositive.substr(2);
    if (starts_signed(rest)) return std::nullopt;
    if (auto v = from_str_radix(rest, base)) return v;
  }
  if (starts_signed(unpositive) || digits_but_not_number(scalar)) return std::nullopt;
  return from_str_radix(unpositive, 10);
}

std::string serde_string(std::string_view text, const YAML::Node& node) {
  const auto s = scalar_of(text, node);
  return s ? s->text : std::string();
}

SerdeVerdict serde_manifest(std::string_view text, const YAML::Node& root) { return Walker(text).run(root); }

}  // namespace goalcup::cheat
