// One check per gap of the cheat checklist (GC01..GC13; credentials, GC02
// and GC03, live in ../secrets). A check sees every record once, keeps
// compact state (ids, digests, seqs; never bodies) and emits findings.
#pragma once

#include <memory>
#include <string_view>
#include <vector>

#include "cheatcheck/context.h"
#include "core/record.h"
#include "core/verifier.h"

namespace goalcup::cheat {

// Seqs that show a finding: all are counted, the first kMaxSeqs kept, so a
// hostile trace cannot make a check's memory grow.
struct SeqList {
  uint64_t count = 0;
  std::vector<uint64_t> seqs;
  void add(uint64_t seq) {
    ++count;
    if (seqs.size() < kMaxSeqs) seqs.push_back(seq);
  }
  bool empty() const { return count == 0; }
};

class Check {
 public:
  virtual ~Check() = default;
  virtual std::string_view id() const = 0;
  virtual void on_record(const Record& /*r*/, Context& /*ctx*/) {}
  virtual void finish(const VerifyReport& /*verify*/, Context& /*ctx*/) {}
};

std::unique_ptr<Check> make_gc01();
std::unique_ptr<Check> make_gc04();
std::unique_ptr<Check> make_gc05();
std::unique_ptr<Check> make_gc06();
std::unique_ptr<Check> make_gc07();
std::unique_ptr<Check> make_gc08();
std::unique_ptr<Check> make_gc09();
std::unique_ptr<Check> make_gc10();
std::unique_ptr<Check> make_gc11();
std::unique_ptr<Check> make_gc12();
std::unique_ptr<Check> make_gc13();

// Every trace check, in GC order.
std::vector<std::unique_ptr<Check>> make_trace_checks();

std::string seconds_text(int64_t nanos);

}  // namespace goalcup::cheat
