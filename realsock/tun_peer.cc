#include "realsock/tun_peer.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <linux/if.h>
#include <linux/if_tun.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "model/constants.h"
#include "netdev/inet.h"
#include "netdev/ip_cmd.h"
#include "netdev/tun.h"

namespace sendsim::realsock {
namespace {

constexpr uint8_t kSyn = 0x02, kRst = 0x04, kAck = 0x10;  // TCPHDR_*

using netdev::Fold;
using netdev::Get16;
using netdev::Get32;
using netdev::Put16;
using netdev::Put32;
using netdev::RunArgv;
using netdev::RunIp;
using netdev::SumWords;

}  // namespace

uint32_t TunTsval() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<uint32_t>(static_cast<uint64_t>(ts.tv_sec) * 1000 + static_cast<uint64_t>(ts.tv_nsec) / 1000000);
}

bool ParseTunSegment(const uint8_t* ip, size_t n, TunSegment* out) {
  if (n < 20 || (ip[0] >> 4) != 4 || ip[9] != IPPROTO_TCP) return false;
  const size_t ihl = (ip[0] & 0xf) * 4u;
  const size_t total = Get16(ip + 2);
  if (ihl < 20 || total > n || total < ihl + 20) return false;
  const uint8_t* t = ip + ihl;
  const size_t doff = (t[12] >> 4) * 4u;
  if (doff < 20 || ihl + doff > total) return false;
  TunSegment s;
  s.saddr = Get32(ip + 12);
  s.daddr = Get32(ip + 16);
  s.sport = Get16(t);
  s.dport = Get16(t + 2);
  s.seq = Get32(t + 4);
  s.ack = Get32(t + 8);
  s.flags = t[13];
  s.win = Get16(t + 14);
  s.len = static_cast<uint32_t>(total - ihl - doff);
  for (size_t i = 20; i < doff;) {
    const uint8_t kind = t[i];
    if (kind == 0) break;
    if (kind == 1) {
      ++i;
      continue;
    }
    if (i + 1 >= doff || t[i + 1] < 2 || i + t[i + 1] > doff) break;
    const uint8_t len = t[i + 1];
    if (kind == 2 && len == 4) s.mss = Get16(t + i + 2);
    if (kind == 3 && len == 3) s.wscale = t[i + 2];
    if (kind == 4 && len == 2) s.sack_ok = true;
    if (kind == 8 && len == 10) {
      s.has_ts = true;
      s.tsval = Get32(t + i + 2);
      s.tsecr = Get32(t + i + 6);
    }
    i += len;
  }
  *out = s;
  return true;
}

std::vector<uint8_t> BuildTunPacket(const TunSegment& s) {
  std::vector<uint8_t> opt;
  if (s.mss >= 0) opt.insert(opt.end(), {2, 4, static_cast<uint8_t>(s.mss >> 8), static_cast<uint8_t>(s.mss)});
  if (s.sack_ok && s.has_ts) {
    opt.insert(opt.end(), {4, 2});  // SACK permitted, then the timestamps (the kernel's SYN-ACK layout)
  } else if (s.sack_ok) {
    opt.insert(opt.end(), {1, 1, 4, 2});
  }
  if (s.has_ts) {
    if (!s.sack_ok) opt.insert(opt.end(), {1, 1});
    opt.insert(opt.end(), {8, 10, 0, 0, 0, 0, 0, 0, 0, 0});
    Put32(&opt[opt.size() - 8], s.tsval);
    Put32(&opt[opt.size() - 4], s.tsecr);
  }
  if (s.wscale >= 0) opt.insert(opt.end(), {1, 3, 3, static_cast<uint8_t>(s.wscale)});
  while (opt.size() % 4) opt.push_back(0);
  const size_t tcp_len = 20 + opt.size() + s.len;
  std::vector<uint8_t> p(20 + tcp_len, 0);
  uint8_t* ip = p.data();
  ip[0] = 0x45;
  Put16(ip + 2, static_cast<uint16_t>(p.size()));
  ip[6] = 0x40;  // DF
  ip[8] = 64;
  ip[9] = IPPROTO_TCP;
  Put32(ip + 12, s.saddr);
  Put32(ip + 16, s.daddr);
  Put16(ip + 10, Fold(SumWords(ip, 20, 0)));
  uint8_t* t = ip + 20;
  Put16(t, s.sport);
  Put16(t + 2, s.dport);
  Put32(t + 4, s.seq);
  Put32(t + 8, s.ack);
  t[12] = static_cast<uint8_t>((20 + opt.size()) / 4 << 4);
  t[13] = s.flags;
  Put16(t + 14, s.win);
  std::copy(opt.begin(), opt.end(), t + 20);
  uint32_t sum = SumWords(ip + 12, 8, 0) + IPPROTO_TCP + static_cast<uint32_t>(tcp_len);
  Put16(t + 16, Fold(SumWords(t, tcp_len, sum)));
  return p;
}

