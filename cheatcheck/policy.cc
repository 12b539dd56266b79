#include "cheatcheck/policy.h"

#include <algorithm>
#include <fstream>
#include <initializer_list>
#include <sstream>

#include "core/json_strict.h"
#include "core/sha256.h"

namespace goalcup::cheat {
namespace {

Error bad(const std::string& what) { return Error{Code::usage, -1, "policy: " + what}; }

bool strings(simdjson::dom::element e, std::vector<std::string>* out) {
  simdjson::dom::array a;
  if (e.get(a)) return false;
  for (auto v : a) {
    std::string_view s;
    if (v.get(s)) return false;
    out->emplace_back(s);
  }
  return true;
}

std::string opt_string(simdjson::dom::object o, std::string_view key, bool* ok) {
  std::string_view v;
  auto g = json::string(o, key, &v);
  if (g == json::Get::wrong_type) *ok = false;
  return std::string(v);
}

// A member the schema does not name: a judge's typo ("modles") must not
// quietly drop the check it meant to set.
Status only_members(simdjson::dom::object o, std::initializer_list<std::string_view> allowed, const std::string& where) {
  for (auto field : o) {
    if (std::find(allowed.begin(), allowed.end(), field.key) == allowed.end()) {
      return bad(where + "unknown member \"" + std::string(field.key) + "\" (schemas/cheatcheck-policy.schema.json lists the members)");
    }
  }
  return {};
}

bool digest_ok(const std::string& d) { return d.empty() || parse_digest_ref(d).has_value(); }

Status read_harness(simdjson::dom::object root, Policy& p) {
  simdjson::dom::object builds;
  auto g = json::object(root, "harness_builds", &builds);
  if (g == json::Get::absent) return {};
  if (g != json::Get::ok) return bad("harness_builds must be an object of harness id -> builds");
  p.has_harness_builds = true;
  for (auto field : builds) {
    simdjson::dom::array list;
    if (field.value.get(list)) return bad("harness_builds." + std::string(field.key) + " must be an array");
    std::vector<HarnessBuild> out;
    for (auto item : list) {
      simdjson::dom::object o;
      if (item.get(o)) return bad("harness builds are objects");
      GOALCUP_RETURN_IF_ERROR(only_members(o, {"version", "program_digest", "image_digest"}, "a harness build: "));
      bool ok = true;
      HarnessBuild b{opt_string(o, "version", &ok), opt_string(o, "program_digest", &ok), opt_string(o, "image_digest", &ok)};
      if (!ok || !digest_ok(b.program_digest) || !digest_ok(b.image_digest) ||
          (b.program_digest.empty() && b.image_digest.empty())) {
        return bad("a harness build needs program_digest and/or image_digest as sha256:<hex>");
      }
      out.push_back(std::move(b));
    }
    p.harness_builds.emplace_back(std::string(field.key), std::move(out));
  }
  return {};
}

Status read_connectors(simdjson::dom::object root, Policy& p) {
  simdjson::dom::array list;
  auto g = json::array(root, "connectors", &list);
  if (g == json::Get::absent) return {};
  if (g != json::Get::ok) return bad("connectors must be an array");
  p.has_connectors = true;
  for (auto item : list) {
    simdjson::dom::object o;
    if (item.get(o)) return bad("connectors are objects");
    GOALCUP_RETURN_IF_ERROR(only_members(o, {"id", "version", "digest", "decrypt", "tunnel"}, "a connector: "));
    bool ok = true;
    ConnectorRelease c{opt_string(o, "id", &ok), opt_string(o, "version", &ok), opt_string(o, "digest", &ok), {}, false, {}, false};
    if (!ok || c.digest.empty() || !digest_ok(c.digest)) return bad("a connector needs digest as sha256:<hex>");
    simdjson::dom::array decrypt;
    if (json::array(o, "decrypt", &decrypt) == json::Get::ok) {
      c.has_decrypt = true;
      for (auto d : decrypt) {
        simdjson::dom::object r;
        std::string_view host;
        simdjson::dom::element paths;
        DecryptRule rule;
        if (d.get(r) || json::string(r, "host", &host) != json::Get::ok || r.at_key("paths").get(paths) ||
            !strings(paths, &rule.paths)) {
          return bad("connector decrypt entries are {host, paths[]}");
        }
        rule.host = host;
        c.decrypt.push_back(std::move(rule));
      }
    }
    simdjson::dom::element tunnel;
    if (o.at_key("tunnel").get(tunnel) == simdjson::SUCCESS) {
      if (!strings(tunnel, &c.tunnel)) return bad("connector tunnel is an array of host names");
      c.has_tunnel = true;
    }
    p.connectors.push_back(std::move(c));
  }
  return {};
}

Status read_thresholds(simdjson::dom::object root, Policy& p) {
  simdjson::dom::object t;
  auto g = json::object(root, "thresholds", &t);
  if (g == json::Get::absent) return {};
  if (g != json::Get::ok) return bad("thresholds must be an object");
  GOALCUP_RETURN_IF_ERROR(only_members(t, {"max_exit_to_seal_seconds", "max_clock_skew_seconds", "max_ack_delay_seconds",
                                           "max_unattested_share"},
                                       "thresholds: "));
  for (auto [key, target] : {std::pair{"max_exit_to_seal_seconds", &p.thresholds.max_exit_to_seal_seconds},
                             std::pair{"max_clock_skew_seconds", &p.thresholds.max_clock_skew_seconds},
                             std::pair{"max_ack_delay_seconds", &p.thresholds.max_ack_delay_seconds},
                             std::pair{"max_unattested_share", &p.thresholds.max_unattested_share}}) {
    simdjson::dom::element v;
    if (t.at_key(key).get(v)) continue;
    double d;
    if (v.get(d) || d < 0) return bad(std::string("thresholds.") + key + " must be a non-negative number");
    *target = d;
  }
  return {};
}

}  // namespace

Result<Policy> parse_policy(std::string_view text) {
  StrictJsonParser parser{kConfigFileLimits};
  auto root = parser.parse_copy(text, -1);
  if (!root) return bad(root.error().message);
  simdjson::dom::object o;
  if (root->get(o)) return bad("must be a JSON object");
  GOALCUP_RETURN_IF_ERROR(
      only_members(o, {"harness_builds", "connectors", "models", "redactor_rules", "thresholds"}, ""));
  Policy p;
  p.loaded = true;
  GOALCUP_RETURN_IF_ERROR(read_harness(o, p));
  GOALCUP_RETURN_IF_ERROR(read_connectors(o, p));
  GOALCUP_RETURN_IF_ERROR(read_thresholds(o, p));
  simdjson::dom::element v;
  if (!o.at_key("models").get(v)) {
    if (!strings(v, &p.models)) return bad("models must be an array of strings");
    p.has_models = true;
  }
  if (!o.at_key("redactor_rules").get(v) && !strings(v, &p.redactor_rules)) {
    return bad("redactor_rules must be an array of strings");
  }
  return p;
}

Result<Policy> load_policy(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return bad("cannot read " + path);
  std::stringstream ss;
  ss << in.rdbuf();
  return parse_policy(ss.str());
}

}  // namespace goalcup::cheat
