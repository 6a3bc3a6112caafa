#include "packetdrill/kernel_tun.h"

#include <linux/if.h>
#include <linux/if_tun.h>
#include <poll.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "absl/strings/str_format.h"
#include "absl/time/time.h"
#include "netdev/inet.h"
#include "netdev/ip_cmd.h"
#include "netdev/tun.h"

namespace sendsim::packetdrill {
namespace {

constexpr size_t kVnetHdrLen = 10;  // struct virtio_net_hdr (TUNSETVNETHDRSZ default)

int64_t MonotonicNs() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<int64_t>(ts.tv_sec) * 1000000000 + ts.tv_nsec;
}

using netdev::Get16;
using netdev::Get32;
using netdev::Put16;
using netdev::Put32;

// An option-less IPv4 header (RFC 791) at `ip`, TTL 64, checksummed.
void PutIpv4Header(uint8_t* ip, uint8_t tos, size_t tot_len, bool df, uint8_t protocol,
                   uint32_t saddr, uint32_t daddr) {
  ip[0] = 0x45;
  ip[1] = tos;
  Put16(ip + 2, static_cast<uint16_t>(tot_len));
  if (df) Put16(ip + 6, 0x4000);
  ip[8] = 64;
  ip[9] = protocol;
  Put32(ip + 12, saddr);
  Put32(ip + 16, daddr);
  Put16(ip + 10, netdev::Fold(netdev::SumWords(ip, 20, 0)));
}

}  // namespace

std::vector<uint8_t> EncodeTcpOptions(const std::vector<TcpOption>& options) {
  std::vector<uint8_t> o;
  for (const TcpOption& t : options) {
    switch (t.kind) {
      case TcpOption::Kind::kNop: o.push_back(1); break;
      case TcpOption::Kind::kEol: o.push_back(0); break;
      case TcpOption::Kind::kMss:
        o.insert(o.end(), {2, 4, static_cast<uint8_t>(t.value >> 8), static_cast<uint8_t>(t.value)});
        break;
      case TcpOption::Kind::kWscale: o.insert(o.end(), {3, 3, static_cast<uint8_t>(t.value)}); break;
      case TcpOption::Kind::kSackOk: o.insert(o.end(), {4, 2}); break;
      case TcpOption::Kind::kTimestamp: {
        o.insert(o.end(), {8, 10});
        uint8_t b[8];
        Put32(b, t.ts_val);
        Put32(b + 4, t.ts_ecr);
        o.insert(o.end(), b, b + 8);
        break;
      }
      case TcpOption::Kind::kSack: {
        o.push_back(5);
        o.push_back(static_cast<uint8_t>(2 + 8 * t.sack.size()));
        for (const auto& [a, b] : t.sack) {
          uint8_t x[8];
          Put32(x, a);
          Put32(x + 4, b);
          o.insert(o.end(), x, x + 8);
        }
        break;
      }
      case TcpOption::Kind::kMd5:
        o.insert(o.end(), {19, 18});
        o.insert(o.end(), t.md5.begin(), t.md5.end());
        break;
      case TcpOption::Kind::kUnsupported: break;
    }
  }
  while (o.size() % 4) o.push_back(0);  // EOL padding
  return o;
}

std::vector<TcpOption> DecodeTcpOptions(const uint8_t* p, size_t n) {
  std::vector<TcpOption> v;
  size_t i = 0;
  while (i < n) {
    TcpOption t;
    const uint8_t kind = p[i];
    if (kind == 0) break;  // EOL: the rest is padding
    if (kind == 1) {
      t.kind = TcpOption::Kind::kNop;
      v.push_back(t);
      ++i;
      continue;
    }
    if (i + 1 >= n || p[i + 1] < 2 || i + p[i + 1] > n) break;
    const uint8_t len = p[i + 1];
    const uint8_t* d = p + i + 2;
    if (kind == 2 && len == 4) {
      t.kind = TcpOption::Kind::kMss;
      t.value = Get16(d);
    } else if (kind == 3 && len == 3) {
      t.kind = TcpOption::Kind::kWscale;
      t.value = d[0];
    } else if (kind == 4 && len == 2) {
      t.kind = TcpOption::Kind::kSackOk;
    } else if (kind == 8 && len == 10) {
      t.kind = TcpOption::Kind::kTimestamp;
      t.ts_val = Get32(d);
      t.ts_ecr = Get32(d + 4);
    } else if (kind == 5 && (len - 2) % 8 == 0) {
      t.kind = TcpOption::Kind::kSack;
      for (int k = 0; k < (len - 2) / 8; ++k) t.sack.emplace_back(Get32(d + 8 * k), Get32(d + 8 * k + 4));
    } else if (kind == 19 && len == 18) {
      t.kind = TcpOption::Kind::kMd5;
      std::copy(d, d + 16, t.md5.begin());
    } else {
      t.kind = TcpOption::Kind::kUnsupported;
      t.text = absl::StrFormat("kind %d", kind);
    }
    v.push_back(t);
    i += len;
  }
  return v;
}

