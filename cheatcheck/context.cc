#include "cheatcheck/context.h"

#include <arpa/inet.h>

#include <algorithm>

#include "core/json_strict.h"
#include "core/bodies.h"
#include "core/keyring.h"

namespace goalcup::cheat {

std::string_view host_name(std::string_view host) {
  if (host.ends_with(":443")) host.remove_suffix(4);
  // A fully qualified name ends with the root's dot: the same host.
  if (host.ends_with('.')) host.remove_suffix(1);
  return host;
}

std::string_view without_port(std::string_view host) {
  if (host.starts_with('[')) return host.substr(1, host.find(']') - 1);
  const size_t colon = host.find(':');
  if (colon == std::string_view::npos || host.find(':', colon + 1) != std::string_view::npos) return host;
  return host.substr(0, colon);
}

bool ip_literal(std::string_view host) {
  host = host_name(host);
  if (host.empty() || host.size() > 64) return false;
  const std::string text(host);
  unsigned char address[16];
  // getaddrinfo() reads IPv4 as inet_aton() does: one to four parts, each
  // decimal, octal (0...) or hex (0x...): "2689558538", "0xa04f680a" and
  // "160.79.26634" reach 160.79.104.10 as the dotted quad does.
  in_addr v4{};
  return inet_pton(AF_INET6, text.c_str(), address) == 1 || inet_aton(text.c_str(), &v4) != 0;
}

bool in_domain(std::string_view host, std::string_view domain) {
  host = host_name(host);
  domain = host_name(domain);
  if (host.size() > domain.size() && host[host.size() - domain.size() - 1] == '.') {
    host.remove_prefix(host.size() - domain.size());
  }
  return same_host(host, domain);
}

bool same_host(std::string_view a, std::string_view b) {
  a = host_name(a);
  b = host_name(b);
  auto lower = [](char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; };
  return a.size() == b.size() &&
         std::equal(a.begin(), a.end(), b.begin(), [&](char x, char y) { return lower(x) == lower(y); });
}

namespace {

// A total order under which two hosts are equal exactly when same_host()
// says they are the same.
int compare_hosts(std::string_view a, std::string_view b) {
  a = host_name(a);
  b = host_name(b);
  auto lower = [](char c) { return static_cast<unsigned char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c); };
  for (size_t i = 0; i < std::min(a.size(), b.size()); ++i) {
    if (lower(a[i]) != lower(b[i])) return lower(a[i]) < lower(b[i]) ? -1 : 1;
  }
  return a.size() == b.size() ? 0 : a.size() < b.size() ? -1 : 1;
}

}  // namespace

void LaunchFacts::index_decrypt() {
  rules_by_host_.resize(decrypt.size());
  paths_.clear();
  for (uint32_t i = 0; i < rules_by_host_.size(); ++i) {
    rules_by_host_[i] = i;
    for (uint32_t p = 0; p < decrypt[i].paths.size(); ++p) paths_.emplace_back(i, p);
  }
  std::stable_sort(rules_by_host_.begin(), rules_by_host_.end(),
                   [&](uint32_t x, uint32_t y) { return compare_hosts(decrypt[x].host, decrypt[y].host) < 0; });
  std::sort(paths_.begin(), paths_.end(), [&](const auto& x, const auto& y) {
    return x.first != y.first ? x.first < y.first : decrypt[x.first].paths[x.second] < decrypt[y.first].paths[y.second];
  });
}

const DecryptRule* LaunchFacts::decrypt_rule(std::string_view host) const {
  // The last of the equal hosts is the last rule naming it.
  const auto after = std::upper_bound(rules_by_host_.begin(), rules_by_host_.end(), host, [&](std::string_view h, uint32_t i) {
    return compare_hosts(h, decrypt[i].host) < 0;
  });
  if (after == rules_by_host_.begin() || compare_hosts(decrypt[*(after - 1)].host, host) != 0) return nullptr;
  return &decrypt[*(after - 1)];
}

bool LaunchFacts::path_listed(const DecryptRule& rule, std::string_view path) const {
  const auto index = static_cast<uint32_t>(&rule - decrypt.data());
  const auto at = std::lower_bound(paths_.begin(), paths_.end(), path, [&](const auto& entry, std::string_view p) {
    return entry.first != index ? entry.first < index : decrypt[entry.first].paths[entry.second] < p;
  });
  return at != paths_.end() && at->first == index && decrypt[index].paths[at->second] == path;
}

bool LaunchFacts::path_under_listed(const DecryptRule& rule, std::string_view path) {
  return std::any_of(rule.paths.begin(), rule.paths.end(), [&](const std::string& listed) {
    const std::string_view base = std::string_view(listed).substr(0, listed.find_last_not_of('/') + 1);
    return path.size() > base.size() && path.starts_with(base) && path[base.size()] == '/';
  });
}

