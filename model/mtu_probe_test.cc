// tcp_mtu_probing=2: tcp_mtup_init's clamp, tcp_mtu_probe, tcp_mtup_probe_success.

#include "gtest/gtest.h"
#include "model/constants.h"
#include "model/tcp_sock.h"
#include "model/testing/sender_context.h"

namespace sendsim::model {
namespace {

using testing::SenderContext;

// MSS 1448 with timestamps on MTU 1500 (peer MSS 1460). tcp_mtup_init:
// search_low = tcp_mss_to_mtu(1024) = 1024 + 20 + 12 + 20 = 1076, search_high =
// 1460 + 40 = 1500; tcp_sync_mss clamps the MSS to 1024. With initcwnd 12
// (tcp_mtu_probe needs cwnd >= 11) a 20000-byte write is probed first:
// probe = tcp_mtu_to_mss((1500 + 1076) / 2 = 1288) = 1288 - 40 - 12 = 1236
// bytes, needing 1236 + 4 * 1024 unsent bytes; the probe is one segment (no
// gso_size) and costs one cwnd. Its ACK makes search_low 1288 and the MSS 1236.
TEST(MtuProbe, ClampsThenProbesTheMidpoint) {
  SenderContext::Options o;
  o.config.sysctl.mtu_probing = 2;
  o.config.initcwnd = 12;
  SenderContext ctx(o);
  EXPECT_EQ(ctx.sock().mss_cache(), 1024u);
  ASSERT_EQ(ctx.SendMsg(20000, 0), 20000);
  ASSERT_FALSE(ctx.skbs().empty());
  EXPECT_EQ(ctx.skbs()[0].seq, 0u);
  EXPECT_EQ(ctx.skbs()[0].len, 1236u);
  EXPECT_EQ(ctx.skbs()[0].gso_size, 0u);
  EXPECT_TRUE(ctx.sock().CheckInvariants().ok()) << ctx.sock().CheckInvariants();
  ctx.AtUs(100);
  ctx.Ack(1236);
  EXPECT_EQ(ctx.sock().mss_cache(), 1236u);
  EXPECT_TRUE(ctx.sock().CheckInvariants().ok()) << ctx.sock().CheckInvariants();
}

// tcp_mtu_probing 0 and 1 leave the MSS alone (icsk_mtup.enabled needs > 1),
// and too little unsent data means no probe.
TEST(MtuProbe, OffBelowTwoAndWithoutEnoughData) {
  for (uint32_t level : {0u, 1u}) {
    SenderContext::Options o;
    o.config.sysctl.mtu_probing = level;
    SenderContext ctx(o);
    EXPECT_EQ(ctx.sock().mss_cache(), 1448u);
  }
  SenderContext::Options o;
  o.config.sysctl.mtu_probing = 2;
  o.config.initcwnd = 12;
  SenderContext ctx(o);
  ASSERT_EQ(ctx.SendMsg(5000, 0), 5000);  // < 1236 + 4 * 1024
  ASSERT_FALSE(ctx.skbs().empty());
  EXPECT_EQ(ctx.skbs()[0].gso_size, 1024u);
}

}  // namespace
}  // namespace sendsim::model
