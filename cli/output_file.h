#ifndef SENDSIM_CLI_OUTPUT_FILE_H_
#define SENDSIM_CLI_OUTPUT_FILE_H_

// Output files that are whole or absent: each is written to a temporary file
// in the destination's folder and renamed over the destination only when
// the run succeeded, so a failed or interrupted run neither leaves a partial
// file nor truncates an existing one.

#include <fstream>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"

namespace sendsim::cli {

class OutputFile {
 public:
  OutputFile() = default;
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;
  // Removes the temporary file unless Commit() succeeded.
  ~OutputFile();

  // Creates the temporary file beside `path`; `flag` names the option in
  // errors ("--trace"). A destination that exists and is not a regular file
  // (/dev/null, a FIFO) is written in place: renaming over it would replace
  // the device.
  absl::Status Open(const std::string& path, absl::string_view flag);
  std::ostream& stream() { return out_; }
  // Flushes, checks every write, and renames the file into place.
  absl::Status Commit();

 private:
  std::string path_;
  std::string temp_;  // empty: written in place
  std::string flag_;
  std::ofstream out_;
  bool committed_ = false;
};

// One named file of a command line: an output (its flag and path) or an
// input (e.g. the scenario file).
struct NamedPath {
  std::string flag;
  std::string path;
  bool output = true;
};

// Refuses two outputs naming the same file, an output naming an input, and
// an output that is a directory; the message names both flags.
absl::Status CheckDistinctPaths(const std::vector<NamedPath>& paths);

}  // namespace sendsim::cli

#endif  // SENDSIM_CLI_OUTPUT_FILE_H_