void Context::begin_record(const Record& r) {
  record_ = &r;
  native_.reset();
  native_text_.reset();
  wire_.reset();
  answer_.reset();
  answer_streamed_ = false;
  if (request_json_) {
    request_json_.reset();
    request_parser_.release_if_large(request_bytes_);
  }
}

const Result<simdjson::dom::element>& Context::request_json() {
  if (request_json_) return *request_json_;
  const std::string_view content = wire_body().content();
  request_bytes_ = content.size();
  request_json_ = request_parser_.parse_copy(content, static_cast<int64_t>(record_->seq));
  return *request_json_;
}

std::optional<ParsedBody> Context::parsed_request() {
  // The content the scan would read is content() only when it is readable.
  // The scan parses a text that opens with '{' or '[' (no white space first).
  if (!request_json_ || !*request_json_ || !wire_body().content_readable()) return std::nullopt;
  const std::string_view content = wire_body().content();
  if (content.empty() || (content.front() != '{' && content.front() != '[')) return std::nullopt;
  return ParsedBody{**request_json_, content, wire_body().base64};
}

std::optional<ParsedBody> Context::parsed_native() {
  if (!native_ || !native_text_) return std::nullopt;
  std::string_view text;
  if (json::string(record_->body, "text", &text) != json::Get::ok) return std::nullopt;
  return ParsedBody{*native_text_, text, false};
}

const NativeInfo& Context::native() {
  if (!native_) {
    native_ = read_native(*record_, native_parser_, native_input_parser_, &native_text_);
    mark_review_copy(*native_);
  }
  return *native_;
}

namespace {

// A text with each line's trailing white space and the ends' white space
// left out: how a rendered review is compared with its copy.
std::string review_text_key(std::string_view text) {
  std::string key;
  for (size_t at = 0; at <= text.size();) {
    size_t stop = text.find('\n', at);
    if (stop == std::string_view::npos) stop = text.size();
    std::string_view line = text.substr(at, stop - at);
    while (!line.empty() && (line.back() == ' ' || line.back() == '\t' || line.back() == '\r')) line.remove_suffix(1);
    key.append(line).push_back('\n');
    at = stop + 1;
  }
  const size_t first = key.find_first_not_of(" \t\n");
  if (first == std::string::npos) return "";
  return key.substr(first, key.find_last_not_of(" \t\n") - first + 1);
}

}  // namespace

// Codex writes a review's verdict, rendered, into the reviewing thread as an
// assistant message (and its AgentMessage item) right after the verdict: a
// text no model streamed, Codex's own. Only the exact render of the verdict
// is taken for it (the verdict is held to the reviewer's answer); anything
// else after it is judged as any answer.
void Context::mark_review_copy(NativeInfo& n) {
  if (n.harness != NativeInfo::Harness::codex) return;
  if (!n.review_render.empty()) {
    review_render_ = review_text_key(n.review_render);
    review_render_file_ = n.file;
    return;
  }
  if (review_render_.empty() || n.file != review_render_file_) return;
  const bool answer_is_it = n.assistant && n.calls.empty() && review_text_key(n.text) == review_render_;
  const bool events_are_it = !n.event_answers.empty() && std::all_of(n.event_answers.begin(), n.event_answers.end(), [&](const std::string& a) {
    return review_text_key(a) == review_render_;
  });
  if (answer_is_it || events_are_it) {
    n.assistant = false;  // Codex's own words, not a model answer
    n.text.clear();
    n.event_answers.clear();
    return;
  }
  if (n.assistant || !n.prompts.empty()) review_render_.clear();  // past the copy's place
}

const WireBody& Context::wire_body() {
  if (wire_) return *wire_;
  wire_ = read_wire_body(record_->body);  // no copy of a plain body: the record lives until the next one
  return *wire_;
}

bool Context::is_answer_response() {
  std::string_view dir;
  if (json::string(record_->body, "dir", &dir) != json::Get::ok || dir != "response") return false;
  const std::string ct = header_value(*record_, "content-type");
  if (ct.find("text/event-stream") != std::string::npos || looks_like_sse(wire_body().content())) return true;
  // A Message returned whole (Claude Code's non-streaming fallback). The
  // views also rebuild Chat Completions and Responses returned whole; the
  // checks compare only Anthropic's with the native log, as before.
  const std::string_view content = wire_body().content();
  if (content.empty() || content.front() != '{') return false;
  if (!answer_) answer_ = rebuild_message(content, limits_);
  return !answer_->message_id.empty() && answer_->provider == RebuiltAnswer::Provider::anthropic;
}

const RebuiltAnswer& Context::answer() {
  if (!answer_) {
    answer_ = rebuild_answer(wire_body().content(), limits_);
    answer_streamed_ = true;
  }
  return *answer_;
}