absl::StatusOr<std::unique_ptr<TunDevice>> TunDevice::Create() {
  absl::StatusOr<int> fd = netdev::OpenTun(kTunDev, IFF_TUN | IFF_NO_PI, O_NONBLOCK);
  if (!fd.ok()) return fd.status();
  std::unique_ptr<TunDevice> dev(new TunDevice(*fd));
  dev->buf_.resize(65536 + 64);
  // A whole window read at one virtual instant: the ring (tx_queue_len) must
  // hold it, or tun_net_xmit drops.
  for (const std::vector<std::string>& argv : std::vector<std::vector<std::string>>{
           {"ip", "link", "set", "lo", "up"},
           {"ip", "link", "set", kTunDev, "mtu", absl::StrCat(kTunMtu), "txqueuelen", "20000", "up"},
           {"ip", "addr", "add", absl::StrCat(kTunLocalIp, "/24"), "dev", kTunDev}}) {
    if (absl::Status st = RunIp(argv); !st.ok()) return st;
  }
  return dev;
}

TunDevice::~TunDevice() { close(fd_); }

absl::Status TunDevice::SetRoute(uint32_t initcwnd) {
  if (have_route_ && route_initcwnd_ == initcwnd) return absl::OkStatus();
  if (absl::Status st = RunIp({"ip", "route", "replace", absl::StrCat(kTunPeerIp, "/32"), "dev", kTunDev, "initcwnd",
                            absl::StrCat(initcwnd)});
      !st.ok()) {
    return st;
  }
  RunArgv({"ip", "tcp_metrics", "flush", "all"});
  have_route_ = true;
  route_initcwnd_ = initcwnd;
  return absl::OkStatus();
}

absl::StatusOr<std::optional<TunSegment>> TunDevice::Read() {
  const ssize_t r = read(fd_, buf_.data(), buf_.size());
  if (r < 0) {
    if (errno == EAGAIN || errno == EINTR) return std::nullopt;
    return absl::InternalError(absl::StrFormat("read %s: %s", kTunDev, std::strerror(errno)));
  }
  TunSegment s;
  if (!ParseTunSegment(buf_.data(), static_cast<size_t>(r), &s)) return TunSegment{};
  return s;
}

absl::Status TunDevice::Write(const TunSegment& s) {
  const std::vector<uint8_t> p = BuildTunPacket(s);
  if (write(fd_, p.data(), p.size()) != static_cast<ssize_t>(p.size())) {
    return absl::InternalError(absl::StrFormat("write %s: %s", kTunDev, std::strerror(errno)));
  }
  return absl::OkStatus();
}

