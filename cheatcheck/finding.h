// A finding: evidence of one gap on the recorder's cheat checklist, or of a
// leaked credential. Evidence, not a verdict: a judge decides.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace goalcup::cheat {

enum class Severity : uint8_t { info, warning, high };
std::string_view severity_name(Severity s);
bool parse_severity(std::string_view text, Severity* out);

// Extra fields of a credential finding (GC02, GC03).
struct SecretInfo {
  std::string rule;           // e.g. "github-pat"
  std::string location;       // e.g. "body.headers[2]"
  std::string decoding;       // e.g. "json>json>base64", "" for plain text
  std::string secret_sha256;  // hex SHA-256 of the secret's exact text
  std::string preview;        // masked: prefix and length
  std::string file;           // scan mode: the file it was found in
  uint64_t occurrences = 0;
  std::string text;           // the secret itself: only with --show-secrets
};

// The finding that says the trace fails verification (never suppressed).
inline constexpr std::string_view kVerifyCheck = "verify";

struct Finding {
  std::string check;  // "GC01".."GC13", or kVerifyCheck
  Severity severity = Severity::info;
  std::vector<uint64_t> seqs;  // records that show it (at most kMaxSeqs)
  std::string message;         // one sentence a judge understands
  std::string fingerprint;     // stable: hex SHA-256 of check, run and key
  bool has_secret = false;
  SecretInfo secret;
  bool suppressed = false;     // matched the baseline or allowlist
};

inline constexpr size_t kMaxSeqs = 50;

// Seqs that show a finding: all are counted, the lowest kMaxSeqs kept, so a
// hostile trace cannot make a check's memory grow. Added in order, those are
// the first ones; added in a hash map's order (which differs from run to
// run), keeping the first ones would make the report differ too.
struct SeqList {
  uint64_t count = 0;
  std::vector<uint64_t> seqs;
  void add(uint64_t seq) {
    ++count;
    if (seqs.size() < kMaxSeqs) return seqs.push_back(seq);
    auto highest = std::max_element(seqs.begin(), seqs.end());
    if (seq < *highest) *highest = seq;
  }
  bool empty() const { return count == 0; }
  // Adds every seq `other` counted: the lowest of both are the lowest of all.
  void merge(const SeqList& other) {
    for (uint64_t seq : other.seqs) add(seq);
    count += other.count - other.seqs.size();
  }
};

// Fingerprint from the check, the run (empty for plain files), the severity
// (a baselined warning must not hide a later high of the same kind) and a
// key that identifies the finding within the run without volatile details.
std::string make_fingerprint(std::string_view check, std::string_view run_id, Severity severity, std::string_view key);

// Makes every fingerprint also name what was judged (a trace's chain head),
// so that a baseline clears the findings of that input only, never the same
// kind of finding elsewhere. (A manifest's or data directory's findings
// name their input through the run id the coop audit gives them.)
void bind_fingerprints(std::vector<Finding>& findings, std::string_view identity);

}  // namespace goalcup::cheat
