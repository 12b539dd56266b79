#include "cheatcheck/codex_context.h"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <optional>

#include "cheatcheck/said_text.h"
#include "core/json_strict.h"
#include "core/sha256.h"

namespace goalcup::cheat {
namespace codex_context_detail {

// Bounds for a crafted upload: a session logs a turn_context per turn and
// its instructions once; its requests repeat the same few context messages.
constexpr size_t kMaxTurns = 1u << 16;
constexpr size_t kMaxInstructions = 16;
constexpr size_t kMaxLoggedBytes = 4u << 20;
constexpr size_t kMaxTexts = 4096;
constexpr size_t kMaxTextBytes = 16u << 20;
constexpr size_t kMaxValue = 4096;  // a tag's value, a policy's name
constexpr size_t kMaxBlocks = 8;    // context blocks read in one text
// User-instructions blocks kept: requests repeat one (each distinct text is
// read once), and each logged text is compared with every one.
constexpr size_t kMaxSentBlocks = 32;

// The sandbox modes as Codex names them to the model.
constexpr uint8_t kReadOnly = 1, kWorkspaceWrite = 2, kDangerFullAccess = 4;

uint8_t sandbox_bit(std::string_view mode) {
  if (mode == "read-only") return kReadOnly;
  if (mode == "workspace-write") return kWorkspaceWrite;
  if (mode == "danger-full-access") return kDangerFullAccess;
  return 0;
}

// The approval policies whose names a turn_context and the model's
// messages share; Codex words `untrusted` as `unless-trusted` to the model.
std::string approval_name(std::string_view value) {
  if (value == "unless-trusted") value = "untrusted";
  for (std::string_view known : {"never", "on-request", "on-failure", "untrusted"}) {
    if (value == known) return std::string(known);
  }
  return {};
}

// The text between `open` and `close` from `at`, or nullopt.
std::optional<std::string_view> between(std::string_view text, std::string_view open, std::string_view close, size_t* at) {
  const size_t begin = text.find(open, *at);
  if (begin == std::string_view::npos) return std::nullopt;
  const size_t from = begin + open.size();
  const size_t end = text.find(close, from);
  if (end == std::string_view::npos) return std::nullopt;
  *at = end + close.size();
  return text.substr(from, end - from);
}

std::optional<std::string_view> tag_value(std::string_view block, std::string_view name) {
  size_t at = 0;
  const std::string open = "<" + std::string(name) + ">", close = "</" + std::string(name) + ">";
  auto v = between(block, open, close, &at);
  if (!v || v->size() > kMaxValue) return std::nullopt;
  const size_t begin = v->find_first_not_of(" \t\r\n");
  if (begin == std::string_view::npos) return std::string_view();
  return v->substr(begin, v->find_last_not_of(" \t\r\n") - begin + 1);
}

// The word after `lead` up to a backtick, a full stop or white space,
// without an opening backtick: "`approval_policy` is `never`",
// "Approval policy is currently never.".
std::optional<std::string_view> word_after(std::string_view block, std::string_view lead) {
  const size_t found = block.find(lead);
  if (found == std::string_view::npos) return std::nullopt;
  std::string_view rest = block.substr(found + lead.size(), kMaxValue);
  if (rest.starts_with('`')) rest.remove_prefix(1);
  return rest.substr(0, std::min(rest.size(), rest.find_first_of("`. \t\r\n")));
}

// A working directory as compared: Codex's later releases render the
// environment's cwd in the API's path convention (forward slashes, or a
// file:// URI where none applies) while turn_context logs the path as the
// OS spells it; a drive letter's case and a trailing slash say nothing.
std::string cwd_key(std::string_view cwd) {
  if (cwd.starts_with("file://")) cwd.remove_prefix(7);
  std::string key(cwd);
  std::replace(key.begin(), key.end(), '\\', '/');
  while (key.size() > 1 && key.back() == '/') key.pop_back();
  const bool drive = key.size() >= 2 && key[1] == ':' && std::isalpha(static_cast<unsigned char>(key[0]));
  const bool uri_drive = key.size() >= 3 && key[0] == '/' && key[2] == ':' && std::isalpha(static_cast<unsigned char>(key[1]));
  if (uri_drive) key.erase(0, 1);
  if (drive || uri_drive) std::transform(key.begin(), key.end(), key.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return key;
}

// How a turn_context's policy value is spelled. Codex serializes
// approval_policy (AskForApproval) and sandbox_policy (SandboxPolicy, tagged
// `mode` in 0.58, `type` later) from its own enums with serde's kebab-case
// in every release: a value outside them in Codex's spelling may be a
// release this reader does not know; one outside that spelling (OnRequest,
// read_only, a number, a policy without its tag) no release writes, in any
// turn, first or resumed (review 20b #06).
enum class Spelling { known, unfamiliar, impossible };

bool kebab_case(std::string_view value) {
  if (value.empty() || value.size() > kMaxValue || value.front() == '-' || value.back() == '-') return false;
  for (size_t i = 0; i < value.size(); ++i) {
    const char c = value[i];
    const bool word = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
    if (!word && (c != '-' || value[i - 1] == '-')) return false;
  }
  return true;
}

Spelling spelled(std::string_view value, std::initializer_list<std::string_view> known) {
  if (std::find(known.begin(), known.end(), value) != known.end()) return Spelling::known;
  return kebab_case(value) ? Spelling::unfamiliar : Spelling::impossible;
}

// AskForApproval: a name, or a variant with fields as an object of one
// member named for it ({"reject": {...}} in 0.9x releases, {"granular":
// {...}} later).
Spelling approval_spelling(simdjson::dom::element value) {
  std::string_view name;
  if (!value.get(name)) return spelled(name, {"untrusted", "on-failure", "on-request", "never"});
  simdjson::dom::object o;
  if (value.get(o) || o.size() != 1) return Spelling::impossible;
  const auto field = *o.begin();
  if (!field.value.is_object()) return Spelling::impossible;
  return spelled(field.key, {"reject", "granular"});
}

// SandboxPolicy: an object tagged `mode` or `type` (both: each held).
Spelling sandbox_spelling(simdjson::dom::element value) {
  simdjson::dom::object o;
  if (value.get(o)) return Spelling::impossible;
  Spelling worst = Spelling::known;
  bool tagged = false;
  for (std::string_view tag : {"mode", "type"}) {
    std::string_view name;
    const json::Get got = json::string(o, tag, &name);
    if (got == json::Get::absent) continue;
    tagged = true;
    const Spelling s = got == json::Get::ok
                           ? spelled(name, {"read-only", "workspace-write", "danger-full-access", "external-sandbox"})
                           : Spelling::impossible;
    worst = std::max(worst, s);
  }
  return tagged ? worst : Spelling::impossible;
}

// The opening and closing of the blocks Codex sends user instructions in:
// "<user_instructions>\n\n{text}\n\n</user_instructions>" (its first
// releases; "{text}</user_instructions>" in others), and "# AGENTS.md
// instructions for {dir}\n\n<INSTRUCTIONS>\n{text}\n</INSTRUCTIONS>"
// (later ones; a newer one may name no directory).
struct BlockForm {
  std::string_view lead, open, close;
};
constexpr BlockForm kBlockForms[] = {{"<user_instructions>", "<user_instructions>", "</user_instructions>"},
                                     {"# AGENTS.md instructions", "<INSTRUCTIONS>", "</INSTRUCTIONS>"}};

// What Codex writes before an AGENTS.md block's text when the file changed
// during the session (seen in 0.171's requests).
constexpr std::string_view kReplacementNotice =
    "These AGENTS.md instructions replace all previously provided AGENTS.md instructions.";

size_t skip_space(std::string_view text, size_t at) {
  while (at < text.size() && (text[at] == ' ' || text[at] == '\t' || text[at] == '\r' || text[at] == '\n')) ++at;
  return at;
}

// True when `content` (a block's text after its opening tag) is `logged`
// (trimmed) between white space, then the closing tag: the block's content
// is the text, its ends' white space and its line endings (CRLF or LF)
// apart. Linear in the sizes.
bool block_is(std::string_view content, std::string_view logged, std::string_view close) {
  size_t at = skip_space(content, 0);
  for (size_t i = 0; i < logged.size(); ++i, ++at) {
    char want = logged[i];
    if (want == '\r' && i + 1 < logged.size() && logged[i + 1] == '\n') want = logged[++i];
    if (at + 1 < content.size() && content[at] == '\r' && content[at + 1] == '\n') ++at;
    if (at >= content.size() || content[at] != want) return false;
  }
  return content.substr(skip_space(content, at)).starts_with(close);
}

}  // namespace codex_context_detail

namespace ccd = codex_context_detail;

void CodexContext::logged(const NativeInfo& n, simdjson::dom::element line, uint64_t seq) {
  if (n.harness != NativeInfo::Harness::codex) return;
  simdjson::dom::object o, payload;
  if (line.get(o)) return;
  const bool wrapped = json::object(o, "payload", &payload) == json::Get::ok;
  if (!wrapped) payload = o;  // the legacy first line {id, timestamp, instructions}
  std::string_view text;
  if ((n.type == "session_meta" || n.type == "session") && json::string(payload, "instructions", &text) == json::Get::ok) {
    return logged_instructions(text, false, seq);
  }
  simdjson::dom::object state, agents_md;
  if (n.type == "world_state" && wrapped && json::object(payload, "state", &state) == json::Get::ok &&
      json::object(state, "agents_md", &agents_md) == json::Get::ok && json::string(agents_md, "text", &text) == json::Get::ok) {
    return logged_instructions(text, true, seq);
  }
  if (n.type != "turn_context" || !wrapped) return;
  if (turns_.size() >= ccd::kMaxTurns) return unkept_.add(seq);
  LoggedTurn turn{seq, {}, 0, 0, {}};
  if (json::string(payload, "approval_policy", &text) == json::Get::ok) turn.approval = ccd::approval_name(text);
  // Each policy's spelling, against every release's enums (a null or
  // absent value says nothing).
  for (const auto& [member, spelling] : {std::pair{"approval_policy", &ccd::approval_spelling},
                                         std::pair{"sandbox_policy", &ccd::sandbox_spelling}}) {
    simdjson::dom::element value;
    if (payload.at_key(member).get(value) || value.is_null()) continue;
    const ccd::Spelling s = spelling(value);
    turn.impossible |= s == ccd::Spelling::impossible;
    turn.unfamiliar |= s == ccd::Spelling::unfamiliar;
  }
  if (json::string(payload, "cwd", &text) == json::Get::ok && text.size() <= ccd::kMaxValue) turn.cwd = ccd::cwd_key(text);
  simdjson::dom::object sandbox, profile;
  if (json::object(payload, "sandbox_policy", &sandbox) == json::Get::ok) {
    // An external sandbox is no sandbox of Codex's: it tells the model
    // danger-full-access.
    auto bit = [](std::string_view mode) { return mode == "external-sandbox" ? ccd::kDangerFullAccess : ccd::sandbox_bit(mode); };
    // Releases tag the policy `mode` (0.58) or `type` (later), never both:
    // a line with both holds each to what was stated (review 20b #05).
    std::string_view type, mode;
    const bool typed = json::string(sandbox, "type", &type) == json::Get::ok;
    const bool moded = json::string(sandbox, "mode", &mode) == json::Get::ok;
    if (typed || moded) turn.sandboxes = bit(typed ? type : mode);
    if (typed && moded && mode != type) turn.other_sandbox = bit(mode);
  }
  // Releases that log a permission profile word the sandbox from it (a
  // managed profile's roots decide the mode): not judged from the policy.
  if (json::object(payload, "permission_profile", &profile) == json::Get::ok &&
      !(json::string(profile, "type", &text) == json::Get::ok && (text == "disabled" || text == "external"))) {
    turn.sandboxes = turn.other_sandbox = 0;
  }
  turns_.push_back(std::move(turn));
}

void CodexContext::logged_instructions(std::string_view text, bool world_state, uint64_t seq) {
  const std::string_view said = trimmed_text(text);
  if (said.empty()) return;
  const bool known = std::any_of(instructions_.begin(), instructions_.end(), [&](const LoggedInstructions& l) {
    return l.text == said && l.world_state == world_state;
  });
  if (known) return;
  if (instructions_.size() >= ccd::kMaxInstructions || logged_bytes_ + said.size() > ccd::kMaxLoggedBytes) return unkept_.add(seq);
  logged_bytes_ += said.size();
  instructions_.push_back({seq, std::string(said), world_state});
}

void CodexContext::environment_block(std::string_view block) {
  // Every environment's (a session of several environments lists each).
  size_t at = 0;
  for (size_t i = 0; i < ccd::kMaxBlocks; ++i) {
    auto cwd = ccd::between(block, "<cwd>", "</cwd>", &at);
    if (!cwd) break;
    const std::string_view path = trimmed_text(*cwd);
    if (path.empty() || path.size() > ccd::kMaxValue) continue;
    if (stated_.cwds.size() < ccd::kMaxTexts) stated_.cwds.insert(ccd::cwd_key(path));
    else stated_.cwd_unknown = true;
  }
  if (auto approval = ccd::tag_value(block, "approval_policy")) {
    const std::string name = ccd::approval_name(*approval);
    if (name.empty()) stated_.approval_unknown = true;
    else stated_.approvals.insert(name);
  }
  if (auto mode = ccd::tag_value(block, "sandbox_mode")) {
    const uint8_t bit = ccd::sandbox_bit(*mode);
    if (bit == 0) stated_.sandbox_unknown = true;
    stated_.sandboxes |= bit;
  }
}

// A permissions message always states both: one this reader cannot read
// leaves that policy unjudged for the run.
void CodexContext::permissions_block(std::string_view block) {
  const auto mode = ccd::word_after(block, "`sandbox_mode` is ");
  const uint8_t bit = mode ? ccd::sandbox_bit(*mode) : 0;
  if (bit == 0) stated_.sandbox_unknown = true;
  stated_.sandboxes |= bit;
  std::optional<std::string_view> approval = ccd::word_after(block, "`approval_policy` is ");
  if (!approval) approval = ccd::word_after(block, "Approval policy is currently ");
  std::string name = approval ? ccd::approval_name(*approval) : std::string();
  // Releases that word on-request as escalation rules name no policy.
  if (!approval && !holds(block, "Approval policy is") && holds(block, "# Escalation Requests")) name = "on-request";
  if (name.empty()) stated_.approval_unknown = true;
  else stated_.approvals.insert(std::move(name));
}

void CodexContext::sent_text(std::string_view text, bool stored_redacted) {
  const std::string_view said = trimmed_text(text);
  if (said.empty()) return;
  // Requests repeat their history: each distinct text is read once.
  const Digest d = sha256(said);
  if (text_digests_.contains(d)) return;
  // A value the recorder redacted says nothing this reader can compare.
  if (stored_redacted && has_redaction(said)) stated_.approval_unknown = stated_.sandbox_unknown = stated_.cwd_unknown = true;
  size_t at = 0;
  for (size_t i = 0; i < ccd::kMaxBlocks; ++i) {
    auto block = ccd::between(said, "<environment_context>", "</environment_context>", &at);
    if (!block) break;
    environment_block(*block);
  }
  at = 0;
  for (size_t i = 0; i < ccd::kMaxBlocks; ++i) {
    auto block = ccd::between(said, "<permissions instructions>", "</permissions instructions>", &at);
    if (!block) break;
    permissions_block(*block);
  }
  texts_redacted_ |= stored_redacted && has_redaction(said);
  if (texts_.size() >= ccd::kMaxTexts || text_bytes_ + said.size() > ccd::kMaxTextBytes) {
    texts_unkept_ = true;
    blocks_unkept_ |= std::any_of(std::begin(ccd::kBlockForms), std::end(ccd::kBlockForms),
                                  [&](const ccd::BlockForm& f) { return holds(said, f.lead); });
    return;
  }
  text_bytes_ += said.size();
  text_digests_.insert(d);
  texts_.emplace_back(said);
  instruction_blocks(texts_.size() - 1, requests_ == 0);
}

// The user-instructions blocks a sent text holds (where each one's content
// begins), up to kMaxBlocks of each form.
void CodexContext::instruction_blocks(size_t text, bool first_request) {
  const std::string_view said = texts_[text];
  for (const ccd::BlockForm& form : ccd::kBlockForms) {
    size_t at = 0;
    for (size_t i = 0; i < ccd::kMaxBlocks; ++i) {
      const size_t lead = said.find(form.lead, at);
      if (lead == std::string_view::npos) break;
      const size_t open = said.find(form.open, lead);
      if (open == std::string_view::npos) break;
      at = open + form.open.size();
      if (blocks_.size() >= ccd::kMaxSentBlocks) {
        blocks_unkept_ = true;
        return;
      }
      blocks_.push_back({text, at, form.close, first_request});
    }
  }
}

bool CodexContext::carried_in_block(const std::string& logged, bool first_request_only) const {
  return std::any_of(blocks_.begin(), blocks_.end(), [&](const SentBlock& b) {
    return (b.first_request || !first_request_only) &&
           ccd::block_is(std::string_view(texts_[b.text]).substr(b.content), logged, b.close);
  });
}

// A world_state's AGENTS.md text is a sent block's content whole, or after
// Codex's notice that it replaces the earlier instructions. A block whose
// content ends with the text after another first paragraph may be a
// release's other wording of that notice: not judged.
CodexContext::BlockMatch CodexContext::world_state_block(const std::string& logged) const {
  BlockMatch best = BlockMatch::none;
  for (const SentBlock& b : blocks_) {
    const std::string_view content = std::string_view(texts_[b.text]).substr(b.content);
    if (ccd::block_is(content, logged, b.close)) return BlockMatch::whole;
    const size_t head = ccd::skip_space(content, 0);
    const size_t paragraph_end = content.find("\n\n", head);
    if (paragraph_end == std::string_view::npos || paragraph_end - head > ccd::kMaxValue) continue;
    const std::string_view rest = content.substr(paragraph_end);
    if (!ccd::block_is(rest, logged, b.close)) continue;
    if (content.substr(head, paragraph_end - head) == ccd::kReplacementNotice) return BlockMatch::whole;
    best = BlockMatch::after_other_notice;
  }
  return best;
}

void CodexContext::sent(simdjson::dom::object request, bool stored_redacted) {
  sent_messages(request, stored_redacted);
  if (requests_++ == 0) first_ = stated_;
}

void CodexContext::sent_messages(simdjson::dom::object request, bool stored_redacted) {
  std::string_view text;
  if (json::string(request, "instructions", &text) == json::Get::ok) sent_text(text, stored_redacted);
  for (std::string_view list : {"input", "messages"}) {
    simdjson::dom::array items;
    if (json::array(request, list, &items) != json::Get::ok) continue;
    for (auto item : items) {
      simdjson::dom::object m;
      std::string_view role;
      if (item.get(m) || json::string(m, "role", &role) != json::Get::ok ||
          (role != "user" && role != "developer" && role != "system")) {
        continue;
      }
      if (json::string(m, "content", &text) == json::Get::ok) {
        sent_text(text, stored_redacted);
        continue;
      }
      simdjson::dom::array parts;
      if (json::array(m, "content", &parts) != json::Get::ok) continue;
      for (auto part : parts) {
        simdjson::dom::object p;
        if (!part.get(p) && json::string(p, "text", &text) == json::Get::ok) sent_text(text, stored_redacted);
      }
    }
  }
}

bool CodexContext::Stated::policy_unstated(const LoggedTurn& t) const {
  const bool approval = !t.approval.empty() && !approval_unknown && !approvals.empty() && !approvals.contains(t.approval);
  const auto unstated = [&](uint8_t logged) { return logged != 0 && !sandbox_unknown && sandboxes != 0 && (logged & sandboxes) == 0; };
  const bool sandbox = unstated(t.sandboxes) || unstated(t.other_sandbox);
  return approval || sandbox;
}

bool CodexContext::Stated::cwd_unstated(const LoggedTurn& t) const {
  return !t.cwd.empty() && !cwd_unknown && !cwds.empty() && !cwds.contains(t.cwd);
}

CodexContext::Judgement CodexContext::judge(uint64_t requests_read, bool requests_unread, bool resumed) const {
  Judgement j;
  // A spelling is judged whatever the requests said.
  for (const LoggedTurn& t : turns_) {
    if (t.impossible) j.policy_impossible.add(t.seq);
    else if (t.unfamiliar) j.policy_unfamiliar.add(t.seq);
  }
  if (requests_read == 0) return j;
  for (size_t i = 0; i < turns_.size(); ++i) {
    const LoggedTurn& t = turns_[i];
    const bool held_first = i == 0 && !resumed && !requests_unread;
    if (held_first && first_.policy_unstated(t)) {
      if (j.policy_example.empty()) {
        j.policy_example = !t.approval.empty() && !first_.approvals.contains(t.approval) ? "approval_policy " + t.approval
                                                                                         : "a sandbox_policy";
      }
      j.policy_unsent.add(t.seq);
    } else if (stated_.policy_unstated(t)) {
      (requests_unread ? j.uncompared : j.policy_unstated).add(t.seq);
    }
    if (held_first && first_.cwd_unstated(t)) j.cwd_unsent.add(t.seq);
    else if (stated_.cwd_unstated(t)) (requests_unread ? j.uncompared : j.cwd_unstated).add(t.seq);
  }
  // A fresh session's first request carries its user instructions whole in
  // their block (review 20b #04): where it holds one, the first text logged
  // (the session's, as the first turn is) must be one's content, not a part
  // of some text sent.
  const bool first_blocks = !resumed && !requests_unread &&
                            std::any_of(blocks_.begin(), blocks_.end(), [](const SentBlock& b) { return b.first_request; });
  const auto first_meta = std::find_if(instructions_.begin(), instructions_.end(),
                                       [](const LoggedInstructions& l) { return !l.world_state; });
  for (const LoggedInstructions& l : instructions_) {
    if (l.world_state) {
      const BlockMatch m = world_state_block(l.text);
      if (m == BlockMatch::whole) continue;
      const bool unjudged = m == BlockMatch::after_other_notice || requests_unread || texts_unkept_ || texts_redacted_ ||
                            blocks_unkept_;
      (unjudged ? j.uncompared : j.agents_md_differ).add(l.seq);
      continue;
    }
    if (first_blocks && &l == &*first_meta) {
      if (carried_in_block(l.text, true)) continue;
      (texts_redacted_ || blocks_unkept_ ? j.uncompared : j.instructions_differ).add(l.seq);
      continue;
    }
    if (carried_in_block(l.text, false)) continue;
    const bool carried = std::any_of(texts_.begin(), texts_.end(), [&](const std::string& s) { return holds(s, l.text); });
    if (carried) continue;
    (requests_unread || texts_unkept_ || texts_redacted_ ? j.uncompared : j.instructions_unsent).add(l.seq);
  }
  j.uncompared.merge(unkept_);
  return j;
}

}  // namespace goalcup::cheat
