#include "tools/kernelcmp/runner.h"

#include <arpa/inet.h>
#include <signal.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <sstream>

#include "absl/strings/str_format.h"
#include "tools/kernelcmp/pcap.h"
#include "tools/kernelcmp/subprocess.h"

namespace sendsim::kernelcmp {
namespace {

void SleepMs(int ms) {
  timespec ts = {ms / 1000, (ms % 1000) * 1'000'000L};
  nanosleep(&ts, nullptr);
}

int64_t FileSize(const std::string& path) {
  struct stat st;
  return stat(path.c_str(), &st) == 0 ? st.st_size : -1;
}

uint32_t ParseIp(const char* s) {
  in_addr a;
  inet_pton(AF_INET, s, &a);
  return ntohl(a.s_addr);
}

// tcpdump on the sender's veth, started and listening. Snaplen 128 covers
// Ethernet + IPv4 + TCP with options; payload sizes come from the IP header.
// -B is in KiB (64 MiB ring); -U writes each packet out at once so the file
// size tells when the capture has caught up.
absl::StatusOr<BackgroundProcess> StartCapture(const Testbed& tb, CleanupStack* cleanup, const std::string& pcap_path,
                                               CleanupStack::Id* kill_id) {
  absl::StatusOr<BackgroundProcess> td = BackgroundProcess::Start(
      {"ip", "netns", "exec", tb.sender_ns(), "tcpdump", "-i", Testbed::kSenderDev, "-n", "-s",
       "128", "-B", "65536", "--immediate-mode", "-U", "-Z", "root", "-w", pcap_path,
       absl::StrFormat("tcp and host %s and host %s and port %d", Testbed::kSenderIp,
                       Testbed::kReceiverIp, kReceiverPort)});
  if (!td.ok()) return td.status();
  const pid_t td_pid = td->pid();
  *kill_id = cleanup->Push("stop tcpdump", [td_pid] { kill(td_pid, SIGKILL); });
  absl::Status ready = td->WaitForStderr("listening on", 10'000);
  if (!ready.ok()) {
    cleanup->Cancel(*kill_id);
    return absl::InternalError(absl::StrFormat("tcpdump did not start: %s", ready.message()));
  }
  return td;
}

// Stops tcpdump once its ring has drained (the file stopped growing);
// returns its exit code.
int StopCapture(BackgroundProcess& td, CleanupStack* cleanup, CleanupStack::Id kill_id,
                const std::string& pcap_path) {
  int64_t last = -2;
  for (int quiet = 0, waited = 0; quiet < 3 && waited < 200; ++waited) {
    SleepMs(50);
    int64_t now = FileSize(pcap_path);
    quiet = now == last ? quiet + 1 : 0;
    last = now;
  }
  const int td_exit = td.StopAndWait(SIGINT, 5'000);
  cleanup->Cancel(kill_id);
  return td_exit;
}

// The run's traffic with the delay (and socket-hold) trace around it, when
// tracefs is usable; a trace that fails says why in *trace_error.
absl::StatusOr<TrafficResult> TracedTraffic(const Testbed& tb, CleanupStack* cleanup, const RunSpec& spec,
                                            RunOutcome* out) {
  std::optional<DelayTrace> trace;
  if (!spec.tracefs_root.empty()) {
    absl::StatusOr<DelayTrace> t = DelayTrace::Start(spec.tracefs_root, cleanup);
    if (t.ok()) {
      trace.emplace(*std::move(t));
    } else {
      out->delay_error = std::string(t.status().message());
    }
  }
  absl::StatusOr<TrafficResult> traffic = RunTraffic(tb, spec.workload, spec.variant, spec.io);
  if (trace.has_value()) {
    HoldSummary h;
    absl::StatusOr<DelaySummary> d =
        traffic.ok() ? trace->Stop(Testbed::kSenderDev, Testbed::kReceiverDev, traffic->sender_tid,
                                   traffic->sender_fd, &h)
                     : trace->Stop(Testbed::kSenderDev, Testbed::kReceiverDev);
    if (d.ok() && h.calls > 0) out->holds = h;
    if (d.ok() && d->packets > 0) {
      out->delays = *d;
    } else {
      out->delay_error = d.ok() ? "no packet pair in the trace" : std::string(d.status().message());
    }
  }
  return traffic;
}

// The capture's figures, and whether the run is valid: every packet
// captured and the capture's payload what the receiver read.
void JudgeCapture(const Testbed& tb, const std::string& pcap_path, const std::string& tcpdump_stderr, int td_exit,
                  RunOutcome* out) {
  absl::StatusOr<CaptureStats> stats = ParseTcpdumpStats(tcpdump_stderr);
  if (!stats.ok()) {
    out->invalid_reason = absl::StrFormat("tcpdump exit %d: %s", td_exit, stats.status().message());
    return;
  }
  out->capture = *stats;
  std::ifstream in(pcap_path, std::ios::binary);
  std::stringstream buf;
  buf << in.rdbuf();
  absl::StatusOr<PcapContents> pcap = ParsePcap(buf.str());
  if (!pcap.ok()) {
    out->invalid_reason = std::string(pcap.status().message());
    return;
  }
  const TrafficResult& traffic = out->traffic;
  Flow flow{ParseIp(Testbed::kSenderIp), traffic.sender_port, ParseIp(Testbed::kReceiverIp), kReceiverPort};
  absl::StatusOr<RunFigures> fig = AnalyzeFlow(pcap->segments, flow, traffic.mss, tb.options().tso);
  if (!fig.ok()) {
    out->invalid_reason = std::string(fig.status().message());
    return;
  }
  out->figures = *fig;
  const CaptureStats& c = out->capture;
  if (c.dropped_by_kernel != 0 || c.dropped_by_interface != 0) {
    out->invalid_reason = absl::StrFormat("tcpdump dropped %u packets (kernel) and %u (interface)",
                                          c.dropped_by_kernel, c.dropped_by_interface);
  } else if (c.captured != c.received_by_filter) {
    out->invalid_reason = absl::StrFormat("tcpdump captured %u of %u packets", c.captured, c.received_by_filter);
  } else if (pcap->records != c.captured) {
    out->invalid_reason =
        absl::StrFormat("pcap holds %u records, tcpdump reports %u captured", pcap->records, c.captured);
  } else if (fig->unique_payload_bytes != traffic.bytes_received) {
    out->invalid_reason = absl::StrFormat("capture carries %u unique payload bytes, receiver read %u",
                                          fig->unique_payload_bytes, traffic.bytes_received);
  } else {
    out->valid = true;
  }
}

}  // namespace

absl::StatusOr<RunOutcome> RunOnce(Testbed& tb, CleanupStack* cleanup, const RunSpec& spec,
                                   const std::string& work_dir) {
  absl::Status s = tb.SetPlacement(spec.placement);
  if (!s.ok()) return s;
  const std::string pcap_path = absl::StrFormat("%s/run.pcap", work_dir);
  unlink(pcap_path.c_str());
  CleanupStack::Id kill_id;
  absl::StatusOr<BackgroundProcess> td = StartCapture(tb, cleanup, pcap_path, &kill_id);
  if (!td.ok()) return td.status();
  RunOutcome out;
  absl::StatusOr<TrafficResult> traffic = TracedTraffic(tb, cleanup, spec, &out);
  const int td_exit = StopCapture(*td, cleanup, kill_id, pcap_path);
  if (!traffic.ok()) return traffic.status();
  out.traffic = *traffic;
  JudgeCapture(tb, pcap_path, td->Stderr(), td_exit, &out);
  return out;
}

}  // namespace sendsim::kernelcmp
