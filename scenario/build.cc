#include "scenario/build.h"

#include "messenger/page_pool.h"

namespace sendsim::scenario {

model::ConnectionConfig BuildConnectionConfig(const Scenario& s, const ModelOutputs& outputs) {
  model::ConnectionConfig c;
  c.mss = s.mss;
  c.mtu = s.mtu;
  c.mss_clamp = s.tcp.mss_clamp;
  c.timestamps = s.timestamps;
  c.sack = s.tcp.sack;
  c.tso = s.tso;
  c.nodelay = s.nodelay;
  c.autocorking = s.autocorking;
  c.sndbuf = s.sndbuf;
  c.initcwnd = s.tcp.initcwnd;
  c.cwnd_clamp = s.tcp.cwnd_clamp;
  c.cc = s.tcp.cc;
  c.slow_start_after_idle = s.tcp.slow_start_after_idle;
  c.sysctl = s.tcp.sysctl;
  c.hz = static_cast<int>(s.hz);
  c.link_bps = s.link_mbps * 1'000'000;
  // The model has one propagation delay per direction; the RTT splits evenly.
  c.one_way_delay_ns = static_cast<model::TimeNs>(s.rtt_ns / 2);
  c.tx_completion_ns = static_cast<model::TimeNs>(s.tx_completion_ns);
  c.call_cost_ns = static_cast<model::TimeNs>(s.call_cost_ns);
  c.track_payload = outputs.track_payload;
  c.full_trace = outputs.full_trace;
  c.record_data_timing = outputs.record_data_timing;
  c.peer.rcvbuf = s.receiver.rcvbuf;
  c.peer.rcvbuf_autotune_initial = s.receiver.rcvbuf_autotune_initial;
  c.peer.rcv_rtt_from_window = s.receiver.rcv_rtt_from_window;
  c.peer.init_rcv_wnd_segs = s.receiver.init_rcv_wnd_segs;
  c.peer.wscale = s.receiver.wscale;
  c.peer.app_read_bytes_per_sec = s.receiver.app_read_bytes_per_sec;
  c.peer.delayed_ack = s.delayed_ack;
  c.peer.ack_every_segs = s.ack_every;
  c.peer.gro = s.gro == GroMode::kBatch ? model::GroMode::kBatch : model::GroMode::kOff;
  c.peer.gro_flush_ns = static_cast<model::TimeNs>(s.gro_flush_ns);
  c.peer.ack_proc_ns = static_cast<model::TimeNs>(s.ack_proc_ns);
  c.host = s.host;
  return c;
}

std::vector<messenger::MessageSpec> BuildWorkload(const Scenario& s) {
  uint64_t total_weight = 0;
  for (const SizeMixEntry& e : s.sizes) total_weight += e.weight;
  // A stream of its own, so that other seeded choices never shift the sizes.
  messenger::SplitMix64 rng(s.seed ^ 0x5349'5a45'4d49'5800ull);  // "SIZEMIX"
  messenger::DataKind kind = messenger::DataKind::kBio;
  switch (s.layout) {
    case DataLayout::kPages: kind = messenger::DataKind::kPages; break;
    case DataLayout::kPagelist: kind = messenger::DataKind::kPagelist; break;
    case DataLayout::kBio: kind = messenger::DataKind::kBio; break;
    case DataLayout::kBvecs: kind = messenger::DataKind::kBvecs; break;
  }
  std::vector<messenger::MessageSpec> specs(s.messages);
  for (messenger::MessageSpec& m : specs) {
    uint64_t bytes = s.sizes.front().bytes;
    if (s.sizes.size() > 1) {
      uint64_t pick = rng.Uniform(total_weight);
      for (const SizeMixEntry& e : s.sizes) {
        if (pick < e.weight) {
          bytes = e.bytes;
          break;
        }
        pick -= e.weight;
      }
    }
    m.front_len = s.front_len;
    m.items.push_back(messenger::DataItemSpec{kind, bytes, s.page_offset, true});
    m.submit_at = 0;
  }
  return specs;
}

messenger::DriverOptions BuildDriverOptions(const Scenario& s) {
  messenger::DriverOptions d;
  d.seed = s.seed;
  d.replies = true;
  d.reply_delay_ns = static_cast<model::TimeNs>(s.osd_reply_ns);
  d.reply_jitter_ns = static_cast<model::TimeNs>(s.osd_reply_jitter_ns);
  d.queue_depth = s.queue_depth;
  // The decoder still checks every crc; byte-for-byte comparison is the
  // messenger tests' job and would double the run time.
  d.verify_payload = false;
  return d;
}

messenger::ConnectionOptions BuildConnectionOptions(const Scenario& s, messenger::WriterKind kind) {
  messenger::ConnectionOptions o;
  o.policy = messenger::MakeWriterPolicy(kind);
  o.costs.crc_ns_per_4k = static_cast<model::TimeNs>(s.crc_ns_per_page);
  return o;
}

}  // namespace sendsim::scenario
