#include "tools/kernelcmp/tcp_segs_out.h"

#include <linux/tcp.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include <cstddef>

namespace sendsim::kernelcmp {

bool DataSegsOut(int fd, uint32_t* segs) {
  tcp_info ti = {};
  socklen_t len = sizeof(ti);
  if (getsockopt(fd, IPPROTO_TCP, TCP_INFO, &ti, &len) != 0) return false;
  // An older kernel fills less of the struct.
  if (len < offsetof(tcp_info, tcpi_data_segs_out) + sizeof(ti.tcpi_data_segs_out)) return false;
  *segs = ti.tcpi_data_segs_out;
  return true;
}

}  // namespace sendsim::kernelcmp
