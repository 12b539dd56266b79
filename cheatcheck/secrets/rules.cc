#include "cheatcheck/secrets/rules.h"

#include <strings.h>

#include <zlib.h>

#include <array>
#include <cmath>

namespace goalcup::cheat {
namespace {

constexpr Rule kRules[] = {
    // Anthropic
    {"anthropic-key", R"(sk-ant-api\d\d-[A-Za-z0-9_\-]{32})", Extract::token, Chars::alnum_dash, 45, 240,
     Severity::high, false, true, "Anthropic API key", 45},
    {"anthropic-admin-key", R"(sk-ant-admin\d\d-[A-Za-z0-9_\-]{32})", Extract::token, Chars::alnum_dash, 47, 240,
     Severity::high, false, true, "Anthropic Admin API key", 47},
    {"anthropic-oauth", R"(sk-ant-o[ar]t\d\d-[A-Za-z0-9_\-]{32})", Extract::token, Chars::alnum_dash, 45, 240,
     Severity::high, false, true, "Anthropic OAuth access or refresh token", 45},
    // OpenAI
    {"openai-key", R"(sk-proj-[A-Za-z0-9_\-]{20})", Extract::token, Chars::alnum_dash, 28, 320, Severity::high,
     false, true, "OpenAI project key", 28},
    {"openai-key", R"(sk-svcacct-[A-Za-z0-9_\-]{20})", Extract::token, Chars::alnum_dash, 31, 320, Severity::high,
     false, true, "OpenAI service account key", 31},
    {"openai-key", R"(sk-admin-[A-Za-z0-9_\-]{20})", Extract::token, Chars::alnum_dash, 29, 320, Severity::high,
     false, true, "OpenAI admin key", 29},
    {"openai-key", R"(sk-[A-Za-z0-9]{20}T3BlbkFJ[A-Za-z0-9]{20})", Extract::token, Chars::none, 0, 0, Severity::high,
     false, true, "OpenAI legacy key", 51},
    // GitHub
    {"github-pat", R"(ghp_[A-Za-z0-9]{36})", Extract::github, Chars::none, 0, 0, Severity::high, false, true,
     "GitHub personal access token", 40},
    {"github-oauth", R"(gho_[A-Za-z0-9]{36})", Extract::github, Chars::none, 0, 0, Severity::high, false, true,
     "GitHub OAuth token", 40},
    {"github-app", R"(gh[us]_[A-Za-z0-9]{36})", Extract::github, Chars::none, 0, 0, Severity::high, false, true,
     "GitHub App user-to-server or server-to-server token", 40},
    {"github-refresh", R"(ghr_[A-Za-z0-9]{36})", Extract::github, Chars::none, 0, 0, Severity::high, false, true,
     "GitHub refresh token", 40},
    {"github-fine-grained-pat", R"(github_pat_[A-Za-z0-9]{22}_[A-Za-z0-9]{59})", Extract::token, Chars::none, 0, 0,
     Severity::high, false, true, "GitHub fine-grained personal access token", 93},
    // GitLab
    {"gitlab-pat", R"(glpat-[A-Za-z0-9_\-]{20})", Extract::token, Chars::alnum_dash, 26, 90, Severity::high, false,
     true, "GitLab personal access token", 26},
    {"gitlab-token", R"(gl(?:dt|rt|ft)-[A-Za-z0-9_\-]{20})", Extract::token, Chars::alnum_dash, 25, 90,
     Severity::high, false, true, "GitLab deploy, runner or feed token", 25},
    {"gitlab-token", R"(gl(?:cbt|ptt|imt|oas)-[A-Za-z0-9_\-]{20})", Extract::token, Chars::alnum_dash, 26, 90,
     Severity::high, false, true, "GitLab CI/CD, trigger, incoming mail or OAuth token", 26},
    {"gitlab-token", R"(glsoat-[A-Za-z0-9_\-]{20})", Extract::token, Chars::alnum_dash, 27, 90, Severity::high,
     false, true, "GitLab service account token", 27},
    {"gitlab-token", R"(glagent-[A-Za-z0-9_\-]{20})", Extract::token, Chars::alnum_dash, 28, 90, Severity::high,
     false, true, "GitLab agent token", 28},
    // Cloud
    {"aws-key-id", R"((?:AKIA|ASIA|ABIA|ACCA)[A-Z2-7]{16})", Extract::token, Chars::none, 0, 0, Severity::high,
     false, true, "AWS access key id", 20},
    {"aws-secret-key", R"(aws[A-Za-z0-9_\- ]{0,16}(?:secret|private)[A-Za-z0-9_\- ]{0,16}["']?\s*[:=]\s*["']?)",
     Extract::value, Chars::b64, 40, 40, Severity::high, true, false, "AWS secret access key in an assignment"},
    {"google-api", R"(AIza[0-9A-Za-z_\-]{35})", Extract::token, Chars::none, 0, 0, Severity::high, false, true,
     "Google API key", 39},
    {"azure-client-secret", R"(\dQ~[A-Za-z0-9_~.\-]{31})", Extract::azure, Chars::none, 0, 0, Severity::high, false,
     false, "Azure AD (Entra ID) client secret", 34},
    // Chat and payments
    {"slack-bot", R"(xoxb-[0-9]{6})", Extract::token, Chars::alnum_dash, 30, 140, Severity::high, false, true,
     "Slack bot token", 11},
    {"slack-user", R"(xoxp-[0-9]{6})", Extract::token, Chars::alnum_dash, 30, 160, Severity::high, false, true,
     "Slack user token", 11},
    {"slack-token", R"(xox[aers]-[0-9A-Za-z]{6})", Extract::token, Chars::alnum_dash, 20, 160, Severity::high, false,
     true, "Slack app, refresh or other token", 11},
    {"slack-webhook", R"(hooks\.slack\.com/services/T[A-Z0-9]{6})", Extract::token, Chars::token68, 60, 160,
     Severity::high, false, false, "Slack incoming webhook", 32},
    {"discord-bot-token", R"(\.[A-Za-z0-9_\-]{6}\.[A-Za-z0-9_\-]{27})", Extract::discord, Chars::none, 0, 0,
     Severity::high, false, false, "Discord bot token", 35},
    {"stripe-live", R"((?:sk|rk)_live_[0-9A-Za-z]{20})", Extract::token, Chars::alnum, 28, 140, Severity::high, false,
     true, "Stripe live secret or restricted key", 28},
    {"stripe-test", R"((?:sk|rk)_test_[0-9A-Za-z]{20})", Extract::token, Chars::alnum, 28, 140, Severity::warning,
     false, true, "Stripe test key", 28},
    {"stripe-webhook", R"(whsec_[0-9A-Za-z]{24})", Extract::token, Chars::alnum, 30, 100, Severity::high, false, true,
     "Stripe webhook signing secret", 30},
    // Registries and hubs
    {"hf-token", R"(hf_[A-Za-z]{34})", Extract::token, Chars::none, 0, 0, Severity::high, false, true,
     "Hugging Face access token", 37},
    {"hf-org-token", R"(api_org_[A-Za-z]{34})", Extract::token, Chars::none, 0, 0, Severity::high, false, true,
     "Hugging Face org token", 42},
    {"npm-token", R"(npm_[A-Za-z0-9]{36})", Extract::token, Chars::none, 0, 0, Severity::high, false, true,
     "npm access token", 40},
    // Structured secrets
    {"jwt", R"(eyJ[A-Za-z0-9_\-]{8})", Extract::jwt, Chars::none, 0, 0, Severity::high, false, true, "JSON Web Token", 11},
    {"pem-private-key", R"(-----BEGIN[A-Z ]{0,24} PRIVATE KEY-----)", Extract::pem_block, Chars::none, 0, 0,
     Severity::high, false, false, "PEM or OpenSSH private key"},
    // Headers and assignments
    {"auth-header", R"(authorization["']?\s*[:=]\s*["']?bearer\s+)", Extract::value, Chars::token68, 16, 400,
     Severity::high, true, false, "Authorization: Bearer header value"},
    {"api-key-header", R"((?:x-api-key|api-key|x-goog-api-key|x-auth-token)["']?\s*[:=]\s*["']?)", Extract::value,
     Chars::alnum_dash_dot, 16, 200, Severity::high, true, false, "x-api-key style header value"},
    {"generic-secret",
     R"((?:api[_\-]?key|secret|token|passw(?:or)?d|passphrase|pwd|credential|auth)[A-Za-z0-9_\-]{0,24}["']?\s*[:=]\s*["']?)",
     Extract::value, Chars::value, 12, 200, Severity::warning, true, false,
     "key/token/secret/password assignment with a random value"},
};

