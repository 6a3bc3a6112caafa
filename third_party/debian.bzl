"""A repository rule that exposes a Debian -dev package's libraries to Bazel.

The repository contains `lib/` (a link to the multiarch library directory, e.g.
/usr/lib/x86_64-linux-gnu) and the given BUILD file. Headers live in
/usr/include, which the C++ toolchain already searches, so BUILD files only
name archives.
"""

def _debian_library_impl(ctx):
    res = ctx.execute(["gcc", "-print-multiarch"])
    arch = res.stdout.strip() if res.return_code == 0 else ""
    if not arch:
        fail("gcc -print-multiarch failed; is build-essential installed?")
    libdir = "/usr/lib/" + arch
    for probe in ctx.attr.probe:
        if not ctx.path(libdir + "/" + probe).exists:
            fail("%s not found: install %s (tools/setup.sh does)" % (libdir + "/" + probe, ctx.attr.package))
    ctx.symlink(libdir, "lib")
    ctx.symlink(ctx.attr.build_file, "BUILD.bazel")
    ctx.file("WORKSPACE", "workspace(name = \"%s\")\n" % ctx.name)

debian_library = repository_rule(
    implementation = _debian_library_impl,
    local = True,
    attrs = {
        "build_file": attr.label(mandatory = True, allow_single_file = True),
        "package": attr.string(mandatory = True, doc = "Debian package that provides the files"),
        "probe": attr.string_list(doc = "files under the libdir that must exist"),
    },
)
