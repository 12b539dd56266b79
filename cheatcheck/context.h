// What the checks share during the one pass over a trace: the facts read
// from the header, launch and statements, per-record views (native line,
// rebuilt answer) computed once, the policy, and the findings.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "cheatcheck/finding.h"
#include "cheatcheck/native.h"
#include "cheatcheck/policy.h"
#include "cheatcheck/resumed_history.h"
#include "cheatcheck/secrets/record_texts.h"
#include "core/bodies.h"
#include "core/record.h"
#include "core/sse.h"
#include "core/statement.h"
#include "core/verifier.h"

namespace goalcup::cheat {

// Host names as DNS compares them (without regard to case, "h." as "h"),
// and "h:443" as "h": a recorder may write the authority it was asked to
// connect to.
bool same_host(std::string_view a, std::string_view b);
// `host` without ":443" and the root's trailing dot, the form same_host()
// compares (case aside).
std::string_view host_name(std::string_view host);
// `host` is `domain` or a name under it (same_host() rules).
bool in_domain(std::string_view host, std::string_view domain);
// A tunnel's host as a recorder may write it ("name", "name:port",
// "a.b.c.d:port", "[v6]:port" or a bare v6 address) without its port: a
// tunnel carries its port apart, and any port of a host is that host.
std::string_view without_port(std::string_view host);
// An IPv4 or IPv6 address (after without_port()), not a name: IPv4 in any
// form getaddrinfo() reads as one (inet_aton()), a root's trailing dot aside.
bool ip_literal(std::string_view host);

struct LaunchFacts : LaunchInfo {
  bool present = false;
  // Its argv resumes an earlier conversation (argv_resumes()).
  bool resumes = false;
  // A Codex or Claude Code TUI launch that does not resume: it may inside the run (argv_resumes_inside()).
  bool may_resume_inside = false;
  // Indexes `decrypt` once it is read: a crafted launch can list hundreds
  // of thousands of hosts, and every wire record and tunnel looks its host
  // up. Sorted positions, not copies: 4 bytes a host, 8 a path.
  void index_decrypt();
  bool decrypt_listed(std::string_view host) const { return decrypt_rule(host) != nullptr; }  // by same_host()
  // The rule for `host` (the last that names it, by same_host()), or null.
  const DecryptRule* decrypt_rule(std::string_view host) const;
  bool path_listed(const DecryptRule& rule, std::string_view path) const;
  // `path` lies under one of the rule's paths, segment by segment
  // ("/v1/messages/count_tokens" under "/v1/messages", not "/v1/messagesX").
  // The format does not say whether the listed paths are exact or prefixes.
  static bool path_under_listed(const DecryptRule& rule, std::string_view path);

 private:
  std::vector<uint32_t> rules_by_host_;                  // rule indexes, sorted by same_host() form, then index
  std::vector<std::pair<uint32_t, uint32_t>> paths_;     // (rule, path) indexes, sorted by rule, then path
};

struct AckFact {
  uint64_t record_seq = 0;
  uint64_t covers = 0;
  Timestamp at;
};

struct TraceFacts : HeaderInfo {
  LaunchFacts launch;
  std::optional<Timestamp> start_at, seal_ack_at;
  std::vector<AckFact> acks;  // one per ack statement (bounded by --max-statements)
};

struct Skipped {
  std::string check;
  std::string reason;
};

// GC13's SHA-256 of each stored body, done on the secret scan's workers so
// that the walking thread, which sets the pace of a run, does not do it.
class BodyDigests {
 public:
  virtual ~BodyDigests() = default;
  // Queues the check that SHA-256 of `bytes` is `stated` ("sha256:<hex>").
  virtual void check(uint64_t seq, std::string_view bytes, std::string_view stated) = 0;
  // Waits for every check queued; the seqs whose bytes did not match.
  virtual const SeqList& mismatches() = 0;
};

class Context {
 public:
  // `limits` are the run's (the command-line options): they bound every
  // body parsed inside a record (native lines, request bodies, statements)
  // as they bound the records themselves, but for depth (nested_limits()).
  Context(const Policy& policy, const Limits& limits)
      : policy_(policy), limits_(limits), native_parser_(nested_limits(limits)),
        native_input_parser_(nested_limits(limits)), statement_parser_(limits), body_parser_(nested_limits(limits)),
        request_parser_(nested_limits(limits)) {}


