#include "realsock/capture.h"

#include <arpa/inet.h>
#include <linux/if_packet.h>
#include <net/ethernet.h>
#include <net/if.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "absl/strings/str_format.h"

namespace sendsim::realsock {
namespace {

uint16_t Be16(const uint8_t* p) { return static_cast<uint16_t>((p[0] << 8) | p[1]); }
uint32_t Be32(const uint8_t* p) {
  return (uint32_t{p[0]} << 24) | (uint32_t{p[1]} << 16) | (uint32_t{p[2]} << 8) | p[3];
}

}  // namespace

bool ParseIpv4Tcp(const uint8_t* ip, size_t ip_len, kernelcmp::TcpSegment* out) {
  if (ip_len < 20 || (ip[0] >> 4) != 4 || ip[9] != IPPROTO_TCP) return false;
  const size_t ihl = (ip[0] & 0xf) * 4u;
  if (ihl < 20 || ip_len < ihl + 20) return false;
  const uint16_t total = Be16(ip + 2);
  const uint8_t* tcp = ip + ihl;
  const size_t doff = (tcp[12] >> 4) * 4u;
  if (doff < 20 || total < ihl + doff) return false;
  out->src_ip = Be32(ip + 12);
  out->dst_ip = Be32(ip + 16);
  out->src_port = Be16(tcp);
  out->dst_port = Be16(tcp + 2);
  out->seq = Be32(tcp + 4);
  out->ack = Be32(tcp + 8);
  out->flags = tcp[13];
  out->payload_len = total - static_cast<uint32_t>(ihl + doff);
  return true;
}

absl::StatusOr<std::unique_ptr<Capture>> Capture::Open(const std::string& device) {
  // ETH_P_ALL: only taps on every protocol see outgoing packets
  // (dev_queue_xmit_nit delivers to ptype_all); IPv4 is picked per packet.
  const int fd = socket(AF_PACKET, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, htons(ETH_P_ALL));
  if (fd < 0) return absl::FailedPreconditionError(absl::StrFormat("packet socket: %s", std::strerror(errno)));
  std::unique_ptr<Capture> c(new Capture(fd));
  const int buf = 256 << 20;
  // SO_RCVBUFFORCE (root) lifts rmem_max; without it the default is used.
  if (setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &buf, sizeof(buf)) != 0) {
    setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &buf, sizeof(buf));
  }
  struct sockaddr_ll sll = {};
  sll.sll_family = AF_PACKET;
  sll.sll_protocol = htons(ETH_P_ALL);
  sll.sll_ifindex = static_cast<int>(if_nametoindex(device.c_str()));
  if (sll.sll_ifindex == 0) return absl::NotFoundError(absl::StrFormat("no device %s", device));
  if (bind(fd, reinterpret_cast<struct sockaddr*>(&sll), sizeof(sll)) != 0) {
    return absl::InternalError(absl::StrFormat("bind packet socket: %s", std::strerror(errno)));
  }
  return c;
}

Capture::~Capture() { close(fd_); }

absl::Status Capture::Drain() {
  uint8_t buf[128];  // IPv4 + TCP headers with options; payload length comes from the IP header
  for (;;) {
    struct sockaddr_ll from = {};
    socklen_t from_len = sizeof(from);
    const ssize_t r =
        recvfrom(fd_, buf, sizeof(buf), MSG_TRUNC, reinterpret_cast<struct sockaddr*>(&from), &from_len);
    if (r < 0) {
      if (errno == EAGAIN || errno == EWOULDBLOCK) return absl::OkStatus();
      if (errno == EINTR) continue;
      return absl::InternalError(absl::StrFormat("capture recv: %s", std::strerror(errno)));
    }
    if (from.sll_protocol != htons(ETH_P_IP)) continue;
    kernelcmp::TcpSegment s;
    if (ParseIpv4Tcp(buf, std::min<size_t>(static_cast<size_t>(r), sizeof(buf)), &s)) segments_.push_back(s);
  }
}

absl::Status Capture::Finish() {
  if (absl::Status s = Drain(); !s.ok()) return s;
  struct tpacket_stats st = {};
  socklen_t len = sizeof(st);
  if (getsockopt(fd_, SOL_PACKET, PACKET_STATISTICS, &st, &len) != 0) {
    return absl::InternalError(absl::StrFormat("PACKET_STATISTICS: %s", std::strerror(errno)));
  }
  drops_ += st.tp_drops;
  if (drops_ > 0) return absl::DataLossError(absl::StrFormat("the capture dropped %u packets", drops_));
  return absl::OkStatus();
}

}  // namespace sendsim::realsock
