#include "tools/kernelcmp/netstat.h"

#include "gtest/gtest.h"

namespace sendsim::kernelcmp {
namespace {

TEST(ParseNetstat, PairsHeaderAndValueLines) {
  absl::StatusOr<std::map<std::string, uint64_t>> m = ParseNetstat(
      "TcpExt: SyncookiesSent TCPAutoCorking\n"
      "TcpExt: 0 1234\n"
      "IpExt: InNoRoutes\n"
      "IpExt: 7\n");
  ASSERT_TRUE(m.ok()) << m.status();
  EXPECT_EQ(m->at("TcpExt.TCPAutoCorking"), 1234u);
  EXPECT_EQ(m->at("TcpExt.SyncookiesSent"), 0u);
  EXPECT_EQ(m->at("IpExt.InNoRoutes"), 7u);
  EXPECT_EQ(m->size(), 3u);
}

TEST(ParseNetstat, MismatchIsAnError) {
  EXPECT_FALSE(ParseNetstat("TcpExt: A B\nTcpExt: 1\n").ok());
  EXPECT_FALSE(ParseNetstat("TcpExt: A\nIpExt: 1\n").ok());
  EXPECT_FALSE(ParseNetstat("TcpExt: A\n").ok());
  EXPECT_FALSE(ParseNetstat("TcpExt: A\nTcpExt: x\n").ok());
}

// The real file parses, and has the counter kernelcmp reads.
TEST(ReadNetstat, ThisMachine) {
  absl::StatusOr<std::map<std::string, uint64_t>> m = ReadNetstat();
  if (!m.ok()) GTEST_SKIP() << m.status();
  EXPECT_TRUE(m->count("TcpExt.TCPAutoCorking"));
}

}  // namespace
}  // namespace sendsim::kernelcmp
