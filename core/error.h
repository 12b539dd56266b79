// Errors are values: a stable code, the record (seq) they concern, and a
// sentence for people. Codes never change meaning once released; the full
// list with explanations is docs/ERRORS.md (a test keeps the two in step).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <variant>

namespace goalcup {

// What an error means for the verdict.
enum class ErrorClass : uint8_t {
  invalid,     // the evidence is malformed or tampered: verdict "invalid"
  unreadable,  // the input could not be read as a trace: "could not judge"
  limit,       // a documented limit stopped the reading: "could not judge"
};

// X(name, class)
#define GOALCUP_ERROR_CODES(X)                 \
  /* reading the input */                      \
  X(usage, unreadable)                         \
  X(io_error, unreadable)                      \
  X(not_found, unreadable)                     \
  X(not_regular_file, unreadable)              \
  X(unsafe_path, unreadable)                   \
  X(no_trace_in_submission, unreadable)        \
  X(ambiguous_submission, unreadable)          \
  X(archive_error, unreadable)                 \
  X(zstd_error, unreadable)                    \
  X(zstd_truncated, unreadable)                \
  X(file_changed, unreadable)                  \
  X(internal_error, unreadable)                \
  X(unsupported_format, unreadable)            \
  /* documented limits (docs/LIMITS.md) */     \
  X(limit_line_bytes, limit)                   \
  X(limit_nesting, limit)                      \
  X(limit_records, limit)                      \
  X(limit_total_bytes, limit)                  \
  X(limit_zstd_window, limit)                  \
  X(limit_zstd_ratio, limit)                   \
  X(limit_archive_members, limit)              \
  X(limit_walk_depth, limit)                   \
  X(limit_time, limit)                         \
  X(limit_statements, limit)                   \
  X(limit_ack_window, limit)                   \
  X(limit_errors, limit)                       \
  /* line framing */                           \
  X(empty_trace, invalid)                      \
  X(missing_final_lf, invalid)                 \
  X(blank_line, invalid)                       \
  X(carriage_return, invalid)                  \
  X(byte_order_mark, invalid)                  \
  /* record syntax */                          \
  X(malformed_json, invalid)                   \
  X(invalid_utf8, invalid)                     \
  X(duplicate_member, invalid)                 \
  X(envelope_members, invalid)                 \
  X(envelope_type, invalid)                    \
  X(seq_not_integer, invalid)                  \
  X(bad_time, invalid)                         \
  X(bad_hex, invalid)                          \
  X(body_field, invalid)                       \
  /* chain and order */                        \
  X(seq_mismatch, invalid)                     \
  X(prev_mismatch, invalid)                    \
  X(kind_order, invalid)                       \
  X(duplicate_exit, invalid)                   \
  X(missing_exit, invalid)                     \
  X(after_seal_ack, invalid)                   \
  X(seal_records, invalid)                     \
  X(header_mismatch, invalid)                  \
  /* signed statements */                      \
  X(statement_encoding, invalid)               \
  X(statement_signature, invalid)              \
  X(statement_key_expired, invalid)            \
  X(statement_payload, invalid)                \
  X(statement_type, invalid)                   \
  X(statement_run, invalid)                    \
  X(statement_seq, invalid)                    \
  X(statement_head, invalid)                   \
  X(ack_order, invalid)                        \
  X(statement_time_order, invalid)             \
  X(fork, invalid)

enum class Code : uint8_t {
#define GOALCUP_X(name, cls) name,
  GOALCUP_ERROR_CODES(GOALCUP_X)
#undef GOALCUP_X
};
inline constexpr size_t kCodeCount = 0
#define GOALCUP_X(name, cls) +1
    GOALCUP_ERROR_CODES(GOALCUP_X)
#undef GOALCUP_X
    ;

std::string_view code_name(Code code);
ErrorClass code_class(Code code);
// Every code, in declaration order (for docs and tests).
std::span<const Code> all_codes();

struct Error {
  Code code;
  int64_t seq = -1;  // the record concerned, -1 when none (e.g. open failed)
  std::string message;
};

// A value or an error, never both (a small std::expected for C++20).
template <typename T>
class Result {
 public:
  Result(T value) : v_(std::move(value)) {}           // NOLINT: implicit by design
  Result(Error error) : v_(std::move(error)) {}       // NOLINT: implicit by design
  bool ok() const { return v_.index() == 0; }
  explicit operator bool() const { return ok(); }
  T& value() { return std::get<0>(v_); }
  const T& value() const { return std::get<0>(v_); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  T& operator*() { return value(); }
  const T& operator*() const { return value(); }
  const Error& error() const { return std::get<1>(v_); }
  Error take_error() { return std::move(std::get<1>(v_)); }

 private:
  std::variant<T, Error> v_;
};

// Success, or an error: what a step with no value returns.
template <>
class Result<void> {
 public:
  Result() = default;
  Result(Error error) : error_(std::move(error)) {}  // NOLINT: implicit by design
  bool ok() const { return !error_.has_value(); }
  explicit operator bool() const { return ok(); }
  const Error& error() const { return *error_; }
  Error take_error() { return std::move(*error_); }

 private:
  std::optional<Error> error_;
};
using Status = Result<void>;

// The one way to pass an error up (no exceptions cross a module):
//   GOALCUP_RETURN_IF_ERROR(budget.add_read(n));         // a Status
//   GOALCUP_ASSIGN_OR_RETURN(auto n, src.read(buf, cap)); // a Result<T>'s value
// Either returns the error from the enclosing function, which returns a
// Result of any type.
#define GOALCUP_RETURN_IF_ERROR(expr)                              \
  do {                                                             \
    auto goalcup_status_ = (expr);                                 \
    if (!goalcup_status_) return goalcup_status_.take_error();     \
  } while (false)
#define GOALCUP_CONCAT_(a, b) a##b
#define GOALCUP_CONCAT(a, b) GOALCUP_CONCAT_(a, b)
#define GOALCUP_ASSIGN_OR_RETURN(lhs, expr) \
  GOALCUP_ASSIGN_OR_RETURN_(GOALCUP_CONCAT(goalcup_result_, __LINE__), lhs, expr)
#define GOALCUP_ASSIGN_OR_RETURN_(tmp, lhs, expr) \
  auto tmp = (expr);                              \
  if (!tmp) return tmp.take_error();              \
  lhs = std::move(*tmp)

}  // namespace goalcup
