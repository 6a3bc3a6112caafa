#include "tools/kernelcmp/model_figures.h"

#include <cstdio>
#include <cstdlib>
#include <memory>
#include <vector>

#include "absl/strings/str_format.h"
#include "messenger/workload.h"
#include "messenger/workload_driver.h"
#include "messenger/writer_policy.h"
#include "model/config.h"
#include "scenario/scenario.h"
#include "scenario/simulation.h"
#include "tools/kernelcmp/host_presets.h"
#include "tools/kernelcmp/model_replay.h"

namespace sendsim::kernelcmp {
namespace {

// The testbed's run as a scenario: the settings as calibrated, and the one
// rule between them that calibration can switch on or off.
// veth hands a packet to the peer device's receive backlog with the sending
// socket still charged; the skb is orphaned (tcp_wfree, TX completion) when
// the receiving side's ip_rcv_core takes it, so completion counts from the
// segment's arrival at the peer (the presets' host_tx_completion_at_arrival).
// Measured on the 6.18 testbed with a stack trace on net_dev_queue: runts
// pushed from tcp_tsq_handler and tcp_release_cb's deferred TSQ write, and
// autocork holding the footer, both need a socket still charged after
// veth_xmit. GSO/TSO/GRO are off as on the testbed (software segmentation).
// The rest is calibration (docs/kernelcmp.md, "The model side").
scenario::Scenario ScenarioFor(const ModelSettings& s) {
  scenario::Scenario sc = s.scenario;
  // The receiving-CPU queue's wakeup is the backlog's IPI there.
  sc.host.rps_backlog_on_sender_cpu = sc.host.rps_backlog_on_sender_cpu && sc.host.has_rx_cpu();
  // Autotuning as the testbed's 6.18 receiver does it: its RTT is far below
  // the 1 ms timestamp tick, so it autotunes on the window-based RTT (its
  // DRS step is the linux-6.18 profile's); and its SYN-ACK offered 65160 =
  // 45 x 1448, the whole initial space without the 20-segment cap (a cap no
  // window reaches).
  if (sc.receiver.rcvbuf_autotune_initial != 0) {
    sc.receiver.rcv_rtt_from_window = true;
    sc.receiver.init_rcv_wnd_segs = 65535;
  }
  return sc;
}

absl::StatusOr<messenger::WriterKind> WriterFor(Variant v) {
  switch (v) {
    case Variant::kV1Legacy:
      return messenger::WriterKind::kV1Legacy;
    case Variant::kV1Splice:
      return messenger::WriterKind::kV1Splice;
    case Variant::kV1Cork:
      return messenger::WriterKind::kV1Cork;
    case Variant::kV2:
      return messenger::WriterKind::kV2;
    case Variant::kSendmsgAll:
    case Variant::kSendfile:
    case Variant::kSplice:
      break;
  }
  return absl::UnimplementedError(
      absl::StrFormat("no libceph writer makes %s's calls", VariantName(v)));
}

}  // namespace

absl::string_view HostPresetName(Placement placement) {
  return placement == Placement::kSenderCpu ? "veth-rps-sender-cpu" : "veth-rps-receiver-cpu";
}

// The presets' delays to the receiving side's processing (base = half
// rtt_ns, exponential spread host_data_delay_spread_ns) are replaced per
// run by what kernelcmp measures (delay_trace.h); they are the fallback
// without tracefs, from one early measurement (2 Dec 2026, 128 KiB
// v1-legacy and v2): with receive processing on the sender's CPU p5 1 us,
// median 3-9 us, mean 24-26 us; on the receiver's CPU p5 2-3 us, median
// 17-19 us, mean 25-43 us. ACKs and TX completions are handled on the CPU
// that runs receive processing (RPS steers both directions there), so are
// their pushes (host_xmit_softirq_on_sender_cpu). Receive processing on the
// sender's CPU is one backlog for both directions, taken inline unless the
// reader's ACK scheduled it (a softirq trace of 3 Dec 2026,
// model/host/rps_backlog.h); in effect only with the receiving-CPU queue
// (measured delays).
ModelSettings DefaultModelSettings(Placement placement) {
  absl::StatusOr<scenario::Scenario> preset = HostPresetScenario(HostPresetName(placement));
  if (!preset.ok()) {
    // Compiled-in files, checked by host_presets_test: not user input.
    absl::FPrintF(stderr, "kernelcmp: %s\n", preset.status().message());
    std::abort();
  }
  ModelSettings s;
  s.scenario = *std::move(preset);
  return s;
}

std::string DescribeModelSettings(const ModelSettings& s) {
  const scenario::Scenario& sc = s.scenario;
  const model::HostConfig& h = sc.host;
  const scenario::Scenario::Receiver& r = sc.receiver;
  const bool default_rcvbuf = r.rcvbuf == scenario::Scenario().receiver.rcvbuf && r.rcvbuf_autotune_initial == 0;
  return absl::StrFormat(
      "%s, MSS %u, %s, link %.3f Gbit/s, one-way %d ns + %s, TX completion %d ns after arrival, call cost %d ns + %d ns per segment sent%s (+ %d ns between calls), ack_proc %d ns, softirq on the sender's CPU %d ns/ACK + %d ns/data segment, peer batching %s "
      "(flush gap %d ns), reader %s (wakeup %d ns), peer rcvbuf %s, delayed ACK, "
      "no replies",
      sc.kernel, sc.mss, sc.tso ? "TSO" : "software GSO", static_cast<double>(sc.link_mbps * 1'000'000) / 1e9,
      static_cast<int64_t>(sc.rtt_ns / 2),
      h.has_rx_cpu()
          ? absl::StrFormat("receiving CPU %d ns per segment, wakeup %d ns (exponential mean)%s",
                            h.rx_cpu_service_ns, h.rx_cpu_wakeup_ns,
                            h.rps_backlog_on_sender_cpu
                                ? ", one backlog for both directions: transmits inline unless the reader's ACK "
                                  "scheduled it (wakeup = its IPI)"
                                : "")
          : absl::StrFormat("data spread %d ns (exponential mean)", h.data_delay_spread_ns),
      static_cast<int64_t>(sc.tx_completion_ns), static_cast<int64_t>(sc.call_cost_ns), h.xmit_cost_ns,
      h.xmit_softirq_on_sender_cpu && h.xmit_cost_ns > 0 ? " (softirq's too)" : "", s.between_calls_ns,
      static_cast<int64_t>(sc.ack_proc_ns), h.sender_softirq_ack_ns, h.sender_softirq_peer_rx_ns,
      sc.gro == scenario::GroMode::kBatch ? "on" : "off", static_cast<int64_t>(sc.gro_flush_ns),
      r.app_read_bytes_per_sec == 0 ? std::string("instant")
                                    : absl::StrFormat("%.0f MB/s", r.app_read_bytes_per_sec / 1e6),
      h.app_read_wakeup_ns,
      default_rcvbuf                    ? std::string("model default")
      : r.rcvbuf_autotune_initial == 0 ? absl::StrFormat("%u fixed", r.rcvbuf)
                                       : absl::StrFormat("autotuned %u..%u, wscale %d", r.rcvbuf_autotune_initial,
                                                         r.rcvbuf, r.wscale));
}

absl::StatusOr<ModelFigures> RunModelFor(const Workload& w, Variant variant, IoMode io,
                                         const ModelSettings& settings) {
  const scenario::Scenario sc = ScenarioFor(settings);
  if (io == IoMode::kBlocking || variant == Variant::kSendmsgAll ||
      variant == Variant::kSendfile || variant == Variant::kSplice) {
    return ReplayCallsOnModel(w, variant, sc, io, settings.between_calls_ns);
  }
  absl::StatusOr<messenger::WriterKind> writer = WriterFor(variant);
  if (!writer.ok()) return writer.status();
  if (w.footer_bytes != kV1FooterBytes) {
    return absl::UnimplementedError("the messenger always writes the 21-byte v1 footer");
  }
  if (w.prefix_bytes < kV1PrefixFixedBytes) {
    return absl::InvalidArgumentError("prefix shorter than tag + header");
  }
  messenger::DriverOptions dopt;
  dopt.seed = 1;
  // The kernel replay has no OSD replies, so no acks ride along.
  dopt.replies = false;
  dopt.verify_payload = false;
  messenger::ConnectionOptions copt;
  copt.policy = messenger::MakeWriterPolicy(*writer);
  // The replayer computes no crcs between calls.
  copt.costs.crc_ns_per_4k = 0;
  copt.costs.per_call_ns = settings.between_calls_ns;
  copt.costs.prepare_message_ns = 0;
  // All messages queued at t = 0: the replayer writes back to back.
  scenario::MessengerWorkload app(
      messenger::KrbdWrites(w.messages, w.message_bytes, w.prefix_bytes - kV1PrefixFixedBytes, 0), dopt, copt);
  CaptureCounter counter(sc.mss);
  scenario::Simulation sim;
  sim.scenario = sc;
  sim.outputs = {.track_payload = true, .full_trace = true, .record_data_timing = true};
  sim.observers = {&counter};
  absl::StatusOr<scenario::SimulationResult> run = sim.Run(app);
  if (!run.ok()) return run.status();
  messenger::WorkloadDriver& driver = app.driver();
  // Every message delivered, decoder clean, no connection error.
  if (absl::Status st = driver.Finish(); !st.ok()) return st;
  if (!driver.connection().error().ok()) return driver.connection().error();
  if (!driver.decoder().status().ok()) return driver.decoder().status();
  if (!driver.decoder().at_boundary()) {
    return absl::DataLossError("model: stream ends inside a message");
  }
  const uint64_t expected = StreamBytesFor(w, variant);
  if (driver.delivered_bytes() != expected || driver.connection().bytes_written() != expected) {
    return absl::DataLossError(absl::StrFormat(
        "model delivered %u of %u bytes (%u written)", driver.delivered_bytes(), expected,
        driver.connection().bytes_written()));
  }
  return counter.Figures(w.messages, *run);
}

}  // namespace sendsim::kernelcmp
