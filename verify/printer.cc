#include "verify/printer.h"

#include <iostream>

#include "cli/batch.h"
#include "cli/safe_text.h"
#include "verify/report.h"

namespace goalcup {
namespace {

constexpr const char* kTool = "goalcup-verify";

bool listed(const VerifyReport& r, const VerifyPrintOptions& opt) { return !(opt.quiet && r.verdict == Verdict::verified); }

// Machine formats keep stdout to the format: a trace that could not be
// judged is also said on stderr, for the person running the batch.
void note_unjudged(const VerifyReport& r) {
  if (r.verdict == Verdict::error) report_could_not_judge(kTool, r.file, r.errors.empty() ? nullptr : &r.errors.front());
}

class TextPrinter final : public BatchPrinter<VerifyReport> {
 public:
  explicit TextPrinter(const VerifyPrintOptions& opt) : opt_(opt) {}
  void print(const VerifyReport& r) override {
    if (listed(r, opt_)) print_text(std::cout, format_verify_text(r, opt_.style), opt_.style);
    if (r.verdict == Verdict::error && !r.errors.empty()) {
      print_text(std::cerr, batch_hint(r.file, r.errors.front().code, kTool), Style::plain());
    }
    std::cout.flush();
  }
  void finish(const BatchSummary& summary) override { print_text(std::cout, summary.text(opt_.style), opt_.style); }

 private:
  VerifyPrintOptions opt_;
};

class JsonPrinter final : public BatchPrinter<VerifyReport> {
 public:
  explicit JsonPrinter(const VerifyPrintOptions& opt) : opt_(opt), doc_(std::cout, kTool, GOALCUP_VERSION) {}
  void print(const VerifyReport& r) override {
    note_unjudged(r);
    if (listed(r, opt_)) doc_.add([&](JsonWriter& w) { write_verify_json(w, r); });
  }
  void finish(const BatchSummary& summary) override { doc_.finish(summary); }

 private:
  VerifyPrintOptions opt_;
  JsonBatchDocument doc_;
};

}  // namespace

std::unique_ptr<BatchPrinter<VerifyReport>> make_verify_printer(Format format, const VerifyPrintOptions& options) {
  switch (format) {
    case Format::json: return std::make_unique<JsonPrinter>(options);
    case Format::jsonl:
      return std::make_unique<JsonLinesPrinter<VerifyReport>>(
          std::cout, JsonLinesPrinter<VerifyReport>::Hooks{
                         .write = write_verify_json,
                         .listed = [options](const VerifyReport& r) { return listed(r, options); },
                         .each = note_unjudged});
    case Format::text:
    case Format::sarif:
    case Format::markdown: break;  // not offered by --format: text
  }
  return std::make_unique<TextPrinter>(options);
}

}  // namespace goalcup
