// The body of each kind: format checks on the members the format defines
// (types, lowercase hex, times, enumerations) and typed reads of the members
// the verifier relies on. Unknown members are allowed, as the format says.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/content_encoding.h"
#include "core/error.h"
#include "core/record.h"

namespace goalcup {

// The first format violation in the record's body, if any.
Status check_body(const Record& r);

struct HeaderInfo {
  std::string entry_id, run_id;
  std::string connector_id, connector_version, connector_digest;
  std::string participant, repo;
};
HeaderInfo read_header(const Record& r);  // absent members are empty

// A host the capture decrypts and the paths it keeps for it.
struct CaptureRule {
  std::string host;
  std::vector<std::string> paths;
};

struct LaunchInfo {
  std::string harness_id, harness_version, program_digest, image_digest;
  std::vector<CaptureRule> decrypt;
  std::vector<std::string> tunnel;
};
LaunchInfo read_launch(const Record& r);  // absent members are empty

struct SealInfo {
  std::string reason;
  uint64_t records = 0;
};
SealInfo read_seal(const Record& r);  // after check_body passed

// A wire record's `size` (bytes as received), 0 when absent.
uint64_t wire_size(const Record& r);

// A wire record's `body` member as the bytes sent or received: a body with
// `encoding` "base64" is decoded, any other is used as stored. A view that
// shows only a prefix passes `max_decoded`: at most that many bytes are
// decoded (and base64_ok speaks of them).
struct WireBody {
  bool present = false;    // `body` is a string
  bool base64 = false;     // stored as base64
  bool base64_ok = true;   // false when the base64 does not decode
  std::string_view stored;  // as stored in the record (lives as long as the record)
  std::string decoded;      // a base64 body's bytes
  // Decoded for base64 (empty when it does not decode), else as stored.
  std::string_view bytes() const { return base64 ? std::string_view(decoded) : stored; }

  // The HTTP content: bytes() with the message's content-encoding undone
  // (core/content_encoding.h). What the checks and views read; bytes() is
  // what `size`, `sha256` and `redactions` describe.
  std::string content_encoding;  // the header's value; empty: none
  ContentDecoding content_status = ContentDecoding::ok;
  std::string inflated;
  std::string_view content() const { return content_encoding.empty() ? bytes() : std::string_view(inflated); }
  bool content_readable() const { return base64_ok && content_status == ContentDecoding::ok; }
};
// A wire record's content-encoding header value ("" when none or
// "identity"). Several such headers are one list, in order (RFC 9110 5.3).
std::string content_encoding_of(simdjson::dom::object body);
// The content is inflated too (at most kMaxContentBytes, and at most
// `max_decoded`) when the record's headers name a content-encoding.
WireBody read_wire_body(simdjson::dom::object body, size_t max_decoded = SIZE_MAX);
// Providers take requests of 32 MB at most (Anthropic's and OpenAI's
// documented limits); past this a coded body is a bomb, read no further.
constexpr size_t kMaxContentBytes = 32u << 20;
// The same from a body already read out of its record (`stored` must outlive
// the result), with its content-encoding header's value.
WireBody wire_body(std::string_view stored, bool base64, size_t max_decoded = SIZE_MAX,
                   std::string content_encoding = {});

bool is_uuid_lower(std::string_view s);

}  // namespace goalcup
