// The printer seam every tool goes through: a run picks its printer once
// from --format (as ripgrep picks its printer), then hands it each report
// in input order and the batch summary last; nothing else in a run
// compares formats. A new format is a new printer and one line where the
// tool's printers are chosen (verify/printer.cc, cheatcheck/printer.cc,
// inspect's views).
#pragma once

#include <functional>
#include <iosfwd>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "cli/format.h"
#include "cli/json_writer.h"
#include "cli/summary.h"
#include "cli/term.h"

namespace goalcup {

// The exit code of a run whose report went to stdout: stdout is flushed
// and, when the report could not be written (a full disk, /dev/full), that
// is said on stderr and the run exits 2 (could not judge), or the run's own
// code when it outranks that under the batch exit rule: a CI job must not
// read an empty or cut report as a pass.
int checked_stdout_exit(std::string_view tool, int exit_code);

// What one batch run prints: each report as its input is done, in input
// order, then the summary of the whole batch.
template <class Report>
class BatchPrinter {
 public:
  BatchPrinter() = default;
  BatchPrinter(const BatchPrinter&) = delete;
  BatchPrinter& operator=(const BatchPrinter&) = delete;
  virtual ~BatchPrinter() = default;

  virtual void print(const Report& r) = 0;
  virtual void finish(const BatchSummary& summary) = 0;
  // True when the printer reads every report again in finish() (a document
  // written whole, as SARIF), so the tool must keep them; else a report is
  // freed as soon as it is printed.
  virtual bool keeps_reports() const { return false; }
};

// The JSON document of a batch, streamed report by report:
// {"tool", "version", header..., "reports": [...], "summary": {...}}.
class JsonBatchDocument {
 public:
  using Header = std::vector<std::pair<std::string, std::string>>;
  JsonBatchDocument(std::ostream& out, std::string_view tool, std::string_view version, const Header& header = {});
  // Writes one report with `write` and sends it on.
  void add(const std::function<void(JsonWriter&)>& write);
  void finish(const BatchSummary& summary);

 private:
  std::ostream& out_;
  std::string buf_;
  JsonWriter w_{&buf_, true};
};

// --format jsonl, the same for every tool: one report object a line, then
// the summary line.
template <class Report>
class JsonLinesPrinter final : public BatchPrinter<Report> {
 public:
  struct Hooks {
    std::function<void(JsonWriter&, const Report&)> write;  // the report object
    std::function<bool(const Report&)> listed;              // false: left out (--quiet)
    std::function<void(const Report&)> each;                // called for every report (a note on stderr)
  };
  JsonLinesPrinter(std::ostream& out, Hooks hooks) : out_(out), hooks_(std::move(hooks)) {}

  void print(const Report& r) override {
    if (hooks_.each) hooks_.each(r);
    if (hooks_.listed && !hooks_.listed(r)) return;
    std::string line;
    JsonWriter w(&line);
    hooks_.write(w, r);
    line += "\n";
    write_flushed(line);
  }
  void finish(const BatchSummary& summary) override { write_flushed(summary.jsonl_line()); }

 private:
  void write_flushed(const std::string& s);
  std::ostream& out_;
  Hooks hooks_;
};

// A whole view (one document, not a batch) written as its format wants:
// text through print_text() in the terminal's style, Markdown through
// print_text() without colour, JSON as composed (JsonWriter escaped it).
void write_view(std::ostream& out, const std::string& view, Format format, const Style& style);

// The printer of a whole view (inspect's summary, diff): its composer for
// the run's format, chosen once from the view's forms, and write_view()
// for that format. compose() and write() are apart so that a caller can
// mask credentials in between.
template <class View>
class ViewPrinter {
 public:
  struct Forms {
    std::function<std::string(const View&, const Style&)> text;
    std::function<std::string(const View&)> json;
    std::function<std::string(const View&)> markdown;  // empty: the view has no Markdown form (text)
  };
  // `format` is one the view's --format accepts; any other is text.
  ViewPrinter(Format format, const Style& style, const Forms& forms) : style_(style) {
    if (format == Format::json) {
      format_ = format;
      compose_ = forms.json;
    } else if (format == Format::markdown && forms.markdown) {
      format_ = format;
      compose_ = forms.markdown;
    } else {
      compose_ = [text = forms.text, style](const View& v) { return text(v, style); };
    }
  }
  std::string compose(const View& v) const { return compose_(v); }
  void write(std::ostream& out, const std::string& view) const { write_view(out, view, format_, style_); }
  void print(std::ostream& out, const View& v) const { write(out, compose(v)); }

 private:
  Format format_ = Format::text;
  Style style_;
  std::function<std::string(const View&)> compose_;
};

// The stream write of JsonLinesPrinter, out of line to keep <ostream> out of
// this header.
void write_and_flush(std::ostream& out, const std::string& s);

template <class Report>
void JsonLinesPrinter<Report>::write_flushed(const std::string& s) {
  write_and_flush(out_, s);
}

}  // namespace goalcup
