// swift-tools-version:6.0
// photofiler: files every new photo or video from apps' export folders into a
// Roll and per-app albums. Every C library comes from Debian as a system
// library target; nothing is fetched.
//
// The layers, each a target that imports only what is below it:
//
//   photofiler (CLI: parse, call one core function, print)
//     └─ Daemon    (config; pure state machines and the shell that performs their actions;
//          │          signals, lock, sd_notify)
//          ├─ Filing    (library layout, the one pipeline, lifecycle, reconcile)
//          │    ├─ Catalog (SQLite)
//          │    ├─ Sandbox (the helper pool: asks sandboxed helpers what a file is)
//          │    └─ MediaTypes (what a file is, capture dates, why it is refused)
//          ├─ Watching  (inotify, the debouncer)
//          └─ GLib      (GKeyFile for the config file, GLib's file URIs; under Filing too)
//     └─ Server    (the web gallery and picker: libmicrohttpd, pages, API; reads Catalog and Filing)
//   photofiler-helper-light and photofiler-helper (sandboxed: photofiler(1) "Untrusted bytes")
//     └─ Helper    (lockdown, seccomp filter, the request loop)
//          ├─ Media    (sniffing and metadata: libmagic and exiv2 only, what the light one maps)
//          └─ Sandbox  (the protocol)
//     └─ Decoders  (libvips, libheif, libavformat: headers, videos, thumbnails; photofiler-helper only)
//   System (byte paths, errno, the one syscall layer, logging) under all of them.
//
// Each C library is imported by the one target that wraps it. No target of the
// photofiler executable depends on Media: it maps none of the decoders.
import PackageDescription

/// A system library target whose module map and shim live in Sources/<name>.
func cLibrary(_ name: String, pkgConfig: String? = nil, apt: String) -> Target {
    .systemLibrary(name: name, pkgConfig: pkgConfig, providers: [.apt([apt])])
}

/// A layer of the core: module `PhotoFiler<Folder>`, sources in Sources/<Folder>.
func layer(_ folder: String, _ dependencies: [Target.Dependency], resources: [Resource]? = nil) -> Target {
    .target(
        name: "PhotoFiler" + folder, dependencies: dependencies, path: "Sources/" + folder,
        resources: resources)
}