bool is_alnum(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'); }

// GitHub's checksum: CRC32 of the 30 random characters, base62, 6 digits.
bool github_checksum_ok(std::string_view token) {
  static constexpr char kB62[] = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
  if (token.size() != 40) return false;
  std::string_view body = token.substr(4, 30);
  uLong crc = crc32(0L, reinterpret_cast<const Bytef*>(body.data()), static_cast<uInt>(body.size()));
  char out[7] = "000000";
  for (int i = 5; i >= 0 && crc; --i) {
    out[i] = kB62[crc % 62];
    crc /= 62;
  }
  return token.substr(34) == out;
}

// A value that is obviously not a real secret.
bool placeholder(std::string_view v) {
  static constexpr std::string_view kNot[] = {"REDACTED", "xxxx", "XXXX", "****", "${", "$(", "<", "example",
                                              "EXAMPLE", "changeme", "placeholder", "your_", "YOUR_", "dummy",
                                              "process.env", "os.environ", "getenv", "None", "null", "undefined"};
  for (auto n : kNot) {
    if (v.find(n) != std::string_view::npos) return true;
  }
  return false;
}

// Classes of characters present (lower, upper, digit, other).
int char_classes(std::string_view v) {
  bool l = false, u = false, d = false, o = false;
  for (char c : v) {
    if (c >= 'a' && c <= 'z') l = true;
    else if (c >= 'A' && c <= 'Z') u = true;
    else if (c >= '0' && c <= '9') d = true;
    else o = true;
  }
  return l + u + d + o;
}

bool in_chars(Chars set, char c) {
  const bool alnum = is_alnum(c);
  switch (set) {
    case Chars::none: return false;
    case Chars::alnum: return alnum;
    case Chars::alnum_dash: return alnum || c == '-' || c == '_';
    case Chars::alnum_dash_dot: return alnum || c == '-' || c == '_' || c == '.';
    case Chars::b64: return alnum || c == '+' || c == '/';
    case Chars::token68: return alnum || c == '-' || c == '_' || c == '.' || c == '~' || c == '+' || c == '/' || c == '=';
    case Chars::value:
      return static_cast<unsigned char>(c) > 0x20 && c != '"' && c != '\'' && c != '\\' && c != ',' && c != ';' &&
             c != '<' && c != '>' && c != '{' && c != '}' && c != '(' && c != ')' && c != '[' && c != ']' && c != 0x7f;
  }
  return false;
}

// Grows [from, ...) over the rule's characters, up to its max length
// counted from `start`.
size_t grow(std::string_view text, size_t start, size_t from, const Rule& rule) {
  size_t end = from;
  const size_t limit = rule.max_len ? std::min(text.size(), start + rule.max_len) : text.size();
  while (end < limit && in_chars(rule.chars, text[end])) ++end;
  return end;
}

std::optional<Extracted> value_after(const Rule& rule, std::string_view text, size_t end) {
  const size_t value_end = grow(text, end, end, rule);
  std::string_view value = text.substr(end, value_end - end);
  while (!value.empty() && (value.back() == '.' || value.back() == ':')) value.remove_suffix(1);
  if (value.size() < rule.min_len || placeholder(value)) return std::nullopt;
  if (rule.min_len == rule.max_len && value_end < text.size() && in_chars(rule.chars, text[value_end])) {
    return std::nullopt;  // a fixed-length secret inside a longer run is something else
  }
  if (rule.id == "generic-secret" && (shannon_entropy(value) < 3.5 || char_classes(value) < 2)) return std::nullopt;
  return Extracted{end, end + value.size(), rule.severity, ""};
}

std::optional<Extracted> jwt(std::string_view text, size_t start) {
  size_t end = start;
  int dots = 0;
  while (end < text.size() && (in_chars(Chars::alnum_dash, text[end]) || (text[end] == '.' && dots < 2))) {
    dots += text[end] == '.';
    ++end;
  }
  std::string_view t = text.substr(start, end - start);
  while (!t.empty() && t.back() == '.') t.remove_suffix(1);
  const size_t d1 = t.find('.'), d2 = d1 == std::string_view::npos ? d1 : t.find('.', d1 + 1);
  if (d2 == std::string_view::npos || d1 < 10 || d2 - d1 < 10 || t.size() - d2 < 9) return std::nullopt;
  if (t.substr(d1 + 1, 3) != "eyJ") return std::nullopt;
  return Extracted{start, start + t.size(), Severity::high, ""};
}

std::optional<Extracted> discord(std::string_view text, size_t start, size_t end) {
  size_t left = start;
  while (left > 0 && start - left < 26 && in_chars(Chars::alnum_dash, text[left - 1])) --left;
  if (start - left < 24 || (text[left] != 'M' && text[left] != 'N' && text[left] != 'O')) return std::nullopt;
  if (left > 0 && in_chars(Chars::alnum_dash, text[left - 1])) return std::nullopt;
  size_t right = end;
  while (right < text.size() && right - end < 11 && in_chars(Chars::alnum_dash, text[right])) ++right;
  if (right < text.size() && in_chars(Chars::alnum_dash, text[right])) return std::nullopt;
  return Extracted{left, right, Severity::high, ""};
}

std::optional<Extracted> azure(std::string_view text, size_t start, size_t end) {
  auto ok = [](char c) { return is_alnum(c) || c == '_' || c == '~' || c == '.'; };
  if (start < 3 || !ok(text[start - 1]) || !ok(text[start - 2]) || !ok(text[start - 3])) return std::nullopt;
  size_t right = end;
  while (right < text.size() && right - end < 3 && (ok(text[right]) || text[right] == '-')) ++right;
  return Extracted{start - 3, right, Severity::high, ""};
}

std::optional<Extracted> pem_block(std::string_view text, size_t start) {
  constexpr size_t kMaxBlock = 64 << 10;
  size_t end_marker = text.find("-----END", start);
  if (end_marker == std::string_view::npos || end_marker - start > kMaxBlock) return std::nullopt;
  size_t close = text.find("-----", end_marker + 8);
  if (close == std::string_view::npos || close - end_marker > 64) return std::nullopt;
  return Extracted{start, close + 5, Severity::high, ""};
}

}  // namespace

