#include "cli/app.h"

#include <fstream>
#include <sstream>
#include <string>

#include "cli/histogram_observer.h"
#include "scenario/scenario_json.h"
#include "cli/trace_writer.h"
#include "messenger/call_tag.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"

namespace sendsim::cli {

using scenario::EffectiveKernel;
using scenario::KnownWriters;
using scenario::Scenario;
using scenario::ScenarioFromJson;
using scenario::WriterSpec;
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;

// A stand-in for the model: writer k (0-based in KnownWriters order) sends
// per message 10 full segments and k + 1 runts of 100 bytes, ACKed one by
// one, through the observers the app passes, exactly as a run would.
absl::StatusOr<RunResult> FakeRun(const Scenario& s, const WriterSpec& w, model::Observer* extra,
                                  const ProgressFn& progress) {
  size_t k = 0;
  while (KnownWriters()[k] != w.writer) ++k;
  HistogramObserver hist(s.mss);
  std::vector<model::Observer*> obs = {&hist};
  if (extra) obs.push_back(extra);
  TeeObserver tee(obs);
  uint32_t seq = 0;
  model::TimeNs t = 0;
  for (uint64_t m = 0; m < s.messages; ++m) {
    for (size_t i = 0; i < 10 + k + 1; ++i) {
      model::WirePacket p;
      p.time = t;
      p.seq = seq;
      p.len = i < 10 ? s.mss : 100;
      p.flags = model::kTcpAck;
      p.reason = i < 10 ? model::PushReason::kPushOne : model::PushReason::kEndOfCall;
      p.tag = messenger::MakeCallTag(m, i < 10 ? messenger::CallPart::kData : messenger::CallPart::kFooter,
                                      i < 10 ? static_cast<uint32_t>(i) : 0);
      tee.OnWirePacket(p);
      tee.OnDeliver(t + 1000, seq, nullptr, p.len);
      seq += p.len;
      model::WirePacket a;
      a.time = t + 1500;
      a.dir = model::Direction::kAck;
      a.ack = seq;
      a.flags = model::kTcpAck;
      tee.OnWirePacket(a);
      t += 2000;
    }
    if (progress) progress(m + 1, s.messages);
  }
  RunResult r;
  r.writer = w.writer;
  r.kernel = EffectiveKernel(w, s.kernel);
  hist.FillResult(&r);
  r.messages = s.messages;
  return r;
}

struct Outcome {
  int code;
  std::string out;
  std::string err;
};

Outcome RunWith(const std::vector<std::string>& args, const RunFn& run = FakeRun, bool tty = false,
            ProgressLine::ClockMs clock = nullptr) {
  std::ostringstream out, err;
  AppEnv env{&out, &err, tty, std::move(clock)};
  const int code = RunApp(args, env, run);
  return {code, out.str(), err.str()};
}

std::string TempPath(const std::string& name) {
  const char* dir = std::getenv("TEST_TMPDIR");
  return std::string(dir ? dir : "/tmp") + "/" + name;
}

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

TEST(AppTest, DefaultRunPrintsEveryWriter) {
  const Outcome r = RunWith({"--messages=3"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.err, "");
  for (const char* w : {"v1-legacy (linux-4.19)", "v1-notlast (linux-4.19)", "v1-cork (linux-4.19)",
                        "v1-splice (linux-6.8)", "v2 (linux-6.8)"}) {
    EXPECT_THAT(r.out, HasSubstr(w));
  }
  // v1-notlast: 3 x (10 + 2) = 36 packets vs 3 x 11 = 33: +9.09%.
  EXPECT_THAT(r.out, HasSubstr("packets 36, sub-MSS 6 (16.7%), +9.09% packets vs v1-legacy"));
}

TEST(AppTest, JsonOutputParses) {
  const Outcome r = RunWith({"--messages=2", "--writers=v1-legacy,v2@linux-6.8", "--format=json"});
  ASSERT_EQ(r.code, 0) << r.err;
  const nlohmann::json j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["scenario"]["messages"], 2);
  ASSERT_EQ(j["results"].size(), 2u);
  EXPECT_EQ(j["results"][1]["writer"], "v2");
  EXPECT_EQ(j["results"][1]["kernel"], "linux-6.8");
  // v2 is writer index 4: 2 x (10 full + 5 runts).
  EXPECT_EQ(j["results"][1]["packets"], 30);
  EXPECT_EQ(j["results"][1]["sub_mss_packets"], 10);
  EXPECT_EQ(j["results"][1]["histogram"][0]["size"], 1448);
  EXPECT_EQ(j["results"][1]["histogram"][0]["count"], 20);
}

TEST(AppTest, DumpScenarioRoundTrips) {
  const Outcome r = RunWith({"--dump-scenario", "--messages=5", "--writers=v2"});
  ASSERT_EQ(r.code, 0);
  absl::StatusOr<Scenario> s = ScenarioFromJson(r.out);
  ASSERT_TRUE(s.ok()) << s.status();
  Scenario want;
  want.messages = 5;
  want.writers = {{"v2", ""}};
  EXPECT_EQ(*s, want);
}

TEST(AppTest, BadInputIsOneLineExitTwo) {
  for (const std::vector<std::string>& args : std::vector<std::vector<std::string>>{
           {"--nope"}, {"--mss=1449"}, {"--messages=0"}, {"--kernel=linux-2.6"}, {"--writers=v3"},
           {"--page-offset=4096"}, {"--sizes=-1"}, {"--scenario=/no/such.json"}, {"stray"},
           {"--trace=/no/such/dir/t.csv", "--messages=1"}, {"--plot=/no/such/dir/p.svg"}}) {
    const Outcome r = RunWith(args);
    EXPECT_EQ(r.code, 2) << args[0];
    EXPECT_THAT(r.err, StartsWith("sendsim: ")) << args[0];
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    EXPECT_EQ(r.out, "") << args[0];
  }
}

TEST(AppTest, RunnerErrorsMapToExitCodes) {
  auto invalid = [](const Scenario&, const WriterSpec&, model::Observer*, const ProgressFn&)
      -> absl::StatusOr<RunResult> { return absl::InvalidArgumentError("v1-splice needs MSG_SPLICE_PAGES"); };
  auto broken = [](const Scenario&, const WriterSpec&, model::Observer*, const ProgressFn&)
      -> absl::StatusOr<RunResult> { return absl::InternalError("stalled"); };
  Outcome r = RunWith({"--writers=v2", "--seeds=1"}, invalid);
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(r.err, "sendsim: v2 on linux-4.19: v1-splice needs MSG_SPLICE_PAGES\n");
  r = RunWith({"--writers=v2", "--seed=3"}, invalid);
  EXPECT_EQ(r.err, "sendsim: v2 on linux-4.19 (seed 3): v1-splice needs MSG_SPLICE_PAGES\n");
  // The pair itself is refused before any run (messenger::WriterAvailable).
  r = RunWith({"--writers=v1-splice"}, invalid);
  EXPECT_EQ(r.code, 2);
  EXPECT_THAT(r.err, StartsWith("sendsim: --writers: v1-splice needs MSG_SPLICE_PAGES, absent on linux-4.19"));
  r = RunWith({}, broken);
  EXPECT_EQ(r.code, 1);
  EXPECT_THAT(r.err, HasSubstr("stalled"));
}

TEST(AppTest, PacketdrillSubcommandRunsTheRunner) {
  // A missing script is bad input (packetdrill/main.h): one line on stderr
  // naming it, counted as failed in the summary, exit 2.
  const Outcome r = RunWith({"packetdrill", "no-such-script.pkt"});
  EXPECT_EQ(r.code, 2);
  EXPECT_THAT(r.err, StartsWith("sendsim packetdrill: script no-such-script.pkt: cannot open file"));
  EXPECT_THAT(r.out, HasSubstr("0 passed, 1 failed, 0 skipped"));
}

TEST(AppTest, PacketdrillSubcommandRefusesFlagsItWouldIgnore) {
  for (const char* flag : {"--pcap=x.pcap", "--messages=5", "--format=json", "--mss=0", "--threads=2"}) {
    const Outcome r = RunWith({"packetdrill", flag, "a.pkt"});
    EXPECT_EQ(r.code, 2) << flag;
    EXPECT_THAT(r.err, HasSubstr("does not apply to packetdrill scripts")) << flag;
  }
}

// A run that fails leaves no output behind and keeps what was there.
TEST(AppTest, FailedRunLeavesOutputsAbsentOrUntouched) {
  auto broken = [](const Scenario& s, const WriterSpec& w, model::Observer* extra, const ProgressFn& p)
      -> absl::StatusOr<RunResult> {
    if (w.writer == "v2") return absl::InternalError("stalled");
    return FakeRun(s, w, extra, p);
  };
  const std::string keep = TempPath("keep.svg");
  std::ofstream(keep) << "KEEP";
  const std::string trace = TempPath("failed-trace.csv"), pcap = TempPath("failed.pcap");
  const Outcome r = RunWith({"--messages=2", "--seeds=1", "--writers=v1-legacy,v2@linux-6.8", "--trace=" + trace,
                             "--pcap=" + pcap, "--plot=" + keep},
                            broken);
  EXPECT_EQ(r.code, 1);
  EXPECT_EQ(ReadFile(keep), "KEEP");
  for (const char* w : {".v1-legacy-linux-4.19", ".v2-linux-6.8"}) {
    EXPECT_FALSE(std::ifstream(TempPath(std::string("failed-trace") + w + ".csv")).good()) << w;
    EXPECT_FALSE(std::ifstream(TempPath(std::string("failed") + w + ".pcap")).good()) << w;
  }
}

TEST(AppTest, SameFileOutputsRefused) {
  const std::string x = TempPath("same");
  Outcome r = RunWith({"--messages=1", "--writers=v2", "--trace=" + x, "--pcap=" + x});
  EXPECT_EQ(r.code, 2);
  EXPECT_THAT(r.err, StartsWith("sendsim: --trace and --pcap name the same file"));
  const std::string s = TempPath("s.json");
  std::ofstream(s) << "{}";
  r = RunWith({"--scenario=" + s, "--plot=" + s});
  EXPECT_EQ(r.code, 2);
  EXPECT_THAT(r.err, StartsWith("sendsim: --scenario and --plot name the same file"));
  EXPECT_EQ(ReadFile(s), "{}");
}

TEST(AppTest, PacketdrillSubcommandRejectsUnknownKernel) {
  const Outcome r = RunWith({"packetdrill", "--kernel=linux-9.9", "a.pkt"});
  EXPECT_EQ(r.code, 2);
}

// --target chooses where packetdrill scripts run; it means nothing to the
// comparison, and a target other than model or kernel is bad input.
TEST(AppTest, TargetIsForPacketdrillOnly) {
  Outcome r = RunWith({"--messages=2", "--target=kernel"});
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(r.err, "sendsim: --target applies to sendsim packetdrill only (see --help)\n");
  r = RunWith({"packetdrill", "--target=moon", "a.pkt"});
  EXPECT_EQ(r.code, 2);
  EXPECT_THAT(r.err, HasSubstr("--target: unknown target \"moon\""));
  r = RunWith({"packetdrill", "--target=kernel", "--kernel=linux-6.8", "a.pkt"});
  EXPECT_EQ(r.code, 2);
}

TEST(AppTest, TraceFilesPerWriter) {
  const std::string base = TempPath("trace.csv");
  const Outcome r = RunWith({"--messages=2", "--writers=v1-legacy,v1-notlast", "--trace=" + base});
  ASSERT_EQ(r.code, 0) << r.err;
  const std::string legacy = ReadFile(TempPath("trace.v1-legacy-linux-4.19.csv"));
  const std::string notlast = ReadFile(TempPath("trace.v1-notlast-linux-4.19.csv"));
  EXPECT_THAT(legacy, StartsWith("time_ns,direction,seq,ack,len,flags,win,reason,message,part,piece\n"));
  // v1-legacy: 2 x 11 data + 2 x 11 ACK rows + header.
  EXPECT_EQ(std::count(legacy.begin(), legacy.end(), '\n'), 45);
  EXPECT_EQ(std::count(notlast.begin(), notlast.end(), '\n'), 49);
  // The first message's 11th packet carries its footer, message 0.
  EXPECT_THAT(legacy, HasSubstr(",100,.,0,end-of-call,0,footer,0\n"));
  EXPECT_THAT(legacy, HasSubstr("2000,data,1448,0,1448,.,0,push-one,0,data,1\n"));
  EXPECT_THAT(legacy, HasSubstr("1500,ack,0,1448,0,.,0,control,,,\n"));
}

TEST(AppTest, SingleWriterUsesPathAsGivenAndWritesPcapAndPlot) {
  const std::string pcap = TempPath("one.pcap");
  const std::string plot = TempPath("one.svg");
  const Outcome r = RunWith({"--messages=2", "--writers=v1-cork", "--pcap=" + pcap, "--plot=" + plot});
  ASSERT_EQ(r.code, 0) << r.err;
  // 24-byte header + 3 handshake frames + 2 x 13 data + 2 x 13 ACK frames.
  const std::string data = ReadFile(pcap);
  ASSERT_GT(data.size(), 24u);
  size_t at = 24, frames = 0;
  while (at + 16 <= data.size()) {
    const uint32_t incl = static_cast<uint8_t>(data[at + 8]) | static_cast<uint8_t>(data[at + 9]) << 8 |
                          static_cast<uint8_t>(data[at + 10]) << 16;
    at += 16 + incl;
    ++frames;
  }
  EXPECT_EQ(at, data.size());
  EXPECT_EQ(frames, 3u + 26 + 26);
  EXPECT_THAT(ReadFile(plot), HasSubstr("data-writer=\"v1-cork\""));
}

TEST(AppTest, ProgressOnlyOnTtyAfterOneSecond) {
  int64_t now = 0;
  auto clock = [&now] { return now += 300; };  // every reading is 300 ms later
  Outcome r = RunWith({"--messages=20", "--writers=v1-legacy", "--seeds=2"}, FakeRun, /*tty=*/true, clock);
  ASSERT_EQ(r.code, 0);
  EXPECT_THAT(r.err, HasSubstr("\rsendsim: 2/2 runs: 40/40 messages (100%)"));
  EXPECT_EQ(r.err.back(), '\r');  // the line is erased at the end
  EXPECT_EQ(r.err.find('\n'), std::string::npos);
  now = 0;
  r = RunWith({"--messages=20", "--writers=v1-legacy"}, FakeRun, /*tty=*/false, clock);
  EXPECT_EQ(r.err, "");
  // A fast run on a terminal: the clock never passes one second.
  auto frozen = [] { return int64_t{5}; };
  r = RunWith({"--messages=20", "--writers=v1-legacy"}, FakeRun, /*tty=*/true, frozen);
  EXPECT_EQ(r.err, "");
}

// FakeRun plus `seed` packets of 100 + seed bytes: runs differ by seed.
absl::StatusOr<RunResult> SeededFakeRun(const Scenario& s, const WriterSpec& w, model::Observer* extra,
                                        const ProgressFn& progress) {
  absl::StatusOr<RunResult> r = FakeRun(s, w, extra, progress);
  if (r.ok()) {
    r->histogram[static_cast<uint32_t>(100 + s.seed)] += s.seed;
    r->packets += s.seed;
    r->sub_mss_packets += s.seed;
  }
  return r;
}

TEST(AppTest, SeedsRunEverySeedAndJsonCarriesEveryRun) {
  const Outcome r = RunWith({"--messages=2", "--writers=v1-legacy,v1-notlast", "--seed=4", "--seeds=3",
                             "--format=json"},
                            SeededFakeRun);
  ASSERT_EQ(r.code, 0) << r.err;
  const nlohmann::json j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["scenario"]["seeds"], 3);
  // v1-legacy under seed 4: 2 x 11 + 4 packets.
  EXPECT_EQ(j["results"][0]["packets"], 26);
  ASSERT_EQ(j["seed_runs"].size(), 2u);
  EXPECT_EQ(j["seed_runs"][0]["seed"], 5);
  EXPECT_EQ(j["seed_runs"][1]["seed"], 6);
  EXPECT_EQ(j["seed_runs"][1]["results"][0]["packets"], 28);
  EXPECT_EQ(j["spread"]["seeds"], nlohmann::json::parse("[4, 5, 6]"));
  EXPECT_EQ(j["spread"]["writers"][0]["packets"]["min"], 26.0);
  EXPECT_EQ(j["spread"]["writers"][0]["packets"]["max"], 28.0);
  EXPECT_EQ(j["seed_criteria"].size(), 6u);
}

