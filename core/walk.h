// The one pass every tool makes over a trace: open, frame, hash, parse,
// verify, and show each record to the tool's own visitor. The verifier always
// runs, so every tool knows whether what it reads is sound.
#pragma once

#include <functional>
#include <memory>
#include <string>

#include "core/core_pool.h"
#include "core/keyring.h"
#include "core/limits.h"
#include "core/lines.h"
#include "core/record.h"
#include "core/source.h"
#include "core/verifier.h"

namespace goalcup {

class RecordVisitor {
 public:
  virtual ~RecordVisitor() = default;
  // A record that parsed. Return false to stop reading: a normal outcome,
  // not an error. The report then has complete_read false, and its verdict
  // covers the lines read: invalid or error if they say so, else incomplete
  // with reason not_read_to_end.
  virtual bool on_record(const Record& record, const Line& line, const Digest& hash) = 0;
  // A line that did not parse (already reported by the verifier).
  virtual void on_bad_line(const Line& /*line*/, const Error& /*error*/) {}
};

struct WalkOptions {
  Limits limits;
  const Keyring* keyring = &Keyring::production();
  // Threads for this trace: 1 reads, hashes, parses and verifies in turn;
  // 2 or more read on one thread, hash lines on every thread that is idle
  // and parse and verify on this one, in order.
  unsigned threads = 1;
  // When set, threads beyond the first are taken from this pool (only those
  // free: the rest of the batch may hold the others), and given back at the
  // end of the trace.
  CorePool* pool = nullptr;
  // False for an input a --batch walk found: a symbolic link there is refused
  // (unsafe_path), as inside a submission, not followed.
  bool follow_link = true;
};

VerifyReport walk_trace(const std::string& path, const WalkOptions& options, RecordVisitor* visitor = nullptr);
VerifyReport walk_source(std::unique_ptr<ByteSource> source, const WalkOptions& options,
                         RecordVisitor* visitor = nullptr);

}  // namespace goalcup
