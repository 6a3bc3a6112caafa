#ifndef SENDSIM_TOOLS_KERNELCMP_MODEL_REPLAY_H_
#define SENDSIM_TOOLS_KERNELCMP_MODEL_REPLAY_H_

#include <cstdint>

#include "absl/status/statusor.h"
#include "model/observer.h"
#include "scenario/scenario.h"
#include "scenario/simulation.h"
#include "tools/kernelcmp/model_figures.h"
#include "tools/kernelcmp/workload.h"

namespace sendsim::kernelcmp {

// Counts what a sender-side capture shows: data packets, first transmissions
// only (as AnalyzeFlow does for the kernel), the peer's pure ACKs, and the
// bytes delivered.
// The model's data timing as the kernel's delay trace sees it: from the
// first bit (net_dev_start_xmit) to the peer taking it (netif_receive_skb),
// in the order taken.
DelaySummary ModelDelays(const std::vector<std::pair<model::TimeNs, model::TimeNs>>& timing);

class CaptureCounter : public model::Observer {
 public:
  explicit CaptureCounter(uint32_t mss) : mss_(mss) {}
  void OnWirePacket(const model::WirePacket& p) override;
  void OnDeliver(model::TimeNs t, uint32_t seq, const uint8_t* data, uint32_t len) override;

  // What the capture counted, with the connection's own counters after the
  // run (autocorks, delayed ACKs, tcp_info, delays).
  ModelFigures Figures(uint64_t messages, const scenario::SimulationResult& run) const;
  uint64_t delivered_bytes() const { return delivered_; }

 private:
  uint32_t mss_;
  ModelFigures fig_;
  uint64_t sub_mss_ = 0;
  uint64_t delivered_ = 0;
  uint64_t payload_bytes_ = 0;  // first transmissions
  model::TimeNs first_data_ns_ = -1;
  model::TimeNs last_data_ns_ = 0;
};

// Issues kernelcmp's own call sequence for `variant` on the model's socket,
// as traffic.cc does on the kernel's: for sendmsg-all, sendfile and splice
// (calls no libceph writer makes), and for every variant in blocking mode
// (libceph never blocks). Non-blocking: a short count is retried at once,
// -EAGAIN waits for the write-space callback; blocking: a call that must wait
// parks in sk_stream_wait_memory (pushing what is queued) and returns the
// full count. Each call holds the socket the scenario's call cost.
// sendfile/splice move 64 KiB per sendmsg(bvec, MSG_SPLICE_PAGES), as
// splice_to_socket does with a 16-slot pipe; sendfile's last chunk goes
// without MORE (splice_direct_to_actor), splice's with SPLICE_F_MORE.
// `between_calls_ns`: the caller's own CPU after each call, socket not held.
absl::StatusOr<ModelFigures> ReplayCallsOnModel(const Workload& w, Variant variant, const scenario::Scenario& sc,
                                                IoMode io, model::TimeNs between_calls_ns = 0);

}  // namespace sendsim::kernelcmp

#endif  // SENDSIM_TOOLS_KERNELCMP_MODEL_REPLAY_H_
