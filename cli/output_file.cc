#include "cli/output_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>

#include "absl/strings/str_format.h"
#include "scenario/text_util.h"

namespace sendsim::cli {

using scenario::EscapeForMessage;

namespace {

std::string DirOf(const std::string& path) {
  const size_t slash = path.rfind('/');
  if (slash == std::string::npos) return ".";
  return slash == 0 ? "/" : path.substr(0, slash);
}

std::string BaseOf(const std::string& path) {
  const size_t slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

// What identifies a file: device and inode when it exists, else the
// normalised absolute path it would get.
std::string FileKey(const std::string& path) {
  struct stat st;
  if (::stat(path.c_str(), &st) == 0) return absl::StrFormat("inode %d:%d", st.st_dev, st.st_ino);
  std::error_code ec;
  const std::filesystem::path p = std::filesystem::weakly_canonical(std::filesystem::absolute(path, ec), ec);
  return "path " + p.lexically_normal().string();
}

}  // namespace

OutputFile::~OutputFile() {
  if (out_.is_open()) out_.close();
  if (!committed_ && !temp_.empty()) std::remove(temp_.c_str());
}

absl::Status OutputFile::Open(const std::string& path, absl::string_view flag) {
  path_ = path;
  flag_ = std::string(flag);
  const std::string shown = EscapeForMessage(path);
  // A NUL (possible in a scenario file's JSON string) would cut the name
  // short at the system call: "a\u0000b" wrote a file named "a".
  if (path.empty() || path.back() == '/' || path.find('\0') != std::string::npos) {
    return absl::InvalidArgumentError(absl::StrFormat("%s: \"%s\" is not a file name", flag, shown));
  }
  struct stat st;
  if (::stat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode)) {
    if (S_ISDIR(st.st_mode)) return absl::InvalidArgumentError(absl::StrFormat("%s: %s is a directory", flag, shown));
    out_.open(path, std::ios::binary | std::ios::out);
    if (!out_) return absl::InvalidArgumentError(absl::StrFormat("%s: cannot write %s", flag, shown));
    return absl::OkStatus();
  }
  // O_EXCL on a name of our own: never follows or reuses another file.
  static std::atomic<int> counter{0};
  const std::string dir = DirOf(path);
  for (int attempt = 0; attempt < 100 && temp_.empty(); ++attempt) {
    const std::string t = absl::StrFormat("%s/.%s.tmp-%d-%d", dir, BaseOf(path), ::getpid(), counter++);
    const int fd = ::open(t.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd >= 0) {
      ::close(fd);
      temp_ = t;
    } else if (errno != EEXIST) {
      return absl::InvalidArgumentError(
          absl::StrFormat("%s: cannot write %s (%s)", flag, shown, std::strerror(errno)));
    }
  }
  if (temp_.empty()) return absl::InvalidArgumentError(absl::StrFormat("%s: cannot write %s", flag, shown));
  out_.open(temp_, std::ios::binary | std::ios::out | std::ios::trunc);
  if (!out_) return absl::InvalidArgumentError(absl::StrFormat("%s: cannot write %s", flag, shown));
  return absl::OkStatus();
}

absl::Status OutputFile::Commit() {
  const std::string shown = EscapeForMessage(path_);
  out_.flush();
  const bool ok = static_cast<bool>(out_);
  out_.close();
  if (!ok || out_.fail()) return absl::InternalError(absl::StrFormat("%s: write error on %s", flag_, shown));
  if (!temp_.empty() && std::rename(temp_.c_str(), path_.c_str()) != 0) {
    return absl::InternalError(absl::StrFormat("%s: cannot rename into %s (%s)", flag_, shown, std::strerror(errno)));
  }
  committed_ = true;
  return absl::OkStatus();
}

absl::Status CheckDistinctPaths(const std::vector<NamedPath>& paths) {
  std::vector<std::string> keys;
  keys.reserve(paths.size());
  for (const NamedPath& p : paths) keys.push_back(FileKey(p.path));
  for (size_t i = 0; i < paths.size(); ++i) {
    for (size_t j = 0; j < i; ++j) {
      if (keys[i] != keys[j] || (!paths[i].output && !paths[j].output)) continue;
      const NamedPath& a = paths[j];
      const NamedPath& b = paths[i];
      return absl::InvalidArgumentError(absl::StrFormat(
          "%s and %s name the same file %s (%s)", a.flag, b.flag, EscapeForMessage(b.path),
          a.output && b.output ? "one would overwrite the other" : "the output would overwrite the input"));
    }
  }
  return absl::OkStatus();
}

}  // namespace sendsim::cli
