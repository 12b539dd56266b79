#include "cheatcheck/printer.h"

#include <unistd.h>

#include <iostream>

#include "cli/batch.h"
#include "cli/safe_text.h"

namespace goalcup::cheat {
namespace {

constexpr const char* kTool = "goalcup-cheatcheck";

bool passed(const CheatReport& r, const ReportSet& set) { return cheat_exit_code(r, set.fail_on) == 0; }

// Machine formats keep stdout to the format: an input that could not be
// judged is also said on stderr, for the person running the batch.
void note_unjudged(const CheatReport& r) {
  if (unjudged(r)) report_could_not_judge(kTool, r.file, r.verify.errors.empty() ? nullptr : &r.verify.errors.front());
}

class TextPrinter final : public BatchPrinter<CheatReport> {
 public:
  TextPrinter(const ReportSet& set, const Style& style) : set_(set), style_(style) {}
  void print(const CheatReport& r) override {
    // Scan mode lists only the files with something to say.
    const bool silent = (set_.quiet && passed(r, set_)) ||
                        (set_.mode == Mode::scan && r.findings.empty() && r.skipped.empty() && !unjudged(r));
    if (!silent) {
      print_text(std::cout, format_cheat_text(r, set_.fail_on, style_, set_.mode != Mode::trace), style_);
      std::cout.flush();
    }
    if (unjudged(r) && !r.verify.errors.empty()) {
      print_text(std::cerr, batch_hint(r.file, r.verify.errors.front().code, kTool), Style::plain());
    }
  }
  void finish(const BatchSummary& summary) override { print_text(std::cout, summary.text(style_), style_); }

 private:
  const ReportSet& set_;
  Style style_;
};

class JsonPrinter final : public BatchPrinter<CheatReport> {
 public:
  explicit JsonPrinter(const ReportSet& set) : set_(set) {}
  void print(const CheatReport& r) override { note_unjudged(r); }
  void finish(const BatchSummary& summary) override { std::cout << format_cheat_json(set_, &summary); }
  bool keeps_reports() const override { return true; }

 private:
  const ReportSet& set_;
};

class SarifPrinter final : public BatchPrinter<CheatReport> {
 public:
  SarifPrinter(const ReportSet& set, SarifOptions options) : set_(set), options_(std::move(options)) {}
  void print(const CheatReport& r) override { note_unjudged(r); }
  void finish(const BatchSummary& summary) override {
    std::cout << format_cheat_sarif(set_, options_);
    const Style err_style = Style::for_fd(STDERR_FILENO);
    print_text(std::cerr, summary.text(err_style), err_style);  // SARIF is for machines; the log gets the gist
  }
  bool keeps_reports() const override { return true; }

 private:
  const ReportSet& set_;
  SarifOptions options_;
};

}  // namespace

std::unique_ptr<BatchPrinter<CheatReport>> make_cheat_printer(Format format, const ReportSet& set,
                                                              const CheatPrintOptions& options) {
  switch (format) {
    case Format::json: return std::make_unique<JsonPrinter>(set);
    case Format::sarif: return std::make_unique<SarifPrinter>(set, options.sarif);
    case Format::jsonl:
      return std::make_unique<JsonLinesPrinter<CheatReport>>(
          std::cout, JsonLinesPrinter<CheatReport>::Hooks{
                         .write = [&set](JsonWriter& w, const CheatReport& r) { write_cheat_report(w, r, set); },
                         .listed = [&set](const CheatReport& r) { return !(set.quiet && passed(r, set)); },
                         .each = note_unjudged});
    case Format::text:
    case Format::markdown: break;  // markdown is not offered by --format: text
  }
  return std::make_unique<TextPrinter>(set, options.style);
}

}  // namespace goalcup::cheat
