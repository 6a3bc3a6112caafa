#include "packetdrill/config.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace sendsim::packetdrill {
namespace {

using ::testing::HasSubstr;

TEST(ConfigTest, DefaultsShBaseline) {
  Settings s;
  ASSERT_TRUE(ApplyCommand("../common/defaults.sh", &s).ok());
  EXPECT_EQ(s.tcp_wmem[1], 262144u);
  EXPECT_EQ(s.tcp_wmem[2], 4194304u);
  EXPECT_EQ(s.tcp_rmem[1], 540000u);
  EXPECT_EQ(s.tcp_rmem[2], 15728640u);
  EXPECT_EQ(s.tcp_slow_start_after_idle, 0);
  EXPECT_EQ(s.tcp_tso_win_divisor, 3u);
  EXPECT_EQ(s.tcp_notsent_lowat, UINT32_MAX);
  EXPECT_EQ(s.tcp_congestion_control, "cubic");
  EXPECT_EQ(s.qdisc, "pfifo");
}

// The restore script puts back what the latest set_sysctls.py call changed,
// and nothing else; without a call it does not exist (a FAIL, not a SKIP).
TEST(ConfigTest, SetSysctlsAndRestore) {
  Settings s;
  ASSERT_TRUE(ApplyCommand("../common/defaults.sh", &s).ok());
  EXPECT_EQ(ApplyCommand("/tmp/sysctl_restore_${PPID}.sh", &s).code(), absl::StatusCode::kFailedPrecondition);
  ASSERT_TRUE(ApplyCommand("../common/set_sysctls.py /proc/sys/net/ipv4/tcp_min_tso_segs=4 "
                           "/proc/sys/net/ipv4/tcp_wmem='4096 65536 131072'",
                           &s)
                  .ok());
  EXPECT_EQ(s.tcp_min_tso_segs, 4u);
  EXPECT_EQ(s.tcp_wmem[1], 65536u);
  ASSERT_TRUE(ApplyCommand("sysctl -q net.ipv4.tcp_autocorking=0", &s).ok());
  ASSERT_TRUE(ApplyCommand("/tmp/sysctl_restore_${PPID}.sh", &s).ok());
  EXPECT_EQ(s.tcp_min_tso_segs, 2u);
  EXPECT_EQ(s.tcp_wmem[1], 262144u);
  EXPECT_EQ(s.tcp_wmem[2], 4194304u);
  EXPECT_EQ(s.tcp_autocorking, 0);  // not set by set_sysctls.py: stays
}

// Values the kernel reads in hex are accepted; a Fast Open mode the model
// does not have is a SKIP that names the sysctl and value.
TEST(ConfigTest, HexValuesAndUnmodelledFastOpen) {
  Settings s;
  ASSERT_TRUE(ApplyCommand("sysctl -q net.ipv4.tcp_min_tso_segs=0x10", &s).ok());
  EXPECT_EQ(s.tcp_min_tso_segs, 16u);
  EXPECT_TRUE(ApplyCommand("sysctl -q net.ipv4.tcp_fastopen=1", &s).ok());
  absl::Status st = ApplyCommand("../common/set_sysctls.py /proc/sys/net/ipv4/tcp_fastopen=0x202", &s);
  EXPECT_EQ(st.code(), absl::StatusCode::kUnimplemented) << st;
  EXPECT_THAT(st.message(), HasSubstr("tcp_fastopen=0x202"));
  EXPECT_EQ(ApplyCommand("sysctl -q net.ipv4.tcp_min_tso_segs=0xZ", &s).code(), absl::StatusCode::kInvalidArgument);
}

TEST(ConfigTest, KernelDefaultsWithoutBaseline) {
  Settings s;
  EXPECT_EQ(s.tcp_slow_start_after_idle, 1);
  EXPECT_EQ(s.tcp_wmem[1], 16384u);
}

TEST(ConfigTest, MultiLineInitCommand) {
  Settings s;
  absl::Status st = ApplyCommand(R"(../common/defaults.sh
sysctl -q net.ipv4.tcp_min_tso_segs=10 ; sysctl -q net.ipv4.tcp_wmem="4096 65536 131072"
../common/set_sysctls.py /proc/sys/net/ipv4/tcp_notsent_lowat=32768 /proc/sys/net/ipv4/tcp_timestamps=0
ethtool -K tun0 tso off gso off
ip route change 192.0.2.0/24 via 192.168.0.1 dev tun0 advmss 1000 mtu lock 1040 initcwnd 4
dd if=/dev/zero of=/tmp/sendfile.bin bs=1K count=40 status=none
)",
                                 &s);
  ASSERT_TRUE(st.ok()) << st;
  EXPECT_EQ(s.tcp_min_tso_segs, 10u);
  EXPECT_EQ(s.tcp_wmem[0], 4096u);
  EXPECT_EQ(s.tcp_wmem[1], 65536u);
  EXPECT_EQ(s.tcp_wmem[2], 131072u);
  EXPECT_EQ(s.tcp_notsent_lowat, 32768u);
  EXPECT_EQ(s.tcp_timestamps, 0);
  EXPECT_FALSE(s.tso);
  EXPECT_FALSE(s.gso);
  EXPECT_EQ(s.route_advmss, 1000u);
  EXPECT_EQ(s.route_mtu, 1040u);
  EXPECT_TRUE(s.route_mtu_lock);
  EXPECT_EQ(s.route_initcwnd, 4u);
  ASSERT_EQ(s.files.count("/tmp/sendfile.bin"), 1u);
  EXPECT_EQ(s.files["/tmp/sendfile.bin"], 40u * 1024);
}

