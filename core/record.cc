#include "core/record.h"

#include <array>
#include <cstring>

namespace goalcup {
namespace {

constexpr std::array<std::string_view, 11> kKindNames = {
    "header", "start_receipt", "launch", "wire", "tunnel", "native",
    "gap",    "ack",           "exit",   "seal", "seal_ack"};

constexpr std::array<std::string_view, 5> kEnvelope = {"seq", "t", "kind", "prev", "body"};

Error bad(Code code, uint64_t index, std::string message) {
  return Error{code, static_cast<int64_t>(index), std::move(message)};
}

// Problems a JSON parser would accept or misreport: they are about the line.
Status check_line_bytes(std::string_view line, uint64_t index) {
  if (line.empty()) return bad(Code::blank_line, index, "blank line");
  if (line.starts_with("\xEF\xBB\xBF")) return bad(Code::byte_order_mark, index, "line starts with a byte order mark");
  if (std::memchr(line.data(), '\r', line.size())) {
    return bad(Code::carriage_return, index, "line holds a CR byte (CRLF line ends?)");
  }
  return {};
}

}  // namespace

std::string_view kind_name(Kind k) {
  return k == Kind::unknown ? "unknown" : kKindNames[static_cast<size_t>(k)];
}

Kind parse_kind(std::string_view name) {
  for (size_t i = 0; i < kKindNames.size(); ++i) {
    if (kKindNames[i] == name) return static_cast<Kind>(i);
  }
  return Kind::unknown;
}

Result<Record> RecordParser::parse(std::string_view line, uint64_t index) {
  GOALCUP_RETURN_IF_ERROR(check_line_bytes(line, index));
  GOALCUP_ASSIGN_OR_RETURN(const simdjson::dom::element root, json_.parse_padded(line, static_cast<int64_t>(index)));
  simdjson::dom::object obj;
  if (root.get(obj)) return bad(Code::envelope_type, index, "record is not a JSON object");

  // Exactly the five members, in order.
  size_t i = 0;
  simdjson::dom::element values[5];
  for (auto field : obj) {
    if (i >= kEnvelope.size() || field.key != kEnvelope[i]) {
      return bad(Code::envelope_members, index,
                 "envelope member " + std::to_string(i) + " is \"" + std::string(field.key) +
                     "\", expected " + (i < kEnvelope.size() ? "\"" + std::string(kEnvelope[i]) + "\"" : "none"));
    }
    values[i++] = field.value;
  }
  if (i != kEnvelope.size()) {
    return bad(Code::envelope_members, index, "envelope lacks \"" + std::string(kEnvelope[i]) + "\"");
  }

  Record r;
  if (!json::is_integer(values[0]) || values[0].get(r.seq)) {
    return bad(Code::seq_not_integer, index, "seq is not a non-negative integer");
  }
  if (values[1].get(r.t_text)) return bad(Code::envelope_type, index, "t is not a string");
  auto t = parse_time(r.t_text);
  if (!t) return bad(Code::bad_time, index, "t is not an RFC 3339 UTC time: " + std::string(r.t_text.substr(0, 40)));
  r.t = *t;
  if (values[2].get(r.kind_text)) return bad(Code::envelope_type, index, "kind is not a string");
  r.kind = parse_kind(r.kind_text);
  std::string_view prev;
  if (values[3].get(prev)) return bad(Code::envelope_type, index, "prev is not a string");
  auto digest = parse_digest_ref(prev);
  if (!digest) return bad(Code::bad_hex, index, "prev is not \"sha256:\" + 64 lowercase hex");
  r.prev = *digest;
  if (values[4].get(r.body)) return bad(Code::envelope_type, index, "body is not an object");
  return r;
}

}  // namespace goalcup