TunSegment SynAckFor(const TunSegment& syn, const model::ConnectionConfig& cfg, const model::Profile& profile,
                     uint32_t peer_isn, uint32_t tsval) {
  // The window and scale tcp_select_initial_window gives the model's peer.
  model::EventLoop scratch;
  model::Link rev(&scratch, cfg.link_bps, cfg.one_way_delay_ns, model::Direction::kAck, model::SegmentSinkFn(),
                  nullptr);
  model::Peer peer(&scratch, cfg, profile, &rev, nullptr, syn.seq + 1);
  TunSegment a;
  a.saddr = syn.daddr;
  a.daddr = syn.saddr;
  a.sport = syn.dport;
  a.dport = syn.sport;
  a.seq = peer_isn;
  a.ack = syn.seq + 1;
  a.flags = kSyn | kAck;
  a.win = static_cast<uint16_t>(std::min<uint32_t>(peer.initial_window(), 65535));  // never scaled in a SYN
  a.mss = static_cast<int>(cfg.mss + (cfg.timestamps ? 12 : 0));
  a.sack_ok = cfg.sack && syn.sack_ok;
  a.has_ts = cfg.timestamps && syn.has_ts;
  a.tsval = tsval;
  a.tsecr = syn.tsval;
  a.wscale = syn.wscale >= 0 ? peer.wscale() : -1;
  return a;
}

TunPeer::TunPeer(model::EventLoop* loop, TunDevice* dev, const model::ConnectionConfig& cfg,
                 const model::Profile& profile, const TunHandshake& hs)
    : loop_(loop), dev_(dev), hs_(hs), ts_recent_(hs.last_tsval) {
  rev_ = std::make_unique<model::Link>(loop, cfg.link_bps, cfg.one_way_delay_ns, model::Direction::kAck,
                                       [this](const model::Segment& a) { WriteAck(a); }, nullptr,
                                       model::LinkOptionsFor(cfg, model::Direction::kAck));
  fwd_ = std::make_unique<model::Link>(loop, cfg.link_bps, cfg.one_way_delay_ns, model::Direction::kData,
                                       model::SegmentSinkFn(), nullptr,
                                       model::LinkOptionsFor(cfg, model::Direction::kData));
  peer_ = std::make_unique<model::Peer>(loop, cfg, profile, rev_.get(), nullptr, hs.kernel_isn + 1);
  peer_->AttachLookahead(fwd_.get());
  wscale_ = peer_->wscale();
}

void TunPeer::OnKernelSegment(const TunSegment& s) {
  if (s.saddr != netdev::ParseIpv4(kTunLocalIp) || s.daddr != netdev::ParseIpv4(kTunPeerIp) ||
      s.sport != hs_.local_port || s.dport != hs_.peer_port || (s.flags & (kRst | kSyn)) != 0) {
    return;
  }
  if (s.has_ts) ts_recent_ = s.tsval;
  // Zero-length segments go to the peer too: a window probe (seq below
  // rcv_nxt, tcp_xmit_probe_skb) must get its duplicate ACK.
  const uint32_t rel = s.seq - (hs_.kernel_isn + 1);
  KernelPacket k{loop_->now(), rel, s.len, s.flags, rel + uint64_t{s.len} <= snd_max_};
  if (s.len > 0) {
    packets_.push_back(k);
    snd_max_ = std::max<uint64_t>(snd_max_, rel + uint64_t{s.len});
  }
  model::Segment seg;
  seg.seq = s.seq;
  seg.len = s.len;
  seg.flags = s.flags;
  seg.ack = s.ack;
  seg.win = static_cast<uint32_t>(s.win);
  seg.retransmit = k.retransmit;
  fwd_->Send(std::move(seg));
}

void TunPeer::WriteAck(const model::Segment& a) {
  TunSegment t;
  t.saddr = netdev::ParseIpv4(kTunPeerIp);
  t.daddr = netdev::ParseIpv4(kTunLocalIp);
  t.sport = hs_.peer_port;
  t.dport = hs_.local_port;
  t.seq = hs_.peer_isn + 1;
  t.ack = a.ack;
  t.flags = kAck;
  t.win = static_cast<uint16_t>(std::min<uint32_t>(a.win >> wscale_, 65535));
  t.has_ts = true;
  t.tsval = TunTsval();
  t.tsecr = ts_recent_;
  const uint64_t covered = static_cast<uint32_t>(a.ack - (hs_.kernel_isn + 1));
  acked_ = std::max(acked_, covered);
  if (ack_trace_) ack_trace_(covered, t.win);
  if (absl::Status st = dev_->Write(t); !st.ok() && error_.ok()) error_ = st;
}

}  // namespace sendsim::realsock
