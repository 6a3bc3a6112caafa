#include "tools/kernelcmp/call_trace.h"

#include <vector>

#include "gtest/gtest.h"

namespace sendsim::kernelcmp {
namespace {

// Lines as the 6.18 testbed printed them (tid 2560 on socket 5, devices
// kc-s / kc-r), cut to the fields the parser reads. Expected by hand:
//  - a 246-byte send at 22200.010000 s, back at .010001: 1 us, nothing sent;
//  - a 4096-byte send .010005 .. .010009: 4 us, two packets sent in it;
//  - another thread's send (2559) and a send on another socket (fd 7) are
//    left out, and so are the packets between calls;
//  - a splice from the file into a pipe (fd_out 9) is not a socket call;
//    the splice into the socket (fd_out 5) .010030 .. .010042 is: 12 us,
//    one packet sent and one taken by the receiving side in its context
//    (ksoftirqd's is another thread's);
//  - setsockopt(TCP_CORK) on the socket .010050 .. .010052: 2 us.
constexpr char kTrace[] =
    "# tracer: nop\n"
    "       kernelcmp-2560    [000] ..... 22200.010000: sys_sendto(fd: 5, buff: 0x7fae4c002700, len: 0xf6, "
    "flags: 0xc040, addr: 0, addr_len: 0)\n"
    "       kernelcmp-2560    [000] ..... 22200.010001: sys_sendto -> 0xf6\n"
    "       kernelcmp-2560    [000] ..... 22200.010005: sys_sendto(fd: 5, buff: 0x7fae4c002800, len: 0x1000, "
    "flags: 0xc040, addr: 0, addr_len: 0)\n"
    "       kernelcmp-2560    [000] b.... 22200.010007: net_dev_start_xmit: dev=kc-s queue_mapping=0 "
    "skbaddr=00000000af4e9239 len=1514\n"
    "       kernelcmp-2560    [000] b.... 22200.010007: net_dev_start_xmit: dev=kc-s queue_mapping=0 "
    "skbaddr=00000000d72a7447 len=1514\n"
    "       kernelcmp-2559    [001] ..... 22200.010008: sys_sendto(fd: 5, buff: 0x1, len: 0x1, flags: 0x0, addr: 0, "
    "addr_len: 0)\n"
    "       kernelcmp-2559    [001] ..... 22200.010020: sys_sendto -> 0x1\n"
    "       kernelcmp-2560    [000] ..... 22200.010009: sys_sendto -> 0x1000\n"
    "       kernelcmp-2560    [000] b.... 22200.010010: net_dev_start_xmit: dev=kc-s queue_mapping=0 "
    "skbaddr=00000000aaaaaaaa len=1514\n"
    "       kernelcmp-2560    [000] ..... 22200.010011: sys_sendmsg(fd: 7, msg: 0x1, flags: 0x0)\n"
    "       kernelcmp-2560    [000] ..... 22200.010015: sys_sendmsg -> 0x10\n"
    "       kernelcmp-2560    [000] ..... 22200.010020: sys_splice(fd_in: 0x6, off_in: 0x7ffd, fd_out: 0x9, "
    "off_out: 0, len: 0x10000, flags: 0x4)\n"
    "       kernelcmp-2560    [000] ..... 22200.010025: sys_splice -> 0x10000\n"
    "       kernelcmp-2560    [000] ..... 22200.010030: sys_splice(fd_in: 0x8, off_in: 0, fd_out: 0x5, "
    "off_out: 0, len: 0x10000, flags: 0x4)\n"
    "       kernelcmp-2560    [000] b.... 22200.010031: net_dev_start_xmit: dev=kc-s queue_mapping=0 "
    "skbaddr=00000000bbbbbbbb len=1514\n"
    "       kernelcmp-2560    [000] ..s1. 22200.010033: netif_receive_skb: dev=kc-r skbaddr=00000000bbbbbbbb "
    "len=1500\n"
    "     ksoftirqd/0-14      [000] ..s.. 22200.010034: netif_receive_skb: dev=kc-r skbaddr=00000000cccccccc "
    "len=1500\n"
    "       kernelcmp-2560    [000] ..... 22200.010042: sys_splice -> 0x10000\n"
    "       kernelcmp-2560    [000] ..... 22200.010050: sys_setsockopt(fd: 5, level: 0x6, optname: 0x3, "
    "optval: 0x7ffd, optlen: 0x4)\n"
    "       kernelcmp-2560    [000] ..... 22200.010052: sys_setsockopt -> 0x0\n";

TEST(ParseCallHolds, PairsTheThreadsCallsOnItsSocket) {
  absl::StatusOr<std::vector<CallHold>> h = ParseCallHolds(kTrace, 2560, 5, "kc-s", "kc-r");
  ASSERT_TRUE(h.ok()) << h.status();
  EXPECT_EQ(*h, (std::vector<CallHold>{{1'000, 0, 0}, {4'000, 2, 0}, {12'000, 1, 1}, {2'000, 0, 0}}));
}

TEST(ParseCallHolds, MalformedSyscallLineIsAnError) {
  EXPECT_FALSE(ParseCallHolds("  kernelcmp-2560 [000] ..... 22200.010000: sys_sendto(buff: 0x1)\n", 2560, 5,
                              "kc-s", "kc-r")
                   .ok());
  EXPECT_FALSE(ParseCallHolds("garbage: sys_sendto(fd: 5)\n", 2560, 5, "kc-s", "kc-r").ok());
}

// The four calls above: mean (1 + 4 + 12 + 2) / 4 = 4.75 us. The splice
// took receive processing inline, so the fit runs over (segments, us) =
// (0, 1), (2, 4), (0, 2): n = 3, sx = 2, sy = 7, sxx = 4, sxy = 8, slope
// (3*8 - 2*7) / (3*4 - 2*2) = 1.25 us, base (7 - 1.25*2) / 3 = 1.5 us. The
// fit needs 20 samples: seven copies (21 fitted calls) give the same line.
TEST(SummarizeHolds, MeanAndFitOverCallsWithoutReceiveWork) {
  std::vector<CallHold> h;
  for (int i = 0; i < 7; ++i) {
    h.push_back({1'000, 0, 0});
    h.push_back({4'000, 2, 0});
    h.push_back({12'000, 1, 1});
    h.push_back({2'000, 0, 0});
  }
  const HoldSummary s = SummarizeHolds(h);
  EXPECT_EQ(s.calls, 28u);
  EXPECT_DOUBLE_EQ(s.mean_ns, 4'750.0);
  EXPECT_EQ(s.calls_with_receive, 7u);
  EXPECT_DOUBLE_EQ(s.fit.mean_cpu_ns(), 7'000.0 / 3);  // without receive work: (1 + 4 + 2) / 3 us
  double base = 0, per = 0;
  ASSERT_TRUE(s.fit.Fit(&base, &per));
  EXPECT_NEAR(base, 1'500.0, 1e-6);
  EXPECT_NEAR(per, 1'250.0, 1e-6);
}

}  // namespace
}  // namespace sendsim::kernelcmp
