#include "cli/output_file.h"

#include <filesystem>
#include <fstream>
#include <sstream>

#include "gtest/gtest.h"

namespace sendsim::cli {
namespace {

namespace fs = std::filesystem;

std::string Dir() {
  const char* t = std::getenv("TEST_TMPDIR");
  return t != nullptr ? t : "/tmp";
}

std::string Read(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

size_t FilesIn(const std::string& dir) {
  size_t n = 0;
  for (const auto& e : fs::directory_iterator(dir)) n += e.is_regular_file() ? 1 : 0;
  return n;
}

TEST(OutputFileTest, ExistingFileKeptUntilCommit) {
  const std::string dir = Dir() + "/keep";
  fs::create_directories(dir);
  const std::string path = dir + "/keep.svg";
  std::ofstream(path) << "old";
  {
    OutputFile f;
    ASSERT_TRUE(f.Open(path, "--plot").ok());
    f.stream() << "new";
    EXPECT_EQ(Read(path), "old");  // not truncated while the run goes on
    // No Commit: a failed run.
  }
  EXPECT_EQ(Read(path), "old");
  EXPECT_EQ(FilesIn(dir), 1u);  // the temporary file is gone
  OutputFile g;
  ASSERT_TRUE(g.Open(path, "--plot").ok());
  g.stream() << "new";
  ASSERT_TRUE(g.Commit().ok());
  EXPECT_EQ(Read(path), "new");
  EXPECT_EQ(FilesIn(dir), 1u);
}

TEST(OutputFileTest, UnwritablePathsFailAtOpen) {
  OutputFile f;
  absl::Status st = f.Open("/nonexistent-dir/x.pcap", "--pcap");
  EXPECT_TRUE(absl::IsInvalidArgument(st)) << st;
  EXPECT_NE(st.message().find("--pcap: cannot write /nonexistent-dir/x.pcap"), std::string::npos) << st;
  OutputFile d;
  st = d.Open(Dir(), "--trace");
  EXPECT_NE(st.message().find("is a directory"), std::string::npos) << st;
}

// Found by the bad-input sweep: a scenario file's "plot": "a\u0000b" wrote
// the plot to a file named "a".
TEST(OutputFileTest, NameWithNulRefused) {
  const std::string dir = Dir() + "/nul";
  fs::create_directories(dir);
  OutputFile f;
  absl::Status st = f.Open(dir + std::string("/a\0b", 4), "--plot");
  EXPECT_TRUE(absl::IsInvalidArgument(st)) << st;
  EXPECT_NE(st.message().find("is not a file name"), std::string::npos) << st;
  EXPECT_EQ(FilesIn(dir), 0u);
}

TEST(OutputFileTest, DeviceWrittenInPlace) {
  OutputFile f;
  ASSERT_TRUE(f.Open("/dev/null", "--trace").ok());
  f.stream() << "x";
  ASSERT_TRUE(f.Commit().ok());
  EXPECT_FALSE(fs::is_regular_file("/dev/null"));  // not replaced by a file
}

TEST(OutputFileTest, FullDeviceIsAWriteError) {
  if (!fs::exists("/dev/full")) GTEST_SKIP() << "no /dev/full";
  OutputFile f;
  ASSERT_TRUE(f.Open("/dev/full", "--trace").ok());
  f.stream() << std::string(1 << 16, 'x');
  absl::Status st = f.Commit();
  EXPECT_FALSE(st.ok());
  EXPECT_NE(st.message().find("write error"), std::string::npos) << st;
}

TEST(OutputFileTest, SameFileRefused) {
  const std::string dir = Dir() + "/same";
  fs::create_directories(dir);
  const std::string in = dir + "/s.json";
  std::ofstream(in) << "{}";
  absl::Status st = CheckDistinctPaths({{"--trace", dir + "/x", true}, {"--pcap", dir + "/./x", true}});
  // (the path is echoed cut to 80 characters)
  EXPECT_EQ(st.message().substr(0, 38), "--trace and --pcap name the same file ");
  EXPECT_NE(st.message().find("(one would overwrite the other)"), std::string::npos) << st;
  st = CheckDistinctPaths({{"--scenario", in, false}, {"--plot", dir + "/../same/s.json", true}});
  EXPECT_NE(st.message().find("--scenario and --plot name the same file"), std::string::npos) << st;
  EXPECT_NE(st.message().find("the output would overwrite the input"), std::string::npos) << st;
  EXPECT_TRUE(CheckDistinctPaths({{"--trace", dir + "/a", true}, {"--pcap", dir + "/b", true}}).ok());
}

}  // namespace
}  // namespace sendsim::cli