let package = Package(
    name: "photofiler",
    products: [
        .executable(name: "photofiler", targets: ["photofiler"]),
        .executable(name: "photofiler-helper", targets: ["photofiler-helper"]),
        .executable(name: "photofiler-helper-light", targets: ["photofiler-helper-light"]),
    ],
    targets: [
        cLibrary("CInotifyTools", apt: "libinotifytools0-dev"),
        cLibrary("CSQLite", pkgConfig: "sqlite3", apt: "libsqlite3-dev"),
        // gexiv2's and libvips' headers need GLib's include paths only; their own .pc files
        // would also link libgio, which nothing here calls (dpkg-shlibdeps warns). The
        // libraries are the `link` lines of each module.modulemap.
        cLibrary("CGExiv2", pkgConfig: "gobject-2.0", apt: "libgexiv2-dev"),
        // exiv2 itself, for the filing path's metadata reader (CGExiv2Guard/exiv2_reader.h).
        cLibrary("CExiv2", pkgConfig: "exiv2", apt: "libexiv2-dev"),
        cLibrary("CVips", pkgConfig: "gobject-2.0", apt: "libvips-dev"),
        cLibrary("CMagic", pkgConfig: "libmagic", apt: "libmagic-dev"),
        cLibrary("CCrypto", pkgConfig: "libcrypto", apt: "libssl-dev"),
        cLibrary("CSystemd", pkgConfig: "libsystemd", apt: "libsystemd-dev"),
        cLibrary("CAVFormat", pkgConfig: "libavformat", apt: "libavformat-dev"),
        // A video's thumbnail frame: decoded by libavcodec, scaled by libswscale.
        cLibrary("CAVCodec", pkgConfig: "libswscale", apt: "libswscale-dev"),
        cLibrary("CGLib", pkgConfig: "glib-2.0", apt: "libglib2.0-dev"),
        cLibrary("CSeccomp", pkgConfig: "libseccomp", apt: "libseccomp-dev"),
        cLibrary("CMicroHTTPD", pkgConfig: "libmicrohttpd", apt: "libmicrohttpd-dev"),
        // glibc calls the Glibc module does not import (syncfs, malloc_trim).
        .systemLibrary(name: "CSystemShims"),
        // gexiv2 and exiv2 calls behind a C++ catch-all: exiv2 throws more than gexiv2 catches.
        .target(name: "CGExiv2Guard", dependencies: ["CGExiv2", "CExiv2"]),

        layer("System", ["CSystemShims"]),
        // What a media file is (type, sizes, capture date): plain values that the
        // readers produce and the catalog stores.
        layer("MediaTypes", ["PhotoFilerSystem"]),
        layer("Catalog", ["PhotoFilerSystem", "PhotoFilerMediaTypes", "CSQLite"]),
        layer("Media", ["PhotoFilerSystem", "PhotoFilerMediaTypes", "CGExiv2", "CGExiv2Guard", "CMagic"]),
        // The decoders the light helper does not map (Media's `MediaDecoders` says why).
        layer(
            "Decoders",
            ["PhotoFilerSystem", "PhotoFilerMediaTypes", "PhotoFilerMedia", "CVips", "CAVFormat", "CAVCodec"]),
        layer("Watching", ["PhotoFilerSystem", "CInotifyTools"]),
        // GLib's parts without a decoder: the config file's key-file syntax (GKeyFile)
        // and file URIs as GLib writes them (the freedesktop thumbnail cache's names).
        layer("GLib", ["PhotoFilerSystem", "CGLib"]),
        // The daemon's side of the helpers: the pool, the protocol.
        layer("Sandbox", ["PhotoFilerSystem", "PhotoFilerMediaTypes"]),
        // The helper's side: locks the process down, then answers requests with Media.
        layer(
            "Helper",
            ["PhotoFilerSystem", "PhotoFilerMediaTypes", "PhotoFilerMedia", "PhotoFilerSandbox", "CSeccomp"]),
        .executableTarget(
            name: "photofiler-helper-light",
            dependencies: ["PhotoFilerHelper", "PhotoFilerSandbox", "PhotoFilerSystem"]),
        .executableTarget(
            name: "photofiler-helper",
            dependencies: [
                "PhotoFilerHelper", "PhotoFilerDecoders", "PhotoFilerSandbox", "PhotoFilerSystem",
                "PhotoFilerMediaTypes",
            ]),
        layer(
            "Filing",
            [
                "PhotoFilerSystem", "PhotoFilerMediaTypes", "PhotoFilerCatalog", "PhotoFilerSandbox",
                "CCrypto", "PhotoFilerGLib",
            ]),
        layer(
            "Daemon",
            [
                "PhotoFilerSystem", "PhotoFilerMediaTypes", "PhotoFilerCatalog", "PhotoFilerSandbox",
                "PhotoFilerWatching", "PhotoFilerFiling", "PhotoFilerGLib", "CSystemd",
            ]),
        // The web gallery and the picker: HTTP, pages, API. It reads the catalog and
        // decodes nothing itself (thumbnails come through `ThumbnailSource`). The pages'
        // script, style sheet and worker are files of their own (make lint checks them),
        // their bytes compiled into the binary.
        layer(
            "Server",
            [
                "PhotoFilerSystem", "PhotoFilerMediaTypes", "PhotoFilerCatalog", "PhotoFilerFiling",
                "CMicroHTTPD",
            ],
            resources: [
                .embedInCode("Static/gallery.js"), .embedInCode("Static/gallery.css"),
                .embedInCode("Static/events-worker.js"), .embedInCode("Static/icon.svg"),
            ]),
        .executableTarget(
            name: "photofiler",
            dependencies: [
                "PhotoFilerSystem", "PhotoFilerMediaTypes", "PhotoFilerCatalog", "PhotoFilerFiling",
                "PhotoFilerDaemon", "PhotoFilerServer",
            ]),

        // The benchmark's floor, in C: the same steps as filing with nothing around them.
        .target(
            name: "CBenchFloor", path: "Benchmarks/CBenchFloor",
            linkerSettings: [.linkedLibrary("sqlite3"), .linkedLibrary("crypto")]),
        // `make bench`: photofiler against the floor and a shell recipe (docs/benchmarks.md).
        .executableTarget(
            name: "photofiler-bench",
            dependencies: [
                "PhotoFilerSystem", "PhotoFilerMediaTypes", "PhotoFilerCatalog", "PhotoFilerMedia",
                "PhotoFilerFiling",
                "PhotoFilerDaemon", "CBenchFloor", "CVips", "CGExiv2", "CCrypto",
            ],
            path: "Benchmarks/photofiler-bench"),
        // Fuzzes the metadata readers: libFuzzer with -DFUZZING, else a mutation loop (see its main.swift).
        .executableTarget(
            name: "photofiler-fuzz",
            dependencies: [
                "PhotoFilerSystem", "PhotoFilerMediaTypes", "PhotoFilerMedia", "PhotoFilerDecoders",
                "PhotoFilerSandbox", "PhotoFilerHelper",
            ]),
        // Helpers shared by the unit and the end-to-end tests (temporary folders, waits).
        .target(
            name: "TestSupport",
            dependencies: [
                "PhotoFilerSystem", "PhotoFilerMediaTypes", "PhotoFilerCatalog", "PhotoFilerFiling",
            ],
            path: "Tests/TestSupport"),
        // Live Photo halves and motion photos the tests make (gexiv2 writes the still's
        // MakerNote and XMP; ffmpeg the video's QuickTime key).
        .target(
            name: "LivePhotoFixtures",
            dependencies: ["PhotoFilerSystem", "PhotoFilerMedia", "TestSupport", "CGExiv2"],
            path: "Tests/LivePhotoFixtures"),
        // gexiv2's reading calls, the reference the exiv2 reader is held to.
        .target(name: "CGExiv2Reference", dependencies: ["CGExiv2"], path: "Tests/CGExiv2Reference"),
        .testTarget(
            name: "PhotoFilerCoreTests",
            dependencies: [
                "PhotoFilerSystem", "PhotoFilerMediaTypes", "PhotoFilerCatalog", "PhotoFilerMedia",
                "PhotoFilerWatching",
                "PhotoFilerFiling", "PhotoFilerDaemon", "PhotoFilerSandbox", "PhotoFilerHelper",
                "PhotoFilerServer", "PhotoFilerGLib", "TestSupport", "LivePhotoFixtures", "CGExiv2Reference",
                "PhotoFilerDecoders", "photofiler-helper", "photofiler-helper-light",
            ],
            // Inputs the fuzzer found, read by FuzzRegressionTests from the source tree.
            exclude: ["Media/FuzzInputs"]),
        // End-to-end: run the built `photofiler` binary against temporary folders.
        .testTarget(
            name: "photofilerTests",
            dependencies: [
                "PhotoFilerSystem", "PhotoFilerMediaTypes", "PhotoFilerCatalog", "PhotoFilerMedia",
                "PhotoFilerFiling",
                "PhotoFilerDaemon", "PhotoFilerSandbox", "PhotoFilerGLib", "TestSupport", "LivePhotoFixtures",
                "photofiler",
                "photofiler-helper", "photofiler-helper-light",
            ]),
    ],
    swiftLanguageModes: [.v6]
)
