// HTTP content codings (RFC 9110 8.4): a wire body is stored as it crossed
// the wire, so a response sent `content-encoding: gzip` or a request a
// harness compressed (Codex sends zstd) holds compressed bytes. Undone here,
// with a bound on what they inflate to, so that the checks and views read
// the text the model and the harness exchanged.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace goalcup {

enum class ContentDecoding {
  ok,         // `out` holds the content
  unknown,    // a coding this reader does not know (named in `coding`)
  corrupt,    // the bytes do not decode under the coding named
  too_large,  // the content would pass the bound (a bomb, or a body past any API's size)
  too_many,   // more codings than kMaxContentCodings (`coding` says how many); none undone
};

// Codings one body may stack. RFC 9110 sets no limit, but servers apply one
// (a proxy that compresses again makes two); curl refuses five or more since
// CVE-2022-32206. Past this the body is not inflated at all.
constexpr size_t kMaxContentCodings = 4;

struct DecodedContent {
  ContentDecoding status = ContentDecoding::ok;
  std::string coding;  // for unknown and corrupt: the coding that failed
  std::string out;
};

// Undoes `codings`, a content-encoding header value ("gzip", "br",
// "deflate, gzip": applied in that order, so undone last first). `identity`
// and empty names change nothing. At most `max_bytes` of content: past it
// the status is too_large and `out` holds a prefix of the content. The
// bound is shared: every layer's output, inner ones included, is charged to
// it, so stacked codings cost no more work than one.
DecodedContent decode_content(std::string_view bytes, std::string_view codings, size_t max_bytes);

}  // namespace goalcup
