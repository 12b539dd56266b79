// Writing an output file without ever losing data: the bytes go to a
// temporary file in the output's own folder, which is synced and renamed
// over the output only when everything was written. Until then the output,
// if it existed, is untouched; a failure or a kill leaves no partial file
// (an unnamed O_TMPFILE where the file system has it; otherwise a
// ".NAME.XXXXXX.tmp" removed on every failure the process lives through).
//
// Refused before anything is created, without opening the output (so a
// FIFO cannot block): a path that is not a regular file or a new name (FIFO,
// device such as /dev/full, folder, socket, dangling symbolic link), a file
// this process could not write to (a rename would not care), and a
// path that is one of the `inputs` (same device and inode once links are
// resolved: `..`, symbolic and hard links; the same resolved path when it
// does not exist yet) or lies inside an input that is a folder.
// "-" writes to stdout instead, every write checked.
//
// Used by `goalcup-cheatcheck redact -o` and `goalcup-inspect html -o`.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/error.h"

namespace goalcup {

class OutputFile {
 public:
  static Result<OutputFile> create(const std::string& path, const std::vector<std::string>& inputs = {});
  OutputFile(OutputFile&& other) noexcept;
  OutputFile& operator=(OutputFile&&) = delete;
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;
  ~OutputFile();  // not committed: the temporary file is removed

  // Buffers `bytes` (a megabyte or more goes out at once, uncopied); an
  // error (disk full, I/O) is returned at once and again by commit().
  Status write(std::string_view bytes);
  // Flushes, fsyncs, closes and renames over the output, then syncs its
  // folder. After an error nothing of the output has changed.
  Status commit();

  const std::string& path() const { return path_; }  // as given

 private:
  OutputFile(std::string path, std::string target, std::string dir, int fd, std::string temp, int mode);
  Status flush();
  Status write_all(std::string_view bytes);  // unbuffered, every byte or an error
  Status fail(const std::string& what, int err);
  Status status() const;
  void discard();

  std::string path_;    // as given, for messages
  std::string target_;  // resolved path the file is renamed to ("" for stdout)
  std::string dir_;     // its folder
  int fd_ = -1;
  std::string temp_;    // the named temporary file, "" while unnamed (O_TMPFILE) or stdout
  int mode_ = -1;       // the replaced file's permission bits, -1 for a new file
  std::string buffer_;
  std::optional<Error> error_;
  bool done_ = false;
};

}  // namespace goalcup