std::optional<RebuiltAnswer> Context::lend_answer() {
  if (!answer_ || !answer_streamed_ || !wire_) return std::nullopt;
  if (!wire_->content_encoding.empty() || (wire_->base64 && !wire_->base64_ok)) return std::nullopt;
  answer_streamed_ = false;
  return std::exchange(answer_, std::nullopt);
}

void Context::emit(Finding f, std::string_view key) {
  // A credential is its own finding: the secret scan bounds those itself
  // (10,000 distinct), and redact and SARIF list every one.
  if (!f.has_secret && ++emitted_[{f.check, f.severity}] > kMaxFindingsPerKind) return;
  f.fingerprint = make_fingerprint(f.check, facts_.run_id, f.severity, key);
  std::sort(f.seqs.begin(), f.seqs.end());
  f.seqs.erase(std::unique(f.seqs.begin(), f.seqs.end()), f.seqs.end());
  if (f.seqs.size() > kMaxSeqs) f.seqs.resize(kMaxSeqs);
  findings_.push_back(std::move(f));
}

void Context::note_dropped() {
  for (const auto& [kind, emitted] : emitted_) {
    if (emitted <= kMaxFindingsPerKind) continue;
    const auto& [check, severity] = kind;
    Finding f = finding(check, severity, {},
                        std::to_string(emitted - kMaxFindingsPerKind) + " more " + std::string(severity_name(severity)) +
                            " finding(s) of " + check + " not listed: at most " +
                            std::to_string(kMaxFindingsPerKind) + " of a check and severity are kept.");
    f.fingerprint = make_fingerprint(check, facts_.run_id, severity, "not-listed");
    findings_.push_back(std::move(f));
  }
}

void Context::skip(std::string check, std::string reason) { skipped_.push_back({std::move(check), std::move(reason)}); }

void Context::body_not_parsed(std::string_view check, const Error& error) {
  if (code_class(error.code) != ErrorClass::limit) return;
  if (std::find(limited_checks_.begin(), limited_checks_.end(), check) != limited_checks_.end()) return;
  limited_checks_.emplace_back(check);
  const std::string what = "a body nested in record " + std::to_string(error.seq) + " passes " +
                           std::string(code_name(error.code)) + " (" + std::to_string(kNestedMaxDepth) +
                           " levels, --max-line-bytes)";
  skip(std::string(check), what + ": such bodies were not judged");
  std::vector<uint64_t> seqs;
  if (error.seq >= 0) seqs.push_back(static_cast<uint64_t>(error.seq));
  emit(finding(check, Severity::high, std::move(seqs),
               what + ": what such bodies carry was not checked. No harness or provider writes bodies past these "
                      "bounds; one made to pass them would switch this check off."),
       "body-past-limits");
}

Finding finding(std::string_view check, Severity severity, std::vector<uint64_t> seqs, std::string message) {
  Finding f;
  f.check = check;
  f.severity = severity;
  f.seqs = std::move(seqs);
  f.message = std::move(message);
  return f;
}

std::string header_value(const Record& wire, std::string_view name) {
  simdjson::dom::array headers;
  if (json::array(wire.body, "headers", &headers) != json::Get::ok) return {};
  for (auto h : headers) {
    simdjson::dom::array pair;
    std::string_view k, v;
    if (h.get(pair) || pair.size() != 2 || pair.at(0).get(k) || pair.at(1).get(v)) continue;
    if (k == name) return std::string(v);
  }
  return {};
}

void collect_facts(const Record& r, Context& ctx) {
  TraceFacts& f = ctx.facts();
  switch (r.kind) {
    case Kind::header:
      if (r.seq == 0) static_cast<HeaderInfo&>(f) = read_header(r);
      break;
    case Kind::launch:
      if (!f.launch.present) {
        static_cast<LaunchInfo&>(f.launch) = read_launch(r);
        f.launch.index_decrypt();
        f.launch.resumes = argv_resumes(r.body);
        f.launch.may_resume_inside = argv_resumes_inside(r.body);
        f.launch.present = true;
      }
      break;
    case Kind::start_receipt:
    case Kind::ack:
    case Kind::seal_ack: {
      // Signatures are the verifier's business; here only the times and
      // seqs matter, and an invalid statement already makes a high finding.
      auto st = read_statement_unverified(r.body, ctx.statement_parser(), static_cast<int64_t>(r.seq));
      if (!st) break;
      if (r.kind == Kind::start_receipt && !f.start_at) f.start_at = st->at;
      if (r.kind == Kind::seal_ack) f.seal_ack_at = st->at;
      if (r.kind == Kind::ack && f.acks.size() < 1000000) f.acks.push_back({r.seq, st->seq, st->at});
      break;
    }
    default: break;
  }
}

}  // namespace goalcup::cheat
