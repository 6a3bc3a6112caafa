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
  absl::StatusOr<std::vector<int64_t>> d = ParseDelayTrace(kTrace, "kc-s", "kc-r");
  ASSERT_TRUE(d.ok()) << d.status();
  EXPECT_EQ(*d, (std::vector<int64_t>{20'000, 53'000, 2'000}));
}

TEST(ParseDelayTrace, MalformedEventLineIsAnError) {
  EXPECT_FALSE(ParseDelayTrace("  x-1 [000] b.... 12.5: net_dev_start_xmit: dev=kc-s skbaddr=1 len=1514\n",
                               "kc-s", "kc-r")
                   .ok());
  EXPECT_FALSE(
      ParseDelayTrace("  x-1 [000] b.... 12.000005: net_dev_start_xmit: queue_mapping=0 len=1514\n", "kc-s", "kc-r")
          .ok());
}

// Sorted {2, 20, 53} us: p5 = element 3*5/100 = 0 -> 2 us, median = element
// 1 -> 20 us, mean = 75 / 3 = 25 us.
TEST(SummarizeDelays, RankPercentilesAndMean) {
  const DelaySummary s = SummarizeDelays({20'000, 53'000, 2'000});
  EXPECT_EQ(s.packets, 3u);
  EXPECT_EQ(s.p5_ns, 2'000);
  EXPECT_EQ(s.median_ns, 20'000);
  EXPECT_EQ(s.mean_ns, 25'000);
  EXPECT_EQ(SummarizeDelays({}).packets, 0u);
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
