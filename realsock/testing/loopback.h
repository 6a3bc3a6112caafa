#ifndef SENDSIM_REALSOCK_TESTING_LOOPBACK_H_
#define SENDSIM_REALSOCK_TESTING_LOOPBACK_H_

// A connected TCP pair on 127.0.0.1 (no root, no namespaces), for tests.

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <unistd.h>

#include <utility>

namespace sendsim::realsock::testing {

// {sender, receiver}, or {-1, -1} when loopback TCP is unavailable.
inline std::pair<int, int> LoopbackPair(int sndbuf = 0) {
  const int l = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  struct sockaddr_in a = {};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof(a);
  if (l < 0 || bind(l, reinterpret_cast<struct sockaddr*>(&a), sizeof(a)) != 0 || listen(l, 1) != 0 ||
      getsockname(l, reinterpret_cast<struct sockaddr*>(&a), &len) != 0) {
    if (l >= 0) close(l);
    return {-1, -1};
  }
  const int c = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (sndbuf > 0) setsockopt(c, SOL_SOCKET, SO_SNDBUF, &sndbuf, sizeof(sndbuf));
  const int one = 1;
  setsockopt(c, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
  if (connect(c, reinterpret_cast<struct sockaddr*>(&a), sizeof(a)) != 0) {
    close(c);
    close(l);
    return {-1, -1};
  }
  const int r = accept4(l, nullptr, nullptr, SOCK_CLOEXEC);
  close(l);
  if (r < 0) {
    close(c);
    return {-1, -1};
  }
  return {c, r};
}

}  // namespace sendsim::realsock::testing

#endif  // SENDSIM_REALSOCK_TESTING_LOOPBACK_H_
