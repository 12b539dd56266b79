#include "core/verifier.h"

#include <algorithm>
#include <array>

#include "core/bodies.h"
#include "core/json_strict.h"

namespace goalcup {
namespace {

int64_t sq(uint64_t v) { return static_cast<int64_t>(v); }

// Which group of checks an error code belongs to (the report's "checks").
std::string_view group_of(Code c) {
  switch (c) {
    case Code::seq_mismatch:
    case Code::prev_mismatch: return "chain";
    case Code::kind_order:
    case Code::duplicate_exit:
    case Code::missing_exit:
    case Code::after_seal_ack: return "kind_order";
    case Code::seal_records: return "seal_records";
    case Code::statement_encoding:
    case Code::statement_signature:
    case Code::statement_key_expired: return "signatures";
    case Code::statement_payload:
    case Code::statement_type:
    case Code::statement_run:
    case Code::statement_seq:
    case Code::statement_head:
    case Code::header_mismatch: return "statement_bindings";
    case Code::ack_order:
    case Code::statement_time_order: return "ack_order";
    case Code::fork: return "forks";
    default: break;
  }
  return code_class(c) == ErrorClass::invalid ? "syntax" : "read";
}

constexpr std::array<std::pair<std::string_view, std::string_view>, 9> kCheckGroups = {{
    {"read", "every byte of the input was read and framed into lines"},
    {"syntax", "each line is strict JSON with the exact envelope and well-formed body members"},
    {"chain", "seq counts from 0 and each prev is the SHA-256 of the previous line"},
    {"kind_order", "header, start_receipt, launch first; one exit; seal; seal_ack last"},
    {"seal_records", "seal.records equals the seal's own seq"},
    {"signatures", "every statement is Ed25519-signed by a trusted key valid at its time"},
    {"statement_bindings", "statement type, entry_id, run_id, seq and head match this chain"},
    {"ack_order", "ack seqs strictly increase and server times never go back"},
    {"forks", "no two statements name one seq with different heads"},
}};

// Says why no key verified: a malleated S is worth naming.
std::string signature_failure(const SignedEnvelope& env) {
  if (!signature_s_canonical(env.sig)) {
    return "non-canonical signature: S is not below the group order (a malleated signature)";
  }
  return "the signature does not verify under any trusted key (key_id " + env.key_id + ")";
}

}  // namespace

std::string_view verdict_name(Verdict v) {
  switch (v) {
    case Verdict::verified: return "verified";
    case Verdict::incomplete: return "incomplete";
    case Verdict::invalid: return "invalid";
    case Verdict::error: return "error";
  }
  return "error";
}

std::string_view warning_name(WarningCode c) {
  switch (c) {
    case WarningCode::server_key_unpinned: return "server_key_unpinned";
    case WarningCode::unknown_kind: return "unknown_kind";
    case WarningCode::zstd_truncated: return "zstd_truncated";
    case WarningCode::statement_time_order: return "statement_time_order";
  }
  return "unknown_kind";
}

std::optional<WarningCode> cut_warning(Code c) {
  if (c == Code::zstd_truncated) return WarningCode::zstd_truncated;
  return std::nullopt;
}

std::string_view incomplete_reason_name(IncompleteReason r) {
  switch (r) {
    case IncompleteReason::unsealed: return "unsealed";
    case IncompleteReason::seal_unacknowledged: return "seal_unacknowledged";
    case IncompleteReason::not_read_to_end: return "not_read_to_end";
    case IncompleteReason::none: break;
  }
  return "";
}

int verdict_exit_code(Verdict v) {
  switch (v) {
    case Verdict::verified: return 0;
    case Verdict::invalid: return 1;
    case Verdict::error: return 2;
    case Verdict::incomplete: return 3;
  }
  return 2;
}

Verdict worst(Verdict a, Verdict b) {
  auto rank = [](Verdict v) {
    switch (v) {
      case Verdict::invalid: return 3;
      case Verdict::error: return 2;
      case Verdict::incomplete: return 1;
      case Verdict::verified: return 0;
    }
    return 2;
  };
  return rank(a) >= rank(b) ? a : b;
}

ChainVerifier::ChainVerifier(const Keyring& keyring, const Limits& limits)
    : keyring_(keyring),
      limits_(limits),
      payload_parser_(limits),
      // The ack window grows with the trace up to --ack-window: a batch of
      // small traces must not pay for a full window (megabytes) each.
      window_(std::min<size_t>(kInitialWindow, limits.ack_window)) {}

void ChainVerifier::count(Code code, int64_t seq) {
  ++rep_.error_count;
  const auto c = static_cast<size_t>(code);
  if (per_code_[c]++ == 0) {
    first_seq_[c] = seq;
    code_order_.push_back(code);
  }
}

// Every error is counted; the first kMaxStoredErrors keep their message. At
// --max-errors reading stops: the verdict cannot change any more (errors
// only add), and garbage must not cost unbounded time.
void ChainVerifier::error(Code code, int64_t seq, std::string message) {
  count(code, seq);
  if (rep_.errors.size() < kMaxStoredErrors) rep_.errors.push_back(Error{code, seq, std::move(message)});
  if (rep_.error_count >= limits_.max_errors && !stop_) {
    stop_ = true;
    read_error_ = true;
    count(Code::limit_errors, seq);
    const std::string why = "stopped reading after " + std::to_string(limits_.max_errors) +
                            " errors; raise --max-errors to see more";
    // Always in the sample (in the last place if it is full): it says the
    // trace was not read to its end.
    if (rep_.errors.size() == kMaxStoredErrors) rep_.errors.pop_back();
    rep_.errors.push_back(Error{Code::limit_errors, seq, why});
  }
}

void ChainVerifier::warn(WarningCode code, int64_t seq, std::string message) {
  if (std::find(rep_.warnings.begin(), rep_.warnings.end(), code) == rep_.warnings.end()) {
    rep_.warnings.push_back(code);
  }
  if (rep_.warning_details.size() < kMaxWarningDetails) {
    rep_.warning_details.push_back(Warning{code, seq, std::move(message)});
  }
}

void ChainVerifier::add_cut_warning(const Error& e) {
  if (lines_ == 0) return add_read_error(e);
  if (auto code = cut_warning(e.code)) {
    warn(*code, e.seq, e.message);
  } else {
    add_read_error(e);  // a cut no warning names is not passed over
  }
}

const ChainVerifier::Slot* ChainVerifier::slot_for(uint64_t seq) const {
  const Slot& s = window_[seq % window_.size()];
  return s.seq == seq ? &s : nullptr;
}

void ChainVerifier::add_read_error(Error e) {
  read_error_ = true;
  error(e.code, e.seq, std::move(e.message));
}

void ChainVerifier::add_line(const Line& line, const Digest& hash, const Result<Record>& record) {
  const uint64_t i = line.index;
  if (i >= limits_.max_records) {
    if (i == limits_.max_records) {
      add_read_error(Error{Code::limit_records, sq(i), "more than " + std::to_string(limits_.max_records) + " records"});
    }
    return;
  }
  if (!record) {
    const Error& e = record.error();
    error(e.code, e.seq, e.message);
    first_break_ = std::min(first_break_, i);
  } else {
    const Record& r = *record;
    if (r.seq != i) {
      error(Code::seq_mismatch, sq(i), "seq is " + std::to_string(r.seq) + " on line " + std::to_string(i));
      first_break_ = std::min(first_break_, i);
    }
    const Digest expected = i == 0 ? Digest{} : last_hash_;
    if (r.prev != expected) {
      first_break_ = std::min(first_break_, i);
      error(Code::prev_mismatch, sq(i),
            i == 0 ? "the first record's prev is not sha256:000..." : "prev is not the hash of the line before: the chain is broken");
    }
    check_order(r);
    check_kind(r);
  }
  // Remember this line for acks that point back at it. Until the window is
  // full size, lines are at their own index (i < size), so growing keeps them.
  while (i >= window_.size() && window_.size() < limits_.ack_window) {
    window_.resize(std::min<size_t>(2 * window_.size(), limits_.ack_window));
  }
  Slot& slot = window_[i % window_.size()];
  slot.seq = i;
  slot.hash = hash;
  slot.wire_through = wire_total_;
  last_hash_ = hash;
  last_seq_ = i;
  ++lines_;
}

void ChainVerifier::check_order(const Record& r) {
  const int64_t s = sq(r.seq);
  const uint64_t i = lines_;  // the line index (r.seq may lie)
  static constexpr Kind kFirst[] = {Kind::header, Kind::start_receipt, Kind::launch};
  if (i < 3 && r.kind != kFirst[i]) {
    error(Code::kind_order, s, "record " + std::to_string(i) + " must be " + std::string(kind_name(kFirst[i])) +
                                   ", not " + std::string(r.kind_text));
    return;
  }
  if (i >= 3 && (r.kind == Kind::header || r.kind == Kind::start_receipt || r.kind == Kind::launch)) {
    error(Code::kind_order, s, std::string(r.kind_text) + " may only appear at the start of the trace");
    return;
  }
  if (seal_acked_) {
    error(Code::after_seal_ack, s, std::string(r.kind_text) + " after seal_ack, which must be the last record");
    return;
  }
  if (sealed_ && r.kind != Kind::seal_ack) {
    error(Code::kind_order, s, std::string(r.kind_text) + " after seal; only seal_ack may follow it");
    return;
  }
  switch (r.kind) {
    case Kind::wire:
    case Kind::tunnel:
      if (exited_) error(Code::kind_order, s, std::string(r.kind_text) + " after exit");
      break;
    case Kind::exit:
      if (exited_) error(Code::duplicate_exit, s, "a second exit record");
      exited_ = true;
      break;
    case Kind::seal_ack:
      if (!sealed_) error(Code::kind_order, s, "seal_ack before any seal");
      seal_acked_ = true;
      break;
    case Kind::unknown:
      warn(WarningCode::unknown_kind, s, "unknown kind \"" + std::string(r.kind_text) + "\" (allowed, not understood)");
      break;
    default: break;
  }
}

void ChainVerifier::check_kind(const Record& r) {
  const int64_t s = sq(r.seq);
  if (Status body = check_body(r); !body) {
    Error e = body.take_error();
    // Only the first line says what format the trace is in: a header further
    // down is out of order, and must not turn proof into "could not judge".
    if (e.code == Code::unsupported_format && lines_ != 0) e.code = Code::body_field;
    error(e.code, e.seq, e.message);
    // The header of an unknown format still names the run, so that the
    // report does not add statement errors that only follow from this one.
    if (e.code != Code::unsupported_format) return;
    unsupported_format_ = true;
  }
  switch (r.kind) {
    case Kind::header:
      if (lines_ == 0) {
        auto h = read_header(r);
        rep_.entry_id = h.entry_id;
        rep_.run_id = h.run_id;
        have_header_ = true;
      }
      break;
    case Kind::wire: {
      // Saturating: a crafted size near 2^64 must not wrap the total and
      // show a rewritten tail as a few bytes.
      const uint64_t size = wire_size(r);
      wire_total_ = size > UINT64_MAX - wire_total_ ? UINT64_MAX : wire_total_ + size;
      break;
    }
    case Kind::gap: {
      std::string_view name;
      if (json::string(r.body, "gap", &name) == json::Get::ok && name == "IngestLost") ingest_lost_ = true;
      break;
    }
    case Kind::seal: {
      if (sealed_) break;  // reported by check_order
      auto seal = read_seal(r);
      sealed_ = true;
      seal_seq_ = s;
      rep_.seal_reason = seal.reason;
      if (seal.records != r.seq) {
        error(Code::seal_records, s, "seal.records is " + std::to_string(seal.records) + ", expected its own seq " +
                                         std::to_string(r.seq));
      }
      // Only a capture recovered after a restart, which records its
      // IngestLost gap, may lack the exit (spec 4, 4.7).
      if (!exited_ && seal.reason != "recovered") {
        error(Code::missing_exit, s, "sealed with reason \"" + seal.reason + "\" but the trace has no exit record");
      } else if (!exited_ && !ingest_lost_) {
        error(Code::missing_exit, s, "sealed as recovered with no exit record, but no IngestLost gap records the "
                                     "restart a recovered capture follows");
      }
      break;
    }
    default:
      if (is_statement(r.kind)) check_statement(r);
      break;
  }
}

void ChainVerifier::check_statement(const Record& r) {
  const int64_t s = sq(r.seq);
  if (statement_limit_hit_) return;
  if (++statement_count_ > limits_.max_statements) {
    statement_limit_hit_ = true;
    add_read_error(Error{Code::limit_statements, s, "more than " + std::to_string(limits_.max_statements) +
                                                        " statements; raise --max-statements"});
    return;
  }
  StatementReport rep;
  rep.seq = r.seq;
  rep.kind = r.kind;
  rep.key_source = KeySource::none;
  auto env = decode_envelope(r.body, s);
  if (!env) {
    error(env.error().code, s, env.error().message);
    rep_.statements.push_back(rep);
    return;
  }
  rep.key_id = env->key_id;
  const Signers signers = find_signers(keyring_, *env);
  if (!signers.pinned && !signers.supplied) {
    error(Code::statement_signature, s, signature_failure(*env));
    rep_.statements.push_back(rep);
    return;
  }
  auto st = parse_statement(env->payload, payload_parser_, s);
  if (!st) {
    error(st.error().code, s, st.error().message);
    rep_.statements.push_back(rep);
    return;
  }
  rep.type = st->type;
  rep.covers_seq = sq(st->seq);
  rep.at = st->at_text;
  const PublicKey* key = nullptr;
  if (signers.pinned && signers.pinned->valid_at(st->at)) {
    key = signers.pinned;
  } else if (signers.supplied) {
    key = signers.supplied;
  } else {
    error(Code::statement_key_expired, s, "signed by pinned key " + signers.pinned->key_id +
                                              " outside its validity window (at " + st->at_text + ")");
    rep.key_id = signers.pinned->key_id;
    rep_.statements.push_back(rep);
    return;
  }
  rep.key_id = key->key_id;
  rep.key_source = key->source;
  rep.valid = check_statement_binding(r, *st, rep);
  if (rep.valid) {
    used_any_ = true;
    used_supplied_ |= key->source == KeySource::supplied;
    if (key->source == KeySource::pinned) {
      rep_.pinned_attested_through_seq = std::max(rep_.pinned_attested_through_seq, sq(st->seq));
    }
  }
  rep_.statements.push_back(rep);
}

// Type, run, seq, head, order and forks; true when all hold.
bool ChainVerifier::check_statement_binding(const Record& r, const Statement& st, StatementReport& rep) {
  const int64_t s = sq(r.seq);
  const uint64_t errors_before = rep_.error_count;
  static constexpr std::string_view kTypes[] = {"start", "ack", "seal"};
  const std::string_view want_type =
      r.kind == Kind::start_receipt ? kTypes[0] : r.kind == Kind::ack ? kTypes[1] : kTypes[2];
  if (st.type != want_type) {
    error(Code::statement_type, s, "a " + std::string(kind_name(rep.kind)) + " must carry type \"" + std::string(want_type) + "\", not \"" + st.type + "\"");
  }
  if (!have_header_) {
    error(Code::statement_run, s, "no valid header to bind the statement to");
  } else if (st.entry_id != rep_.entry_id || st.run_id != rep_.run_id) {
    error(Code::statement_run, s, "the statement is for entry " + st.entry_id + " run " + st.run_id +
                                      ", not this trace's (replayed from another run?)");
  }
  // Which record the statement must cover.
  if (r.kind == Kind::start_receipt && st.seq != 0) {
    error(Code::statement_seq, s, "a start receipt must cover seq 0, not " + std::to_string(st.seq));
  } else if (r.kind == Kind::seal_ack && sq(st.seq) != seal_seq_) {
    error(Code::statement_seq, s, "the seal_ack covers seq " + std::to_string(st.seq) + ", not the seal at " +
                                      std::to_string(seal_seq_));
  } else if (st.seq >= r.seq) {
    error(Code::statement_seq, s, "the statement covers seq " + std::to_string(st.seq) + ", which is not before it");
  }
  if (r.kind == Kind::start_receipt && !is_lower_hex(st.nonce, 32)) {
    error(Code::statement_payload, s, "a start statement needs a nonce of 32 lowercase hex");
  }
  const Slot* covered = st.seq < r.seq ? slot_for(st.seq) : nullptr;
  if (st.seq < r.seq && !covered) {
    add_read_error(Error{Code::limit_ack_window, s, "the statement covers seq " + std::to_string(st.seq) +
                                                        ", further back than --ack-window records"});
  } else if (covered && covered->hash != st.head) {
    signed_contradiction_ = true;
    error(Code::statement_head, s, "the statement's head for seq " + std::to_string(st.seq) +
                                       " is not this chain's: " + digest_ref(st.head).substr(0, 23) + "...");
  }
  // Forks: any two validly signed statements naming one seq.
  auto [it, fresh] = seen_.try_emplace(st.seq, Seen{st.head, r.seq});
  if (!fresh && it->second.head != st.head) {
    signed_contradiction_ = true;
    error(Code::fork, s, "fork: the statements at seq " + std::to_string(it->second.record_seq) + " and " +
                             std::to_string(r.seq) + " name different heads for seq " + std::to_string(st.seq));
  }
  // Order of acks and of server time. The format orders the times of
  // successive acks only; a start receipt or seal_ack out of that order
  // (a server clock stepped back) is said, not held against the trace:
  // every time is the server's own, under its signature.
  if (r.kind == Kind::start_receipt) {
    if (!start_at_) start_at_ = st.at;
  } else {
    if (start_at_ && st.at < *start_at_) {
      warn(WarningCode::statement_time_order, s, "server time " + st.at_text + " is before the start receipt's");
    }
    if (last_ack_at_ && st.at < *last_ack_at_) {
      if (r.kind == Kind::ack) {
        error(Code::statement_time_order, s, "server time " + st.at_text + " is before an earlier ack's");
      } else {
        warn(WarningCode::statement_time_order, s, "server time " + st.at_text + " is before the last ack's");
      }
    }
  }
  if (r.kind == Kind::ack) {
    if (sq(st.seq) <= last_ack_seq_) {
      error(Code::ack_order, s, "ack for seq " + std::to_string(st.seq) + " does not follow the previous ack's seq " +
                                    std::to_string(last_ack_seq_));
    }
    last_ack_seq_ = std::max(last_ack_seq_, sq(st.seq));
    if (!last_ack_at_ || *last_ack_at_ < st.at) last_ack_at_ = st.at;
  }
  // A head vouches for the history the server saw; across a broken link
  // that is not this file's history.
  const bool valid = rep_.error_count == errors_before && covered && st.seq < first_break_;
  if (valid && sq(st.seq) > rep_.attested_through_seq) {
    rep_.attested_through_seq = sq(st.seq);
    attested_wire_ = covered->wire_through;
  }
  if (valid && r.kind == Kind::seal_ack) seal_ack_valid_ = true;
  return valid;
}

VerifyReport ChainVerifier::finish(uint64_t bytes_read) {
  if (lines_ == 0 && !read_error_) error(Code::empty_trace, -1, "the trace holds no records");
  rep_.records = lines_;
  rep_.bytes = bytes_read;
  rep_.wire_bytes = wire_total_;
  if (lines_ > 0) rep_.head = digest_ref(last_hash_);
  if (first_break_ != UINT64_MAX) rep_.first_break_seq = sq(first_break_);
  rep_.sealed = sealed_;
  rep_.seal_acknowledged = seal_ack_valid_;
  rep_.exited = exited_;
  rep_.complete_read = !read_error_ && !stopped_by_tool_;

  const uint64_t covered = static_cast<uint64_t>(rep_.attested_through_seq + 1);
  const bool last_is_seal_ack = seal_ack_valid_ && sq(last_seq_) == seal_seq_ + 1;
  rep_.unattested_records = lines_ - std::min(lines_, covered) - (last_is_seal_ack ? 1 : 0);
  rep_.unattested_wire_bytes = wire_total_ - std::min(wire_total_, attested_wire_);

  bool invalid = false, unreadable = false;
  for (const Code c : code_order_) {
    rep_.errors_by_code.push_back(ErrorTally{c, per_code_[static_cast<size_t>(c)], first_seq_[static_cast<size_t>(c)]});
    (code_class(c) == ErrorClass::invalid ? invalid : unreadable) = true;
  }
  if (unsupported_format_ && !signed_contradiction_) {
    rep_.verdict = Verdict::error;  // no rule of this tool applies to another format
  } else if (invalid) {
    rep_.verdict = Verdict::invalid;
  } else if (unreadable) {
    rep_.verdict = Verdict::error;
  } else if (stopped_by_tool_) {
    rep_.verdict = Verdict::incomplete;
    rep_.incomplete_reason = IncompleteReason::not_read_to_end;
  } else if (!sealed_) {
    rep_.verdict = Verdict::incomplete;
    rep_.incomplete_reason = IncompleteReason::unsealed;
  } else if (!seal_ack_valid_) {
    rep_.verdict = Verdict::incomplete;
    rep_.incomplete_reason = IncompleteReason::seal_unacknowledged;
  } else {
    rep_.verdict = Verdict::verified;
  }
  rep_.key_source = !used_any_ ? KeySource::none : used_supplied_ ? KeySource::supplied : KeySource::pinned;
  if (used_supplied_) {
    warn(WarningCode::server_key_unpinned, -1, "statements verify only under a key supplied with --dev-key, not a pinned server key");
  }

  for (const auto& [name, what] : kCheckGroups) {
    CheckReport c{std::string(name), true, 0, std::string(what)};
    for (const ErrorTally& t : rep_.errors_by_code) {
      if (group_of(t.code) == name) c.failures += t.count;
    }
    c.passed = c.failures == 0;
    rep_.checks.push_back(std::move(c));
  }
  return std::move(rep_);
}

}  // namespace goalcup
