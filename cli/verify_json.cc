#include "cli/verify_json.h"

namespace goalcup {

void write_verdict_fields(JsonWriter& w, const VerifyReport& r) {
  w.field("verdict", verdict_name(r.verdict));
  if (r.incomplete_reason == IncompleteReason::none) w.null_field("incomplete_reason");
  else w.field("incomplete_reason", incomplete_reason_name(r.incomplete_reason));
  w.field("key_source", key_source_name(r.key_source));
}

void write_warning_codes(JsonWriter& w, const VerifyReport& r) {
  w.key("warnings").begin_array();
  for (const WarningCode code : r.warnings) w.value(warning_name(code));
  w.end_array();
}

void write_error_json(JsonWriter& w, const Error& e) {
  w.begin_object().field("code", code_name(e.code)).field("seq", e.seq).field("message", e.message).end_object();
}

}  // namespace goalcup
