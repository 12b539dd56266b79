// One check per gap of the cheat checklist (GC01..GC13; credentials, GC02
// and GC03, live in ../secrets). A check sees every record once, keeps
// compact state (ids, digests, seqs; never bodies) and emits findings.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "cheatcheck/context.h"
#include "cheatcheck/gc_rules.h"
#include "core/record.h"
#include "core/sha256.h"
#include "core/verifier.h"

namespace goalcup::cheat {

// Seqs grouped by a name read from the trace. Names are clipped (clip_text)
// and at most kMaxNames are kept apart; later ones are counted under
// "(other names)".
inline constexpr size_t kMaxNames = 50;
class NamedSeqs {
 public:
  void add(std::string_view name, uint64_t seq);
  const std::map<std::string, SeqList>& all() const { return by_name_; }

 private:
  std::map<std::string, SeqList> by_name_;
};

// Identities matched across a trace (message ids, uuids, file names) are
// kept as the SHA-256 of the id's bytes, at most kMaxTracked of them: a
// check that would need more says it was skipped rather than let memory
// follow the trace. The ids are written by the trace's author, so only a
// collision-resistant function of their bytes may decide that two are the
// same (a 64-bit std::hash can be made to collide at will).
inline constexpr size_t kMaxTracked = 1 << 20;
using Identity = Digest;
Identity identity(std::string_view id);

class Check {
 public:
  virtual ~Check() = default;
  virtual std::string_view id() const = 0;
  virtual void on_record(const Record& /*r*/, Context& /*ctx*/) {}
  virtual void finish(const VerifyReport& /*verify*/, Context& /*ctx*/) {}
};

// A check file registers itself: one static CheckRegistrar names its rule
// (id, name, gap, guarantee and what is detected, read by the text help and
// SARIF) and its factory. The check files are linked as object files
// (cheatcheck/CMakeLists.txt), never picked from an archive, so that no
// registrar is dropped; a test holds the registry to the files in checks/.
using CheckFactory = std::unique_ptr<Check> (*)();
template <class C>
std::unique_ptr<Check> make_check() {
  return std::make_unique<C>();
}
struct RegisteredCheck {
  GapRule rule;
  CheckFactory make;
};
class CheckRegistrar {
 public:
  CheckRegistrar(const GapRule& rule, CheckFactory make) noexcept;
};
// Every registered check, in id order.
const std::vector<RegisteredCheck>& registered_checks();

// One of each registered check, in id order.
std::vector<std::unique_ptr<Check>> make_trace_checks();

// Emits "<count> <what>" at `severity` with the list's seqs under `key`,
// when the list holds any: the shape of most findings.
void emit_counted(Context& ctx, std::string_view check, Severity severity, const SeqList& list, const std::string& what,
                  const std::string& key);

std::string seconds_text(int64_t nanos);

// The recorder lists each span it redacted in a wire record (`redactions`):
// a [REDACTED:rule] marker in a body that lists none is text the body
// carried (a tool printing the words), not a secret taken out.
bool lists_redactions(const Record& r);
// The recorder cut the stored body at its size cap: `complete` is false and
// `size` (the length received) is more than the bytes stored. A stream that
// broke stores all it got; the harness got no more than that.
bool cut_at_cap(const Record& r, const WireBody& body);
// Whether `logged` starts with one of the prefixes (non-empty texts of
// answers stored cut at the cap): the seq of that answer, or 0.
uint64_t cut_prefix_of(const std::vector<std::pair<uint64_t, std::string>>& prefixes, std::string_view logged);
// A policy's seconds as nanoseconds, saturated (a policy may say 1e300).
int64_t seconds_to_nanos(double seconds);

}  // namespace goalcup::cheat
