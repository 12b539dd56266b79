// `show SEQ` and `records`: one record in full and readable, or one line per
// record, each with the verdict first and its marks (not attested, after
// the break). `show` reads to the end for the verdict, keeping only the
// rendered record.
#pragma once

#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "cli/format.h"
#include "cli/json_writer.h"
#include "cli/printer.h"
#include "cli/term.h"
#include "core/walk.h"
#include "inspect/verdict_view.h"

namespace goalcup::cheat {
class CredentialMasker;
}

namespace goalcup::inspect {

class RecordRenderer;  // show.cc: clips what a record shows and decodes its bodies

// The record to show, while the walk holds it.
struct RecordToShow {
  const Record& record;
  const Line& line;
  const Digest& hash;
  RecordRenderer& renderer;
};

// The page around it, once the verdict is known.
struct ShowPage {
  const VerifyReport& report;
  uint64_t seq;
  const std::optional<std::string>& record;  // as composed; nullopt: `bad` says why not
  const std::string& bad;
};

// `show`'s printer for the run's format (text or json), chosen once: the
// record composed while the walk holds it, the page around it, and the
// write of that page, apart so that the caller can mask credentials in
// between.
class ShowPrinter {
 public:
  ShowPrinter(Format format, const Style& style);
  std::string record(const RecordToShow& r) const { return record_.compose(r); }
  std::string page(const ShowPage& p) const { return page_.compose(p); }
  void write(std::ostream& out, const std::string& page) const { page_.write(out, page); }

 private:
  ViewPrinter<RecordToShow> record_;
  ViewPrinter<ShowPage> page_;
};

struct ShownRecord {
  VerifyReport report;
  std::optional<std::string> out;  // banner and record; nullopt: no such record
};
// With a `masker`, credentials show as their masked previews (the caller
// also masks what is printed).
ShownRecord show_record(const std::string& path, const WalkOptions& options, uint64_t seq, const ShowPrinter& printer,
                        cheat::CredentialMasker* masker = nullptr);

struct RecordFilter {
  std::vector<std::string> kinds;  // empty: all; kind names of the format
  uint64_t from = 0, to = UINT64_MAX;
  std::string host, grep;
};

// The first of `kinds` that names no kind of the format, if any.
std::optional<std::string> unknown_kind(const std::vector<std::string>& kinds);

// Streams one line (or one JSON object) per matching record to stdout after
// the banner of `verdict` (the verify pass made before). With a `masker`,
// credentials in the descriptions show as their masked previews.
VerifyReport list_records(const std::string& path, const WalkOptions& options, const RecordFilter& filter,
                          Format format, const Style& style, const VerdictView& verdict,
                          cheat::CredentialMasker* masker = nullptr);

}  // namespace goalcup::inspect