  const Policy& policy() const { return policy_; }
  const Limits& limits() const { return limits_; }
  StrictJsonParser& statement_parser() { return statement_parser_; }
  // For a check to parse a body within the current record (a request
  // body, a tool call's input), under the run's limits. Shared by the
  // checks: what it returns lives only until its next use.
  StrictJsonParser& body_parser() { return body_parser_; }
  // Which lines are history a resumed session copied from an earlier run
  // (fed by follow_resumed_history(), decided by the walk's end).
  ResumedHistory& resumed_history() { return resumed_history_; }
  const ResumedHistory& resumed_history() const { return resumed_history_; }
  TraceFacts& facts() { return facts_; }
  const TraceFacts& facts() const { return facts_; }
  // Where body digests are checked off this thread, or null (then a check
  // hashes in place).
  BodyDigests* body_digests() const { return body_digests_; }
  void set_body_digests(BodyDigests* digests) { body_digests_ = digests; }

  // Per-record views, computed at most once per record.
  void begin_record(const Record& r);
  const NativeInfo& native();          // for kind native
  const WireBody& wire_body();         // for kind wire: read_wire_body(), valid for this record
  const RebuiltAnswer& answer();  // for a wire response that is an answer
  // A response carrying a model's answer: an event stream, or a Message
  // returned whole (a request without "stream").
  bool is_answer_response();
  // The wire body's content parsed as JSON, for a request whose content
  // opens with '{' (GC04 reads it; the secret scan then reads its strings
  // instead of parsing the body again). Lives until the next record.
  const Result<simdjson::dom::element>& request_json();
  // request_json() when it was asked for this record and parsed (and its
  // content is what the secret scan reads).
  std::optional<ParsedBody> parsed_request();
  // A native record's text as native() parsed it, when it was asked for.
  std::optional<ParsedBody> parsed_native();
  // answer() when it was asked for this record and is rebuild_answer() of
  // content() == bytes() (no content coding, base64 that decodes): handed
  // to the secret scan, which then need not rebuild the stream. Moved out:
  // call it once the checks are done with the record.
  std::optional<RebuiltAnswer> lend_answer();

  // `key` identifies the finding within the run (no volatile details);
  // the fingerprint is derived from it. At most kMaxFindingsPerKind of one
  // check and severity are kept (a crafted trace can earn one per record);
  // the rest are counted, and note_dropped() says how many. Credentials are
  // bounded by the secret scan instead.
  static constexpr uint64_t kMaxFindingsPerKind = 1000;
  void emit(Finding f, std::string_view key);
  void note_dropped();  // once, after every check has finished
  void skip(std::string check, std::string reason);
  // A body nested in record `seq` that `check` could not parse: when a
  // limit stopped it (nesting past kNestedMaxDepth, --max-line-bytes), the
  // check says once, as a high finding, that such bodies were not judged:
  // no harness writes them, and a crafted one must not switch a check off.
  void body_not_parsed(std::string_view check, const Error& error);
  std::vector<Finding>& findings() { return findings_; }
  std::vector<Skipped>& skipped() { return skipped_; }

 private:
  const Policy& policy_;
  TraceFacts facts_;
  ResumedHistory resumed_history_;
  Limits limits_;
  const Record* record_ = nullptr;
  BodyDigests* body_digests_ = nullptr;
  StrictJsonParser native_parser_;
  StrictJsonParser native_input_parser_;
  StrictJsonParser statement_parser_;
  StrictJsonParser body_parser_;
  StrictJsonParser request_parser_;
  std::optional<Result<simdjson::dom::element>> request_json_;
  size_t request_bytes_ = 0;  // what request_parser_ parsed last
  std::vector<std::string> limited_checks_;  // checks that said so once
  std::optional<NativeInfo> native_;
  // A Codex review verdict's render, until its copy in the thread is read
  // (mark_review_copy), and the file it was logged in.
  std::string review_render_, review_render_file_;
  void mark_review_copy(NativeInfo& n);
  std::optional<simdjson::dom::element> native_text_;  // native()'s document, in native_parser_
  std::optional<WireBody> wire_;
  std::optional<RebuiltAnswer> answer_;
  bool answer_streamed_ = false;  // answer_ is rebuild_answer() of content()
  std::vector<Finding> findings_;
  std::map<std::pair<std::string, Severity>, uint64_t> emitted_;  // check, severity -> findings emitted
  std::vector<Skipped> skipped_;
};

// Reads header, launch and statements into ctx.facts().
void collect_facts(const Record& r, Context& ctx);

// Convenience for checks.
Finding finding(std::string_view check, Severity severity, std::vector<uint64_t> seqs, std::string message);
std::string header_value(const Record& wire, std::string_view name);

}  // namespace goalcup::cheat
