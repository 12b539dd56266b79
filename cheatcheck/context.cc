#include "cheatcheck/context.h"

#include <algorithm>

#include "core/json_strict.h"
#include "core/bodies.h"
#include "core/keyring.h"

namespace goalcup::cheat {

bool same_host(std::string_view a, std::string_view b) {
  for (std::string_view* h : {&a, &b}) {
    if (h->ends_with(":443")) h->remove_suffix(4);
    // A fully qualified name ends with the root's dot: the same host.
    if (h->ends_with('.')) h->remove_suffix(1);
  }
  auto lower = [](char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; };
  return a.size() == b.size() &&
         std::equal(a.begin(), a.end(), b.begin(), [&](char x, char y) { return lower(x) == lower(y); });
}

bool LaunchFacts::decrypt_listed(std::string_view host) const {
  return std::any_of(decrypt.begin(), decrypt.end(), [&](const DecryptRule& d) { return same_host(d.host, host); });
}

void Context::begin_record(const Record& r) {
  record_ = &r;
  native_.reset();
  wire_.reset();
  answer_.reset();
}

const NativeInfo& Context::native() {
  if (!native_) native_ = read_native(*record_, native_parser_, native_input_parser_);
  return *native_;
}

const WireBody& Context::wire_body() {
  if (wire_) return *wire_;
  wire_ = read_wire_body(record_->body);  // no copy of a plain body: the record lives until the next one
  return *wire_;
}

bool Context::is_sse_response() {
  std::string_view dir;
  if (json::string(record_->body, "dir", &dir) != json::Get::ok || dir != "response") return false;
  const std::string ct = header_value(*record_, "content-type");
  return ct.find("text/event-stream") != std::string::npos || looks_like_sse(wire_body().bytes());
}

const RebuiltAnswer& Context::answer() {
  if (!answer_) answer_ = rebuild_answer(wire_body().bytes(), limits_);
  return *answer_;
}

void Context::emit(Finding f, std::string_view key) {
  f.fingerprint = make_fingerprint(f.check, facts_.run_id, key);
  std::sort(f.seqs.begin(), f.seqs.end());
  f.seqs.erase(std::unique(f.seqs.begin(), f.seqs.end()), f.seqs.end());
  if (f.seqs.size() > kMaxSeqs) f.seqs.resize(kMaxSeqs);
  findings_.push_back(std::move(f));
}

void Context::skip(std::string check, std::string reason) { skipped_.push_back({std::move(check), std::move(reason)}); }

void Context::body_not_parsed(std::string_view check, const Error& error) {
  if (code_class(error.code) != ErrorClass::limit) return;
  if (std::find(limited_checks_.begin(), limited_checks_.end(), check) != limited_checks_.end()) return;
  limited_checks_.emplace_back(check);
  skip(std::string(check), "a body nested in record " + std::to_string(error.seq) + " passes " +
                               std::string(code_name(error.code)) +
                               " (--max-depth, --max-line-bytes): such bodies were not judged");
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