absl::StatusOr<std::unique_ptr<TunDevice>> TunDevice::Create() {
  absl::StatusOr<int> tun = netdev::OpenTun("tun0", IFF_TUN | IFF_NO_PI | IFF_VNET_HDR);
  if (!tun.ok()) return tun.status();
  const int fd = *tun;
  // TSO offloads: the kernel hands whole TSO skbs to the device (what
  // packetdrill's tun device shows); `ethtool -K tun0 tso off` turns them off.
  if (ioctl(fd, TUNSETOFFLOAD, TUN_F_CSUM | TUN_F_TSO4 | TUN_F_TSO6) < 0) {
    const std::string e = std::strerror(errno);
    close(fd);
    return absl::UnavailableError("tun0: " + e);
  }
  const std::string local = absl::StrFormat("%s/16", kKernelLocalAddr);
  for (const std::vector<std::string>& argv : std::vector<std::vector<std::string>>{
           {"ip", "link", "set", "lo", "up"},
           {"sysctl", "-q", "-w", "net.ipv6.conf.tun0.disable_ipv6=1"},
           {"ip", "link", "set", "tun0", "up"},
           {"ip", "addr", "add", local, "dev", "tun0"},
           {"ip", "route", "add", "192.0.2.0/24", "via", kKernelGatewayAddr, "dev", "tun0"}}) {
    if (netdev::RunArgv(argv) != 0 && argv[0] == "ip") {
      close(fd);
      return absl::UnavailableError(absl::StrFormat("'%s %s %s' failed", argv[0], argv[1], argv[2]));
    }
  }
  std::unique_ptr<TunDevice> dev(new TunDevice(fd, MonotonicNs()));
  dev->reader_ = std::thread([d = dev.get()] { d->ReadLoop(); });
  return dev;
}

TunDevice::~TunDevice() {
  {
    absl::MutexLock l(&mu_);
    stop_ = true;
  }
  if (reader_.joinable()) reader_.join();
  close(fd_);
}

int64_t TunDevice::Now() const { return MonotonicNs() - t0_; }

void TunDevice::ReadLoop() {
  std::vector<uint8_t> buf(70000);
  const uint32_t local = netdev::ParseIpv4(kKernelLocalAddr), remote = netdev::ParseIpv4(kKernelRemoteAddr);
  for (;;) {
    {
      absl::MutexLock l(&mu_);
      if (stop_) return;
    }
    pollfd pfd{fd_, POLLIN, 0};
    if (poll(&pfd, 1, 20) <= 0) continue;
    const ssize_t n = read(fd_, buf.data(), buf.size());
    const int64_t t = Now();
    if (n < static_cast<ssize_t>(kVnetHdrLen + 40)) continue;
    const uint8_t* ip = buf.data() + kVnetHdrLen;
    const size_t ip_len = static_cast<size_t>(n) - kVnetHdrLen;
    const size_t ihl = (ip[0] & 0xf) * 4u;
    if ((ip[0] >> 4) != 4 || ip[9] != 6 || Get32(ip + 12) != local || Get32(ip + 16) != remote) continue;
    const size_t total = std::min<size_t>(Get16(ip + 2), ip_len);
    if (total < ihl + 20) continue;
    const uint8_t* tcp = ip + ihl;
    const size_t doff = (tcp[12] >> 4) * 4u;
    if (doff < 20 || ihl + doff > total) continue;
    WireTcp w;
    w.t_ns = t;
    w.sport = Get16(tcp);
    w.dport = Get16(tcp + 2);
    w.seq = Get32(tcp + 4);
    w.ack = Get32(tcp + 8);
    w.flags = tcp[13];
    w.ecn = ip[1] & 3;
    w.win = Get16(tcp + 14);
    w.len = static_cast<uint32_t>(total - ihl - doff);
    w.options = DecodeTcpOptions(tcp + 20, doff - 20);
    absl::MutexLock l(&mu_);
    captured_.push_back(std::move(w));
  }
}