TEST(ConfigTest, AndChainsAndComments) {
  Settings s;
  ASSERT_TRUE(ApplyCommand("sysctl -q net.ipv4.tcp_autocorking=0 && sysctl -w net.ipv4.tcp_sack=0 # no sack", &s).ok());
  EXPECT_EQ(s.tcp_autocorking, 0);
  EXPECT_EQ(s.tcp_sack, 0);
}

TEST(ConfigTest, UnsupportedCommandsAreUnimplementedWithReason) {
  struct Case {
    const char* cmd;
    const char* reason;
  };
  for (const Case& c : {Case{"tc qdisc replace dev tun0 root fq", "unsupported command: tc qdisc"},
                        Case{"sysctl -q net.ipv4.tcp_reordering=10", "sysctl net.ipv4.tcp_reordering is not modelled"},
                        Case{"sysctl -q net.core.somaxconn=1000", "sysctl net.core.somaxconn is not modelled"},
                        Case{"sysctl -q net.ipv4.tcp_congestion_control=bbr", "congestion control 'bbr'"},
                        Case{"ip route change 10.0.0.0/8 rto_min 5", "route metric rto_min"},
                        Case{"ethtool -K tun0 sg off", "ethtool feature sg"},
                        Case{"python3 -c 'print(1)'", "unsupported command: python3"}}) {
    Settings s;
    absl::Status st = ApplyCommand(c.cmd, &s);
    EXPECT_EQ(st.code(), absl::StatusCode::kUnimplemented) << c.cmd;
    EXPECT_THAT(std::string(st.message()), HasSubstr(c.reason)) << c.cmd;
  }
}

TEST(ConfigTest, WmemMaxAndMtuProbingSysctls) {
  Settings s;
  ASSERT_TRUE(ApplyCommand("sysctl -q net.core.wmem_max=1000", &s).ok());
  EXPECT_EQ(s.wmem_max, 1000u);
  ASSERT_TRUE(ApplyCommand("sysctl -q net.ipv4.tcp_base_mss=512 net.ipv4.tcp_probe_threshold=16", &s).ok());
  EXPECT_EQ(s.tcp_base_mss, 512u);
  EXPECT_EQ(s.tcp_probe_threshold, 16u);
}

TEST(ConfigTest, MalformedRecognisedCommandsAreInvalid) {
  for (const char* cmd : {"sysctl -q net.ipv4.tcp_wmem=\"1 2\"", "sysctl -q net.ipv4.tcp_min_tso_segs=x",
                          "ip route change default advmss", "ethtool -K tun0 tso maybe",
                          "dd if=/dev/zero of=/tmp/x bs=1 count=zz"}) {
    Settings s;
    EXPECT_EQ(ApplyCommand(cmd, &s).code(), absl::StatusCode::kInvalidArgument) << cmd;
  }
}

