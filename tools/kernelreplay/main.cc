// kernelreplay: the map's cases on a real kernel (over the tun peer) beside
// the model. README.md explains the three modes; replay.sh runs them.
//
// Exit status: 0 done; 1 a failure or (--recorded) the model's side moved
// from the recording; 2 bad flags or recording; 77 cannot run here.

#include <sys/utsname.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <sstream>

#include "absl/flags/flag.h"
#include "absl/flags/parse.h"
#include "absl/flags/usage.h"
#include "absl/strings/match.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_split.h"
#include "tools/kernelcmp/cleanup.h"
#include "tools/kernelreplay/kernel_case.h"
#include "props/run_case.h"
#include "tools/kernelreplay/replay.h"

ABSL_FLAG(bool, kernel_side, false, "inside a UML guest: run the sample's cases on this kernel over the tun peer");
ABSL_FLAG(std::string, series, "", "--kernel_side: the guest's series, 6.1 or 6.12");
ABSL_FLAG(std::string, cells, "", "--kernel_side: 'axis=value;...' (default: the stratified sample)");
ABSL_FLAG(int64_t, cases, 50, "--kernel_side: cases per cell");
ABSL_FLAG(uint64_t, seed, 1, "--kernel_side: the map's seed");
ABSL_FLAG(bool, any_kernel, false,
          "--kernel_side: run on whatever kernel this is (debugging, e.g. in `unshare -n`; the series still "
          "picks the profile and writers)");
ABSL_FLAG(std::string, json_out, "", "--kernel_side: write the kernel side here");
ABSL_FLAG(std::string, case_file, "",
          "run only the case of this fixture (the text after its 'case:' line) and print its sizes: on this "
          "kernel with --kernel_side, else on the model");
ABSL_FLAG(bool, trace, false,
          "--case_file: trace on stderr (kernel: ACKs, data segments, writer wakes; model: data segments)");
ABSL_FLAG(std::string, record, "", "add the model's side to this kernel-side file and write --out");
ABSL_FLAG(std::string, out, "", "--record: the recording to write");
ABSL_FLAG(std::string, fixtures_dir, "", "--record: write quiescent disagreements here as fixtures");
ABSL_FLAG(std::string, recorded, "", "print a recording's agreement table and check the model still gives its model side");
ABSL_FLAG(int64_t, check_cases, -1, "--recorded: check only the first N cases of each cell (-1: all)");

