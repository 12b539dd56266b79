#include "cheatcheck/codex_events.h"

#include <array>

namespace goalcup::cheat {
namespace codex_events {

// The digits at `at` (at most 19), and where they end; nullopt for none.
std::optional<uint64_t> digits_at(std::string_view text, size_t& at) {
  uint64_t n = 0;
  size_t count = 0;
  for (; at < text.size() && count < 19 && text[at] >= '0' && text[at] <= '9'; ++at, ++count) n = n * 10 + (text[at] - '0');
  if (count == 0) return std::nullopt;
  return n;
}

bool omitted_lines_at(std::string_view text, size_t at) {
  if (!digits_at(text, at) || !text.substr(at).starts_with(" of ")) return false;
  at += 4;
  return digits_at(text, at) && text.substr(at).starts_with(" lines ...]");
}

bool truncated_count_at(std::string_view text, size_t at) {
  if (!digits_at(text, at)) return false;
  constexpr std::array<std::string_view, 3> kUnits = {" tokens truncated\xE2\x80\xA6", " chars truncated\xE2\x80\xA6",
                                                      " bytes truncated\xE2\x80\xA6"};
  const std::string_view rest = text.substr(at);
  for (std::string_view unit : kUnits) {
    if (rest.starts_with(unit)) return true;
  }
  return false;
}

}  // namespace codex_events

bool holds_codex_cut_marker(std::string_view text) {
  constexpr std::string_view kOmitted = "[... omitted ", kEllipsis = "\xE2\x80\xA6";
  for (size_t at = text.find(kOmitted); at != std::string_view::npos; at = text.find(kOmitted, at + 1)) {
    if (codex_events::omitted_lines_at(text, at + kOmitted.size())) return true;
  }
  for (size_t at = text.find(kEllipsis); at != std::string_view::npos; at = text.find(kEllipsis, at + 1)) {
    if (codex_events::truncated_count_at(text, at + kEllipsis.size())) return true;
  }
  return false;
}

std::optional<uint64_t> running_session_of(std::string_view output) {
  constexpr std::string_view kLead = "Process running with session ID ";
  // Only in the header above "Output:", not in what the process printed.
  const std::string_view header = output.substr(0, output.find("Output:\n"));
  size_t at = header.find(kLead);
  if (at == std::string_view::npos) return std::nullopt;
  at += kLead.size();
  return codex_events::digits_at(header, at);
}

std::optional<uint64_t> polled_session_of(std::string_view arguments) {
  constexpr std::string_view kKey = "\"session_id\"";
  size_t at = arguments.find(kKey);
  if (at == std::string_view::npos) return std::nullopt;
  at += kKey.size();
  while (at < arguments.size() && (arguments[at] == ' ' || arguments[at] == ':')) ++at;
  return codex_events::digits_at(arguments, at);
}

}  // namespace goalcup::cheat
