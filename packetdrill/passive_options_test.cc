// The checks of the options that leave the send path alone, from Linux's
// setsockopt code (do_ip_setsockopt, do_tcp_setsockopt,
// sock_set_timestamping in 6.12).

#include "packetdrill/passive_options.h"

#include "gtest/gtest.h"

namespace sendsim::packetdrill {
namespace {

constexpr int kEinval = -22;

int Check(const char* name, int64_t v, bool connected = false) {
  std::optional<PassiveOption> o = PassiveOptionByName(name);
  EXPECT_TRUE(o.has_value()) << name;
  return o ? o->check(v, connected) : 0;
}

TEST(PassiveOptions, LinuxRanges) {
  EXPECT_EQ(Check("IP_MTU_DISCOVER", 5), 0);        // IP_PMTUDISC_OMIT
  EXPECT_EQ(Check("IP_MTU_DISCOVER", 6), kEinval);
  EXPECT_EQ(Check("IP_MTU_DISCOVER", -1), kEinval);
  EXPECT_EQ(Check("TCP_INQ", 1), 0);
  EXPECT_EQ(Check("TCP_INQ", 2), kEinval);
  // TCP_USER_TIMEOUT reaches the model now (model/user_timeout.cc).
  EXPECT_FALSE(PassiveOptionByName("TCP_USER_TIMEOUT").has_value());
  EXPECT_EQ(Check("SO_MARK", -5), 0);
}

TEST(PassiveOptions, TimestampingFlags) {
  const int64_t kOptId = 1 << 7, kTsonly = 1 << 11, kStats = 1 << 12, kOptIdTcp = 1 << 16;
  EXPECT_EQ(Check("SO_TIMESTAMPING", kOptId, false), kEinval);  // listener or unconnected
  EXPECT_EQ(Check("SO_TIMESTAMPING", kOptId, true), 0);
  EXPECT_EQ(Check("SO_TIMESTAMPING", kOptIdTcp, true), kEinval);  // without OPT_ID
  EXPECT_EQ(Check("SO_TIMESTAMPING", kStats, true), kEinval);     // without OPT_TSONLY
  EXPECT_EQ(Check("SO_TIMESTAMPING", kStats | kTsonly, true), 0);
  EXPECT_EQ(Check("SO_TIMESTAMPING", 1 << 18, true), kEinval);    // beyond SOF_TIMESTAMPING_MASK
}

TEST(PassiveOptions, InitialValuesAndUnknownNames) {
  EXPECT_EQ(PassiveOptionByName("IP_MTU_DISCOVER")->initial, 1);  // IP_PMTUDISC_WANT
  EXPECT_EQ(PassiveOptionByName("TCP_INQ")->initial, 0);
  EXPECT_FALSE(PassiveOptionByName("TCP_MD5SIG").has_value());
  EXPECT_FALSE(PassiveOptionByName("TCP_NODELAY").has_value());
}

}  // namespace
}  // namespace sendsim::packetdrill
