#include "core/walk.h"

namespace goalcup {

VerifyReport walk_source(std::unique_ptr<ByteSource> source, const WalkOptions& options, RecordVisitor* visitor) {
  LineReader lines(std::move(source), options.limits);
  RecordParser parser(options.limits);
  ChainVerifier verifier(*options.keyring, options.limits);
  Line line;
  for (;;) {
    auto status = lines.next(&line);
    if (status == LineReader::Status::end) break;
    if (status == LineReader::Status::error) {
      verifier.add_read_error(lines.error());
      break;
    }
    const Digest hash = sha256(line.bytes);
    auto record = parser.parse(line.bytes, line.index);
    verifier.add_line(line, hash, record);
    if (!visitor) continue;
    if (!record) {
      visitor->on_bad_line(line, record.error());
    } else if (!visitor->on_record(*record, line, hash)) {
      verifier.add_read_error(Error{Code::usage, -1, "stopped before the end of the trace"});
      break;
    }
  }
  return verifier.finish(lines.bytes_read());
}

VerifyReport walk_trace(const std::string& path, const WalkOptions& options, RecordVisitor* visitor) {
  auto opened = open_trace(path, options.limits);
  if (!opened) {
    ChainVerifier verifier(*options.keyring, options.limits);
    verifier.add_read_error(opened.take_error());
    VerifyReport rep = verifier.finish(0);
    rep.file = path;
    return rep;
  }
  VerifyReport rep = walk_source(std::move(opened->source), options, visitor);
  rep.file = path;
  rep.source = opened->description;
  return rep;
}

}  // namespace goalcup
