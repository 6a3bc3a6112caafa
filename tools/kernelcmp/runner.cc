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

}  // namespace

absl::StatusOr<RunOutcome> RunOnce(Testbed& tb, CleanupStack* cleanup, const RunSpec& spec,
                                   const std::string& work_dir) {
  absl::Status s = tb.SetPlacement(spec.placement);
  if (!s.ok()) return s;
  const std::string pcap_path = absl::StrFormat("%s/run.pcap", work_dir);
  unlink(pcap_path.c_str());
  // Snaplen 128 covers Ethernet + IPv4 + TCP with options; payload sizes come
  // from the IP header. -B is in KiB (64 MiB ring); -U writes each packet out
  // at once so the file size tells when the capture has caught up.
  absl::StatusOr<BackgroundProcess> td = BackgroundProcess::Start(
      {"ip", "netns", "exec", tb.sender_ns(), "tcpdump", "-i", Testbed::kSenderDev, "-n", "-s",
       "128", "-B", "65536", "--immediate-mode", "-U", "-Z", "root", "-w", pcap_path,
       absl::StrFormat("tcp and host %s and host %s and port %d", Testbed::kSenderIp,
                       Testbed::kReceiverIp, kReceiverPort)});
  if (!td.ok()) return td.status();
  const pid_t td_pid = td->pid();
  CleanupStack::Id kill_id = cleanup->Push("stop tcpdump", [td_pid] { kill(td_pid, SIGKILL); });
  absl::Status ready = td->WaitForStderr("listening on", 10'000);
  if (!ready.ok()) {
    cleanup->Cancel(kill_id);
    return absl::InternalError(absl::StrFormat("tcpdump did not start: %s", ready.message()));
  }

  std::optional<DelayTrace> trace;
  std::string trace_error;
  if (!spec.tracefs_root.empty()) {
    absl::StatusOr<DelayTrace> t = DelayTrace::Start(spec.tracefs_root, cleanup);
    if (t.ok()) {
      trace.emplace(*std::move(t));
    } else {
      trace_error = std::string(t.status().message());
    }
  }
  absl::StatusOr<TrafficResult> traffic = RunTraffic(tb, spec.workload, spec.variant, spec.io);
  std::optional<DelaySummary> delays;
  std::optional<HoldSummary> holds;
  if (trace.has_value()) {
    HoldSummary h;
    absl::StatusOr<DelaySummary> d =
        traffic.ok() ? trace->Stop(Testbed::kSenderDev, Testbed::kReceiverDev, traffic->sender_tid,
                                   traffic->sender_fd, &h)
                     : trace->Stop(Testbed::kSenderDev, Testbed::kReceiverDev);
    if (d.ok() && h.calls > 0) holds = h;
    if (d.ok() && d->packets > 0) {
      delays = *d;
    } else {
      trace_error = d.ok() ? "no packet pair in the trace" : std::string(d.status().message());
    }
  }

  // Let tcpdump drain its ring: wait until the file stops growing.
  int64_t last = -2;
  for (int quiet = 0, waited = 0; quiet < 3 && waited < 200; ++waited) {
    SleepMs(50);
    int64_t now = FileSize(pcap_path);
    quiet = now == last ? quiet + 1 : 0;
    last = now;
  }
  int td_exit = td->StopAndWait(SIGINT, 5'000);
  cleanup->Cancel(kill_id);
  if (!traffic.ok()) return traffic.status();

  RunOutcome out;
  out.traffic = *traffic;
  out.delays = delays;
  out.holds = holds;
  out.delay_error = trace_error;
  absl::StatusOr<CaptureStats> stats = ParseTcpdumpStats(td->Stderr());
  if (!stats.ok()) {
    out.invalid_reason = absl::StrFormat("tcpdump exit %d: %s", td_exit, stats.status().message());
    return out;
  }
  out.capture = *stats;
  std::ifstream in(pcap_path, std::ios::binary);
  std::stringstream buf;
  buf << in.rdbuf();
  absl::StatusOr<PcapContents> pcap = ParsePcap(buf.str());
  if (!pcap.ok()) {
    out.invalid_reason = std::string(pcap.status().message());
    return out;
  }
  Flow flow{ParseIp(Testbed::kSenderIp), traffic->sender_port, ParseIp(Testbed::kReceiverIp),
            kReceiverPort};
  absl::StatusOr<RunFigures> fig =
      AnalyzeFlow(pcap->segments, flow, traffic->mss, tb.options().tso);
  if (!fig.ok()) {
    out.invalid_reason = std::string(fig.status().message());
    return out;
  }
  out.figures = *fig;
  if (out.capture.dropped_by_kernel != 0 || out.capture.dropped_by_interface != 0) {
    out.invalid_reason = absl::StrFormat("tcpdump dropped %u packets (kernel) and %u (interface)",
                                         out.capture.dropped_by_kernel,
                                         out.capture.dropped_by_interface);
  } else if (out.capture.captured != out.capture.received_by_filter) {
    out.invalid_reason = absl::StrFormat("tcpdump captured %u of %u packets",
                                         out.capture.captured, out.capture.received_by_filter);
  } else if (pcap->records != out.capture.captured) {
    out.invalid_reason = absl::StrFormat("pcap holds %u records, tcpdump reports %u captured",
                                         pcap->records, out.capture.captured);
  } else if (fig->unique_payload_bytes != traffic->bytes_received) {
    out.invalid_reason =
        absl::StrFormat("capture carries %u unique payload bytes, receiver read %u",
                        fig->unique_payload_bytes, traffic->bytes_received);
  } else {
    out.valid = true;
  }
  return out;
}

}  // namespace sendsim::kernelcmp
