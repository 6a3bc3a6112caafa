#include "realsock/compare.h"

#include "gtest/gtest.h"
#include "realsock/capture.h"
#include "realsock/live.h"

namespace sendsim::realsock {
namespace {

TEST(TopSizesTest, CountDescendingThenSizeAscending) {
  const std::map<uint32_t, uint64_t> sizes = {{1448, 90}, {21, 5}, {1200, 5}, {7, 1}};
  const auto top = TopSizes(sizes, 3);
  ASSERT_EQ(top.size(), 3u);
  EXPECT_EQ(top[0], std::make_pair(1448u, uint64_t{90}));
  EXPECT_EQ(top[1], std::make_pair(21u, uint64_t{5}));
  EXPECT_EQ(top[2], std::make_pair(1200u, uint64_t{5}));
}

TEST(RecordingTest, JsonRoundTrip) {
  Recording r;
  r.kernel = "6.1.192";
  r.profile = "linux-5.0";
  r.messages = 200;
  r.shaped = true;
  Figures f;
  f.writer = "v1-notlast";
  f.messages = 200;
  f.packets = 18300;
  f.sub_mss = 400;
  f.retransmitted = 2;
  f.notlast_buffers = 6200;
  f.spliced_buffers = 6400;
  f.eagains = 3;
  f.sizes = {{1448, 17900}, {21, 200}, {1200, 200}};
  r.kernel_runs = {f};
  f.packets = 18301;
  r.model_runs = {f};
  absl::StatusOr<Recording> back = RecordingFromJson(RecordingToJson(r));
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(back->kernel, "6.1.192");
  EXPECT_EQ(back->profile, "linux-5.0");
  EXPECT_EQ(back->kernel_runs, r.kernel_runs);
  EXPECT_EQ(back->model_runs, r.model_runs);
  EXPECT_DOUBLE_EQ(back->kernel_runs[0].SubMssPerMessage(), 2.0);
}

TEST(RecordingTest, BadInputIsAnError) {
  EXPECT_FALSE(RecordingFromJson("").ok());
  EXPECT_FALSE(RecordingFromJson("[1]").ok());
  EXPECT_FALSE(RecordingFromJson(R"({"kernel": "x"})").ok());
}

TEST(LiveTest, KernelVersions) {
  EXPECT_EQ(KernelVersion("6.1.0-28-amd64"), 6001);
  EXPECT_EQ(KernelVersion("6.12.118"), 6012);
  EXPECT_EQ(KernelVersion("6.18.44-fc-v1252"), 6018);
  EXPECT_EQ(KernelVersion("garbage"), 0);
}

TEST(LiveTest, ProfilesKeepThePageSendInterface) {
  EXPECT_EQ(ProfileForKernel("6.18.44"), "linux-6.18");
  // ->sendpage kernels map to a sendpage profile, later ones to a later one.
  const std::string p61 = ProfileForKernel("6.1.192");
  EXPECT_TRUE(p61 == "linux-6.1" || p61 == "linux-5.0") << p61;
  const std::string p612 = ProfileForKernel("6.12.118");
  EXPECT_TRUE(p612 == "linux-6.12" || p612 == "linux-6.8") << p612;
  LiveOptions o;
  o.kernel = "6.1.192";
  o.profile = "linux-6.18";
  o.writers = {"v1-notlast"};
  EXPECT_FALSE(ValidateLive(o).ok());  // 6.1 has ->sendpage, the profile does not
  o.profile = p61;
  EXPECT_TRUE(ValidateLive(o).ok());
  o.writers = {"v9"};
  EXPECT_FALSE(ValidateLive(o).ok());
}

TEST(CaptureTest, ParsesIpv4Tcp) {
  uint8_t p[60] = {};
  p[0] = 0x45;        // IPv4, 20-byte header
  p[2] = 0;           // total length 20 + 32 + 8 = 60
  p[3] = 60;
  p[9] = 6;           // TCP
  p[12] = 192, p[13] = 0, p[14] = 2, p[15] = 1;
  p[16] = 192, p[17] = 0, p[18] = 2, p[19] = 2;
  p[20] = 0x9c, p[21] = 0x40;  // port 40000
  p[22] = 0x1a, p[23] = 0x90;  // 6800
  p[24] = 0, p[25] = 0, p[26] = 1, p[27] = 0;  // seq 256
  p[32] = 0x80;       // data offset 8 words = 32 bytes
  p[33] = 0x18;       // PSH|ACK
  kernelcmp::TcpSegment s;
  ASSERT_TRUE(ParseIpv4Tcp(p, sizeof(p), &s));
  EXPECT_EQ(s.src_ip, 0xc0000201u);
  EXPECT_EQ(s.dst_port, 6800);
  EXPECT_EQ(s.src_port, 40000);
  EXPECT_EQ(s.seq, 256u);
  EXPECT_EQ(s.flags, 0x18);
  EXPECT_EQ(s.payload_len, 8u);
  p[9] = 17;  // UDP
  EXPECT_FALSE(ParseIpv4Tcp(p, sizeof(p), &s));
  p[9] = 6;
  EXPECT_FALSE(ParseIpv4Tcp(p, 30, &s));  // cut inside the TCP header
}

}  // namespace
}  // namespace sendsim::realsock
