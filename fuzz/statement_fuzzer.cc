// The statement decoder: signed body, base64, PAE, signature, payload.
#include <cstdint>
#include <string>

#include "core/lines.h"
#include "core/record.h"
#include "core/statement.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace goalcup;
  static StrictJsonParser body_parser{Limits{}};
  static StrictJsonParser payload_parser{Limits{}};
  const std::string_view in(reinterpret_cast<const char*>(data), size);
  // As a payload directly.
  (void)parse_statement(in, payload_parser, 0);
  // As a signed body.
  auto root = body_parser.parse_copy(in, 0);
  simdjson::dom::object body;
  if (!root || root->get(body)) return 0;
  auto env = decode_envelope(body, 0);
  if (!env) return 0;
  (void)find_signers(Keyring::production(), *env);
  (void)parse_statement(env->payload, payload_parser, 0);
  return 0;
}
