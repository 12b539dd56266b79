#include "core/timefmt.h"

#include <cstdio>

namespace goalcup {
namespace {

bool digits(std::string_view s, size_t pos, size_t n, int& out) {
  out = 0;
  for (size_t i = pos; i < pos + n; ++i) {
    if (s[i] < '0' || s[i] > '9') return false;
    out = out * 10 + (s[i] - '0');
  }
  return true;
}

bool is_leap(int y) { return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0; }

int days_in_month(int y, int m) {
  static constexpr int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  return m == 2 && is_leap(y) ? 29 : kDays[m - 1];
}

// Days from 1970-01-01 to y-m-d in the proleptic Gregorian calendar
// (H. Hinnant's days_from_civil).
int64_t days_from_civil(int y, int m, int d) {
  y -= m <= 2;
  const int64_t era = (y >= 0 ? y : y - 399) / 400;
  const int64_t yoe = y - era * 400;
  const int64_t doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  const int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + doe - 719468;
}

}  // namespace

std::optional<Timestamp> parse_time(std::string_view s) {
  // YYYY-MM-DDTHH:MM:SS[.F{1,9}]Z
  if (s.size() < 20 || s.size() > 30) return std::nullopt;
  int y, mo, d, h, mi, se;
  if (!digits(s, 0, 4, y) || s[4] != '-' || !digits(s, 5, 2, mo) || s[7] != '-' ||
      !digits(s, 8, 2, d) || s[10] != 'T' || !digits(s, 11, 2, h) || s[13] != ':' ||
      !digits(s, 14, 2, mi) || s[16] != ':' || !digits(s, 17, 2, se)) {
    return std::nullopt;
  }
  if (mo < 1 || mo > 12 || d < 1 || d > days_in_month(y, mo) || h > 23 || mi > 59 || se > 60) {
    return std::nullopt;
  }
  int64_t frac = 0;
  size_t pos = 19;
  if (s[pos] == '.') {
    size_t n = 0;
    ++pos;
    while (pos < s.size() && s[pos] >= '0' && s[pos] <= '9') {
      frac = frac * 10 + (s[pos] - '0');
      ++pos;
      ++n;
    }
    if (n == 0 || n > 9) return std::nullopt;
    for (; n < 9; ++n) frac *= 10;
  }
  if (pos + 1 != s.size() || s[pos] != 'Z') return std::nullopt;
  // Every 4-digit year is RFC 3339 (a Go recorder writes an unset time as
  // 0001-01-01T00:00:00Z). Beyond 1677..2262 the nanoseconds since 1970 do
  // not fit 64 bits: such a time saturates, keeping order against every
  // time inside that range.
  const int64_t secs = days_from_civil(y, mo, d) * 86400 + h * 3600 + mi * 60 + se;
  int64_t nanos = 0;
  if (__builtin_mul_overflow(secs, int64_t{1000000000}, &nanos) || __builtin_add_overflow(nanos, frac, &nanos)) {
    nanos = secs < 0 ? INT64_MIN : INT64_MAX;
  }
  return Timestamp{nanos};
}

int64_t nanos_between(Timestamp from, Timestamp to) {
  int64_t d = 0;
  if (!__builtin_sub_overflow(to.nanos, from.nanos, &d)) return d;
  return to.nanos > from.nanos ? INT64_MAX : INT64_MIN;
}

std::string format_time(Timestamp t) {
  int64_t secs = t.nanos / 1000000000;
  int64_t frac = t.nanos % 1000000000;
  if (frac < 0) {
    frac += 1000000000;
    --secs;
  }
  int64_t days = secs / 86400;
  int64_t rem = secs % 86400;
  if (rem < 0) {
    rem += 86400;
    --days;
  }
  // civil_from_days (H. Hinnant)
  days += 719468;
  const int64_t era = (days >= 0 ? days : days - 146096) / 146097;
  const int64_t doe = days - era * 146097;
  const int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  int64_t y = yoe + era * 400;
  const int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const int64_t mp = (5 * doy + 2) / 153;
  const int64_t d = doy - (153 * mp + 2) / 5 + 1;
  const int64_t m = mp < 10 ? mp + 3 : mp - 9;
  y += m <= 2;
  char buf[48];
  std::snprintf(buf, sizeof buf, "%04lld-%02lld-%02lldT%02lld:%02lld:%02lld.%09lldZ",
                static_cast<long long>(y), static_cast<long long>(m), static_cast<long long>(d),
                static_cast<long long>(rem / 3600), static_cast<long long>(rem / 60 % 60),
                static_cast<long long>(rem % 60), static_cast<long long>(frac));
  return buf;
}

}  // namespace goalcup
