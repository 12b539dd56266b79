// RFC 3339 times as the format writes them: UTC, a "Z" suffix, and 0 to 9
// fraction digits. Anything else (offsets, lowercase t/z, a bare dot) is
// rejected rather than guessed at. Any 4-digit year is accepted; times
// outside 1677..2262 saturate the nanosecond clock (see parse_time).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace goalcup {

// Nanoseconds since 1970-01-01T00:00:00Z. Comparable; subtract with
// nanos_between(): two valid times can be further apart than 2^63 ns.
struct Timestamp {
  int64_t nanos = 0;
  auto operator<=>(const Timestamp&) const = default;
};

// `to` - `from` in nanoseconds, saturated at the int64 range.
int64_t nanos_between(Timestamp from, Timestamp to);

std::optional<Timestamp> parse_time(std::string_view text);
// Canonical text with 9 fraction digits (for reports and fixtures).
std::string format_time(Timestamp t);

}  // namespace goalcup