absl::Status TunDevice::Write(const WireTcp& p) {
  const std::vector<uint8_t> opts = EncodeTcpOptions(p.options);
  const size_t tcp_len = 20 + opts.size() + p.len;
  std::vector<uint8_t> b(kVnetHdrLen + 20 + tcp_len, 0);
  uint8_t* ip = b.data() + kVnetHdrLen;
  // TOS: DSCP 0 and the ECN field.
  PutIpv4Header(ip, p.ecn & 3, 20 + tcp_len, /*df=*/false, 6, netdev::ParseIpv4(kKernelRemoteAddr),
                netdev::ParseIpv4(kKernelLocalAddr));
  uint8_t* tcp = ip + 20;
  Put16(tcp, p.sport);
  Put16(tcp + 2, p.dport);
  Put32(tcp + 4, p.seq);
  Put32(tcp + 8, p.ack);
  tcp[12] = static_cast<uint8_t>(((20 + opts.size()) / 4) << 4);
  tcp[13] = p.flags;
  Put16(tcp + 14, p.win);
  std::memcpy(tcp + 20, opts.data(), opts.size());
  // Pseudo-header: addresses, protocol, TCP length.
  uint8_t ph[12];
  std::memcpy(ph, ip + 12, 8);
  ph[8] = 0;
  ph[9] = 6;
  Put16(ph + 10, static_cast<uint16_t>(tcp_len));
  Put16(tcp + 16, netdev::Fold(netdev::SumWords(tcp, tcp_len, netdev::SumWords(ph, sizeof(ph), 0))));
  if (write(fd_, b.data(), b.size()) != static_cast<ssize_t>(b.size())) {
    return absl::InternalError(absl::StrFormat("write to tun0: %s", std::strerror(errno)));
  }
  return absl::OkStatus();
}

// RFC 792's error layout: ICMP header, then the offending datagram's IP
// header and (at least) 8 bytes of its payload; tcp_v4_err looks the socket
// up by the quoted addresses and ports and reads the quoted seq. The quoted
// IP header is as our segment left (DF, its total length), checksummed.
absl::Status TunDevice::WriteIcmp(uint8_t type, uint8_t code, uint32_t rest, const WireTcp& quoted) {
  constexpr size_t kQuoted = 20 + 20;
  std::vector<uint8_t> b(kVnetHdrLen + 20 + 8 + kQuoted, 0);
  uint8_t* ip = b.data() + kVnetHdrLen;
  PutIpv4Header(ip, 0, 20 + 8 + kQuoted, /*df=*/false, 1 /* IPPROTO_ICMP */,
                netdev::ParseIpv4(kKernelRemoteAddr), netdev::ParseIpv4(kKernelLocalAddr));
  uint8_t* icmp = ip + 20;
  icmp[0] = type;
  icmp[1] = code;
  Put32(icmp + 4, rest);
  uint8_t* qip = icmp + 8;
  PutIpv4Header(qip, 0, 40 + std::min<uint32_t>(quoted.len, 65495), /*df=*/true, 6,
                netdev::ParseIpv4(kKernelLocalAddr), netdev::ParseIpv4(kKernelRemoteAddr));
  uint8_t* tcp = qip + 20;
  Put16(tcp, quoted.sport);
  Put16(tcp + 2, quoted.dport);
  Put32(tcp + 4, quoted.seq);
  Put32(tcp + 8, quoted.ack);
  tcp[12] = 5 << 4;
  tcp[13] = quoted.flags;
  Put16(tcp + 14, quoted.win);
  Put16(icmp + 2, netdev::Fold(netdev::SumWords(icmp, 8 + kQuoted, 0)));
  if (write(fd_, b.data(), b.size()) != static_cast<ssize_t>(b.size())) {
    return absl::InternalError(absl::StrFormat("write to tun0: %s", std::strerror(errno)));
  }
  return absl::OkStatus();
}

std::optional<WireTcp> TunDevice::Peek(int64_t deadline) {
  // Woken by the reader's push, not by polling: a script's next event is
  // often due at once ("+0" after this packet), and a polling interval
  // would delay it.
  absl::MutexLock l(&mu_);
  const int64_t wait = deadline - Now();
  if (captured_.empty() && wait > 0) {
    mu_.AwaitWithTimeout(absl::Condition(
                             +[](std::deque<WireTcp>* q) { return !q->empty(); }, &captured_),
                         absl::Nanoseconds(wait));
  }
  if (captured_.empty()) return std::nullopt;
  return captured_.front();
}

void TunDevice::Pop() {
  absl::MutexLock l(&mu_);
  if (!captured_.empty()) captured_.pop_front();
}

}  // namespace sendsim::packetdrill
