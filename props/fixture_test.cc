#include "props/fixture.h"

#include "gtest/gtest.h"
#include "props/registry.h"

namespace sendsim::props {
namespace {

TEST(FixtureTest, RoundTripsEveryField) {
  Fixture f;
  f.property = "dominance_notlast_legacy";
  f.expect = Verdict::kFails;
  f.also_holds = {"integrity", "liveness"};
  f.found_by = "explore --property=dominance_notlast_legacy --seed=3 case=17";
  f.reproduce = "BCHgHkAbCd";
  f.outcome = {"v1-notlast: packets=7 sub_mss=2\nv1-legacy: packets=6 sub_mss=1"};
  f.notes = {"ACK between page calls"};
  f.c.net.kernel = "linux-4.19";
  f.c.writer = WriterKind::kV1Notlast;
  f.c.layout.messages.push_back(MessageLayout{196, 0, {DataItem{DataLayout::kPages, 0, 8192, {}}}});
  absl::StatusOr<Fixture> back = ParseFixture(FormatFixture(f));
  ASSERT_TRUE(back.ok()) << back.status() << "\n" << FormatFixture(f);
  EXPECT_EQ(back->property, f.property);
  EXPECT_EQ(back->expect, f.expect);
  EXPECT_EQ(back->also_holds, f.also_holds);
  EXPECT_EQ(back->found_by, f.found_by);
  EXPECT_EQ(back->reproduce, f.reproduce);
  EXPECT_EQ(back->outcome.size(), 2u);  // one line per outcome line
  EXPECT_EQ(back->notes, f.notes);
  EXPECT_EQ(back->c, f.c);
  EXPECT_EQ(FixtureFileName(f), FixtureFileName(*back));
  EXPECT_EQ(FixtureFileName(f).rfind("dominance_notlast_legacy-", 0), 0u);
}

TEST(FixtureTest, RejectsIncompleteOrUnknownLines) {
  EXPECT_FALSE(ParseFixture("property: integrity\ncase:\nprofile linux-4.19\nwriter v2\nmessage items=\n").ok());
  EXPECT_FALSE(ParseFixture("property: integrity\nexpect: maybe\ncase:\n").ok());
  EXPECT_FALSE(ParseFixture("property: integrity\nexpect: holds\nbogus: 1\ncase:\n").ok());
  EXPECT_FALSE(ReadFixtureFile("/nonexistent/x.fixture").ok());
}

TEST(RegistryTest, NamesAreUniqueAndFindable) {
  std::vector<PropertySpec> all = AllProperties();
  EXPECT_GE(all.size(), 9u);
  for (const PropertySpec& p : all) {
    absl::StatusOr<PropertySpec> q = PropertyByName(p.name);
    ASSERT_TRUE(q.ok()) << p.name;
    EXPECT_EQ(q->summary, p.summary);
  }
  EXPECT_FALSE(PropertyByName("no_such_property").ok());
}

}  // namespace
}  // namespace sendsim::props
