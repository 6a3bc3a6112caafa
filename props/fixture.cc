#include "props/fixture.h"

#include "scenario/text_util.h"

#include <fstream>
#include <sstream>

#include "absl/status/status.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"

namespace sendsim::props {
namespace {

uint64_t Fnv1a(absl::string_view s) {
  uint64_t h = 0xcbf29ce484222325ULL;
  for (unsigned char ch : s) {
    h ^= ch;
    h *= 0x100000001b3ULL;
  }
  return h;
}

}  // namespace

std::string FormatFixture(const Fixture& f) {
  std::string out = "# sendsim property fixture (format: testdata/fixtures/README.md)\n";
  absl::StrAppend(&out, "property: ", f.property, "\n");
  absl::StrAppend(&out, "expect: ", VerdictName(f.expect), "\n");
  if (!f.also_holds.empty()) absl::StrAppend(&out, "also_holds: ", absl::StrJoin(f.also_holds, " "), "\n");
  absl::StrAppend(&out, "found: ", f.found_by.empty() ? "-" : f.found_by, "\n");
  absl::StrAppend(&out, "reproduce: ", f.reproduce.empty() ? "-" : f.reproduce, "\n");
  for (const std::string& o : f.outcome) {
    for (absl::string_view line : absl::StrSplit(o, '\n', absl::SkipWhitespace())) {
      absl::StrAppend(&out, "outcome: ", absl::StripAsciiWhitespace(line), "\n");
    }
  }
  for (const std::string& n : f.notes) absl::StrAppend(&out, "note: ", n, "\n");
  absl::StrAppend(&out, "case:\n", FormatCase(f.c));
  return out;
}

absl::StatusOr<Fixture> ParseFixture(absl::string_view text) {
  Fixture f;
  bool have_property = false, have_expect = false, in_case = false;
  std::string case_text;
  for (absl::string_view raw : absl::StrSplit(text, '\n')) {
    absl::string_view line = absl::StripAsciiWhitespace(raw);
    if (in_case) {
      absl::StrAppend(&case_text, line, "\n");
      continue;
    }
    if (line.empty() || absl::StartsWith(line, "#")) continue;
    if (line == "case:") {
      in_case = true;
      continue;
    }
    std::pair<absl::string_view, absl::string_view> kv = absl::StrSplit(line, absl::MaxSplits(':', 1));
    absl::string_view key = kv.first, value = absl::StripAsciiWhitespace(kv.second);
    if (key == "property") {
      f.property = std::string(value);
      have_property = true;
    } else if (key == "expect") {
      if (value == "holds") f.expect = Verdict::kHolds;
      else if (value == "fails") f.expect = Verdict::kFails;
      else return absl::InvalidArgumentError(absl::StrFormat("fixture: expect must be holds or fails, got '%s'", value));
      have_expect = true;
    } else if (key == "also_holds") {
      for (absl::string_view p : absl::StrSplit(value, ' ', absl::SkipEmpty())) f.also_holds.emplace_back(p);
    } else if (key == "found") {
      f.found_by = std::string(value);
    } else if (key == "reproduce") {
      f.reproduce = std::string(value);
    } else if (key == "outcome") {
      f.outcome.emplace_back(value);
    } else if (key == "note") {
      f.notes.emplace_back(value);
    } else {
      return absl::InvalidArgumentError(absl::StrFormat("fixture: unknown line '%s'", line));
    }
  }
  if (!have_property || !have_expect || !in_case) {
    return absl::InvalidArgumentError("fixture: needs 'property:', 'expect:' and a 'case:' section");
  }
  absl::StatusOr<Case> c = ParseCase(case_text);
  if (!c.ok()) return c.status();
  f.c = *std::move(c);
  return f;
}

absl::StatusOr<Fixture> ReadFixtureFile(const std::string& path) {
  // Fixtures are a few KiB; the cap keeps a wrong path (/dev/zero) harmless.
  absl::StatusOr<std::string> text = scenario::ReadFileCapped(path, 1 << 20, "fixture");
  if (!text.ok()) return text.status();
  absl::StatusOr<Fixture> f = ParseFixture(*text);
  if (!f.ok()) return absl::InvalidArgumentError(absl::StrCat(path, ": ", f.status().message()));
  return f;
}

std::string FixtureFileName(const Fixture& f) {
  return absl::StrFormat("%s-%012x.fixture", f.property, Fnv1a(FormatCase(f.c)) & 0xffffffffffffULL);
}

}  // namespace sendsim::props
