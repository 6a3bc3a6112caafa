#ifndef SENDSIM_PACKETDRILL_PARSER_H_
#define SENDSIM_PACKETDRILL_PARSER_H_

#include <string_view>

#include "absl/status/statusor.h"
#include "packetdrill/ast.h"

namespace sendsim::packetdrill {

// Parses a whole script. Errors are one line: "path:line: message".
absl::StatusOr<Script> ParseScript(std::string_view path, std::string_view src);

// Reads and parses a file (at most 1 MiB); an unreadable file, a directory
// or a larger one is an error "script PATH: ...".
absl::StatusOr<Script> ParseScriptFile(const std::string& path);

// True for system calls that upstream packetdrill knows (sendsim may still
// not support them: the runner skips those).
bool IsKnownSyscall(std::string_view name);

}  // namespace sendsim::packetdrill

#endif  // SENDSIM_PACKETDRILL_PARSER_H_
