// RunOne on the real model and messenger, small scenarios.
#include "cli/runner.h"

#include <cstdlib>
#include <fstream>
#include <map>
#include <numeric>
#include <sstream>

#include "absl/strings/numbers.h"
#include "absl/strings/str_split.h"
#include "cli/pcap_writer.h"
#include "cli/report.h"
#include "cli/testing/tshark.h"
#include "gtest/gtest.h"

namespace sendsim::cli {

using scenario::Scenario;
using scenario::WriterSpec;
namespace {

Scenario Small(uint64_t messages) {
  Scenario s;
  s.messages = messages;
  return s;
}

// Bytes of one default message on the v1 stream: tag 1 + header 53 +
// front 192 + data 131072 + footer 21 = 131339 (piggybacked 9-byte acks
// may add to the stream, never subtract).
constexpr uint64_t kV1MessageBytes = 1 + 53 + 192 + 131072 + 21;

TEST(RunnerTest, EveryPacketAndRuntIsAccountedFor) {
  for (const char* writer : {"v1-legacy", "v1-notlast", "v1-cork"}) {
    SCOPED_TRACE(writer);
    const Scenario s = Small(12);
    absl::StatusOr<RunResult> r = RunOne(s, {writer, ""}, nullptr, nullptr);
    ASSERT_TRUE(r.ok()) << r.status();
    EXPECT_EQ(r->writer, writer);
    EXPECT_EQ(r->kernel, "linux-4.19");
    EXPECT_EQ(r->messages, 12u);
    ASSERT_EQ(r->completion_ns.size(), 12u);
    for (model::TimeNs t : r->completion_ns) EXPECT_GT(t, 0);
    EXPECT_GE(r->payload_bytes, 12 * kV1MessageBytes);
    uint64_t packets = 0, sub = 0, bytes = 0;
    for (const auto& [size, count] : r->histogram) {
      EXPECT_LE(size, s.mss);
      packets += count;
      bytes += uint64_t{size} * count;
      if (size < s.mss) sub += count;
    }
    EXPECT_EQ(packets, r->packets);
    EXPECT_EQ(sub, r->sub_mss_packets);
    EXPECT_EQ(bytes, r->payload_bytes);
    // Every runt is accounted for by a push reason.
    EXPECT_EQ(std::accumulate(r->sub_mss_by_reason.begin(), r->sub_mss_by_reason.end(), uint64_t{0}),
              r->sub_mss_packets);
    EXPECT_EQ(std::accumulate(r->packets_by_reason.begin(), r->packets_by_reason.end(), uint64_t{0}), r->packets);
    // At least ceil(131339 / 1448) = 91 packets per message.
    EXPECT_GE(r->packets, 12u * 91);
  }
}

TEST(RunnerTest, SameSeedSameBytes) {
  const Scenario s = Small(6);
  absl::StatusOr<RunResult> a = RunOne(s, {"v1-legacy", ""}, nullptr, nullptr);
  absl::StatusOr<RunResult> b = RunOne(s, {"v1-legacy", ""}, nullptr, nullptr);
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_EQ(FormatJson(s, {*a}), FormatJson(s, {*b}));
}

TEST(RunnerTest, ModernWritersOnTheirKernel) {
  const Scenario s = Small(4);
  for (const WriterSpec& w : {WriterSpec{"v1-splice", "linux-6.8"}, WriterSpec{"v2", "linux-6.8"},
                              WriterSpec{"v1-notlast", "linux-5.0"}}) {
    absl::StatusOr<RunResult> r = RunOne(s, w, nullptr, nullptr);
    ASSERT_TRUE(r.ok()) << w.writer << ": " << r.status();
    EXPECT_EQ(r->kernel, w.kernel);
    EXPECT_EQ(r->messages, 4u);
  }
}

TEST(RunnerTest, ProgressReachesTotal) {
  uint64_t last_done = 0, last_total = 0, calls = 0;
  absl::StatusOr<RunResult> r = RunOne(Small(3), {"v1-notlast", ""}, nullptr, [&](uint64_t d, uint64_t t) {
    EXPECT_GE(d, last_done);  // monotonic
    last_done = d;
    last_total = t;
    ++calls;
  });
  ASSERT_TRUE(r.ok());
  EXPECT_GE(calls, 1u);
  EXPECT_EQ(last_done, 3u);
  EXPECT_EQ(last_total, 3u);
}

using testing::RunCommand;

// tshark's histogram of a real run's pcap equals sendsim's.
TEST(RunnerTest, TsharkHistogramOfARunEqualsOurs) {
  if (std::system("command -v tshark >/dev/null 2>&1") != 0) {
    GTEST_SKIP() << "tshark not found on PATH: install the tshark package to run this test";
  }
  const char* dir = std::getenv("TEST_TMPDIR");
  const std::string path = std::string(dir ? dir : "/tmp") + "/run.pcap";
  const Scenario s = Small(3);
  RunResult r;
  {
    std::ofstream out(path, std::ios::binary);
    PcapOptions po;
    po.mss = s.mss;
    PcapWriter pcap(&out, po);
    absl::StatusOr<RunResult> run = RunOne(s, {"v1-legacy", ""}, &pcap, nullptr);
    ASSERT_TRUE(run.ok()) << run.status();
    pcap.Finish();
    r = *run;
  }
  const std::string fields = RunCommand(
      "tshark -r " + path +
      " -o tcp.check_checksum:TRUE -o ip.check_checksum:TRUE -Y 'ip.src==10.0.0.1 && tcp.len>0'"
      " -T fields -E separator=, -e tcp.len -e tcp.checksum.status -e ip.checksum.status 2>/dev/null");
  std::map<uint32_t, uint64_t> theirs;
  for (absl::string_view line : absl::StrSplit(fields, '\n', absl::SkipEmpty())) {
    std::vector<std::string> f = absl::StrSplit(line, ',');
    ASSERT_EQ(f.size(), 3u) << line;
    uint32_t len = 0;
    ASSERT_TRUE(absl::SimpleAtoi(f[0], &len)) << line;
    ++theirs[len];
    EXPECT_EQ(f[1], "1") << "tcp checksum not good: " << line;
    EXPECT_EQ(f[2], "1") << "ip checksum not good: " << line;
  }
  EXPECT_EQ(theirs, r.histogram);
}

}  // namespace
}  // namespace sendsim::cli
