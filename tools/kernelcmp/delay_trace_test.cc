#include "tools/kernelcmp/delay_trace.h"

#include <sys/stat.h>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

#include "gtest/gtest.h"

namespace sendsim::kernelcmp {
namespace {

// Lines in ftrace's format (as the 6.18 testbed prints them, fields cut).
constexpr char kTrace[] =
    "# tracer: nop\n"
    "#\n"
    "  kernelcmp-1 [000] b....  9203.007068: net_dev_start_xmit: dev=kc-s queue_mapping=0 skbaddr=00000000aaaa vlan_tagged=0 len=1514\n"
    "  kernelcmp-1 [000] b....  9203.007070: net_dev_start_xmit: dev=kc-s queue_mapping=0 skbaddr=00000000bbbb vlan_tagged=0 len=1514\n"
    "  kernelcmp-2 [001] ..s..  9203.007088: netif_receive_skb: dev=kc-r skbaddr=00000000aaaa len=1500\n"
    "  kernelcmp-2 [001] ..s..  9203.007090: net_dev_start_xmit: dev=kc-r queue_mapping=0 skbaddr=00000000cccc vlan_tagged=0 len=130\n"
    "  kernelcmp-1 [000] ..s..  9203.007095: netif_receive_skb: dev=kc-s skbaddr=00000000cccc len=116\n"
    "  kernelcmp-2 [001] ..s..  9203.007123: netif_receive_skb: dev=kc-r skbaddr=00000000bbbb len=1500\n"
    "  kernelcmp-1 [000] b....  9203.007200: net_dev_start_xmit: dev=kc-s queue_mapping=0 skbaddr=00000000dddd vlan_tagged=0 len=1514\n"
    "  kernelcmp-1 [000] b....  9203.008000: net_dev_start_xmit: dev=kc-s queue_mapping=0 skbaddr=00000000aaaa vlan_tagged=0 len=1514\n"
    "  kernelcmp-2 [001] ..s..  9203.008002: netif_receive_skb: dev=kc-r skbaddr=00000000aaaa len=1500\n";

// aaaa: 7068 -> 7088 = 20 us; bbbb: 7070 -> 7123 = 53 us; cccc goes the
// other way (kc-r -> kc-s) and is ignored; dddd never arrives; aaaa is
// reused: 8000 -> 8002 = 2 us. In order of arrival.
TEST(ParseDelayTrace, PairsSendAndReceiveBySkbAddress) {
  absl::StatusOr<std::vector<DelaySample>> d = ParseDelayTrace(kTrace, "kc-s", "kc-r");
  ASSERT_TRUE(d.ok()) << d.status();
  const int64_t t0 = 9203'000'000'000;
  EXPECT_EQ(*d, (std::vector<DelaySample>{{t0 + 7'068'000, t0 + 7'088'000},
                                          {t0 + 7'070'000, t0 + 7'123'000},
                                          {t0 + 8'000'000, t0 + 8'002'000}}));
}

TEST(ParseDelayTrace, MalformedEventLineIsAnError) {
  EXPECT_FALSE(ParseDelayTrace("  x-1 [000] b.... 12.5: net_dev_start_xmit: dev=kc-s skbaddr=1 len=1514\n",
                               "kc-s", "kc-r")
                   .ok());
  EXPECT_FALSE(
      ParseDelayTrace("  x-1 [000] b.... 12.000005: net_dev_start_xmit: queue_mapping=0 len=1514\n", "kc-s", "kc-r")
          .ok());
}

// Delays {20, 53, 2} us (the parse above), sorted {2, 20, 53}: p5 = element
// 3*5/100 = 0 -> 2 us, median = element 1 -> 20 us, mean = 75 / 3 = 25 us.
TEST(SummarizeDelays, RankPercentilesAndMean) {
  const DelaySummary s = SummarizeDelays({{0, 20'000}, {2'000, 55'000}, {1'000'000, 1'002'000}});
  EXPECT_EQ(s.packets, 3u);
  EXPECT_EQ(s.p5_ns, 2'000);
  EXPECT_EQ(s.median_ns, 20'000);
  EXPECT_EQ(s.mean_ns, 25'000);
  EXPECT_EQ(SummarizeDelays({}).packets, 0u);
}

// The queue view, in us, (sent, taken) in the order taken:
//   (0, 20)     first: idle, delay 20
//   (1, 21)     sent before 20: queued, gap 1
//   (2, 22)     queued, gap 1
//   (100, 130)  sent after 22 + service: idle, delay 30
//   (101, 133)  queued, gap 3
// Service = mean of the gaps {1, 1, 3} (3 * 5 / 100 = 0 left out) = 5/3 us
// = 1667 ns. Delays sorted {20, 20, 20, 30, 32}: p5 = 20 us. Idle: sent
// after the previous take + service (100 > 22 + 1.667). Wakeup = mean idle
// delay (20 + 30) / 2 - p5 = 5 us.
TEST(SummarizeDelays, ReceivingCpuAsAQueue) {
  const DelaySummary s = SummarizeDelays(
      {{0, 20'000}, {1'000, 21'000}, {2'000, 22'000}, {100'000, 130'000}, {101'000, 133'000}});
  EXPECT_EQ(s.p5_ns, 20'000);
  EXPECT_EQ(s.rx_service_ns, 1'667);
  EXPECT_EQ(s.idle_packets, 2u);
  EXPECT_EQ(s.rx_wakeup_ns, 5'000);
  // Deferred: idle packets taken more than 3 us beyond p5: (100, 130) only,
  // 30 - 20 = 10 us; (0, 20) was taken at p5.
  EXPECT_EQ(s.deferred_packets, 1u);
  EXPECT_EQ(s.rx_deferred_ns, 10'000);
}

// Twenty queued gaps: nineteen of 1 us and one interruption of 40 us. The
// top 5 % (20 * 5 / 100 = 1 gap) is left out: service = 1 us.
TEST(SummarizeDelays, ServiceLeavesOutInterruptions) {
  std::vector<DelaySample> v = {{0, 10'000}};
  for (int i = 1; i <= 20; ++i) {
    const int64_t recv = v.back().recv_ns + (i == 7 ? 40'000 : 1'000);
    v.push_back({i * 100, recv});  // all sent long before they are taken
  }
  EXPECT_EQ(SummarizeDelays(v).rx_service_ns, 1'000);
}

std::string Slurp(const std::string& path) {
  std::ifstream f(path);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

void Put(const std::string& path, const std::string& text) { std::ofstream(path) << text; }

// Against a fake tracefs tree: Start turns the two events on with the data
// filter and a bigger ring; Stop parses the trace and puts everything back
// (the ring at the size it had, "expanded" form included).
TEST(DelayTrace, StartsAndRestoresTracefs) {
  const std::string root = std::string(getenv("TEST_TMPDIR")) + "/tracefs";
  for (const std::string& d : {root, root + "/events", root + "/events/net",
                               root + "/events/net/net_dev_start_xmit", root + "/events/net/netif_receive_skb"}) {
    mkdir(d.c_str(), 0755);
  }
  // tracefs files always exist; writes never create them.
  for (const char* e : {"net_dev_start_xmit", "netif_receive_skb"}) {
    Put(root + "/events/net/" + e + "/enable", "0");
    Put(root + "/events/net/" + e + "/filter", "none");
  }
  Put(root + "/buffer_size_kb", "7 (expanded: 1408)\n");
  Put(root + "/trace", "old\n");
  CleanupStack cleanup;
  absl::StatusOr<DelayTrace> t = DelayTrace::Start(root, &cleanup);
  ASSERT_TRUE(t.ok()) << t.status();
  EXPECT_EQ(Slurp(root + "/buffer_size_kb"), "16384");
  EXPECT_EQ(Slurp(root + "/trace"), "");
  EXPECT_EQ(Slurp(root + "/events/net/net_dev_start_xmit/enable"), "1");
  EXPECT_EQ(Slurp(root + "/events/net/netif_receive_skb/filter"), "len > 100");
  Put(root + "/trace", kTrace);
  absl::StatusOr<DelaySummary> s = t->Stop("kc-s", "kc-r");
  ASSERT_TRUE(s.ok()) << s.status();
  EXPECT_EQ(s->packets, 3u);
  EXPECT_EQ(s->mean_ns, 25'000);
  EXPECT_EQ(Slurp(root + "/buffer_size_kb"), "1408");
  EXPECT_EQ(Slurp(root + "/trace"), "");
  EXPECT_EQ(Slurp(root + "/events/net/net_dev_start_xmit/enable"), "0");
  EXPECT_EQ(Slurp(root + "/events/net/netif_receive_skb/filter"), "0");
}

}  // namespace
}  // namespace sendsim::kernelcmp
