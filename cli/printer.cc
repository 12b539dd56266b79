#include "cli/printer.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <ostream>

#include "cli/safe_text.h"

namespace goalcup {

int checked_stdout_exit(std::string_view tool, int exit_code) {
  std::cout.flush();
  errno = 0;
  const bool flushed = std::fflush(stdout) == 0;
  if (flushed && std::cout && !std::ferror(stdout)) return exit_code;
  const int err = errno;
  std::string line = std::string(tool) + ": could not write the report to stdout";
  if (err != 0) line += std::string(": ") + std::strerror(err);
  std::fprintf(stderr, "%s\n", line.c_str());
  return exit_code_worse(exit_code, 2) ? exit_code : 2;
}

JsonBatchDocument::JsonBatchDocument(std::ostream& out, std::string_view tool, std::string_view version,
                                     const Header& header)
    : out_(out) {
  w_.begin_object().field("tool", tool).field("version", version);
  for (const auto& [k, v] : header) w_.field(k, v);
  w_.key("reports").begin_array();
}

void JsonBatchDocument::add(const std::function<void(JsonWriter&)>& write) {
  write(w_);
  out_ << buf_ << std::flush;
  buf_.clear();
}

void JsonBatchDocument::finish(const BatchSummary& summary) {
  w_.end_array().key("summary");
  summary.write_json(w_);
  w_.end_object();
  out_ << buf_ << "\n";
  buf_.clear();
}

void write_view(std::ostream& out, const std::string& view, Format format, const Style& style) {
  switch (format) {
    case Format::json:
    case Format::jsonl:
    case Format::sarif: out << view; return;
    case Format::markdown: print_text(out, view, Style::plain()); return;
    case Format::text: print_text(out, view, style); return;
  }
}

void write_and_flush(std::ostream& out, const std::string& s) { out << s << std::flush; }

}  // namespace goalcup
