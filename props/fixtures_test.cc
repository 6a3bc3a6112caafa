// Replays every saved fixture (testdata/fixtures/*.fixture, passed as
// arguments by props/BUILD) on every `bazel test`: the property must still
// give the recorded verdict, and every property listed in also_holds must
// hold on the case. A fixture whose counterexample disappears fails too, so
// that a model change that alters a known mechanism gets a human look.

#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "props/fixture.h"
#include "props/registry.h"
#include "props/run_case.h"

namespace sendsim::props {
namespace {

std::vector<std::string>* fixture_files = nullptr;

TEST(Fixtures, ThereAreFixtures) { ASSERT_NE(fixture_files, nullptr); EXPECT_FALSE(fixture_files->empty()); }

// Every file is replayed even when another one is broken: a file that does
// not parse, or names an unknown property, is one failure line naming it.
TEST(Fixtures, EveryFixtureReplays) {
  ASSERT_NE(fixture_files, nullptr);
  for (const std::string& path : *fixture_files) {
    SCOPED_TRACE(path);
    absl::StatusOr<Fixture> f = ReadFixtureFile(path);
    if (!f.ok()) {
      ADD_FAILURE() << path << ": " << f.status().message();
      continue;
    }
    absl::StatusOr<PropertySpec> spec = PropertyByName(f->property);
    if (!spec.ok()) {
      ADD_FAILURE() << path << ": " << spec.status().message();
      continue;
    }
    PropertyResult r = spec->check(f->c, RunCase);
    EXPECT_EQ(r.verdict, f->expect) << "property " << f->property << ": " << VerdictName(r.verdict) << "\n"
                                    << r.detail << "\n" << FormatCase(f->c);
    for (const std::string& weaker : f->also_holds) {
      absl::StatusOr<PropertySpec> w = PropertyByName(weaker);
      if (!w.ok()) {
        ADD_FAILURE() << path << ": also_holds: " << w.status().message();
        continue;
      }
      PropertyResult wr = w->check(f->c, RunCase);
      EXPECT_EQ(wr.verdict, Verdict::kHolds) << weaker << ": " << wr.detail;
    }
  }
}

}  // namespace
}  // namespace sendsim::props

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  static std::vector<std::string> files;
  for (int i = 1; i < argc; ++i) files.emplace_back(argv[i]);
  sendsim::props::fixture_files = &files;
  return RUN_ALL_TESTS();
}