TEST(AppTest, TableHasSpreadAndCriteria) {
  const Outcome r = RunWith({"--messages=2", "--seeds=2"}, SeededFakeRun);
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("Over 2 seeds, 1-2, mean [min, max]:"));
  EXPECT_THAT(r.out, HasSubstr("The seed's criteria"));
  EXPECT_THAT(r.out, HasSubstr("1448 first, v1-legacy"));
}

TEST(AppTest, OutputDoesNotDependOnThreads) {
  for (const char* format : {"--format=table", "--format=json", "--format=csv"}) {
    const Outcome one = RunWith({"--messages=3", "--seeds=4", "--threads=1", format}, SeededFakeRun);
    const Outcome three = RunWith({"--messages=3", "--seeds=4", "--threads=3", format}, SeededFakeRun);
    ASSERT_EQ(one.code, 0) << one.err;
    EXPECT_EQ(one.out, three.out) << format;
  }
}

TEST(AppTest, SeedsAndThreadsOutOfRange) {
  for (const std::vector<std::string>& args : std::vector<std::vector<std::string>>{
           {"--seeds=0"}, {"--seeds=1001"}, {"--threads=257"}, {"--seed=18446744073709551615", "--seeds=2"}}) {
    const Outcome r = RunWith(args);
    EXPECT_EQ(r.code, 2) << args[0];
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  }
}

TEST(AppTest, HelpExitsZero) {
  const Outcome r = RunWith({"--help"});
  EXPECT_EQ(r.code, 0);
  EXPECT_THAT(r.out, HasSubstr("--messages"));
  EXPECT_THAT(r.out, HasSubstr("--writers"));
}

}  // namespace
}  // namespace sendsim::cli