std::span<const Rule> secret_rules() { return kRules; }

std::optional<size_t> rule_index(std::string_view id) {
  for (size_t i = 0; i < std::size(kRules); ++i) {
    if (kRules[i].id == id) return i;
  }
  return std::nullopt;
}

std::optional<Extracted> extract_secret(const Rule& rule, std::string_view text, size_t start, size_t end) {
  if (rule.left_boundary && start > 0 && is_alnum(text[start - 1])) return std::nullopt;
  switch (rule.extract) {
    case Extract::token: {
      const size_t e = rule.chars == Chars::none ? end : grow(text, start, end, rule);
      if (rule.min_len && e - start < rule.min_len) return std::nullopt;
      return Extracted{start, e, rule.severity, ""};
    }
    case Extract::github:
      if (github_checksum_ok(text.substr(start, end - start))) return Extracted{start, end, Severity::high, ""};
      return Extracted{start, end, Severity::warning, "checksum does not match: a fake or test token?"};
    case Extract::jwt: return jwt(text, start);
    case Extract::discord: return discord(text, start, end);
    case Extract::azure: return azure(text, start, end);
    case Extract::pem_block: {
      // The pattern ends at "PRIVATE KEY-----"; its BEGIN is just before.
      const size_t from = end > 64 ? end - 64 : 0;
      const size_t begin = text.substr(from, end - from).rfind("-----BEGIN");
      if (begin == std::string_view::npos) return std::nullopt;
      return pem_block(text, from + begin);
    }
    case Extract::value: return value_after(rule, text, end);
  }
  return std::nullopt;
}