TEST(ConfigTest, HarmlessSysctlsAndLinkMtu) {
  Settings s;
  EXPECT_TRUE(ApplyCommand("sysctl -q net.ipv4.tcp_syncookies=0", &s).ok());
  EXPECT_EQ(s.tcp_ecn, 2);
  EXPECT_TRUE(ApplyCommand("sysctl -q net.ipv4.tcp_ecn=1", &s).ok());
  EXPECT_EQ(s.tcp_ecn, 1);
  EXPECT_TRUE(ApplyCommand("sysctl -q net.ipv4.tcp_ecn=0", &s).ok());
  EXPECT_EQ(s.tcp_ecn, 0);
  EXPECT_EQ(ApplyCommand("sysctl -q net.ipv4.tcp_ecn=3", &s).code(), absl::StatusCode::kUnimplemented);
  EXPECT_TRUE(ApplyCommand("sysctl -q net.core.rmem_max=1000000", &s).ok());
  EXPECT_EQ(s.rmem_max, 1000000u);
  EXPECT_TRUE(ApplyCommand("ip link set dev tun0 mtu 1200", &s).ok());
  EXPECT_EQ(s.route_mtu, 1200u);
  EXPECT_EQ(ApplyCommand("ip link set dev tun0 down", &s).code(), absl::StatusCode::kUnimplemented);
}

// `ip route change` replaces the route: metrics it does not name go, and
// without an mtu the route's MTU is the device's again (here 1200).
TEST(ApplyCommand, RouteChangeReplacesTheMetrics) {
  Settings s;
  ASSERT_TRUE(ApplyCommand("ip link set dev tun0 mtu 1200", &s).ok());
  ASSERT_TRUE(ApplyCommand("ip route change 192.0.2.0/24 dev tun0 advmss 900 mtu 1000 initcwnd 4", &s).ok());
  EXPECT_EQ(s.route_mtu, 1000u);
  EXPECT_TRUE(s.route_mtu_metric);
  EXPECT_EQ(s.route_initcwnd, 4u);
  ASSERT_TRUE(ApplyCommand("ip route change 192.0.2.0/24 dev tun0 advmss 800", &s).ok());
  EXPECT_EQ(s.route_advmss, 800u);
  EXPECT_EQ(s.route_mtu, 1200u);
  EXPECT_FALSE(s.route_mtu_metric);
  EXPECT_FALSE(s.route_initcwnd.has_value());
  EXPECT_EQ(s.route_adds, 0u);
  ASSERT_TRUE(ApplyCommand("ip route add 192.0.2.1 dev tun0 mtu 900", &s).ok());
  EXPECT_EQ(s.route_adds, 1u);
}

TEST(ConfigTest, RemovingACreatedFileIsHarmless) {
  Settings s;
  ASSERT_TRUE(ApplyCommand("dd if=/dev/zero of=/tmp/f bs=1 count=10", &s).ok());
  EXPECT_TRUE(ApplyCommand("rm -f /tmp/f", &s).ok());
  EXPECT_EQ(ApplyCommand("rm -rf /", &s).code(), absl::StatusCode::kUnimplemented);
}

// Upstream's sendfile scripts prepare their file with `/bin/rm -f` and dd by
// path: the effect on the script's files is modelled, whatever the path.
TEST(ConfigTest, ProgramsByPathAndFilePreparation) {
  Settings s;
  EXPECT_TRUE(ApplyCommand("/bin/rm -f /tmp/testfile", &s).ok());  // missing: nothing to remove
  EXPECT_TRUE(ApplyCommand("/bin/dd if=/dev/zero of=/tmp/testfile bs=1000 count=3 2>/dev/null", &s).ok());
  EXPECT_EQ(s.files["/tmp/testfile"], 3000u);
  EXPECT_TRUE(ApplyCommand("/usr/bin/truncate -s 64K /tmp/other", &s).ok());
  EXPECT_EQ(s.files["/tmp/other"], 65536u);
  EXPECT_TRUE(ApplyCommand("/bin/rm /tmp/testfile", &s).ok());
  EXPECT_EQ(s.files.count("/tmp/testfile"), 0u);
  EXPECT_EQ(ApplyCommand("rm /tmp/never-created", &s).code(), absl::StatusCode::kUnimplemented);
  EXPECT_EQ(ApplyCommand("rm -rf /tmp/dir", &s).code(), absl::StatusCode::kUnimplemented);
  EXPECT_EQ(ApplyCommand("/sbin/sysctl -q net.ipv4.tcp_autocorking=0", &s).code(), absl::StatusCode::kOk);
  EXPECT_EQ(ApplyCommand("/usr/local/bin/frobnicate", &s).code(), absl::StatusCode::kUnimplemented);
}

}  // namespace
}  // namespace sendsim::packetdrill
