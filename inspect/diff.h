// `goalcup-inspect diff A B`: what changed between two traces, aligned by
// content, not by seq or hash (a redacted trace is re-chained, so every prev
// differs). Three streams are aligned apart: wire exchanges, native lines,
// other records. Each record is read as a list of fields, its content
// normalised (JSON leaves by path, JSON inside strings opened, wire bodies
// decoded, answers rebuilt from their stream, statements by what they state,
// not by signature or head); only a SHA-256 of the fields is kept per record.
// A second pass reads both traces side by side to show the changed fields.
#pragma once

#include <array>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "cli/format.h"
#include "cli/printer.h"
#include "cli/term.h"
#include "core/json_strict.h"
#include "core/record.h"
#include "core/walk.h"
#include "inspect/align.h"

namespace goalcup::inspect {

enum class Stream : uint8_t { exchanges, native, other };
inline constexpr size_t kStreamCount = 3;
std::string_view stream_name(Stream s);
Stream stream_of(Kind k);

// A record's content as (where, text) fields, in a stable order.
class RecordContent {
 public:
  // `limits` are the run's: JSON nested in a record's strings, answer
  // streams and statements are parsed under them.
  explicit RecordContent(const Limits& limits);
  using Sink = std::function<void(std::string_view where, std::string_view text)>;
  void fields(const Record& r, const Sink& sink);
  Digest fingerprint(const Record& r);

 private:
  void leaves(simdjson::dom::element e, std::string& where, int depth, const Sink& sink);
  void text_leaf(std::string_view text, std::string& where, int depth, const Sink& sink);
  void answer_fields(std::string_view body, const Sink& sink);
  bool statement_fields(const Record& r, const Sink& sink);
  Limits limits_;
  std::vector<std::unique_ptr<StrictJsonParser>> parsers_;  // one per nesting of JSON in strings
};

// When `b` is `a` with spans replaced by redaction markers ("[REDACTED:rule]",
// as `goalcup-cheatcheck redact` writes them): the rules, in order.
std::optional<std::vector<std::string>> redaction_rules(std::string_view a, std::string_view b);

struct ItemRef {
  uint64_t item = 0;  // index in its stream
  uint64_t seq = 0;
  std::string label;  // describe() of the record
};

struct FieldChange {
  enum class Op { changed, redacted, added, removed } op = Op::changed;
  std::string where;
  std::string a, b;  // excerpts (a is empty for a redaction: it held the secret)
  std::vector<std::string> rules;
};

struct Change {
  enum class Op { added, removed, changed, redacted } op = Op::changed;
  std::optional<ItemRef> a, b;
  std::vector<FieldChange> fields;
  uint64_t fields_not_shown = 0;
};

struct StreamDiff {
  Stream stream = Stream::other;
  uint64_t a_items = 0, b_items = 0, unchanged = 0;
  uint64_t added = 0, removed = 0, changed = 0, redacted = 0;
  std::vector<Change> changes;  // the first DiffOptions::max_changes
  uint64_t changes_not_shown = 0;
  // Alignment stopped (too different): the first item of each side not aligned.
  std::optional<ItemRef> stopped_a, stopped_b;
  bool stopped = false;
};

struct DiffReport {
  VerifyReport a, b;
  std::array<StreamDiff, kStreamCount> streams;
  bool same() const;
};

struct DiffOptions {
  size_t max_changes = 200;  // per stream
  size_t max_fields = 20;    // per change
  size_t excerpt_bytes = 160;
  AlignLimits align;
  bool show_secrets = false;
};

// Reads both traces (paths; stdin already spooled) and compares them.
DiffReport diff_traces(const std::string& a, const std::string& b, const WalkOptions& wopt, const DiffOptions& opt);

// The view's printer for the run's `format`: text, markdown or json
// (schemas/inspect-diff.schema.json).
ViewPrinter<DiffReport> diff_printer(Format format, const Style& style);

}  // namespace goalcup::inspect
