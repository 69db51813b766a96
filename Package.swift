// swift-tools-version:6.0
// photofiler: files every new photo or video from apps' export folders into a
// Roll and per-app albums. Every C library comes from Debian as a system
// library target; nothing is fetched.
import PackageDescription

/// A system library target whose module map and shim live in Sources/<name>.
func cLibrary(_ name: String, pkgConfig: String? = nil, apt: String) -> Target {
    .systemLibrary(name: name, pkgConfig: pkgConfig, providers: [.apt([apt])])
}

let package = Package(
    name: "photofiler",
    products: [
        .executable(name: "photofiler", targets: ["photofiler"]),
        .library(name: "PhotoFilerCore", targets: ["PhotoFilerCore"]),
    ],
    targets: [
        cLibrary("CInotifyTools", apt: "libinotifytools0-dev"),
        cLibrary("CSQLite", pkgConfig: "sqlite3", apt: "libsqlite3-dev"),
        cLibrary("CGExiv2", pkgConfig: "gexiv2", apt: "libgexiv2-dev"),
        cLibrary("CVips", pkgConfig: "vips", apt: "libvips-dev"),
        cLibrary("CMagic", pkgConfig: "libmagic", apt: "libmagic-dev"),
        cLibrary("CCrypto", pkgConfig: "libcrypto", apt: "libssl-dev"),
        cLibrary("CSystemd", pkgConfig: "libsystemd", apt: "libsystemd-dev"),
        cLibrary("CAVFormat", pkgConfig: "libavformat", apt: "libavformat-dev"),
        cLibrary("CGLib", pkgConfig: "glib-2.0", apt: "libglib2.0-dev"),
        cLibrary("CSeccomp", pkgConfig: "libseccomp", apt: "libseccomp-dev"),
        // gexiv2 calls behind a C++ catch-all: exiv2 throws more than gexiv2 catches.
        .target(name: "CGExiv2Guard", dependencies: ["CGExiv2"]),
        .target(
            name: "PhotoFilerCore",
            dependencies: [
                "CInotifyTools", "CSQLite", "CGExiv2", "CGExiv2Guard", "CVips", "CMagic", "CCrypto",
                "CSystemd", "CAVFormat", "CGLib",
            ]
        ),
        .executableTarget(name: "photofiler", dependencies: ["PhotoFilerCore"]),
        // The helper side of the sandbox: lockdown, seccomp filter, the request loop.
        .target(name: "PhotoFilerHelper", dependencies: ["PhotoFilerCore", "CSeccomp"], path: "Sources/Helper"),
        // The sandboxed process that parses strangers' bytes (SPEC "Untrusted bytes").
        .executableTarget(name: "photofiler-helper", dependencies: ["PhotoFilerHelper", "PhotoFilerCore"]),
        // `make bench`: photofiler against the floor and a shell recipe (Benchmarks/README.md).
        .executableTarget(
            name: "photofiler-bench",
            dependencies: ["PhotoFilerCore", "CVips", "CGExiv2", "CCrypto", "CSQLite"],
            path: "Benchmarks/photofiler-bench"),
        // Fuzzes the metadata readers: libFuzzer with -DFUZZING, else a mutation loop (see its main.swift).
        .executableTarget(name: "photofiler-fuzz", dependencies: ["PhotoFilerCore", "PhotoFilerHelper"]),
        // Helpers shared by the unit and the end-to-end tests (temporary folders, waits).
        .target(name: "TestSupport", dependencies: ["PhotoFilerCore"], path: "Tests/TestSupport"),
        .testTarget(
            name: "PhotoFilerCoreTests",
            dependencies: ["PhotoFilerCore", "PhotoFilerHelper", "TestSupport", "photofiler-helper"],
            // Inputs the fuzzer found, read by FuzzRegressionTests from the source tree.
            exclude: ["Media/FuzzInputs"]),
        // End-to-end: run the built `photofiler` binary against temporary folders.
        .testTarget(
            name: "photofilerTests",
            dependencies: ["PhotoFilerCore", "TestSupport", "photofiler", "photofiler-helper"]),
    ],
    swiftLanguageModes: [.v6]
)
