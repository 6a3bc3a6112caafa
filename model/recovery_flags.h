#ifndef SENDSIM_MODEL_RECOVERY_FLAGS_H_
#define SENDSIM_MODEL_RECOVERY_FLAGS_H_

// What one ACK did, as tcp_ack's FLAG_* bits (same values as tcp_input.c,
// so that a trace reads like the kernel's). Only the bits the model sets
// or tests are here.

namespace sendsim::model {

inline constexpr int kFlagData = 0x01;             // FLAG_DATA: the segment carried data
inline constexpr int kFlagWinUpdate = 0x02;        // FLAG_WIN_UPDATE
inline constexpr int kFlagDataAcked = 0x04;        // FLAG_DATA_ACKED: new data cumulatively acked
inline constexpr int kFlagRetransDataAcked = 0x08; // FLAG_RETRANS_DATA_ACKED
inline constexpr int kFlagDataSacked = 0x20;       // FLAG_DATA_SACKED: new SACK
inline constexpr int kFlagEce = 0x40;              // FLAG_ECE
inline constexpr int kFlagLostRetrans = 0x80;      // FLAG_LOST_RETRANS: a retransmission lost again
inline constexpr int kFlagOrigSackAcked = 0x200;   // FLAG_ORIG_SACK_ACKED
inline constexpr int kFlagSndUnaAdvanced = 0x400;  // FLAG_SND_UNA_ADVANCED
inline constexpr int kFlagDsackingAck = 0x800;     // FLAG_DSACKING_ACK: a D-SACK block was accepted
inline constexpr int kFlagSetXmitTimer = 0x1000;   // FLAG_SET_XMIT_TIMER
inline constexpr int kFlagDsackTlp = 0x20000;      // FLAG_DSACK_TLP: a D-SACK of the loss probe

inline constexpr int kFlagAcked = kFlagDataAcked;  // FLAG_ACKED (no SYN in the model)
inline constexpr int kFlagNotDup = kFlagData | kFlagWinUpdate | kFlagAcked;
inline constexpr int kFlagCaAlert = kFlagDataSacked | kFlagEce | kFlagDsackingAck;
inline constexpr int kFlagForwardProgress = kFlagAcked | kFlagDataSacked;

}  // namespace sendsim::model

#endif  // SENDSIM_MODEL_RECOVERY_FLAGS_H_
