"""Compiler options of the model's libraries."""

# The simulation core is compiled with optimization even in fastbuild: the
# end-to-end tests run ~10^5 packets with invariant checks after every event.
# -c opt builds also drop the frame pointer that Bazel's default toolchain
# keeps (about 5% on //bench:model_bench, measured); profile them with
# `perf record --call-graph=dwarf`.
OPT = ["-O2"] + select({
    "//model:opt_build": ["-fomit-frame-pointer"],
    "//conditions:default": [],
})
