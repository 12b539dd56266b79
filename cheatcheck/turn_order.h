// GC04's hold of a harness log's order to the wire's (red-team 18b #05).
// Every line of a log can match something the wire carried while the log
// tells the turns in another order: turn A's prompt and answer moved after
// turn B's, the parentUuid chain re-linked. The wire has an order of its
// own: the main chain's requests are made one after another, each once the
// answer before it is done, and each carries what was said since; so are
// a Task subagent's own requests (its answers' message ids and its calls'
// ids are its own). So, on one file's main chain and on each subagent's
// thread (a sidechain's parentUuid chain), leaving out lines that repeat
// an earlier one:
//  - answers, each at the first line of its message id, are logged in the
//    order of the responses that carried them;
//  - a prompt or tool result logged before an answer was sent in a request
//    no later than that answer's response (a side call may carry it
//    earlier; carrying it only later is what a moved line shows). A Codex
//    result logged after its own call may stand before the later calls of
//    that call's response (Codex 0.58 logs each output after its call).
// Only what is certain is compared: answers some response carried, and
// texts some request carried exactly. Linear in the lines and responses.
#pragma once

#include <algorithm>
#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include <absl/container/flat_hash_map.h>
#include <absl/container/flat_hash_set.h>

#include "cheatcheck/checks/check.h"
#include "cheatcheck/native.h"

namespace goalcup::cheat {

class TurnOrder {
 public:
  // A response carrying the answer `message_id` (the first one counts).
  void wire_answer(std::string_view message_id, uint64_t seq);
  // A request whose body could not be read: what the log sent before any
  // later answer is not held to the requests (it may have been in this one).
  void request_unread(uint64_t seq) { first_unread_ = std::min(first_unread_, seq); }
  // A line of the log, in its file's order (Claude Code lines that repeat
  // an earlier line word for word left out by the caller).
  void logged_line(const NativeInfo& n, uint64_t seq);

  // Where the wire first carried what the log says was sent: a user text
  // by the SHA-256 of its exact text, a tool result by its call's id; and
  // the first response that streamed a tool call (Codex).
  struct FirstSent {
    std::function<std::optional<uint64_t>(const Digest& text)> prompt;
    std::function<std::optional<uint64_t>(const Identity& call)> result;
    std::function<std::optional<uint64_t>(const Identity& call)> call;
  };
  void finish(Context& ctx, const FirstSent& first_sent);

 private:
  enum class ItemKind : uint8_t { answer, call, prompt, result };
  struct Item {
    uint64_t seq = 0;  // the native record's
    ItemKind kind = ItemKind::answer;
    Digest key{};  // message id, text or call id
    bool after_own_call = false;  // Codex: a result logged after its own call
  };
  // The response seq of an answer or call item, when the wire carried it.
  std::optional<uint64_t> answered_at(const Item& item, const FirstSent& first_sent) const;
  bool full() const {
    return items_ >= kMaxTracked || wire_answers_.size() >= kMaxTracked || sidechain_roots_.size() >= kMaxTracked;
  }
  // The thread a line is ordered in: its file's main chain, or a subagent's.
  Identity thread_of(const NativeInfo& n);
  void judge_thread(const std::vector<Item>& items, const FirstSent& first_sent);

  absl::flat_hash_map<Identity, uint64_t> wire_answers_;  // message id -> first response seq
  absl::flat_hash_set<Identity> answers_logged_;          // message ids whose first line is an item
  absl::flat_hash_map<Identity, std::vector<Item>> threads_;  // thread -> its items, in log order
  absl::flat_hash_map<Identity, Identity> sidechain_roots_;   // a sidechain line's uuid -> its thread
  size_t items_ = 0;
  bool over_ = false;  // past kMaxTracked: not judged
  uint64_t first_unread_ = UINT64_MAX;  // the first request not read
  SeqList answers_out_of_order_, sent_after_answer_;
};

}  // namespace goalcup::cheat
