// `conversation`: the run as a conversation, reassembled from the wire. Each
// exchange is printed as soon as its response arrives, so memory holds only
// the requests still waiting for their answer.
#pragma once

#include <functional>
#include <map>
#include <string>
#include <vector>

#include "cheatcheck/secrets/mask.h"
#include "cli/format.h"
#include "cli/term.h"
#include "core/sse.h"
#include "core/walk.h"
#include "inspect/exchange.h"
#include "inspect/verdict_view.h"

namespace goalcup::inspect {

struct Exchange {
  uint64_t number = 0;  // 1-based, in response order
  RequestInfo request;
  bool has_request = false;
  uint64_t response_seq = 0;
  Timestamp request_t, response_t;
  RebuiltAnswer answer;
  // The recorder got the whole response (`complete` of its record): a cut
  // one (the stream broke, or the size cap) shows what arrived, marked cut.
  bool complete = true;
};

// Pairs requests and responses by (conn, exchange) and calls `on_exchange`.
class ConversationVisitor final : public RecordVisitor {
 public:
  ConversationVisitor(std::function<void(const Exchange&)> on_exchange, size_t max_input_text, const Limits& limits)
      : on_exchange_(std::move(on_exchange)), max_text_(max_input_text), parsers_(limits) {}
  bool on_record(const Record& r, const Line& line, const Digest& hash) override;

 private:
  std::function<void(const Exchange&)> on_exchange_;
  size_t max_text_;
  std::map<std::pair<uint64_t, uint64_t>, std::pair<RequestInfo, Timestamp>> pending_;
  uint64_t pending_bytes_ = 0;  // input text held by pending_ (kMaxPendingBytes)
  uint64_t count_ = 0;
  BodyParsers parsers_;
  // What the wire carried so far, to show a request's history where it
  // departs from it; the system prompts shown (hash -> exchange), the last
  // one; the prompts the model wrote in tool calls (a Task subagent's).
  TurnMemory memory_;
  std::map<uint64_t, uint64_t> systems_;
  uint64_t last_system_ = 0;
  std::map<uint64_t, std::pair<uint64_t, std::string>> prompts_;
  void note_system(Exchange& e);
  void note_prompts(const Exchange& e);
};

// Writes the conversation of `path` to stdout (text, markdown or json) after the verdict of the
// verify pass already made (`verdict`); returns the report of this pass.
// With `masker`, every credential shows as its masked preview.
VerifyReport print_conversation(const std::string& path, const WalkOptions& options, Format format,
                                const Style& style, const VerdictView& verdict,
                                cheat::CredentialMasker* masker = nullptr);

// Masks each credential in the texts of `e` (inputs, answer, tool calls).
void mask_exchange(Exchange& e, cheat::CredentialMasker& masker);

// Shared by the views: an answer's blocks in stream order (text and calls
// when it has no blocks), a call's input as shown ({} when none streamed),
// and who sent an input (User, Developer, System).
std::vector<RebuiltBlock> answer_blocks(const RebuiltAnswer& a);
std::string shown_input(const RebuiltToolCall& c);
std::string input_label(const NewInput& in);
// Why a turn of the history is shown ("" for new input): fixed words.
std::string history_note(const NewInput& in);
// The system prompt line ("" when not shown) and the subagent line ("" when
// not a subagent's request), in fixed words.
std::string system_note(const RequestInfo& q);
std::string subagent_note(const RequestInfo& q);
// A compaction block: the summary the model sees from here on in place of
// the history before it.
bool is_compaction(const RebuiltBlock& b);
// The view's name of a block kind: text, tool_call, thinking...
const char* block_name(RebuiltBlock::Kind k);
// Trace text as a Markdown code span that it cannot close ("`-`" when empty).
std::string code_span(std::string_view raw);

// An exchange is marked by its response: attested when a statement covers
// the response, after the break when the response comes at or after it.
RecordMarks exchange_marks(const Exchange& e, const VerdictView& verdict);

// `verdict`, when given, marks an exchange that is not attested or comes
// after the break in the chain.
std::string format_exchange_text(const Exchange& e, const Style& st, const VerdictView* verdict = nullptr);
std::string format_exchange_markdown(const Exchange& e, const VerdictView* verdict = nullptr);
std::string format_exchange_json(const Exchange& e, const VerdictView* verdict = nullptr);

}  // namespace goalcup::inspect
