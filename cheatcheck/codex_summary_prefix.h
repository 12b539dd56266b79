// Codex's SUMMARY_PREFIX (codex-rs/core/templates/compact/summary_prefix.md)
// in each wording it has had. Since openai/codex#6692 (November 2025) a
// local compaction's `compacted` message is the prefix, a line end, then
// the summarising answer the model streamed; before, the answer alone.
// Header only: GC04 holds a `compacted` line to the answer past it, and
// the fixture writer streams only that answer for such a line.
#pragma once

#include <array>
#include <optional>
#include <string_view>

namespace goalcup::cheat {

inline constexpr std::array<std::string_view, 2> kCodexSummaryPrefixes = {
    "Another language model started to solve this problem and produced a summary of its thinking process. You also "
    "have access to the state of the tools that were used by that language model. Use this to build on the work that "
    "has already been done and avoid duplicating work. Here is the summary produced by the other language model, use "
    "the information in this summary to  assist with your own analysis:",
    "You are resuming an in-progress task after context compaction. Another language model produced a handoff "
    "summary. Treat the summary as authoritative for what is already done. Continue from the \"Next steps\" for the "
    "active task; do not re-open completed tasks or audit prior work unless the user explicitly asked. You also have "
    "access to the state of the tools that were used by that language model. Here is the summary:",
};

// `text` past `prefix` when it begins with it, a run of spaces in either
// standing for a run in the other (copies of the first wording differ in
// the spaces of "to  assist").
inline std::optional<std::string_view> past_codex_prefix(std::string_view text, std::string_view prefix) {
  size_t t = 0, p = 0;
  while (p < prefix.size()) {
    if (t >= text.size()) return std::nullopt;
    if (prefix[p] == ' ' && text[t] == ' ') {
      while (p < prefix.size() && prefix[p] == ' ') ++p;
      while (t < text.size() && text[t] == ' ') ++t;
      continue;
    }
    if (prefix[p++] != text[t++]) return std::nullopt;
  }
  return text.substr(t);
}

// What a Codex `compacted` message holds past Codex's prefix and the line
// end after it (the summarising answer, as Codex wrote it: white space
// around it aside, nothing else); nullopt when it has no such prefix.
inline std::optional<std::string_view> codex_summary_past_prefix(std::string_view message) {
  for (const std::string_view prefix : kCodexSummaryPrefixes) {
    const std::optional<std::string_view> rest = past_codex_prefix(message, prefix);
    if (rest && (rest->empty() || rest->front() == '\n' || rest->starts_with("\r\n"))) return rest;
  }
  return std::nullopt;
}

}  // namespace goalcup::cheat
