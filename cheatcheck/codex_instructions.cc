#include "cheatcheck/codex_instructions.h"

#include <algorithm>
#include <cstring>

#include "cheatcheck/said_text.h"
#include "core/json_strict.h"
#include "core/sha256.h"

namespace goalcup::cheat {
namespace instructions_held {

// Bounds for a crafted upload: the instructions of a Codex session are some
// tens of kilobytes, the same in every request.
constexpr size_t kMaxTexts = 64;
constexpr size_t kMaxBytes = 16u << 20;

}  // namespace instructions_held

std::string codex_base_instructions(simdjson::dom::object payload) {
  std::string_view text;
  if (json::string(payload, "base_instructions", &text) == json::Get::ok) return std::string(text);
  simdjson::dom::object base;
  if (json::object(payload, "base_instructions", &base) == json::Get::ok && json::string(base, "text", &text) == json::Get::ok) {
    return std::string(text);
  }
  return {};
}

void CodexInstructions::logged(const NativeInfo& n, uint64_t seq) {
  if (n.harness != NativeInfo::Harness::codex) return;
  if (n.assistant) {
    for (Logged& l : logged_) l.followed |= l.file == n.file;
  }
  if (n.instructions.empty()) return;
  // A session re-logs its instructions (turn_context, a resumed session's
  // copy): each text once per file.
  const bool known = std::any_of(logged_.begin(), logged_.end(), [&](const Logged& l) {
    return l.file == n.file && l.text == n.instructions;
  });
  if (known) return;
  if (logged_.size() >= instructions_held::kMaxTexts || kept_bytes_ + n.instructions.size() > instructions_held::kMaxBytes) {
    return unkept_.add(seq);
  }
  kept_bytes_ += n.instructions.size();
  logged_.push_back({seq, n.file, n.instructions, false});
}

void CodexInstructions::sent(simdjson::dom::object request, bool stored_redacted) {
  std::vector<std::string_view> texts;
  std::string_view text;
  if (json::string(request, "instructions", &text) == json::Get::ok) texts.push_back(text);
  simdjson::dom::array messages;
  if (json::array(request, "messages", &messages) == json::Get::ok) {
    for (auto m : messages) {
      simdjson::dom::object o;
      std::string_view role;
      if (!m.get(o) && json::string(o, "role", &role) == json::Get::ok && role == "system" &&
          json::string(o, "content", &text) == json::Get::ok) {
        texts.push_back(text);
      }
    }
  }
  for (std::string_view t : texts) {
    if (t.empty()) continue;
    sent_redacted_ |= stored_redacted && has_redaction(t);
    const Digest d = sha256(t);
    if (std::find(sent_digests_.begin(), sent_digests_.end(), d) != sent_digests_.end()) continue;
    if (sent_.size() >= instructions_held::kMaxTexts || kept_bytes_ + t.size() > instructions_held::kMaxBytes) {
      sent_unkept_ = true;
      continue;
    }
    kept_bytes_ += t.size();
    sent_digests_.push_back(d);
    sent_.emplace_back(t);
  }
}

// Codex sends its base instructions as they are, some releases with the
// apply_patch instructions after them: the logged text within a sent one.
// Loosely too (white space, Unicode normalization), as GC04 compares the
// other texts a log says were sent; the sent texts are made loose once.
CodexInstructions::Judgement CodexInstructions::judge(bool requests_unread) const {
  Judgement j;
  j.unkept = unkept_;
  // No request carried instructions at all (another API, none recorded):
  // nothing to hold them to.
  if (sent_.empty() && !sent_unkept_) return j;
  std::vector<std::string> sent_loose;
  for (const Logged& l : logged_) {
    if (!l.followed) continue;
    if (std::any_of(sent_.begin(), sent_.end(), [&](const std::string& s) { return holds(s, l.text); })) continue;
    if (sent_loose.empty()) {
      for (const std::string& s : sent_) sent_loose.push_back(loose_text(s));
    }
    const std::string loose = loose_text(l.text);
    if (std::any_of(sent_loose.begin(), sent_loose.end(), [&](const std::string& s) { return holds(s, loose); })) continue;
    if (sent_redacted_ || sent_unkept_ || requests_unread) j.uncompared.add(l.seq);
    else j.unsent.add(l.seq);
  }
  return j;
}

}  // namespace goalcup::cheat
