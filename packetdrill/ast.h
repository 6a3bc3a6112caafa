#ifndef SENDSIM_PACKETDRILL_AST_H_
#define SENDSIM_PACKETDRILL_AST_H_

// Abstract syntax of a packetdrill script (upstream packetdrill's grammar,
// TCP subset plus enough of the rest to recognise and skip it).

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

namespace sendsim::packetdrill {

enum class TimeKind : uint8_t {
  kAbsolute,  // "0.100": seconds since the start of the script
  kRelative,  // "+.1": from the previous event (see runner.h for "previous")
  kAny,       // "*": any time
};

struct TimeSpec {
  TimeKind kind = TimeKind::kAbsolute;
  int64_t usecs = 0;
};

struct Timing {
  TimeSpec start;
  // "a~b": the event may happen anywhere in [a, b] (plus tolerance).
  std::optional<TimeSpec> range_end;
  // "a...b": a blocking system call issued at a that returns at b.
  std::optional<TimeSpec> block_end;
};

struct TcpOption {
  enum class Kind : uint8_t { kMss, kNop, kWscale, kSackOk, kTimestamp, kSack, kEol, kMd5, kUnsupported };
  Kind kind = Kind::kNop;
  uint32_t value = 0;                                // mss, wscale
  uint32_t ts_val = 0, ts_ecr = 0;                   // TS
  std::vector<std::pair<uint32_t, uint32_t>> sack;   // sack blocks [a, b)
  std::array<uint8_t, 16> md5{};                     // md5: the RFC 2385 digest as written
  std::string text;                                  // kUnsupported: the option as written
};

// TCP header flag letters as packetdrill writes them.
inline constexpr uint8_t kFlagFin = 0x01;  // F
inline constexpr uint8_t kFlagSyn = 0x02;  // S
inline constexpr uint8_t kFlagRst = 0x04;  // R
inline constexpr uint8_t kFlagPsh = 0x08;  // P
inline constexpr uint8_t kFlagAck = 0x10;  // .
inline constexpr uint8_t kFlagUrg = 0x20;  // U
inline constexpr uint8_t kFlagEce = 0x40;  // E
inline constexpr uint8_t kFlagCwr = 0x80;  // W

// An ICMP line, "icmp TYPE [CODE] [mtu N] [[start:end(len)]]" (upstream's
// icmp_packet_spec; packetdrill/icmp.h names the types and codes).
struct IcmpMessage {
  std::string type;              // "unreachable", "time_exceeded", ...
  std::string code;              // "frag_needed", ...; empty when none is written
  std::optional<uint32_t> mtu;   // "mtu N"
  // The quoted datagram: a TCP segment of ours "[start:end(len)]" in the
  // script's numbers, or another protocol's ("[udp (len)]"), or none.
  bool quotes_tcp = false;
  uint32_t seq_start = 0, seq_end = 0, len = 0;
  std::string quoted_other;      // "udp", "udplite", "sctp"; empty for TCP or none
};

struct PacketEvent {
  bool inbound = false;          // '<': injected by the script; '>': expected from the model
  std::string ecn;               // "[noecn]" etc. without brackets; empty if absent
  uint8_t flags = 0;
  std::string flags_text;        // as written, for messages
  uint32_t seq_start = 0;        // relative sequence numbers
  uint32_t seq_end = 0;
  uint32_t len = 0;
  std::optional<uint32_t> ack;
  std::optional<uint32_t> win;
  std::optional<uint32_t> urg;
  bool options_given = false;    // a "<...>" list was written
  bool options_any = false;      // "<...>": options unchecked
  std::vector<TcpOption> options;
  // Set for an ICMP line (no TCP fields then).
  std::optional<IcmpMessage> icmp;
  // Non-empty when the line is valid packetdrill that sendsim does not model
  // (udp, IP header fields, unsupported TCP options).
  std::string unsupported;
};

// TCP_SKB_CB(skb)->end_seq: the payload's end, with one more for a SYN and
// for a FIN (each takes a sequence number).
inline uint32_t EndSeq(const PacketEvent& p) {
  return p.seq_start + p.len + ((p.flags & kFlagSyn) ? 1 : 0) + ((p.flags & kFlagFin) ? 1 : 0);
}

// The packet's timestamp option, or null (a script writes it at most once).
inline const TcpOption* FindTimestamp(const PacketEvent& p) {
  for (const TcpOption& o : p.options) {
    if (o.kind == TcpOption::Kind::kTimestamp) return &o;
  }
  return nullptr;
}

// Whether the packet carries a TCP MD5 signature option (RFC 2385).
inline bool HasMd5(const PacketEvent& p) {
  for (const TcpOption& o : p.options) {
    if (o.kind == TcpOption::Kind::kMd5) return true;
  }
  return false;
}

// Syscall argument expressions.
struct Expr {
  enum class Kind : uint8_t {
    kInt,       // 42, -1, 0x10
    kWord,      // SOL_SOCKET, O_NONBLOCK, POLLOUT
    kString,    // "/tmp/x"
    kEllipsis,  // ...
    kArray,     // [a, b]
    kStruct,    // {a, b} or {x=1, ...}
    kOr,        // a|b
    kField,     // name=value or name(index)=value; children: [value] or [index, value]
    kCall,      // name(args), e.g. htons(8080); children: args
  };
  Kind kind = Kind::kInt;
  int64_t num = 0;
  std::string text;              // word, string contents, field name
  std::vector<Expr> children;
};

struct SyscallEvent {
  std::string name;
  std::vector<Expr> args;
  bool ret_any = false;          // "= ..."
  int64_t ret = 0;
  std::string errno_name;        // "EAGAIN"; empty if none
  std::string note;              // text in parentheses after the result
};

struct CommandEvent {
  std::string command;           // text between backticks
};

struct CodeEvent {
  std::string code;              // text between %{ and }%
};

struct Event {
  int line = 0;
  Timing timing;
  std::variant<PacketEvent, SyscallEvent, CommandEvent, CodeEvent> body;
};

struct ScriptOption {
  std::string name;              // without the leading "--"
  std::optional<std::string> value;
  int line = 0;
};

struct Script {
  std::string path;
  std::vector<ScriptOption> options;
  std::optional<std::string> init_command;
  int init_line = 0;
  std::vector<Event> events;
  std::optional<std::string> cleanup_command;
  int cleanup_line = 0;
};

}  // namespace sendsim::packetdrill

#endif  // SENDSIM_PACKETDRILL_AST_H_
