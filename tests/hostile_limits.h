// What the hostile suite allows a child process, shared by its files.
#pragma once

namespace goalcup::testing {

// Under AddressSanitizer the same inputs run for memory safety, but time is
// the sanitizer's, not the tools': the hard ceiling is looser there.
#ifdef GOALCUP_SANITIZED
constexpr int kHostileHardSeconds = 300;
constexpr bool kSanitized = true;
#else
constexpr int kHostileHardSeconds = 20;
constexpr bool kSanitized = false;
#endif

}  // namespace goalcup::testing