std::span<const std::string_view> sensitive_header_names() {
  static constexpr std::string_view kNames[] = {"authorization", "proxy-authorization", "x-api-key", "api-key",
                                                "x-goog-api-key", "x-auth-token", "openai-api-key"};
  return kNames;
}

bool sensitive_header(std::string_view name) {
  for (auto h : sensitive_header_names()) {
    if (h.size() == name.size() && strncasecmp(h.data(), name.data(), h.size()) == 0) return true;
  }
  return false;
}

std::string mask_secret(std::string_view secret) {
  // At most a quarter of the secret, never more than 8 characters, and
  // never past the first line (PEM blocks).
  size_t shown = std::min<size_t>(secret.size() / 4, 8);
  size_t nl = secret.find('\n');
  if (nl != std::string_view::npos) shown = std::min(shown, nl);
  if (secret.starts_with("-----BEGIN")) shown = std::min<size_t>(secret.find("-----", 5) + 5, secret.size());
  std::string out(secret.substr(0, shown));
  return out + "... (" + std::to_string(secret.size()) + " chars)";
}

double shannon_entropy(std::string_view s) {
  if (s.empty()) return 0;
  std::array<uint32_t, 256> counts{};
  for (unsigned char c : s) ++counts[c];
  double h = 0;
  const double n = static_cast<double>(s.size());
  for (uint32_t c : counts) {
    if (!c) continue;
    const double p = c / n;
    h -= p * std::log2(p);
  }
  return h;
}

}  // namespace goalcup::cheat