namespace sendsim::kernelreplay {
namespace {

int Fail(const absl::Status& st) {
  std::fprintf(stderr, "kernelreplay: %s\n", std::string(st.message()).c_str());
  if (absl::IsInvalidArgument(st)) return 2;
  if (absl::IsUnavailable(st)) return 77;
  return 1;
}

absl::StatusOr<std::string> ReadFile(const std::string& path) {
  std::ifstream in(path);
  if (!in) return absl::InvalidArgumentError(absl::StrFormat("cannot read %s", path));
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

absl::Status WriteFile(const std::string& path, const std::string& text) {
  std::ofstream out(path);
  out << text;
  out.close();
  if (!out) return absl::InternalError(absl::StrFormat("cannot write %s", path));
  return absl::OkStatus();
}

std::vector<uint32_t> FirstSizes(const KernelCaseRun& k) {
  std::vector<uint32_t> v;
  for (const realsock::KernelPacket& p : k.packets) {
    if (!p.retransmit) v.push_back(p.len);
  }
  return v;
}

// The sysctls a case sets, restored when `cleanup` unwinds; the tun.
absl::StatusOr<std::unique_ptr<realsock::TunDevice>> PrepareGuest(kernelcmp::CleanupStack* cleanup) {
  if (geteuid() != 0) return absl::UnavailableError("the tun device needs root (run inside tools/uml/run.sh)");
  for (const char* path : {"/proc/sys/net/ipv4/tcp_autocorking", "/proc/sys/net/ipv4/tcp_no_metrics_save"}) {
    absl::StatusOr<std::string> old = ReadSysctl(path);
    if (!old.ok()) return old.status();
    cleanup->Push(absl::StrFormat("restore %s", path), [p = std::string(path), v = *old] { (void)WriteSysctl(p, v); });
  }
  return realsock::TunDevice::Create();
}

// The case of a fixture file (the text after its 'case:' line).
absl::StatusOr<props::Case> ReadCaseFile(const std::string& path) {
  absl::StatusOr<std::string> text = ReadFile(path);
  if (!text.ok()) return text.status();
  const size_t at = text->find("\ncase:\n");
  if (at == std::string::npos) return absl::InvalidArgumentError(absl::StrFormat("%s has no 'case:' line", path));
  absl::StatusOr<props::Case> c = props::ParseCase(text->substr(at + 7));
  if (!c.ok()) return absl::InvalidArgumentError(absl::StrFormat("%s: %s", path, c.status().message()));
  return c;
}

// The model's run of a fixture's case: its sizes on stdout; with --trace
// every data packet (time, sequence, length, push reason) on stderr.
int ModelCaseFile(const std::string& path) {
  absl::StatusOr<props::Case> c = ReadCaseFile(path);
  if (!c.ok()) return Fail(c.status());
  absl::StatusOr<props::Outcome> o = props::RunCase(KernelExpressible(*c), props::RunDepth::kWire);
  if (!o.ok()) return Fail(o.status());
  std::vector<uint32_t> sizes;
  for (const props::PacketRecord& p : o->packets) {
    if (p.len == 0) continue;
    if (!p.retransmit) sizes.push_back(p.len);
    if (absl::GetFlag(FLAGS_trace)) {
      std::fprintf(stderr, "%12lld data %u+%u reason %d%s\n", static_cast<long long>(p.time), p.seq, p.len, p.reason,
                   p.retransmit ? " rtx" : "");
    }
  }
  std::printf("model: %s%s\n", EncodeSizes(sizes).c_str(), o->completed ? "" : " (incomplete)");
  return 0;
}

// One fixture's case on this kernel: its sizes on stdout.
int CaseFile(const std::string& path) {
  absl::StatusOr<props::Case> c = ReadCaseFile(path);
  if (!c.ok()) return Fail(c.status());
  kernelcmp::CleanupStack cleanup;
  kernelcmp::SignalGuard guard(&cleanup);
  absl::StatusOr<std::unique_ptr<realsock::TunDevice>> tun = PrepareGuest(&cleanup);
  if (!tun.ok()) return Fail(tun.status());
  absl::StatusOr<KernelCaseRun> k =
      RunKernelCase(KernelExpressible(*c), tun->get(), absl::GetFlag(FLAGS_trace) ? stderr : nullptr);
  if (!k.ok()) return Fail(k.status());
  std::printf("kernel: %s%s\n", EncodeSizes(FirstSizes(*k)).c_str(), k->completed ? "" : " (incomplete)");
  return 0;
}

int KernelSide() {
  if (!absl::GetFlag(FLAGS_case_file).empty()) return CaseFile(absl::GetFlag(FLAGS_case_file));
  const std::string series = absl::GetFlag(FLAGS_series);
  const std::string out = absl::GetFlag(FLAGS_json_out);
  if (out.empty()) return Fail(absl::InvalidArgumentError("--kernel_side needs --json_out"));
  std::vector<std::pair<std::string, std::string>> cells = DefaultCells();
  if (!absl::GetFlag(FLAGS_cells).empty()) {
    absl::StatusOr<std::vector<std::pair<std::string, std::string>>> c = ParseCells(absl::GetFlag(FLAGS_cells));
    if (!c.ok()) return Fail(c.status());
    cells = *c;
  }
  if (absl::GetFlag(FLAGS_cases) < 1) return Fail(absl::InvalidArgumentError("--cases must be at least 1"));
  absl::StatusOr<Recording> rec = SampleCells(series, cells, absl::GetFlag(FLAGS_cases), absl::GetFlag(FLAGS_seed));
  if (!rec.ok()) return Fail(rec.status());
  struct utsname u;
  uname(&u);
  rec->release = u.release;
  if (!absl::GetFlag(FLAGS_any_kernel) && !absl::StartsWith(rec->release, series + ".")) {
    return Fail(absl::UnavailableError(absl::StrFormat("this kernel is %s, not %s", rec->release, series)));
  }
  kernelcmp::CleanupStack cleanup;
  kernelcmp::SignalGuard guard(&cleanup);
  absl::StatusOr<std::unique_ptr<realsock::TunDevice>> tun = PrepareGuest(&cleanup);
  if (!tun.ok()) return Fail(tun.status());
  uint64_t runs = 0, failed = 0;
  for (ReplayCell& cell : rec->cells) {
    for (ReplayCase& c : cell.cases) {
      for (ReplayRun& run : c.runs) {
        absl::StatusOr<KernelCaseRun> k = RunKernelCase(WriterCase(c.c, run.writer), tun->get());
        ++runs;
        if (!k.ok()) {
          ++failed;
          run.kernel_error = std::string(k.status().message());
          continue;
        }
        run.kernel = FirstSizes(*k);
        run.kernel_completed = k->completed;
        failed += k->completed ? 0 : 1;
      }
    }
    std::fprintf(stderr, "kernelreplay %s: %s = %s done (%llu runs, %llu failed or incomplete)\n", series.c_str(),
                 cell.axis.c_str(), cell.value.c_str(), static_cast<unsigned long long>(runs),
                 static_cast<unsigned long long>(failed));
  }
  if (absl::Status st = WriteFile(out, ToJson(*rec)); !st.ok()) return Fail(st);
  return 0;
}

int Record() {
  absl::StatusOr<std::string> text = ReadFile(absl::GetFlag(FLAGS_record));
  if (!text.ok()) return Fail(text.status());
  absl::StatusOr<Recording> rec = FromJson(*text);
  if (!rec.ok()) return Fail(rec.status());
  if (absl::GetFlag(FLAGS_out).empty()) return Fail(absl::InvalidArgumentError("--record needs --out"));
  if (absl::Status st = FillModel(&*rec); !st.ok()) return Fail(st);
  if (absl::Status st = WriteFile(absl::GetFlag(FLAGS_out), ToJson(*rec)); !st.ok()) return Fail(st);
  const std::string dir = absl::GetFlag(FLAGS_fixtures_dir);
  if (!dir.empty()) {
    for (const auto& [name, fixture] : QuiescentDisagreements(*rec)) {
      if (absl::Status st = WriteFile(dir + "/" + name + ".txt", fixture); !st.ok()) return Fail(st);
    }
  }
  std::fputs(AgreementTable(*rec).c_str(), stdout);
  return 0;
}

int Recorded() {
  absl::StatusOr<std::string> text = ReadFile(absl::GetFlag(FLAGS_recorded));
  if (!text.ok()) return Fail(text.status());
  absl::StatusOr<Recording> rec = FromJson(*text);
  if (!rec.ok()) return Fail(rec.status());
  std::fputs(AgreementTable(*rec).c_str(), stdout);
  const std::vector<std::string> drift = ModelDrift(*rec, absl::GetFlag(FLAGS_check_cases));
  for (const std::string& d : drift) std::fprintf(stderr, "model moved: %s\n", d.c_str());
  if (!drift.empty()) {
    std::fprintf(stderr, "kernelreplay: the model's side moved from the recording in %zu runs\n", drift.size());
    return 1;
  }
  return 0;
}

}  // namespace
}  // namespace sendsim::kernelreplay

int main(int argc, char** argv) {
  absl::SetProgramUsageMessage(
      "--kernel_side --series=6.1 --json_out=F | --record=F --out=G [--fixtures_dir=D] | --recorded=G");
  std::vector<char*> rest = absl::ParseCommandLine(argc, argv);
  if (rest.size() > 1) {
    std::fprintf(stderr, "kernelreplay: unexpected argument '%s'\n", rest[1]);
    return 2;
  }
  namespace kr = sendsim::kernelreplay;
  const int modes = (absl::GetFlag(FLAGS_kernel_side) ? 1 : 0) + (!absl::GetFlag(FLAGS_record).empty() ? 1 : 0) +
                    (!absl::GetFlag(FLAGS_recorded).empty() ? 1 : 0);
  if (modes == 0 && !absl::GetFlag(FLAGS_case_file).empty()) return kr::ModelCaseFile(absl::GetFlag(FLAGS_case_file));
  if (modes != 1) {
    std::fprintf(stderr, "kernelreplay: give exactly one of --kernel_side, --record, --recorded\n");
    return 2;
  }
  if (absl::GetFlag(FLAGS_kernel_side)) return kr::KernelSide();
  if (!absl::GetFlag(FLAGS_record).empty()) return kr::Record();
  return kr::Recorded();
}
