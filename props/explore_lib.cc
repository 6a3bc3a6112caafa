#include "props/explore_lib.h"

namespace sendsim::props {

uint64_t CaseKey(uint64_t seed, uint64_t i) {
  uint64_t z = seed * 0x9e3779b97f4a7c15ULL + i + 1;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

int CaseSize(uint64_t i) { return static_cast<int>(i % 101); }

CaseGenerator::CaseGenerator(CaseLimits limits) : limits_(std::move(limits)) {}

std::optional<Case> CaseGenerator::Draw(uint64_t seed, uint64_t i, std::vector<uint64_t>* choices) const {
  ChoiceDraws d(CaseKey(seed, i), CaseSize(i));
  std::optional<Case> c = DrawCase(limits_, d);
  if (choices != nullptr) *choices = d.recorded();
  return c;
}

std::optional<Case> CaseGenerator::Replay(const std::vector<uint64_t>& choices, int size) const {
  ChoiceDraws d(choices, size);
  return DrawCase(limits_, d);
}

}  // namespace sendsim::props
