// `summary`: a run at a glance, gathered in one pass with fixed memory (a
// few counters and the distinct model names), plus the verifier's verdict
// so that nobody reads an invalid trace as if it were sound.
#pragma once

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "cli/format.h"
#include "cli/printer.h"
#include "cli/json_writer.h"
#include "cli/term.h"
#include "core/bodies.h"
#include "core/walk.h"
#include "inspect/exchange.h"

namespace goalcup::cheat {
class CredentialMasker;
}

namespace goalcup::inspect {

struct Summary : HeaderInfo {
  LaunchInfo launch;
  std::optional<Timestamp> server_start, server_end;  // start receipt at, seal ack at
  std::optional<Timestamp> first_t, last_t;           // recorder time
  std::map<std::string, uint64_t> kinds;
  uint64_t exchanges = 0, tunnels = 0, wire_bytes = 0;
  uint64_t requests_unread = 0;  // request bodies a limit kept from being read (docs/LIMITS.md)
  std::set<std::string> models_requested, models_answered;
  // Sums of each answer's final usage; cache reads and writes apart.
  int64_t input_tokens = 0, output_tokens = 0, cache_read_tokens = 0, cache_write_tokens = 0;
  // Answers read, and those whose stream reported usage (a stream cut
  // short, or a provider that sends none, reports no usage: not zero).
  uint64_t answers = 0, answers_with_usage = 0;
  uint64_t answers_failed = 0;  // a refused request (HTTP 400 and up) or a stream that reported an error
  uint64_t answers_cut = 0;  // responses the recorder did not get whole (`complete` false)
  std::vector<std::pair<uint64_t, std::string>> gaps;  // first 100
  std::optional<int64_t> exit_code;
  std::string exit_signal;
  bool exited = false;
  VerifyReport verify;
};

class SummaryVisitor final : public RecordVisitor {
 public:
  explicit SummaryVisitor(const Limits& limits) : parsers_(limits) {}
  bool on_record(const Record& r, const Line& line, const Digest& hash) override;
  Summary& summary() { return s_; }

 private:
  Summary s_;
  BodyParsers parsers_;
};

Summary summarize(const std::string& path, const WalkOptions& options);
// Every text of `s` that the trace named (participant, ids, models, kinds,
// gaps...) with its credentials shown as their masked previews.
void mask_summary(Summary& s, cheat::CredentialMasker& masker);
std::string format_summary_text(const Summary& s, const Style& style);
void write_summary_json(JsonWriter& w, const Summary& s);
// The view's printer for the run's `format`: text, or json
// (schemas/inspect-summary.schema.json).
ViewPrinter<Summary> summary_printer(Format format, const Style& style);

}  // namespace goalcup::inspect
