// Text for a 100-column terminal, shared by the text views: word wrapping,
// hard wrapping of lines that have no spaces (JSON, SSE data), and fitting a
// field to a column width without cutting a UTF-8 character.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace goalcup::inspect {

inline constexpr size_t kWidth = 100;  // docs/INSPECT.md: text fits 100 columns

// Columns `s` takes: one per code point (a good guess for text and JSON).
size_t columns(std::string_view s);
// `s` cut to at most `cols` columns, with "~" as the last column when cut.
std::string fit_columns(std::string_view s, size_t cols);
// Word-wraps `text`, made safe (cli/safe_text.h), to kWidth columns, each
// line prefixed with `indent`.
std::string wrap(std::string_view text, const std::string& indent);
// Every line of `text` longer than kWidth cut into pieces; the pieces after
// the first are indented like the line plus two columns.
std::string hard_wrap(std::string_view text);

}  // namespace goalcup::inspect
