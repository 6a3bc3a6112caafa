#ifndef SENDSIM_TOOLS_KERNELCMP_TCP_SEGS_OUT_H_
#define SENDSIM_TOOLS_KERNELCMP_TCP_SEGS_OUT_H_

#include <cstdint>

namespace sendsim::kernelcmp {

// tcpi_data_segs_out of a TCP socket (TCP_INFO, v4.6+): data segments sent,
// retransmissions included. Its own file because glibc's <netinet/tcp.h>
// lacks the field and clashes with <linux/tcp.h>. False if unavailable.
bool DataSegsOut(int fd, uint32_t* segs);

}  // namespace sendsim::kernelcmp

#endif  // SENDSIM_TOOLS_KERNELCMP_TCP_SEGS_OUT_H_
